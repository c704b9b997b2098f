package floor

import (
	"context"
	"fmt"
	"slices"

	"github.com/pulumi/pulumi/sdk/v3/go/common/resource"
	"github.com/pulumi/pulumi/sdk/v3/go/common/resource/plugin"
	sdkprovider "github.com/pulumi/pulumi/sdk/v3/go/pulumi/provider"
	pulumirpc "github.com/pulumi/pulumi/sdk/v3/proto/go"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"
	"google.golang.org/protobuf/types/known/structpb"

	"github.com/polyhost/polyhost/components"
	"github.com/polyhost/polyhost/host"
	"github.com/polyhost/polyhost/monitorclient"
	sitekit "github.com/polyhost/polyhost/provider"
)

// Server is the sitekit provider with the floor's Construct of Site.
type Server struct {
	// The normal sitekit server, embedded on purpose: every RPC but
	// Construct of Site is served by exactly the same code.
	pulumirpc.ResourceProviderServer
	monitors *monitorclient.Pool
}

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
	urn, outputs, err := Site(ctx, c, req.GetParent(), req.GetProviders()["sitekit"], req.GetName(), pages)
	if err != nil {
		return nil, err
	}
	state, err := plugin.MarshalProperties(resource.ToResourcePropertyMap(outputs), plugin.MarshalOptions{
		KeepUnknowns: true, KeepSecrets: true, KeepResources: true,
	})
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
	return &pulumirpc.ConstructResponse{Urn: urn, State: state, StateDependencies: deps}, nil
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

// Main serves the floor plugin like the peer: with the Go SDK's
// provider.Main.
func Main(version string) error {
	return sdkprovider.Main(sitekit.Name, func(*sdkprovider.HostClient) (pulumirpc.ResourceProviderServer, error) {
		p, err := host.New(sitekit.Name, sitekit.Options(version)...)
		if err != nil {
			return nil, err
		}
		return &Server{ResourceProviderServer: host.NewServer(p), monitors: monitorclient.NewPool()}, nil
	})
}
