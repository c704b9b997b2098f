package hosttest

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/pulumi/pulumi/sdk/v3/go/common/resource"
	"github.com/pulumi/pulumi/sdk/v3/go/common/resource/urn"
	"github.com/pulumi/pulumi/sdk/v3/go/common/tokens"
	"github.com/pulumi/pulumi/sdk/v3/go/property"
	pulumirpc "github.com/pulumi/pulumi/sdk/v3/proto/go"
	"google.golang.org/grpc/status"
	"google.golang.org/protobuf/types/known/structpb"

	"github.com/polyhost/polyhost/host"
	"github.com/polyhost/polyhost/internal/wire"
	"github.com/polyhost/polyhost/monitorclient"
)

// Harness serves a provider in-process, attached to a fake engine, and
// sends it Construct and Call as a program's engine does.
type Harness struct {
	// Monitor is the fake engine: what the provider registered, logged,
	// invoked and called.
	Monitor *Monitor
	server  pulumirpc.ResourceProviderServer
}

// New starts a fake engine configured by opts (WithDryRun for a preview,
// WithRegisterHook for what custom children's Create returns, ...) and
// attaches p to it.
func New(t testing.TB, p *host.Provider, opts ...Option) *Harness {
	t.Helper()
	h := &Harness{server: host.NewServer(p)}
	var cfg config
	for _, o := range opts {
		o(&cfg)
	}
	if cfg.ownResources {
		opts = append(opts, WithRegisterHook(h.ownResources(p.Name(), cfg.dryRun, cfg.registerHook)))
	}
	h.Monitor = Start(t, opts...)
	if _, err := h.server.Attach(context.Background(), &pulumirpc.PluginAttach{Address: h.Monitor.Addr()}); err != nil {
		t.Fatalf("hosttest: attach: %v", err)
	}
	return h
}

// WithOwnResources answers the registrations of the provider's own custom
// resources with the provider itself, as the engine would: Check, then
// Create (with preview set in a preview). Its backends' errors and check
// failures fail the registration. Other registrations go to the register
// hook, or get the default. Only for New.
func WithOwnResources() Option { return func(c *config) { c.ownResources = true } }

// ownResources is the register hook of WithOwnResources.
func (h *Harness) ownResources(pkg string, dryRun bool, next func(Registration) (resource.ID, property.Map, error)) func(Registration) (resource.ID, property.Map, error) {
	return func(r Registration) (resource.ID, property.Map, error) {
		if !r.Custom || tokens.Type(r.Type).Package().String() != pkg {
			if next != nil {
				return next(r)
			}
			return defaultRegister(r)
		}
		ctx := context.Background()
		news, err := wire.MarshalMap(r.Inputs, wire.MarshalOptions{Secrets: true, Resources: true})
		if err != nil {
			return "", property.Map{}, err
		}
		checked, err := h.server.Check(ctx, &pulumirpc.CheckRequest{
			Urn: string(r.URN), Name: r.Name, Type: string(r.Type), News: news, Olds: &structpb.Struct{},
		})
		if err != nil {
			return "", property.Map{}, err
		}
		if fs := checked.GetFailures(); len(fs) > 0 {
			var reasons []string
			for _, f := range fs {
				reasons = append(reasons, f.GetProperty()+": "+f.GetReason())
			}
			return "", property.Map{}, fmt.Errorf("%s: check failed: %s", r.URN, strings.Join(reasons, "; "))
		}
		created, err := h.server.Create(ctx, &pulumirpc.CreateRequest{
			Urn: string(r.URN), Name: r.Name, Type: string(r.Type), Properties: checked.GetInputs(), Preview: dryRun,
		})
		if err != nil {
			return "", property.Map{}, err
		}
		outputs, err := wire.UnmarshalMap(created.GetProperties(), wire.UnmarshalOptions{Resources: true})
		return resource.ID(created.GetId()), outputs, err
	}
}

// ConstructRequest is a component a program creates.
type ConstructRequest struct {
	Type string
	Name string
	// Inputs with their markers: secrets, unknowns (in a preview) and
	// dependencies, which become the request's input dependencies.
	Inputs property.Map
	// Providers the program passes, by package.
	Providers map[string]string
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
// *host.InputError naming the properties; other failures as the error the
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
	m := h.Monitor
	resp, err := h.server.Construct(ctx, &pulumirpc.ConstructRequest{
		Project: m.Project(), Stack: m.Stack(), MonitorEndpoint: m.Addr(), DryRun: m.cfg.dryRun,
		Parallel: 8, Config: req.Config, Type: req.Type, Name: req.Name, Parent: string(m.StackURN()),
		Inputs: inputs, InputDependencies: deps, Providers: req.Providers,
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
}

// CallResponse is a method's result, with its markers, or the arguments
// it refused.
type CallResponse struct {
	Return   property.Map
	Failures []host.PropertyError
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
	m := h.Monitor
	resp, err := h.server.Call(ctx, &pulumirpc.CallRequest{
		Tok: req.Token, Args: wireArgs, ArgDependencies: deps, Project: m.Project(), Stack: m.Stack(),
		MonitorEndpoint: m.Addr(), DryRun: m.cfg.dryRun, Parallel: 8, AcceptsOutputValues: true,
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

// Configure configures the provider as the engine does before it uses it:
// CheckConfig, then Configure with the checked values. Values are keyed by
// name ("prefix", not "pkg:prefix"). A check failure comes back as a
// *host.InputError naming the value; an error of the configure function
// as the status the engine gets.
func (h *Harness) Configure(ctx context.Context, config property.Map) error {
	news, err := wire.MarshalMap(config, wire.MarshalOptions{Secrets: true})
	if err != nil {
		return err
	}
	checked, err := h.server.CheckConfig(ctx, &pulumirpc.CheckRequest{News: news, Olds: &structpb.Struct{}})
	if err != nil {
		return inputError(err)
	}
	if fs := checked.GetFailures(); len(fs) > 0 {
		return &host.InputError{Message: "invalid configuration", Properties: failures(fs)}
	}
	_, err = h.server.Configure(ctx, &pulumirpc.ConfigureRequest{
		Args: checked.GetInputs(), AcceptSecrets: true, AcceptResources: true,
	})
	return inputError(err)
}

// InvokeResponse is a function's result, or the arguments it refused.
type InvokeResponse struct {
	Return   property.Map
	Failures []host.PropertyError
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

func failures(fs []*pulumirpc.CheckFailure) []host.PropertyError {
	var out []host.PropertyError
	for _, f := range fs {
		out = append(out, host.PropertyError{Path: f.GetProperty(), Reason: f.GetReason()})
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

// inputError turns an InputPropertiesError status into a *host.InputError.
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
			out := &host.InputError{Message: st.Message()}
			for _, e := range ipe.GetErrors() {
				out.Properties = append(out.Properties, host.PropertyError{Path: e.GetPropertyPath(), Reason: e.GetReason()})
			}
			return out
		}
	}
	return err
}
