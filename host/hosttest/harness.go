package hosttest

import (
	"context"
	"fmt"
	"slices"
	"sync"
	"testing"

	"github.com/polyhost/polyhost/host/diag"

	"github.com/pulumi/pulumi/sdk/v3/go/common/providers"
	"github.com/pulumi/pulumi/sdk/v3/go/common/resource/urn"
	"github.com/pulumi/pulumi/sdk/v3/go/property"
	pulumirpc "github.com/pulumi/pulumi/sdk/v3/proto/go"
	"google.golang.org/grpc/status"
	"google.golang.org/protobuf/types/known/structpb"

	"github.com/polyhost/polyhost/host"
	"github.com/polyhost/polyhost/host/internal/core"
	"github.com/polyhost/polyhost/host/internal/rpc"
	"github.com/polyhost/polyhost/internal/wire"
	"github.com/polyhost/polyhost/monitorclient"
)

// Harness serves a provider in-process, attached to a fake engine, and
// sends it Construct and Call as a program's engine does.
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
	h := &Harness{t: t, p: p, server: host.NewServer(p), instances: map[urn.URN]pulumirpc.ResourceProviderServer{}}
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

// WithParallel sets the engine's parallel that Construct and Call send
// (default 8): it bounds the registrations a component has in flight.
func WithParallel(n int) Option { return func(c *config) { c.parallel = n } }

