package core

import (
	"context"
	"sync"

	"github.com/pulumi/pulumi/sdk/v3/go/common/resource/urn"
	"github.com/pulumi/pulumi/sdk/v3/go/property"

	"github.com/polyhost/polyhost/host/diag"
	"github.com/polyhost/polyhost/host/internal/redact"
	"github.com/polyhost/polyhost/monitorclient"
)

// ConstructRequest is a Construct call, off the wire.
type ConstructRequest struct {
	Info        StackInfo
	MonitorAddr string
	Type        string
	Name        string
	Parent      urn.URN
	Inputs      property.Map // with each input's dependencies as markers
	Options     monitorclient.ResourceOptions
}

// ConstructResponse is what Construct reports back.
type ConstructResponse struct {
	URN               urn.URN
	State             property.Map
	StateDependencies map[string][]urn.URN
}

// Construct builds one component, its errors as the engine gets them:
// redacted, and an InputError as the engine prints one.
func (p *Provider) Construct(ctx context.Context, req ConstructRequest) (ConstructResponse, error) {
	req.Inputs = p.withDefaults(req.Type, req.Inputs) // before: errors are redacted of the defaults too
	resp, err := p.construct(ctx, req)
	if err != nil {
		return resp, constructInputError(p.Failed(ctx, err, req.Type, req.Name, req.Inputs, req.Info.Config, p.Config()), req.Inputs)
	}
	return resp, nil
}

// construct builds one component: it checks the inputs, registers the
// component with the request's options, runs the author's code and records
// its outputs. It returns only after every child registration is answered.
func (p *Provider) construct(ctx context.Context, req ConstructRequest) (ConstructResponse, error) {
	ctor, ok := p.components[req.Type]
	if !ok {
		return ConstructResponse{}, unknownToken(p, "component type", req.Type, p.componentTokens())
	}
	if err := p.checkInputs(req.Type, req.Inputs); err != nil {
		return ConstructResponse{}, err
	}
	monitor, err := p.monitors.Get(ctx, req.MonitorAddr)
	if err != nil {
		return ConstructResponse{}, &diag.StepError{Token: req.Type, Name: req.Name, Step: "connect to the resource monitor", Err: err}
	}
	o := req.Options
	own, err := monitor.RegisterResource(ctx, monitorclient.RegisterResourceRequest{
		Type: req.Type, Name: req.Name, Parent: req.Parent, ResourceOptions: o,
		ParentStackTraceHandle: req.Info.StackTraceHandle,
	})
	if err != nil {
		return ConstructResponse{}, &diag.StepError{Token: req.Type, Name: req.Name, Step: "register component", Err: err}
	}
	c := &Component{
		token: req.Type, typ: req.Type, name: req.Name, urn: own.URN,
		inputs: req.Inputs, opts: o, info: req.Info,
		provider: p, monitor: monitor, pending: &sync.WaitGroup{},
		secrets: redact.Of(req.Info.Config, p.Config()), inputSecrets: redact.Of(req.Inputs),
	}
	c.prio = p.constructs.Add(1)
	if n := req.Info.Parallel; n > 0 {
		p.window.grow(n)
		c.window = p.window
	}
	ctx = p.enter(ctx, own.URN, req.Inputs, req.Info.Config)
	outputs, err := runSafely(ctx, req.Type, req.Name, func(ctx context.Context) (property.Map, error) {
		return ctor(ctx, c)
	})
	// Registrations the component code started but did not wait for must
	// still be answered before Construct returns.
	c.pending.Wait()
	if err != nil {
		return ConstructResponse{}, err
	}
	outputs = c.markSecrets(markSecret(outputs, o.AdditionalSecretOutputs))
	if err := p.checkOutputs(ctx, req.Type, req.Name, own.URN, outputs); err != nil {
		return ConstructResponse{}, err
	}
	if _, err := monitor.RegisterResourceOutputs(ctx, monitorclient.RegisterResourceOutputsRequest{URN: own.URN, Outputs: outputs}); err != nil {
		return ConstructResponse{}, &diag.StepError{Token: req.Type, Name: req.Name, Step: "register outputs", Err: err}
	}
	return ConstructResponse{URN: own.URN, State: outputs, StateDependencies: monitorclient.DependencyMap(outputs)}, nil
}
