package hosttest

import (
	"context"
	"fmt"
	"sync"
	"testing"

	"github.com/pulumi/pulumi/sdk/v3/go/common/providers"
	"github.com/pulumi/pulumi/sdk/v3/go/common/resource"
	"github.com/pulumi/pulumi/sdk/v3/go/common/resource/urn"
	"github.com/pulumi/pulumi/sdk/v3/go/common/tokens"
	"github.com/pulumi/pulumi/sdk/v3/go/property"
	pulumirpc "github.com/pulumi/pulumi/sdk/v3/proto/go"

	"github.com/polyhost/polyhost/host"
	"github.com/polyhost/polyhost/host/diag"
	"github.com/polyhost/polyhost/host/internal/core"
	"github.com/polyhost/polyhost/host/internal/rpc"
	"github.com/polyhost/polyhost/monitorclient"
)

// NewServer returns p's gRPC server, for tests that speak the provider
// protocol themselves, and for wrapping some of its methods. host.Serve is
// how a plugin serves it.
func NewServer(p *host.Provider) pulumirpc.ResourceProviderServer { return rpc.NewServer(core.Of(p)) }

// Harness serves a provider in-process, attached to a fake engine, and
// sends it Construct and Call as a program's engine does, with the
// converters the provider's server reads them with.
type Harness struct {
	// Monitor is the fake engine: what the provider registered, logged,
	// invoked and called.
	Monitor *Monitor
	t       testing.TB
	p       *host.Provider
	server  pulumirpc.ResourceProviderServer

	mu        sync.Mutex
	instances map[urn.URN]pulumirpc.ResourceProviderServer // explicit providers of p's package, by URN
	client    *monitorclient.Client                        // for RegisterProvider, dialled on first use
}

// New starts a fake engine configured by opts (WithDryRun for a preview,
// WithRegisterHook for what custom children's Create returns, ...) and
// attaches p to it: p serves as the package's default provider.
func New(t testing.TB, p *host.Provider, opts ...Option) *Harness {
	t.Helper()
	h := &Harness{t: t, p: p, server: NewServer(p), instances: map[urn.URN]pulumirpc.ResourceProviderServer{}}
	var cfg config
	for _, o := range opts {
		o(&cfg)
	}
	if cfg.ownResources {
		opts = append(opts, WithRegisterHook(h.ownResources(cfg.registerHook)))
	}
	h.Monitor = Start(t, opts...)
	if err := h.attach(h.server); err != nil {
		t.Fatalf("hosttest: %v", err)
	}
	return h
}

func (h *Harness) attach(s pulumirpc.ResourceProviderServer) error {
	if _, err := s.Attach(context.Background(), &pulumirpc.PluginAttach{Address: h.Monitor.Addr()}); err != nil {
		return fmt.Errorf("attach: %w", err)
	}
	return nil
}

// WithOwnResources answers the registrations of the provider's own custom
// resources with the provider itself, as the engine would: Check, then
// Create (with preview set in a preview), on the instance of the child's
// provider (one from RegisterProvider, else the default). Its backends'
// errors and check failures fail the registration. Other registrations go
// to the register hook, or get the default. Only for New.
func WithOwnResources() Option { return func(c *config) { c.ownResources = true } }

// ownResources is the register hook of WithOwnResources.
func (h *Harness) ownResources(next func(Registration) (resource.ID, property.Map, error)) func(Registration) (resource.ID, property.Map, error) {
	return func(r Registration) (resource.ID, property.Map, error) {
		if !r.Custom || tokens.Type(r.Type).Package().String() != h.p.Name() {
			if next != nil {
				return next(r)
			}
			return defaultRegister(r)
		}
		server, err := h.serverFor(r.Provider)
		if err != nil {
			return "", property.Map{}, err
		}
		res, err := h.create(context.Background(), server, r.URN, r.Inputs)
		return res.ID, res.Outputs, err
	}
}

// WithParallel sets the engine's parallel that Construct and Call send
// (default 8): it bounds the registrations a component has in flight.
func WithParallel(n int) Option { return func(c *config) { c.parallel = n } }

// stack is the deployment Construct and Call send, with the stack's
// configuration ("pkg:key" to its value).
func (h *Harness) stack(config map[string]string) core.StackInfo {
	m := h.Monitor
	parallel := 8
	if m.cfg.parallel > 0 {
		parallel = m.cfg.parallel
	}
	cfg := map[string]property.Value{}
	for k, v := range config {
		cfg[k] = property.New(v)
	}
	return core.StackInfo{Project: m.Project(), Stack: m.Stack(), DryRun: m.cfg.dryRun, Parallel: parallel, Config: property.NewMap(cfg)}
}

