package reliability

import (
	"context"
	"errors"
	"fmt"
	"sync"

	"github.com/pulumi/pulumi/sdk/v3/go/common/resource"
	"github.com/pulumi/pulumi/sdk/v3/go/property"

	"github.com/polyhost/polyhost/host"
	"github.com/polyhost/polyhost/host/custom"
	"github.com/polyhost/polyhost/monitorclient"
)

// The "boom" package is a small provider built in the tests: a component
// with a method, a function and a slow custom resource, each of which
// panics when asked to.
const (
	boomComp   = "boom:index:Comp"
	boomChild  = "boom:index:Child"
	boomMethod = "boom:index:Comp/poke"
	boomFunc   = "boom:index:explode"
	boomSlow   = "boom:index:Slow"
)

type boomArgs struct {
	Panic bool `pulumi:"panic,optional"`
	Wait  bool `pulumi:"wait,optional"` // Slow: hold the create until cancelled
}

type boomOutputs struct {
	Child string `pulumi:"child"`
}

func buildBoom(ctx context.Context, c *host.Component, args boomArgs) (boomOutputs, error) {
	if args.Panic {
		panic("boom in component " + c.Name())
	}
	child, err := c.Register(ctx, monitorclient.RegisterResourceRequest{Type: boomChild, Name: c.Name() + "-child"})
	if err != nil {
		return boomOutputs{}, err
	}
	return boomOutputs{Child: string(child.URN)}, nil
}

func poke(ctx context.Context, self *host.Component, args boomArgs) (string, error) {
	if args.Panic {
		panic("boom in method on " + self.Name())
	}
	return "poked " + self.Name(), nil
}

func explode(ctx context.Context, args boomArgs) (boomOutputs, error) {
	if args.Panic {
		panic("boom in function")
	}
	return boomOutputs{Child: "none"}, nil
}

// slowBackend stands for a cloud API. A create with wait set is recorded
// as soon as it is sent, then takes until its context ends: the host must
// hand the engine what exists (a partial create) when it is cancelled.
type slowBackend struct {
	mu      sync.Mutex
	created map[string]bool
	started chan string // receives each create's ID once it exists
}

func newSlowBackend() *slowBackend {
	return &slowBackend{created: map[string]bool{}, started: make(chan string, 16)}
}

func (b *slowBackend) Create(ctx context.Context, req custom.CreateRequest) (custom.CreateResponse, error) {
	var args boomArgs
	if err := host.Decode(req.Inputs, &args); err != nil {
		return custom.CreateResponse{}, err
	}
	if args.Panic {
		panic("boom in create of " + req.Name)
	}
	id := "slow-" + req.Name
	b.mu.Lock()
	b.created[id] = true
	b.mu.Unlock()
	if !args.Wait {
		return custom.CreateResponse{ID: resource.ID(id), Outputs: property.NewMap(map[string]property.Value{"state": property.New("ready")})}, nil
	}
	out := property.NewMap(map[string]property.Value{"state": property.New("creating")})
	b.started <- id
	<-ctx.Done()
	return custom.CreateResponse{}, &custom.PartialError{ID: resource.ID(id), Outputs: out, Err: fmt.Errorf("create of %s interrupted: %w", id, ctx.Err())}
}

func (b *slowBackend) Read(ctx context.Context, req custom.ReadRequest) (custom.ReadResponse, error) {
	return custom.ReadResponse{}, errors.New("not supported")
}

func (b *slowBackend) Update(ctx context.Context, req custom.UpdateRequest) (custom.UpdateResponse, error) {
	return custom.UpdateResponse{}, errors.New("not supported")
}

func (b *slowBackend) Delete(ctx context.Context, req custom.DeleteRequest) (custom.DeleteResponse, error) {
	return custom.DeleteResponse{}, nil
}

// newBoom builds the boom provider around backend.
func newBoom(backend *slowBackend) (*host.Provider, error) {
	return host.New("boom",
		// No schema: Comp registers a boom:index:Child nothing serves, and
		// Slow's types are not given, so none can be built from the types.
		host.WithoutSchema(),
		host.WithVersion("1.0.0"),
		host.WithComponent(boomComp, buildBoom),
		host.WithMethod(boomMethod, poke),
		host.WithFunction(boomFunc, explode),
		host.WithResource(boomSlow, backend),
	)
}
