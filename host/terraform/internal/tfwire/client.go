package tfwire

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync/atomic"
	"time"

	plugin "github.com/hashicorp/go-plugin"
	"google.golang.org/grpc"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"

	"github.com/polyhost/polyhost/host/terraform/internal/tfplugin5"
	"github.com/polyhost/polyhost/host/terraform/internal/tfplugin6"
)

// handshake is Terraform's: a provider refuses to serve without this cookie.
var handshake = plugin.HandshakeConfig{
	MagicCookieKey:   "TF_PLUGIN_MAGIC_COOKIE",
	MagicCookieValue: "d602bf8f470bc67ca7faa0386276bbdd4330efaf76d1a219cb4d6991ca9872b2",
}

// DefaultStartTimeout bounds a provider's start when Config.StartTimeout is 0.
const DefaultStartTimeout = time.Minute

// Config says how to start a provider binary.
type Config struct {
	Path string   // the provider binary
	Args []string // its arguments
	Env  []string // added to this process's environment, "KEY=value"
	// Log receives the provider's log lines (its stderr, as go-plugin
	// forwards it) and go-plugin's own, level one of trace, debug, info,
	// warn, error, msg ending in key=value pairs. Nil drops them.
	Log          func(level, msg string)
	StartTimeout time.Duration // DefaultStartTimeout when 0
}

// Client is a provider process reached over gRPC, speaking protocol 5 or 6.
// It is a [Server]; Go errors from its methods are transport failures (the
// provider's own errors come back as diagnostics).
type Client struct {
	Server  // the protocol 5 or 6 translator
	pc      *plugin.Client
	version int
	abort   func() // kills a process we started
}

// exitSettle bounds how long a call that found the provider unreachable
// waits for go-plugin to see its process exit: a process that dies closes
// its connection a moment before go-plugin reaps it.
const exitSettle = 5 * time.Second

// lost returns a dial option by which a call that finds the provider
// unreachable (codes.Unavailable) returns only once its process is seen to
// have exited, or after exitSettle if it lives on: a transient failure,
// which leaves the process in service.
func lost(pc *atomic.Pointer[plugin.Client]) grpc.DialOption {
	return grpc.WithChainUnaryInterceptor(func(ctx context.Context, method string, req, reply any, cc *grpc.ClientConn, invoker grpc.UnaryInvoker, opts ...grpc.CallOption) error {
		err := invoker(ctx, method, req, reply, cc, opts...)
		if c := pc.Load(); c != nil && status.Code(err) == codes.Unavailable {
			settle(c)
		}
		return err
	})
}

// settle waits until c's process has exited, at most exitSettle while
// it lives on. One the system already counts dead (on Linux: a zombie, or
// gone) go-plugin is about to reap, however long that takes on a loaded
// machine: settle waits for it, bounded by reapBound only against a
// process that never is.
func settle(c *plugin.Client) {
	if c.Exited() {
		return
	}
	tick := time.NewTicker(5 * time.Millisecond)
	defer tick.Stop()
	give, reaped := time.After(exitSettle), time.After(reapBound)
	for !c.Exited() {
		select {
		case <-tick.C:
		case <-give:
			if rc := c.ReattachConfig(); rc == nil || !processDead(rc.Pid) {
				return
			}
			give = nil // dead: wait for go-plugin to see it
		case <-reaped:
			return
		}
	}
}

// reapBound bounds settle's wait for a dead process to be reaped.
const reapBound = 2 * time.Minute

// Exited reports whether the provider's process exited. A call that
// failed because it did has seen it before it returned; one that failed
// while the process lives on (a transient Unavailable) leaves it false.
func (c *Client) Exited() bool { return c.pc.Exited() }

