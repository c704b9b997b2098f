package floor

import (
	"context"
	"fmt"
	"os"
	"os/signal"
	"runtime"
	"slices"
	"syscall"

	"github.com/pulumi/pulumi/sdk/v3/go/common/providers"
	"github.com/pulumi/pulumi/sdk/v3/go/common/resource/urn"
	"github.com/pulumi/pulumi/sdk/v3/go/common/util/rpcutil"
	pulumirpc "github.com/pulumi/pulumi/sdk/v3/proto/go"
	"google.golang.org/grpc"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"
	"google.golang.org/protobuf/types/known/structpb"

	"github.com/polyhost/polyhost/components"
	"github.com/polyhost/polyhost/host"
	"github.com/polyhost/polyhost/host/hosttest"
	"github.com/polyhost/polyhost/internal/wire"
	"github.com/polyhost/polyhost/monitorclient"
	sitekit "github.com/polyhost/polyhost/provider"
)

// Server is the sitekit provider with the floor's Construct of Site.
type Server struct {
	// The normal sitekit server, embedded on purpose: every RPC but
	// Construct of Site is served by exactly the same code.
	pulumirpc.ResourceProviderServer
	monitors *monitorclient.Pool
	sending  Sending
}

// Sending says how many registrations the floor has in flight at once.
type Sending int

const (
	// AllAtOnce sends every independent registration at once, as the Go
	// SDK does: the least CPU on this transport.
	AllAtOnce Sending = iota
	// Bounded keeps at most the engine's parallel in flight with a plain
	// semaphore: each answer lets one more registration out.
	Bounded
)

// Construct sends a Site's registrations itself; other components go to the
// inner server.
func (s *Server) Construct(ctx context.Context, req *pulumirpc.ConstructRequest) (*pulumirpc.ConstructResponse, error) {
	if req.GetType() != components.SiteType {
		return s.ResourceProviderServer.Construct(ctx, req)
	}
	c, err := s.monitors.Get(ctx, req.GetMonitorEndpoint())
	if err != nil {
		return nil, err
	}
	pages, err := pageContents(req.GetInputs())
	if err != nil {
		return nil, status.Error(codes.InvalidArgument, err.Error())
	}
	inFlight := 0 // no bound
	if s.sending == Bounded {
		inFlight = int(req.GetParallel())
	}
	var ref providers.Reference // none: the default provider
	if s := req.GetProviders()["sitekit"]; s != "" {
		if ref, err = providers.ParseReference(s); err != nil {
			return nil, status.Error(codes.InvalidArgument, err.Error())
		}
	}
	u, outputs, err := Site(ctx, c, inFlight, urn.URN(req.GetParent()), ref, req.GetName(), pages)
	if err != nil {
		return nil, err
	}
	state, err := wire.MarshalMap(outputs, wire.MarshalOptions{Secrets: true, Resources: true})
	if err != nil {
		return nil, err
	}
	deps := map[string]*pulumirpc.ConstructResponse_PropertyDependencies{}
	for k, v := range outputs.All {
		urns := make([]string, 0, len(v.Dependencies()))
		for _, u := range v.Dependencies() {
			urns = append(urns, string(u))
		}
		deps[k] = &pulumirpc.ConstructResponse_PropertyDependencies{Urns: urns}
	}
	return &pulumirpc.ConstructResponse{Urn: string(u), State: state, StateDependencies: deps}, nil
}

// pageContents reads the Site's pages input: page name to content, sorted
// by name.
func pageContents(inputs *structpb.Struct) ([]Page, error) {
	pages, _ := inputs.AsMap()["pages"].(map[string]any)
	names := make([]string, 0, len(pages))
	for n := range pages {
		names = append(names, n)
	}
	slices.Sort(names)
	out := make([]Page, len(names))
	for i, n := range names {
		content, ok := pages[n].(string)
		if !ok {
			return nil, fmt.Errorf("pages[%q]: want a known string", n)
		}
		out[i] = Page{Name: n, Content: content}
	}
	return out, nil
}

// Main serves the floor plugin until the engine sends SIGINT. Like ours, it
// links neither the SDK's program model (package pulumi, through
// provider.Main) nor the CLI's plugin code: a bare client needs neither,
// and their start-up would count against the floor.
func Main(version string, sending Sending) error {
	// Go code on one thread at a time, as host.Main runs ours.
	if _, set := os.LookupEnv("GOMAXPROCS"); !set {
		runtime.GOMAXPROCS(1)
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	cancel := make(chan bool)
	go func() {
		<-ctx.Done()
		close(cancel)
	}()
	p, err := host.New(sitekit.Name, sitekit.Options(version)...)
	if err != nil {
		return err
	}
	srv := &Server{ResourceProviderServer: hosttest.NewServer(p), monitors: monitorclient.NewPool(), sending: sending}
	handle, err := rpcutil.ServeWithOptions(rpcutil.ServeOptions{
		Cancel: cancel,
		Init: func(g *grpc.Server) error {
			pulumirpc.RegisterResourceProviderServer(g, srv)
			return nil
		},
	})
	if err != nil {
		return err
	}
	fmt.Println(handle.Port)
	return <-handle.Done
}
