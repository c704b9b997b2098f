package core

import (
	"context"
	"errors"
	"fmt"
	"runtime/debug"
	"strings"

	"github.com/pulumi/pulumi/sdk/v3/go/common/resource/urn"
	"github.com/pulumi/pulumi/sdk/v3/go/property"

	"github.com/polyhost/polyhost/host/diag"
	"github.com/polyhost/polyhost/host/schema"
	"github.com/polyhost/polyhost/monitorclient"
)

// Running author code: what it takes checked against the schema, the code
// run so that a panic fails only that call, what it gives checked again.

// contract is what the schema says a token takes and gives: a resource's
// inputs and outputs, a function's or method's arguments and results.
// Finish reads them from the schema once.
type contract struct {
	inputs, outputs *schema.Object
	resource        bool
}

// contractsOf are the contracts of every resource and function of s.
func contractsOf(s *schema.Package) map[string]contract {
	out := map[string]contract{}
	if s == nil {
		return out
	}
	for tok, r := range s.Resources {
		in := r.Inputs()
		out[tok] = contract{inputs: &in, outputs: &r.Object, resource: true}
	}
	for tok, fn := range s.Functions {
		out[tok] = contract{inputs: fn.Inputs, outputs: fn.Outputs}
	}
	return out
}

// checkInputs validates component inputs against the schema, when there is one.
func (p *Provider) checkInputs(token string, inputs property.Map) error {
	c := p.contracts[token]
	if !c.resource || c.inputs == nil {
		return nil
	}
	failures := p.schema.Check(*c.inputs, inputs)
	if len(failures) == 0 {
		return nil
	}
	// The engine names the resource and its type before this message.
	return &diag.InputError{Message: "invalid inputs", Failures: failures}
}

// withDefaults fills in the schema's defaults (defaultValue) of the
// inputs or arguments of token (a component, method or function) that are
// absent, as a YAML program, unlike the generated SDKs, leaves them, and
// marks those the schema declares secret, however they were filled.
func (p *Provider) withDefaults(token string, inputs property.Map) property.Map {
	c := p.contracts[token]
	if c.inputs == nil {
		return inputs
	}
	for name, prop := range c.inputs.Properties {
		v, has := inputs.GetOk(name)
		if !has || v.IsNull() {
			if dv, ok := defaultValue(prop, p.schema.TypeOf(prop)); ok {
				inputs = inputs.Set(name, dv)
			}
		}
		if v, has := inputs.GetOk(name); has && prop.Secret && !v.Secret() {
			inputs = inputs.Set(name, v.WithSecret(true))
		}
	}
	return inputs
}

// runSafely runs author code, turning a panic into a StepError so one bad
// call cannot take the provider down.
func runSafely[T any](ctx context.Context, token, name string, f func(context.Context) (T, error)) (out T, err error) {
	out, err = recovering(token, name, diag.StepConstruct, func() (T, error) { return f(ctx) })
	if err == nil {
		return out, nil
	}
	if se, ok := err.(*diag.StepError); ok {
		if se.Token == "" && se.Step == "" { // from diag.Failf: say where
			se.Token, se.Name, se.Step = token, name, diag.StepConstruct
		}
		return out, err
	}
	if _, isInput := asInputError(err); !isInput {
		err = &diag.StepError{Token: token, Name: name, Step: diag.StepConstruct, Err: err}
	}
	return out, err
}

// recovering runs f, the step of token's author code, turning a panic
// into PanicError's StepError, which Failed redacts and logs.
func recovering[T any](token, name, step string, f func() (T, error)) (out T, err error) {
	defer func() {
		if r := recover(); r != nil {
			err = PanicError(token, name, step, r)
		}
	}()
	return f()
}

// PanicError records a panic r in component code, with where it happened:
// call it from the deferred function that recovered r.
func PanicError(token, name, step string, r any) *diag.StepError {
	return &diag.StepError{Token: token, Name: name, Step: step, Panic: true,
		Err: fmt.Errorf("%v", r), Stack: debug.Stack(), Frames: diag.Callers(1)}
}

// checkOutputs validates what a component or method returned against the
// schema, when there is one. A mismatch is the author's mistake, not the
// user's, so it is a StepError naming each property. Outputs the schema does
// not declare only get a warning: no generated SDK can read them.
func (p *Provider) checkOutputs(ctx context.Context, token, name string, u urn.URN, outputs property.Map) error {
	obj := p.contracts[token].outputs
	if obj == nil {
		return nil
	}
	p.warnUndeclared(ctx, token, u, *obj, outputs)
	declared := map[string]property.Value{}
	for k, v := range outputs.AllStable {
		if _, ok := obj.Properties[k]; ok {
			declared[k] = v
		}
	}
	var msgs []string
	for _, f := range p.schema.Check(*obj, property.NewMap(declared)) {
		reason := f.Reason
		if secretAt(f.Property, outputs) {
			reason = "does not match the schema" // the reason may quote the secret
		}
		msgs = append(msgs, f.Property+": "+reason)
	}
	if len(msgs) == 0 {
		return nil
	}
	return &diag.StepError{Token: token, Name: name, Step: "check outputs against the schema", Err: errors.New(strings.Join(msgs, "; "))}
}

// warnUndeclared warns of outputs obj does not declare: no generated SDK
// can read them. A key starting "__" is a backend's own (the Terraform
// backend's private state), kept and not warned of.
func (p *Provider) warnUndeclared(ctx context.Context, token string, u urn.URN, obj schema.Object, outputs property.Map) {
	var extra []string
	for k := range outputs.AllStable {
		if _, ok := obj.Properties[k]; !ok && !strings.HasPrefix(k, "__") {
			extra = append(extra, k)
		}
	}
	if len(extra) > 0 {
		p.Log(ctx, monitorclient.SeverityWarning, u, fmt.Sprintf("%s returned outputs its schema does not declare, which SDKs cannot read: %s",
			token, strings.Join(extra, ", ")))
	}
}
