package host

import (
	"context"
	"fmt"

	"github.com/polyhost/polyhost/host/diag"

	"github.com/pulumi/pulumi/sdk/v3/go/property"

	"github.com/polyhost/polyhost/host/internal/typed"
)

// A FunctionFunc serves a provider function (Invoke). Its arguments are
// always known: the host rejects unknown ones before calling it. They are
// decoded as component inputs are: a secret that reaches a plain Go field
// makes every result secret; a property.Value field keeps it exact.
type FunctionFunc[A, R any] func(ctx context.Context, args A) (R, error)

type function func(ctx context.Context, args property.Map) (property.Map, error)

type previewKey struct{}

// InPreview reports whether the engine called the function during a
// preview, as engines that say so at Handshake do: a function with side
// effects, or an expensive one, can answer what it can without them.
func InPreview(ctx context.Context) bool {
	v, _ := ctx.Value(previewKey{}).(bool)
	return v
}

// WithFunction serves the function token ("pkg:module:name") with fn. R is
// encoded like component outputs.
func WithFunction[A, R any](token string, fn FunctionFunc[A, R]) Option {
	return func(p *Provider) error {
		if _, dup := p.functions[token]; dup {
			return fmt.Errorf("function %s registered twice", token)
		}
		p.functions[token] = func(ctx context.Context, raw property.Map) (property.Map, error) {
			var args A
			lost, err := decodeArgs(raw, &args)
			if err != nil {
				return property.Map{}, err
			}
			r, err := fn(ctx, args)
			if err != nil {
				return property.Map{}, err
			}
			m, err := typed.Encode(r)
			if len(lost.Secret) > 0 {
				p.warnSecretArgs(ctx, token, "", lost.Secret)
				m = allSecret(m) // computed from a secret the host lost track of
			}
			return unknownIf(lost.Unknown, m), err
		}
		p.shapes[token] = shapeOf[A, R](fn)
		return nil
	}
}

type invokeResponse struct {
	Return   property.Map
	Failures []diag.CheckFailure
}

// invoke runs a function. Arguments must be known: an unknown one comes back
// as a failure naming the property. Secret ones are welcome; see
// [WithFunction] for what their results are.
func (p *Provider) invoke(ctx context.Context, token string, args property.Map) (invokeResponse, error) {
	fn, ok := p.functions[token]
	if !ok {
		return invokeResponse{}, unknownToken(p, "function", token, p.functions)
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
		return invokeResponse{Failures: failures}, nil
	}
	ret, err := runSafely(ctx, token, "", func(ctx context.Context) (property.Map, error) { return fn(ctx, args) })
	if ie, ok := asInputError(err); ok {
		return invokeResponse{Failures: ie.Failures}, nil
	}
	if se, ok := err.(*diag.StepError); ok && se.Token == token && se.Step == diag.StepConstruct {
		se.Step = diag.StepInvoke
	}
	return invokeResponse{Return: ret}, err
}
