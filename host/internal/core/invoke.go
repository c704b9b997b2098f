package core

import (
	"context"

	"github.com/pulumi/pulumi/sdk/v3/go/property"

	"github.com/polyhost/polyhost/host/diag"
	"github.com/polyhost/polyhost/host/internal/redact"
)

// Function serves a provider function with its arguments raw.
type Function func(ctx context.Context, args property.Map) (property.Map, error)

type previewKey struct{}

// WithPreview marks ctx as an Invoke's in a preview.
func WithPreview(ctx context.Context) context.Context {
	return context.WithValue(ctx, previewKey{}, true)
}

// InPreview reports whether ctx is an Invoke's in a preview (host.InPreview).
func InPreview(ctx context.Context) bool {
	v, _ := ctx.Value(previewKey{}).(bool)
	return v
}

// InvokeRequest is an Invoke, off the wire: a function's token and its
// arguments, in a preview or not.
type InvokeRequest struct {
	Token   string
	Args    property.Map
	Preview bool
}

// InvokeResponse is what an Invoke answers: the function's results, or the
// arguments it refused.
type InvokeResponse struct {
	Return   property.Map
	Failures []diag.CheckFailure
}

// Invoke runs a function; its errors and failures are redacted.
func (p *Provider) Invoke(ctx context.Context, req InvokeRequest) (InvokeResponse, error) {
	if req.Preview {
		ctx = WithPreview(ctx)
	}
	req.Args = p.withDefaults(req.Token, req.Args)
	resp, err := p.invoke(ctx, req.Token, req.Args)
	if err != nil {
		return resp, p.Failed(ctx, err, req.Token, "", req.Args, p.Config())
	}
	resp.Failures = printable(resp.Failures, req.Args, p.Config())
	return resp, nil
}

// invoke runs a function. Arguments must be known: an unknown one comes back
// as a failure naming the property. Secret ones are welcome; see
// host.WithFunction for what their results are.
func (p *Provider) invoke(ctx context.Context, token string, args property.Map) (InvokeResponse, error) {
	fn, ok := p.functions[token]
	if !ok {
		return InvokeResponse{}, unknownToken(p, "function", token, p.functions)
	}
	var failures []diag.CheckFailure
	for k, v := range args.AllStable {
		switch {
		case v.HasComputed():
			failures = append(failures, diag.CheckFailure{Property: k, Reason: "must be known: functions run during preview too, so their arguments cannot depend on values known only after an update"})
		}
	}
	if p.schema != nil {
		if spec, ok := p.schema.Function(token); ok && spec.Inputs != nil {
			failures = append(failures, p.schema.Check(*spec.Inputs, args)...)
		}
	}
	if len(failures) > 0 {
		return InvokeResponse{Failures: failures}, nil
	}
	ret, err := runSafely(p.enter(ctx, "", args), token, "", func(ctx context.Context) (property.Map, error) { return fn(ctx, args) })
	if ie, ok := asInputError(err); ok {
		return InvokeResponse{Failures: ie.Failures}, nil
	}
	if se, ok := err.(*diag.StepError); ok && se.Token == token && se.Step == diag.StepConstruct {
		se.Step = diag.StepInvoke
	}
	// What it computed from a secret argument or configuration value,
	// it may have copied into a plain result.
	return InvokeResponse{Return: redact.Of(args, p.Config()).Mark(ret)}, err
}
