package rpc

import (
	"context"
	"sync"
	"sync/atomic"

	pulumirpc "github.com/pulumi/pulumi/sdk/v3/proto/go"
	"google.golang.org/protobuf/types/known/emptypb"

	"github.com/polyhost/polyhost/host/internal/core"
)

// server adapts a provider to pulumirpc.ResourceProviderServer: for every
// RPC it converts the request from the wire, calls the core and converts
// the answer back.
type server struct {
	// Embedded on purpose: RPCs this host does not serve (StreamInvoke,
	// GetMapping, ...) answer Unimplemented, which the engine treats as
	// "not supported".
	pulumirpc.UnimplementedResourceProviderServer

	plugin   *core.Plugin
	inflight *inflight

	// byteStrings: the engine said at Handshake that it reads byte string
	// values, so strings that are not valid UTF-8 are sent as such.
	byteStrings atomic.Bool
}

func newServer(p *core.Provider) *server {
	return &server{plugin: core.NewPlugin(p), inflight: newInflight()}
}

// NewServer returns p's gRPC server, for callers that serve it themselves
// or wrap some of its methods. [Serve] is the usual way to run a provider.
func NewServer(p *core.Provider) pulumirpc.ResourceProviderServer { return newServer(p) }

// serving is the provider serving requests: the one Parameterize chose, if
// any.
func (s *server) serving() *core.Provider { return s.plugin.Serving() }

// Handshake answers what the host accepts and remembers what the engine
// offers. Of the engine's flags the host reads accepts_byte_string
// (strings that are not valid UTF-8 go out as byte strings only then).
// invoke_with_preview needs nothing of it: where the engine sets it,
// InvokeRequest.preview says a preview, which host.InPreview reads. It leaves
// alone:
//   - configure_with_urn: a plugin process serves one provider resource,
//     and nothing the host does needs its URN, name or ID;
//   - supports_views: the host creates no view resources;
//   - sends_old_outputs_to_check: custom.CheckRequest offers backends the old
//     inputs only, as before;
//   - supports_refresh_before_update: no backend can ask for a refresh
//     before its update.
//
// Configure answers the same flags, for engines that skip Handshake.
func (s *server) Handshake(ctx context.Context, req *pulumirpc.ProviderHandshakeRequest) (*pulumirpc.ProviderHandshakeResponse, error) {
	s.serving().SetEngine(req.GetEngineAddress())
	s.byteStrings.Store(req.GetAcceptsByteString())
	return &pulumirpc.ProviderHandshakeResponse{
		AcceptSecrets: acceptSecrets, AcceptResources: acceptResources, AcceptOutputs: acceptOutputs,
		AcceptsByteString: acceptsByteString, SupportsAutonamingConfiguration: supportsAutonaming,
	}, nil
}

// What Handshake and Configure answer. The engine requires that both say
// the same.
const (
	acceptSecrets, acceptResources, acceptOutputs = true, true, true
	// Byte strings decode into strings.
	acceptsByteString = true
	// Check passes the engine's autonaming options to backends
	// (custom.CheckRequest.Autonaming).
	supportsAutonaming = true
)

func (s *server) Attach(ctx context.Context, req *pulumirpc.PluginAttach) (*emptypb.Empty, error) {
	s.serving().SetEngine(req.GetAddress())
	return &emptypb.Empty{}, nil
}

// GetPluginInfo reports the plugin's version, also once parameterized.
func (s *server) GetPluginInfo(context.Context, *emptypb.Empty) (*pulumirpc.PluginInfo, error) {
	return &pulumirpc.PluginInfo{Version: s.plugin.Base().Version()}, nil
}

func (s *server) GetSchema(ctx context.Context, req *pulumirpc.GetSchemaRequest) (*pulumirpc.GetSchemaResponse, error) {
	out, err := s.serving().SchemaJSON()
	if err != nil {
		return nil, toStatus(err)
	}
	return &pulumirpc.GetSchemaResponse{Schema: string(out)}, nil
}

func (s *server) Cancel(context.Context, *emptypb.Empty) (*emptypb.Empty, error) {
	s.inflight.cancelAll()
	return &emptypb.Empty{}, nil
}

// inflight tracks the contexts of requests in progress so Cancel can abort
// them all.
type inflight struct {
	mu      sync.Mutex
	next    int
	cancels map[int]context.CancelFunc
}

func newInflight() *inflight { return &inflight{cancels: map[int]context.CancelFunc{}} }

// track makes ctx cancellable by cancelAll until untrack(id) is called.
func (f *inflight) track(ctx context.Context) (context.Context, int) {
	ctx, cancel := context.WithCancel(ctx)
	f.mu.Lock()
	id := f.next
	f.next++
	f.cancels[id] = cancel
	f.mu.Unlock()
	return ctx, id
}

// untrack ends what track started: the request is over.
func (f *inflight) untrack(id int) {
	f.mu.Lock()
	cancel := f.cancels[id]
	delete(f.cancels, id)
	f.mu.Unlock()
	cancel()
}

func (f *inflight) cancelAll() {
	f.mu.Lock()
	defer f.mu.Unlock()
	for _, cancel := range f.cancels {
		cancel()
	}
}
