package reliability

import (
	"context"
	"fmt"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/pulumi/pulumi/sdk/v3/go/common/resource"
	"github.com/pulumi/pulumi/sdk/v3/go/property"
	pulumirpc "github.com/pulumi/pulumi/sdk/v3/proto/go"
	"google.golang.org/protobuf/types/known/structpb"

	"github.com/polyhost/polyhost/host"
	"github.com/polyhost/polyhost/host/hosttest"
	"github.com/polyhost/polyhost/monitorclient"
)

// The "nest" package: an Outer component registers custom Things and
// remote Inner components, which this same provider constructs, and each
// Inner registers Things of its own.
const (
	nestOuter = "nest:index:Outer"
	nestInner = "nest:index:Inner"
	nestThing = "nest:index:Thing"
)

type nestArgs struct {
	Inner  int `pulumi:"inner,optional"`
	Things int `pulumi:"things"`
}

type nestOutputs struct {
	Things int `pulumi:"things"`
}

func buildNest(ctx context.Context, c *host.Component, args nestArgs) (nestOutputs, error) {
	g, gctx := c.Group(ctx)
	for i := range args.Things {
		g.Go(func() error {
			_, err := c.Register(gctx, monitorclient.RegisterResourceRequest{Type: nestThing, Name: fmt.Sprintf("%s-thing%d", c.Name(), i), Custom: true})
			return err
		})
	}
	for i := range args.Inner {
		g.Go(func() error {
			_, err := c.Register(gctx, monitorclient.RegisterResourceRequest{
				Type: nestInner, Name: fmt.Sprintf("%s-inner%d", c.Name(), i), Remote: true,
				Inputs: property.NewMap(map[string]property.Value{"things": property.New(3.0)}),
			})
			return err
		})
	}
	return nestOutputs{Things: args.Things}, g.Wait()
}

// Many components constructed at once share one bound on registrations in
// flight, the engine's parallel, for the whole process; and a component
// whose remote children this process constructs, on that same bound, does
// not wait for them forever.
func TestOneBoundForAllComponents(t *testing.T) {
	t.Parallel()
	const (
		outers   = 20
		parallel = 2
	)
	var client pulumirpc.ResourceProviderClient // set before the first Construct
	var inFlight, peak atomic.Int32
	ctx, cancel := context.WithTimeout(context.Background(), hangGuard)
	defer cancel()
	var monitor *hosttest.Monitor
	monitor = hosttest.Start(t, hosttest.WithRegisterHook(func(r hosttest.Registration) (resource.ID, property.Map, error) {
		switch {
		case r.Custom:
			n := inFlight.Add(1)
			for p := peak.Load(); n > p && !peak.CompareAndSwap(p, n); p = peak.Load() {
			}
			time.Sleep(time.Millisecond)
			inFlight.Add(-1)
			return resource.ID("id-" + r.Name), r.Inputs, nil
		case r.Remote:
			// As the engine does: its provider, this one, constructs it
			// (under another name, which the fake monitor needs).
			inputs, err := structpb.NewStruct(map[string]any{"things": r.Inputs.Get("things").AsNumber()})
			if err != nil {
				return "", property.Map{}, err
			}
			resp, err := client.Construct(ctx, &pulumirpc.ConstructRequest{
				Project: project, Stack: stack, MonitorEndpoint: monitor.Addr(), Parallel: parallel,
				Type: r.Type, Name: r.Name + "-impl", Parent: string(r.Parent), Inputs: inputs,
			})
			if err != nil {
				return "", property.Map{}, err
			}
			return "", property.NewMap(map[string]property.Value{"things": property.New(resp.GetState().GetFields()["things"].GetNumberValue())}), nil
		}
		return "", property.Map{}, nil
	}))
	p, err := host.New("nest", host.WithoutSchema(), host.WithVersion("1.0.0"),
		host.WithComponent(nestOuter, buildNest), host.WithComponent(nestInner, buildNest))
	if err != nil {
		t.Fatal(err)
	}
	client = serve(t, p, monitor.Addr()).client

	var wg sync.WaitGroup
	errs := make(chan error, outers)
	for i := range outers {
		wg.Go(func() {
			_, err := client.Construct(ctx, &pulumirpc.ConstructRequest{
				Project: project, Stack: stack, MonitorEndpoint: monitor.Addr(), Parallel: parallel,
				Type: nestOuter, Name: fmt.Sprintf("outer%02d", i), Parent: stackURN,
				Inputs: mustStruct(t, resource.PropertyMap{"inner": resource.NewProperty(3.0), "things": resource.NewProperty(2.0)}),
			})
			if err != nil {
				errs <- fmt.Errorf("outer%02d: %w", i, err)
			}
		})
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Error(err)
	}
	// Each Outer: itself, 2 Things, 3 Inner registrations, and 3 Inners
	// constructed, each itself and 3 Things.
	if got, want := len(monitor.Registrations()), outers*(1+2+3+3*(1+3)); got != want {
		t.Errorf("%d registrations, want %d", got, want)
	}
	if p := peak.Load(); p > parallel {
		t.Errorf("%d custom registrations in flight at once, want at most parallel, %d, for the whole process", p, parallel)
	}
}
