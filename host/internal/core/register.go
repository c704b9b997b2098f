package core

import (
	"context"
	"errors"
	"fmt"
	"reflect"
	"strings"

	"github.com/pulumi/pulumi/sdk/v3/go/property"

	"github.com/polyhost/polyhost/host/custom"
	"github.com/polyhost/polyhost/host/internal/goschema"
	"github.com/polyhost/polyhost/host/internal/typed"
)

// What the options of package host register: components, methods,
// functions, custom resources and the configuration, with the Go types
// they are written with.

// Constructor builds one component instance from its raw inputs.
type Constructor func(ctx context.Context, c *Component) (property.Map, error)

// SignatureOf is the signature of fn, which takes A and returns R.
func SignatureOf[A, R any](fn any) goschema.Signature { return goschema.SignatureOf[A, R](fn) }

// NewConstructor builds a component with fn, its inputs decoded into A
// and its outputs encoded from O.
func NewConstructor[A, O any](fn func(ctx context.Context, c *Component, args A) (O, error)) Constructor {
	return func(ctx context.Context, c *Component) (property.Map, error) {
		m, _, err := runTyped(c.inputs, func(lost []string) { c.failClosed(ctx, lost) },
			func(args A) (O, error) { return fn(ctx, c, args) }, typed.Encode)
		return m, err
	}
}

// NewMethod serves a method with fn, its arguments decoded into A and its
// result encoded from R: a struct field by field, anything else under
// "res".
func NewMethod[A, R any](fn func(ctx context.Context, self *Component, args A) (R, error)) Method {
	return func(ctx context.Context, self *Component, raw property.Map) (property.Map, error) {
		m, _, err := runTyped(raw, func(lost []string) { self.failClosed(ctx, lost) },
			func(args A) (R, error) { return fn(ctx, self, args) }, encodeResult)
		return m, err
	}
}

// NewFunction serves function token of p with fn, its arguments decoded
// into A and its results encoded from R. What it computes from a secret
// that reached a plain Go value is all secret.
func NewFunction[A, R any](p *Provider, token string, fn func(ctx context.Context, args A) (R, error)) Function {
	return func(ctx context.Context, raw property.Map) (property.Map, error) {
		m, lostSecret, err := runTyped(raw, nil, func(args A) (R, error) { return fn(ctx, args) }, typed.Encode)
		if len(lostSecret) > 0 {
			p.warnSecretArgs(ctx, token, "", lostSecret)
			m = allSecret(m) // computed from a secret the host lost track of
		}
		return m, err
	}
}

// runTyped decodes raw into A, runs fn with it and encodes its result with
// encode. lostSecret, if set, is told before fn runs of the arguments
// whose secrets reached plain Go values, which are also returned; an
// unknown one makes every output unknown, since they may be computed from
// its field's zero value.
func runTyped[A, R any](raw property.Map, lostSecret func(paths []string), fn func(A) (R, error), encode func(any) (property.Map, error)) (property.Map, []string, error) {
	var args A
	lost, err := decodeArgs(raw, &args)
	if err != nil {
		return property.Map{}, nil, err
	}
	if lostSecret != nil && len(lost.Secret) > 0 {
		lostSecret(lost.Secret)
	}
	r, err := fn(args)
	if err != nil {
		return property.Map{}, nil, err
	}
	m, err := encode(r)
	return unknownIf(lost.Unknown, m), lost.Secret, err
}

// AddComponent serves component token with ctor, written with the Go
// types of sig.
func (p *Provider) AddComponent(token string, sig goschema.Signature, ctor Constructor) error {
	if p.serves(token) {
		return fmt.Errorf("component %s registered twice", token)
	}
	p.components[token] = ctor
	p.signatures[token] = sig
	return nil
}

// AddMethod serves method token ("pkg:module:Type/method") with m.
func (p *Provider) AddMethod(token string, sig goschema.Signature, m Method) error {
	if p.serves(token) {
		return fmt.Errorf("method %s registered twice", token)
	}
	if !strings.Contains(token, "/") {
		return fmt.Errorf("method token %q must have the form pkg:module:Type/method", token)
	}
	p.methods[token] = m
	p.signatures[token] = sig
	return nil
}

// AddFunction serves function token with f.
func (p *Provider) AddFunction(token string, sig goschema.Signature, f Function) error {
	if _, dup := p.functions[token]; dup {
		return fmt.Errorf("function %s registered twice", token)
	}
	p.functions[token] = f
	p.signatures[token] = sig
	return nil
}

// AddResource serves custom resource token with r; sig, if it has types,
// says its inputs and state (host.WithTypedResource, WithRawResource).
func (p *Provider) AddResource(token string, r custom.Resource, sig goschema.Signature) error {
	if _, dup := p.resources[token]; dup {
		return fmt.Errorf("resource %s registered twice", token)
	}
	p.resources[token] = r
	if sig.Args != nil {
		p.signatures[token] = sig
	}
	return nil
}

// NoSignature is the signature of a registration that says nothing of its
// Go types (host.WithResource).
var NoSignature goschema.Signature

// SetConfig configures the provider with fn, the configuration decoded
// into C: a struct with `pulumi` tags, or property.Map for the values as
// they are.
func SetConfig[C any](p *Provider, fn func(ctx context.Context, config C) error) error {
	t := reflect.TypeFor[C]()
	if _, isStruct, err := typed.Fields(t); t != reflect.TypeFor[property.Map]() && (err != nil || !isStruct) {
		return fmt.Errorf("configuration: %s must be a struct with `pulumi` tags or property.Map (%v)", t, err)
	}
	if p.onConfigure != nil {
		return errors.New("configuration: WithConfig given twice")
	}
	p.configSignature = &goschema.Signature{Args: t, Fn: fn}
	p.decodeConfig = func(config property.Map) (any, error) {
		var c C
		_, err := decodeArgs(config, &c)
		return c, err
	}
	// Configure decodes the values before, into ctx's configuration.
	p.onConfigure = func(ctx context.Context, _ property.Map) error { return fn(ctx, ConfigOf[C](ctx)) }
	return nil
}

// AddResourceRef says that a field of Go type t is a reference to the
// resource ref names (host.WithResourceRef).
func (p *Provider) AddResourceRef(t reflect.Type, ref string) error {
	if err := goschema.CheckResourceRef(t, ref); err != nil {
		return err
	}
	t = goschema.Elem(t)
	if old, ok := p.refTypes[t]; ok && old != ref {
		return fmt.Errorf("WithResourceRef[%s]: given twice, %q and %q", t, old, ref)
	}
	p.refTypes[t] = ref
	return nil
}
