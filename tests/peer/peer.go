package peer

import (
	"context"
	"sync"

	sdkprovider "github.com/pulumi/pulumi/sdk/v3/go/pulumi/provider"
	pulumirpc "github.com/pulumi/pulumi/sdk/v3/proto/go"
	"google.golang.org/grpc"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"
	"google.golang.org/protobuf/types/known/emptypb"

	"github.com/polyhost/polyhost/components"
	"github.com/polyhost/polyhost/host"
	"github.com/polyhost/polyhost/host/hosttest"
	sitekit "github.com/polyhost/polyhost/provider"
)

// Server is the sitekit provider with Construct and Call on the Go SDK path.
type Server struct {
	// The normal sitekit server, embedded on purpose: every RPC but
	// Construct, Call and Attach is served by exactly the same code.
	pulumirpc.ResourceProviderServer

	mu   sync.Mutex
	host *sdkprovider.HostClient // nil until Attach when started without an engine address
}

// NewServer wraps inner, the sitekit provider's server (hosttest.NewServer),
// using host's engine connection for the SDK's Construct and Call.
func NewServer(inner pulumirpc.ResourceProviderServer, host *sdkprovider.HostClient) *Server {
	return &Server{ResourceProviderServer: inner, host: host}
}

func (s *Server) engineConn() (*grpc.ClientConn, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.host == nil {
		return nil, status.Error(codes.FailedPrecondition, "not attached to an engine")
	}
	return s.host.EngineConn(), nil
}

// Construct builds Site and PageSet with the Go SDK; other components go to
// the inner server.
func (s *Server) Construct(ctx context.Context, req *pulumirpc.ConstructRequest) (*pulumirpc.ConstructResponse, error) {
	switch req.GetType() {
	case components.SiteType, components.PageSetType:
	default:
		return s.ResourceProviderServer.Construct(ctx, req)
	}
	conn, err := s.engineConn()
	if err != nil {
		return nil, err
	}
	return sdkprovider.Construct(ctx, req, conn, construct)
}

// Call serves Site.pageUrl with the Go SDK; other methods go to the inner
// server.
func (s *Server) Call(ctx context.Context, req *pulumirpc.CallRequest) (*pulumirpc.CallResponse, error) {
	if req.GetTok() != components.SitePageURLMethod {
		return s.ResourceProviderServer.Call(ctx, req)
	}
	conn, err := s.engineConn()
	if err != nil {
		return nil, err
	}
	return sdkprovider.Call(ctx, req, conn, call)
}

// Attach connects to the engine, as the SDK's component provider does, and
// passes the address on to the inner server.
func (s *Server) Attach(ctx context.Context, req *pulumirpc.PluginAttach) (*emptypb.Empty, error) {
	h, err := sdkprovider.NewHostClient(req.GetAddress())
	if err != nil {
		return nil, err
	}
	s.mu.Lock()
	old := s.host
	s.host = h
	s.mu.Unlock()
	if old != nil {
		_ = old.Close()
	}
	return s.ResourceProviderServer.Attach(ctx, req)
}

// Main serves the peer plugin with the Go SDK's provider.Main: the engine
// address comes from the command line, the port goes to stdout.
func Main(version string) error {
	return sdkprovider.Main(sitekit.Name, func(hc *sdkprovider.HostClient) (pulumirpc.ResourceProviderServer, error) {
		p, err := host.New(sitekit.Name, sitekit.Options(version)...)
		if err != nil {
			return nil, err
		}
		return NewServer(hosttest.NewServer(p), hc), nil
	})
}