// Start starts the provider binary and completes go-plugin's handshake,
// preferring protocol 6. Cancelling ctx aborts the start; it does not bound
// the provider's life, which ends with Close.
func Start(ctx context.Context, cfg Config) (*Client, error) {
	timeout := cfg.StartTimeout
	if timeout <= 0 {
		timeout = DefaultStartTimeout
	}
	// Cancelling ctx during the start kills the process: go-plugin's own
	// Kill waits for the start to end.
	startCtx, abort := context.WithCancel(context.Background())
	cmd := exec.CommandContext(startCtx, cfg.Path, cfg.Args...)
	cmd.SysProcAttr = procAttr()
	// Our Env must win over the host's, so the host's comes first.
	cmd.Env = append(append(os.Environ(), quietLogs(os.Environ(), cfg.Env)...), cfg.Env...)
	watched := new(atomic.Pointer[plugin.Client])
	pc := plugin.NewClient(&plugin.ClientConfig{
		HandshakeConfig:  handshake,
		VersionedPlugins: versionedPlugins,
		GRPCDialOptions:  []grpc.DialOption{lost(watched)},
		Cmd:              cmd,
		SkipHostEnv:      true,
		AllowedProtocols: []plugin.Protocol{plugin.ProtocolGRPC},
		AutoMTLS:         true,
		StartTimeout:     timeout,
		Logger:           newLogger(cfg.Log),
		SyncStderr:       newLogWriter(cfg.Log, filepath.Base(cfg.Path)),
	})
	watched.Store(pc)
	c, err := connect(ctx, pc, filepath.Base(cfg.Path), 0, abort)
	if err != nil {
		abort()
		return nil, fmt.Errorf("start terraform provider %s: %w", cfg.Path, err)
	}
	return c, nil
}

// Attach connects to a provider already running in debug mode, from the
// JSON value TF_REATTACH_PROVIDERS holds for one provider, e.g.
// {"Protocol":"grpc","ProtocolVersion":6,"Pid":42,"Test":true,
// "Addr":{"Network":"unix","String":"/tmp/plugin123"}}. name names the
// provider in errors. Close does not stop a provider attached with "Test".
func Attach(ctx context.Context, name, reattach string, log func(level, msg string)) (*Client, error) {
	rc, err := parseReattach(reattach)
	if err != nil {
		return nil, fmt.Errorf("attach terraform provider %s: %w", name, err)
	}
	ps, ok := versionedPlugins[rc.ProtocolVersion]
	if !ok {
		return nil, fmt.Errorf("attach terraform provider %s: unsupported protocol version %d", name, rc.ProtocolVersion)
	}
	watched := new(atomic.Pointer[plugin.Client])
	pc := plugin.NewClient(&plugin.ClientConfig{
		HandshakeConfig:  handshake,
		Plugins:          ps,
		GRPCDialOptions:  []grpc.DialOption{lost(watched)},
		Reattach:         rc,
		AllowedProtocols: []plugin.Protocol{plugin.ProtocolGRPC},
		Logger:           newLogger(log),
	})
	watched.Store(pc)
	c, err := connect(ctx, pc, name, rc.ProtocolVersion, func() {})
	if err != nil {
		return nil, fmt.Errorf("attach terraform provider %s: %w", name, err)
	}
	return c, nil
}

// ProtocolVersion is the protocol the provider speaks: 5 or 6.
func (c *Client) ProtocolVersion() int { return c.version }

// Close stops the provider: it closes the connection, which asks the
// provider to exit, and kills the process if it has not exited after
// go-plugin's grace period. It is safe to call more than once.
func (c *Client) Close() error {
	c.pc.Kill()
	c.abort()
	return nil
}

// connect completes the handshake and dispenses the provider's client
// of the given protocol version (0: the negotiated one); abort ends the
// start when ctx is done.
func connect(ctx context.Context, pc *plugin.Client, name string, version int, abort func()) (*Client, error) {
	done := make(chan struct{})
	go func() {
		select {
		case <-ctx.Done():
			abort()
		case <-done:
		}
	}()
	rpc, err := pc.Client()
	close(done)
	if err == nil && ctx.Err() != nil {
		err = ctx.Err()
	}
	if err != nil {
		pc.Kill()
		if ctx.Err() != nil && !errors.Is(err, ctx.Err()) {
			err = fmt.Errorf("%w (%v)", ctx.Err(), err)
		}
		return nil, err
	}
	raw, err := rpc.Dispense(pluginName)
	if err != nil {
		pc.Kill()
		return nil, err
	}
	conn := raw.(*grpc.ClientConn)
	if version == 0 {
		version = pc.NegotiatedVersion()
	}
	c := &Client{pc: pc, version: version, abort: abort}
	switch version {
	case 5:
		c.Server = &v5{name: name, pc: tfplugin5.NewProviderClient(conn)}
	case 6:
		c.Server = &v6{name: name, pc: tfplugin6.NewProviderClient(conn)}
	default:
		pc.Kill()
		return nil, fmt.Errorf("unsupported protocol version %d", version)
	}
	return c, nil
}