func (h *Harness) parallel() int32 {
	if n := h.Monitor.cfg.parallel; n > 0 {
		return int32(n)
	}
	return 8
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
		if err := configure(ctx, inst, inputs, &pulumirpc.ConfigureRequest{
			Id: new(string(ref.ID())), Urn: new(string(ref.URN())), Name: new(req.Name), Type: new("pulumi:providers:" + pkg),
		}); err != nil {
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
	inputs, err := wire.MarshalMap(req.Inputs, wire.MarshalOptions{Secrets: true, Resources: true})
	if err != nil {
		return ConstructResponse{}, err
	}
	deps := map[string]*pulumirpc.ConstructRequest_PropertyDependencies{}
	for k, urns := range monitorclient.DependencyMap(req.Inputs) {
		deps[k] = &pulumirpc.ConstructRequest_PropertyDependencies{Urns: wire.URNStrings(urns)}
	}
	refs := map[string]string{}
	for pkg, ref := range req.Providers {
		refs[pkg] = ref.String()
	}
	server, err := h.serverFor(req.Providers[h.p.Name()])
	if err != nil {
		return ConstructResponse{}, err
	}
	m := h.Monitor
	resp, err := server.Construct(ctx, &pulumirpc.ConstructRequest{
		Project: m.Project(), Stack: m.Stack(), MonitorEndpoint: m.Addr(), DryRun: m.cfg.dryRun,
		Parallel: h.parallel(), Config: req.Config, Type: req.Type, Name: req.Name, Parent: string(m.StackURN()),
		Inputs: inputs, InputDependencies: deps, Providers: refs,
		AcceptsOutputValues: true,
	})
	if err != nil {
		return ConstructResponse{}, inputError(err)
	}
	deps2 := map[string][]string{}
	for k, d := range resp.GetStateDependencies() {
		deps2[k] = d.GetUrns()
	}
	outputs, err := unmarshal(resp.GetState(), deps2)
	return ConstructResponse{URN: urn.URN(resp.GetUrn()), Outputs: outputs}, err
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

// CallResponse is a method's result, with its markers, or the arguments
// it refused.
type CallResponse struct {
	Return   property.Map
	Failures []diag.CheckFailure
}

// Call calls a method.
func (h *Harness) Call(ctx context.Context, req CallRequest) (CallResponse, error) {
	args := req.Args.Set("__self__", property.New(property.ResourceReference{URN: req.Self}))
	wireArgs, err := wire.MarshalMap(args, wire.MarshalOptions{Secrets: true, Resources: true})
	if err != nil {
		return CallResponse{}, err
	}
	deps := map[string]*pulumirpc.CallRequest_ArgumentDependencies{}
	for k, urns := range monitorclient.DependencyMap(req.Args) {
		deps[k] = &pulumirpc.CallRequest_ArgumentDependencies{Urns: wire.URNStrings(urns)}
	}
	server, err := h.serverFor(req.Provider)
	if err != nil {
		return CallResponse{}, err
	}
	m := h.Monitor
	resp, err := server.Call(ctx, &pulumirpc.CallRequest{
		Tok: req.Token, Args: wireArgs, ArgDependencies: deps, Project: m.Project(), Stack: m.Stack(),
		MonitorEndpoint: m.Addr(), DryRun: m.cfg.dryRun, Parallel: h.parallel(), AcceptsOutputValues: true,
	})
	if err != nil {
		return CallResponse{}, err
	}
	out := CallResponse{Failures: failures(resp.GetFailures())}
	deps2 := map[string][]string{}
	for k, d := range resp.GetReturnDependencies() {
		deps2[k] = d.GetUrns()
	}
	out.Return, err = unmarshal(resp.GetReturn(), deps2)
	return out, err
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
	return configure(ctx, h.server, checked, &pulumirpc.ConfigureRequest{})
}

// checkConfig is the engine's CheckConfig of a provider's configuration.
func checkConfig(ctx context.Context, s pulumirpc.ResourceProviderServer, config property.Map) (property.Map, error) {
	news, err := wire.MarshalMap(config, wire.MarshalOptions{Secrets: true})
	if err != nil {
		return property.Map{}, err
	}
	checked, err := s.CheckConfig(ctx, &pulumirpc.CheckRequest{News: news, Olds: &structpb.Struct{}})
	if err != nil {
		return property.Map{}, inputError(err)
	}
	if fs := checked.GetFailures(); len(fs) > 0 {
		return property.Map{}, &diag.InputError{Message: "invalid configuration", Failures: failures(fs)}
	}
	return wire.UnmarshalMap(checked.GetInputs(), wire.UnmarshalOptions{})
}

// configure is the engine's Configure with checked values; req names the
// provider resource, if any.
func configure(ctx context.Context, s pulumirpc.ResourceProviderServer, checked property.Map, req *pulumirpc.ConfigureRequest) error {
	args, err := wire.MarshalMap(checked, wire.MarshalOptions{Secrets: true})
	if err != nil {
		return err
	}
	req.Args, req.AcceptSecrets, req.AcceptResources = args, true, true
	_, err = s.Configure(ctx, req)
	return inputError(err)
}

// InvokeResponse is a function's result, or the arguments it refused.
type InvokeResponse struct {
	Return   property.Map
	Failures []diag.CheckFailure
}

// Invoke calls one of the provider's functions.
func (h *Harness) Invoke(ctx context.Context, token string, args property.Map) (InvokeResponse, error) {
	wireArgs, err := wire.MarshalMap(args, wire.MarshalOptions{Secrets: true, Resources: true})
	if err != nil {
		return InvokeResponse{}, err
	}
	resp, err := h.server.Invoke(ctx, &pulumirpc.InvokeRequest{Tok: token, Args: wireArgs, Preview: h.Monitor.cfg.dryRun})
	if err != nil {
		return InvokeResponse{}, inputError(err)
	}
	out := InvokeResponse{Failures: failures(resp.GetFailures())}
	out.Return, err = wire.UnmarshalMap(resp.GetReturn(), wire.UnmarshalOptions{Resources: true})
	return out, err
}

func failures(fs []*pulumirpc.CheckFailure) []diag.CheckFailure {
	var out []diag.CheckFailure
	for _, f := range fs {
		out = append(out, diag.CheckFailure{Property: f.GetProperty(), Reason: f.GetReason()})
	}
	return out
}

// unmarshal reads a response's values and adds each key's dependencies
// (from stateDependencies or returnDependencies) as markers.
func unmarshal(s *structpb.Struct, deps map[string][]string) (property.Map, error) {
	m, err := wire.UnmarshalMap(s, wire.UnmarshalOptions{Resources: true, OutputValues: true})
	if err != nil {
		return property.Map{}, err
	}
	for k, urns := range deps {
		if v, ok := m.GetOk(k); ok {
			all := v.Dependencies()
			for _, u := range urns {
				if !slices.Contains(all, urn.URN(u)) {
					all = append(all, urn.URN(u))
				}
			}
			m = m.Set(k, v.WithDependencies(all))
		}
	}
	return m, nil
}

// inputError turns an InputPropertiesError status into a *diag.InputError.
func inputError(err error) error {
	if err == nil {
		return nil
	}
	st, ok := status.FromError(err)
	if !ok {
		return err
	}
	for _, d := range st.Details() {
		if ipe, ok := d.(*pulumirpc.InputPropertiesError); ok {
			out := &diag.InputError{Message: st.Message()}
			for _, e := range ipe.GetErrors() {
				out.Failures = append(out.Failures, diag.CheckFailure{Property: e.GetPropertyPath(), Reason: e.GetReason()})
			}
			return out
		}
	}
	return err
}
