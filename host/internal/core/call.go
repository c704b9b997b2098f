package core

import (
	"context"
	"fmt"
	"strings"
	"sync"

	"github.com/pulumi/pulumi/sdk/v3/go/common/providers"
	"github.com/pulumi/pulumi/sdk/v3/go/common/resource/urn"
	"github.com/pulumi/pulumi/sdk/v3/go/property"

	"github.com/polyhost/polyhost/host/diag"
	"github.com/polyhost/polyhost/host/internal/goschema"
	"github.com/polyhost/polyhost/host/internal/redact"
	"github.com/polyhost/polyhost/host/internal/typed"
	"github.com/polyhost/polyhost/monitorclient"
)

// Method serves one method of a component with its arguments raw.
type Method func(ctx context.Context, self *Component, args property.Map) (property.Map, error)

// singleResultKey is where a method that returns a single value (not a
// struct) puts it, the key the Pulumi SDKs use.
const singleResultKey = goschema.SingleResultKey

// encodeResult encodes a method's result: a struct field by field, anything
// else under singleResultKey.
func encodeResult(r any) (property.Map, error) {
	if v, ok := r.(property.Value); ok {
		return property.NewMap(map[string]property.Value{singleResultKey: v}), nil
	}
	if m, err := typed.Encode(r); err == nil {
		return m, nil
	}
	v, err := property.Any(r)
	if err != nil {
		return property.Map{}, fmt.Errorf("encoding the result: %w", err)
	}
	return property.NewMap(map[string]property.Value{singleResultKey: v}), nil
}

// CallRequest is a Call, off the wire.
type CallRequest struct {
	Info        StackInfo
	MonitorAddr string
	Token       string
	Args        property.Map // __self__ included, with argDependencies as markers
}

// CallResponse is what a Call answers: the method's results, or the
// arguments it refused.
type CallResponse struct {
	Return             property.Map
	ReturnDependencies map[string][]urn.URN
	Failures           []diag.CheckFailure
}

// Call runs a method of a component; its errors and failures are redacted.
// The organization and the secret config keys the engine leaves out of a
// Call come from the monitor.
func (p *Provider) Call(ctx context.Context, req CallRequest) (CallResponse, error) {
	fn, ok := p.methods[req.Token]
	if !ok { // said before waiting on the monitor
		return CallResponse{}, unknownToken(p, "method", req.Token, p.methods)
	}
	// Dialled once: a monitor that never answers costs one connection
	// attempt, which the method then reports.
	monitor, dialErr := p.monitors.Get(ctx, req.MonitorAddr)
	if dialErr == nil {
		completeCallInfo(&req, monitor)
	}
	req.Args = p.withDefaults(req.Token, req.Args)
	resp, err := p.call(ctx, req, fn, monitor, dialErr)
	if err != nil {
		return resp, p.Failed(ctx, err, req.Token, "", req.Args, req.Info.Config, p.Config())
	}
	resp.Failures = redacted(resp.Failures, req.Args, req.Info.Config, p.Config())
	return resp, nil
}

// completeCallInfo fills in the organization and the secret config keys
// of a Call from the monitor's GetDeploymentInfo when the request lacks
// them: the engine leaves both out of CallRequest, and without the keys a
// method would read secret stack config as plain.
func completeCallInfo(req *CallRequest, monitor *monitorclient.Client) {
	if req.Info.Organization != "" && property.New(req.Info.Config).HasSecrets() {
		return
	}
	info, ok := monitor.DeploymentInfo()
	if !ok {
		return
	}
	if req.Info.Organization == "" {
		req.Info.Organization = info.Organization
	}
	if !property.New(req.Info.Config).HasSecrets() {
		req.Info.Config = markSecret(req.Info.Config, info.ConfigSecretKeys)
	}
}