// ProviderRequest is an explicit provider a program creates
// (`new greet.Provider("eu", {...})`).
type ProviderRequest struct {
	// Package of the provider; default the harness's.
	Package string
	Name    string
	// Config is the provider's configuration by name ("prefix", not
	// "greet:prefix").
	Config property.Map
}

// RegisterProvider registers an explicit provider, as a program does, and
// returns its reference for ConstructRequest.Providers and the like. A
// provider of the harness's package gets an instance of its own (as the
// engine starts a plugin per provider), checked and configured with
// req.Config: a check failure comes back as a *diag.InputError naming the
// value. Components constructed with it in Providers, and with
// WithOwnResources the custom children registered with it, are served by
// that instance, whose backends see its configuration. The provider's
// state is its checked configuration, as Resolve reads it. The register
// hook, if any, answers this registration too.
func (h *Harness) RegisterProvider(ctx context.Context, req ProviderRequest) (providers.Reference, error) {
	pkg := req.Package
	if pkg == "" {
		pkg = h.p.Name()
	}
	inputs := req.Config
	var inst pulumirpc.ResourceProviderServer
	if pkg == h.p.Name() {
		inst = rpc.NewServer(core.Of(h.p).Fresh())
		if err := h.attach(inst); err != nil {
			return providers.Reference{}, err
		}
		checked, err := checkConfig(ctx, inst, req.Config)
		if err != nil {
			return providers.Reference{}, err
		}
		inputs = checked
	}
	client, err := h.monitorClient(ctx)
	if err != nil {
		return providers.Reference{}, err
	}
	resp, err := client.RegisterResource(ctx, monitorclient.RegisterResourceRequest{
		Type: "pulumi:providers:" + pkg, Name: req.Name, Custom: true, Parent: h.Monitor.StackURN(), Inputs: inputs,
	})
	if err != nil {
		return providers.Reference{}, err
	}
	ref, err := providers.NewReference(resp.URN, resp.ID)
	if err != nil {
		return providers.Reference{}, err
	}
	if inst != nil {
		creq, err := rpc.ToConfigureRequest(inputs)
		if err != nil {
			return providers.Reference{}, err
		}
		creq.Id, creq.Urn, creq.Name, creq.Type = new(string(ref.ID())), new(string(ref.URN())), new(req.Name), new("pulumi:providers:"+pkg)
		if err := configure(ctx, inst, creq); err != nil {
			return providers.Reference{}, err
		}
		h.mu.Lock()
		h.instances[ref.URN()] = inst
		h.mu.Unlock()
	}
	return ref, nil
}

func (h *Harness) monitorClient(ctx context.Context) (*monitorclient.Client, error) {
	h.mu.Lock()
	defer h.mu.Unlock()
	if h.client == nil {
		c, err := monitorclient.Dial(ctx, h.Monitor.Addr())
		if err != nil {
			return nil, err
		}
		h.client = c
		h.t.Cleanup(func() { _ = c.Close() })
	}
	return h.client, nil
}

// serverFor is the instance serving ref: one from RegisterProvider, or
// the default for the zero reference.
func (h *Harness) serverFor(ref providers.Reference) (pulumirpc.ResourceProviderServer, error) {
	if ref == (providers.Reference{}) {
		return h.server, nil
	}
	h.mu.Lock()
	defer h.mu.Unlock()
	if s, ok := h.instances[ref.URN()]; ok {
		return s, nil
	}
	return nil, fmt.Errorf("hosttest: provider %s was not registered with RegisterProvider", ref.URN())
}

// ConstructRequest is a component a program creates.
type ConstructRequest struct {
	Type string
	Name string
	// Inputs with their markers: secrets, unknowns (in a preview) and
	// dependencies, which become the request's input dependencies.
	Inputs property.Map
	// Providers the program passes, by package (from RegisterProvider).
	// The one of the provider's own package, if any, serves the Construct.
	Providers map[string]providers.Reference
	// Config is the stack's configuration ("pkg:key" to its value).
	Config map[string]string
}

// ConstructResponse is the component and its outputs, with their secret,
// unknown and dependency markers.
type ConstructResponse struct {
	URN     urn.URN
	Outputs property.Map
}