// pluginName is the name Terraform gives the provider plugin in its sets.
const pluginName = "provider"

var versionedPlugins = map[int]plugin.PluginSet{
	5: {pluginName: grpcPlugin{}},
	6: {pluginName: grpcPlugin{}},
}

// grpcPlugin hands out the raw connection; the protocol's stubs wrap it.
type grpcPlugin struct{ plugin.NetRPCUnsupportedPlugin }

func (grpcPlugin) GRPCServer(*plugin.GRPCBroker, *grpc.Server) error {
	return errors.New("tfwire only calls providers")
}

func (grpcPlugin) GRPCClient(_ context.Context, _ *plugin.GRPCBroker, conn *grpc.ClientConn) (any, error) {
	return conn, nil
}

// parseReattach reads go-plugin's ReattachConfig as Terraform writes it.
func parseReattach(s string) (*plugin.ReattachConfig, error) {
	var j struct {
		Protocol        string
		ProtocolVersion int
		Pid             int
		Test            bool
		Addr            struct{ Network, String string }
	}
	if err := json.Unmarshal([]byte(s), &j); err != nil {
		return nil, fmt.Errorf("reattach config: %w", err)
	}
	if j.Protocol != "" && j.Protocol != string(plugin.ProtocolGRPC) {
		return nil, fmt.Errorf("reattach config: protocol %q, want grpc", j.Protocol)
	}
	var addr net.Addr
	var err error
	switch j.Addr.Network {
	case "unix":
		addr, err = net.ResolveUnixAddr("unix", j.Addr.String)
	case "tcp":
		addr, err = net.ResolveTCPAddr("tcp", j.Addr.String)
	default:
		err = fmt.Errorf("address network %q, want unix or tcp", j.Addr.Network)
	}
	if err != nil {
		return nil, fmt.Errorf("reattach config: %w", err)
	}
	return &plugin.ReattachConfig{
		Protocol:        plugin.ProtocolGRPC,
		ProtocolVersion: j.ProtocolVersion,
		Addr:            addr,
		Pid:             j.Pid,
		Test:            j.Test,
	}, nil
}

// rpcError names the provider and the RPC in a transport failure, and
// says so when the provider is gone.
func rpcError(name, rpc string, err error) error {
	if status.Code(err) == codes.Unavailable {
		return fmt.Errorf("terraform provider %s: %s: the provider stopped answering: it exited or closed the connection (%w)", name, rpc, err)
	}
	return fmt.Errorf("terraform provider %s: %s: %w", name, rpc, err)
}

// quietLogs are the log levels a provider runs with unless TF_LOG or a
// TF_LOG_* variable is set: warnings and errors. Terraform's provider SDKs
// otherwise log every request at trace level, a dozen JSON lines a call
// that go-plugin parses, which cost more CPU than the calls themselves
// (docs/performance.md).
func quietLogs(envs ...[]string) []string {
	if LogsAsked(envs...) {
		return nil
	}
	var out []string
	for _, v := range []string{"TF_LOG_SDK", "TF_LOG_SDK_PROTO", "TF_LOG_SDK_FRAMEWORK", "TF_LOG_SDK_HELPER_SCHEMA", "TF_LOG_PROVIDER"} {
		out = append(out, v+"=WARN")
	}
	return out
}

// LogsAsked reports whether the environments set TF_LOG or a TF_LOG_*
// variable: the user asks for the provider's log lines.
func LogsAsked(envs ...[]string) bool {
	for _, env := range envs {
		for _, kv := range env {
			if k, v, _ := strings.Cut(kv, "="); (k == "TF_LOG" || strings.HasPrefix(k, "TF_LOG_")) && v != "" {
				return true
			}
		}
	}
	return false
}