// call runs fn, method req.Token of a component, on monitor, or reports
// dialErr, the error of connecting to it, once it needs it.
func (p *Provider) call(ctx context.Context, req CallRequest, fn Method, monitor *monitorclient.Client, dialErr error) (CallResponse, error) {
	selfValue, args, failures := p.callArgs(req)
	if len(failures) > 0 {
		return CallResponse{Failures: failures}, nil
	}
	if dialErr != nil {
		return CallResponse{}, &diag.StepError{Token: req.Token, Step: "connect to the resource monitor", Err: dialErr}
	}
	self := &Component{info: req.Info, provider: p, monitor: monitor, inputs: args, token: req.Token,
		pending: &sync.WaitGroup{}, secrets: redact.Of(req.Info.Config, p.Config()), inputSecrets: redact.Of(args)}
	resolved, err := self.Resolve(ctx, selfValue)
	if err != nil {
		return CallResponse{Failures: []diag.CheckFailure{{Property: "__self__", Reason: err.Error()}}}, nil
	}
	if want, _, _ := strings.Cut(req.Token, "/"); resolved.Type != want {
		return CallResponse{Failures: []diag.CheckFailure{{Property: "__self__", Reason: fmt.Sprintf("%s is a method of %s, called on a %s", req.Token, want, resolved.Type)}}}, nil
	}
	if !resolved.Known && req.Info.DryRun {
		// A preview of a resource still to be created (a new provider):
		// its state, so the method's results, are not known yet.
		return CallResponse{Return: p.unknownResults(req.Token)}, nil
	}
	if !resolved.Known {
		return CallResponse{}, &diag.StepError{Token: req.Token, Step: diag.StepCall, Err: fmt.Errorf("the component %s is not known yet", resolved.URN)}
	}
	if resolved.Type == p.providerToken() {
		// A provider's state is its configuration, which the method's code
		// may read as the schema types it: one that does not fit is refused.
		state, failures := p.providerState(resolved)
		if len(failures) > 0 {
			return CallResponse{Failures: failures}, nil
		}
		resolved.State = state
	}
	self.urn, self.name, self.typ, self.state = resolved.URN, resolved.URN.Name(), resolved.Type, resolved.State
	if ref := p.methodProvider(resolved); ref.URN() != "" {
		self.opts.Providers = map[string]providers.Reference{p.name: ref}
	}
	// A state secret read into a plain Go value is secret again in results
	// and children's inputs.
	self.secrets = redact.Of(req.Info.Config, p.Config(), resolved.State)
	self.prio = p.constructs.Add(1)
	if n := req.Info.Parallel; n > 0 {
		p.window.grow(n)
		self.window = p.window
	}
	ctx = p.enter(ctx, self.urn, args, req.Info.Config, self.state)
	out, err := runSafely(ctx, req.Token, self.name, func(ctx context.Context) (property.Map, error) {
		return fn(ctx, self, args)
	})
	self.pending.Wait()
	if ie, ok := asInputError(err); ok {
		return CallResponse{Failures: ie.Failures}, nil
	}
	if err != nil {
		if se, ok := err.(*diag.StepError); ok && se.Token == req.Token && se.Step == diag.StepConstruct {
			se.Step = diag.StepCall
		}
		return CallResponse{}, err
	}
	out = self.markSecrets(out)
	if err := p.checkOutputs(ctx, req.Token, self.name, self.urn, out); err != nil {
		return CallResponse{}, err
	}
	return CallResponse{Return: out, ReturnDependencies: monitorclient.DependencyMap(out)}, nil
}

// providerState is the state of the provider r, a method is called on,
// checked as its configuration: defaults applied, secrets marked, values
// the SDKs encode as strings decoded; or the failures, redacted, each
// naming the configuration property.
func (p *Provider) providerState(r Resolved) (property.Map, []diag.CheckFailure) {
	checked, failures := p.checkConfig(r.State)
	if len(failures) > 0 {
		failures = printable(failures, r.State, checked)
		for i, f := range failures {
			failures[i].Reason = fmt.Sprintf("in the configuration of provider %q: %s", r.URN.Name(), f.Reason)
		}
		return property.Map{}, failures
	}
	return dependingOn(property.New(checked), r.URN).AsMap(), nil
}

// methodProvider is the provider a method's children of this package
// default to: the provider resource the method is called on, else the
// provider the engine recorded for the resource, else the one the engine
// configured this instance as (the one serving the call); zero if none
// is known.
func (p *Provider) methodProvider(r Resolved) providers.Reference {
	if r.Type == p.providerToken() && r.ID != "" {
		if ref, err := providers.NewReference(r.URN, r.ID); err == nil {
			return ref
		}
	}
	if r.Provider.URN() != "" && string(r.Provider.URN().Type()) == p.providerToken() {
		return r.Provider
	}
	return p.configNow().self
}

// callArgs splits a Call's arguments into the component it is called on
// and the method's own arguments, which it checks against the schema.
func (p *Provider) callArgs(req CallRequest) (self property.Value, args property.Map, failures []diag.CheckFailure) {
	self, hasSelf := req.Args.GetOk("__self__")
	args = req.Args.Delete("__self__")
	if !hasSelf || self.IsNull() {
		return self, args, []diag.CheckFailure{{Property: "__self__", Reason: "missing: a method needs the component it is called on"}}
	}
	return self, args, p.checkArgs(req.Token, args)
}

// checkArgs validates method arguments against the method's function schema.
func (p *Provider) checkArgs(token string, args property.Map) []diag.CheckFailure {
	if p.schema == nil {
		return nil
	}
	fn, ok := p.schema.Function(token)
	if !ok || fn.Inputs == nil {
		return nil
	}
	inputs := *fn.Inputs
	inputs.Properties = withoutKey(inputs.Properties, "__self__")
	inputs.Required = without(inputs.Required, "__self__")
	return p.schema.Check(inputs, args)
}

// unknownResults are the results of method token, each unknown, as the
// schema declares them.
func (p *Provider) unknownResults(token string) property.Map {
	out := map[string]property.Value{}
	if obj := p.contracts[token].outputs; obj != nil {
		for k := range obj.Properties {
			out[k] = property.New(property.Computed)
		}
	}
	return property.NewMap(out)
}