// Construct builds a component. A user's mistake comes back as a
// *diag.InputError naming the properties; other failures as the error the
// engine would print.
func (h *Harness) Construct(ctx context.Context, req ConstructRequest) (ConstructResponse, error) {
	server, err := h.serverFor(req.Providers[h.p.Name()])
	if err != nil {
		return ConstructResponse{}, err
	}
	wreq, err := rpc.ToConstructRequest(core.ConstructRequest{
		Info: h.stack(req.Config), MonitorAddr: h.Monitor.Addr(), Type: req.Type, Name: req.Name,
		Parent: h.Monitor.StackURN(), Inputs: req.Inputs, Options: monitorclient.ResourceOptions{Providers: req.Providers},
	})
	if err != nil {
		return ConstructResponse{}, err
	}
	resp, err := server.Construct(ctx, wreq)
	if err != nil {
		return ConstructResponse{}, rpc.FromStatus(err)
	}
	out, err := rpc.FromConstructResponse(resp)
	return ConstructResponse{URN: out.URN, Outputs: out.State}, err
}

// CallRequest calls a method on a component.
type CallRequest struct {
	Token string
	Self  urn.URN
	Args  property.Map
	// Provider serves the call: one from RegisterProvider, or the default
	// if zero (pass the one that constructed Self).
	Provider providers.Reference
}

// Call calls a method: its results come back with their markers, the
// arguments it refused as a *monitorclient.FailuresError.
func (h *Harness) Call(ctx context.Context, req CallRequest) (monitorclient.CallResponse, error) {
	server, err := h.serverFor(req.Provider)
	if err != nil {
		return monitorclient.CallResponse{}, err
	}
	wreq, err := rpc.ToCallRequest(core.CallRequest{
		Info: h.stack(nil), MonitorAddr: h.Monitor.Addr(), Token: req.Token,
		Args: req.Args.Set("__self__", property.New(property.ResourceReference{URN: req.Self})),
	})
	if err != nil {
		return monitorclient.CallResponse{}, err
	}
	resp, err := server.Call(ctx, wreq)
	if err != nil {
		return monitorclient.CallResponse{}, err
	}
	out, err := rpc.FromCallResponse(resp)
	if err == nil && len(out.Failures) > 0 {
		err = &monitorclient.FailuresError{Token: req.Token, Failures: out.Failures}
	}
	return monitorclient.CallResponse{Return: out.Return, ReturnDependencies: out.ReturnDependencies}, err
}

// Configure configures the default provider as the engine does before it
// uses it: CheckConfig, then Configure with the checked values. Values are
// keyed by name ("prefix", not "pkg:prefix"). A check failure comes back
// as a *diag.InputError naming the value; an error of the configure
// function as the status the engine gets.
func (h *Harness) Configure(ctx context.Context, config property.Map) error {
	checked, err := checkConfig(ctx, h.server, config)
	if err != nil {
		return err
	}
	req, err := rpc.ToConfigureRequest(checked)
	if err != nil {
		return err
	}
	return configure(ctx, h.server, req)
}

// checkConfig is the engine's CheckConfig of a provider's configuration.
func checkConfig(ctx context.Context, s pulumirpc.ResourceProviderServer, config property.Map) (property.Map, error) {
	req, err := rpc.ToCheckConfigRequest(config)
	if err != nil {
		return property.Map{}, err
	}
	resp, err := s.CheckConfig(ctx, req)
	if err != nil {
		return property.Map{}, rpc.FromStatus(err)
	}
	checked, failures, err := rpc.FromCheckConfigResponse(resp)
	if len(failures) > 0 {
		return property.Map{}, &diag.InputError{Message: "invalid configuration", Failures: failures}
	}
	return checked, err
}

// configure is the engine's Configure.
func configure(ctx context.Context, s pulumirpc.ResourceProviderServer, req *pulumirpc.ConfigureRequest) error {
	_, err := s.Configure(ctx, req)
	return rpc.FromStatus(err)
}

// Invoke calls one of the provider's functions: its results come back with
// their markers, the arguments it refused as a *monitorclient.FailuresError.
func (h *Harness) Invoke(ctx context.Context, token string, args property.Map) (monitorclient.InvokeResponse, error) {
	req, err := rpc.ToInvokeRequest(core.InvokeRequest{Token: token, Args: args, Preview: h.Monitor.cfg.dryRun})
	if err != nil {
		return monitorclient.InvokeResponse{}, err
	}
	resp, err := h.server.Invoke(ctx, req)
	if err != nil {
		return monitorclient.InvokeResponse{}, rpc.FromStatus(err)
	}
	out, err := rpc.FromInvokeResponse(resp)
	if err == nil && len(out.Failures) > 0 {
		err = &monitorclient.FailuresError{Token: token, Failures: out.Failures}
	}
	return monitorclient.InvokeResponse{Return: out.Return}, err
}
