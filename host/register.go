package host

import (
	"context"
	"reflect"

	"github.com/polyhost/polyhost/host/custom"
	"github.com/polyhost/polyhost/host/internal/core"
	"github.com/polyhost/polyhost/host/internal/goschema"
	"github.com/polyhost/polyhost/host/internal/typed"
)

// WithComponent serves the component type token with fn.
func WithComponent[A, O any](token string, fn ComponentFunc[A, O]) Option {
	return func(p *Provider) error {
		return p.core.AddComponent(token, core.SignatureOf[A, O](fn), core.NewConstructor(
			func(ctx context.Context, c *core.Component, args A) (O, error) { return fn(ctx, &Component{c}, args) }))
	}
}

// A MethodFunc serves a method of self, whose State holds its outputs.
type MethodFunc[A, R any] func(ctx context.Context, self *Component, args A) (R, error)

// WithMethod serves the method token ("pkg:module:Type/method") with fn; a
// struct R is returned field by field, any other R under "res".
func WithMethod[A, R any](token string, fn MethodFunc[A, R]) Option {
	return func(p *Provider) error {
		return p.core.AddMethod(token, core.SignatureOf[A, R](fn), core.NewMethod(
			func(ctx context.Context, self *core.Component, args A) (R, error) {
				return fn(ctx, &Component{self}, args)
			}))
	}
}

// A FunctionFunc serves a provider function (Invoke), its arguments always
// known.
type FunctionFunc[A, R any] func(ctx context.Context, args A) (R, error)

// WithFunction serves the function token ("pkg:module:name") with fn.
func WithFunction[A, R any](token string, fn FunctionFunc[A, R]) Option {
	return func(p *Provider) error {
		return p.core.AddFunction(token, core.SignatureOf[A, R](fn), core.NewFunction(p.core, token, fn))
	}
}

// WithTypedResource serves the custom resource type token with r, its
// inputs I and outputs O Go structs inferred from r's Create (host/custom).
func WithTypedResource[I, O any](token string, r custom.TypedResource[I, O]) Option {
	return func(p *Provider) error {
		return p.core.AddResource(token, core.NewTypedResource(p.core, token, r), core.SignatureOf[I, O](r))
	}
}

// WithResource serves the custom resource type token with r, a backend over
// property maps (host/custom).
func WithResource(token string, r custom.Resource) Option {
	return func(p *Provider) error { return p.core.AddResource(token, r, core.NoSignature) }
}

// WithRawResource is [WithResource], with In and State the Go structs of
// its schema.
func WithRawResource[In, State any](token string, r custom.Resource) Option {
	return func(p *Provider) error { return p.core.AddResource(token, r, core.SignatureOf[In, State](r)) }
}

// WithConfig runs fn when the engine configures the provider, with the
// configuration decoded into C (a struct, or property.Map). Given once.
func WithConfig[C any](fn func(ctx context.Context, config C) error) Option {
	return func(p *Provider) error { return core.SetConfig(p.core, fn) }
}

// EnumValue is a value of an enum type, a named type with a method
// Values() []host.EnumValue[T].
type EnumValue[T any] = goschema.EnumValue[T]

// Ref is a reference to a resource whose Go type is T, markers kept.
type Ref[T any] = typed.Ref[T]

// WithResourceRef says a field of Go type T refers to the resource ref
// names: a token, or another package's $ref.
func WithResourceRef[T any](ref string) Option {
	t := reflect.TypeFor[T]()
	return func(p *Provider) error {
		if err := goschema.CheckResourceRef(t, ref); err != nil {
			return err
		}
		return p.core.AddResourceRef(t, ref)
	}
}
