package host

import (
	"context"
	"reflect"

	"github.com/polyhost/polyhost/host/custom"
	"github.com/polyhost/polyhost/host/internal/core"
	"github.com/polyhost/polyhost/host/internal/typed"
)

// WithComponent serves the component type token with fn.
func WithComponent[A, O any](token string, fn ComponentFunc[A, O]) Option {
	return func(p *Provider) error {
		return p.core.AddComponent(token, core.SignatureOf[A, O](fn), core.NewConstructor(
			func(ctx context.Context, c *core.Component, args A) (O, error) { return fn(ctx, &Component{c}, args) }))
	}
}

// A MethodFunc serves one method of a component. self is the component:
// [Component.State] holds its outputs, and resources registered on it
// become its children. A result derived from the state with [Apply]
// depends on the component, and is secret where the state is.
type MethodFunc[A, R any] func(ctx context.Context, self *Component, args A) (R, error)

// WithMethod serves the method token ("pkg:module:Type/method") with fn.
// A struct R is returned field by field; any other R (a property.Value
// with its markers, a string, ...) is returned under the key "res". A
// method of the provider resource has the token
// "pulumi:providers:<pkg>/method": self is then the provider, and its
// State the provider's configuration.
func WithMethod[A, R any](token string, fn MethodFunc[A, R]) Option {
	return func(p *Provider) error {
		return p.core.AddMethod(token, core.SignatureOf[A, R](fn), core.NewMethod(
			func(ctx context.Context, self *core.Component, args A) (R, error) {
				return fn(ctx, &Component{self}, args)
			}))
	}
}

// A FunctionFunc serves a provider function (Invoke). Its arguments are
// always known: the host rejects unknown ones before calling it. A secret
// that reaches a plain Go field makes every result secret; a result string
// holding the text of a secret argument or of the provider's secret
// configuration is secret too.
type FunctionFunc[A, R any] func(ctx context.Context, args A) (R, error)

// WithFunction serves the function token ("pkg:module:name") with fn.
func WithFunction[A, R any](token string, fn FunctionFunc[A, R]) Option {
	return func(p *Provider) error {
		return p.core.AddFunction(token, core.SignatureOf[A, R](fn), core.NewFunction(p.core, token, fn))
	}
}

// WithTypedResource serves the custom resource type token with r, I its
// inputs and O its outputs, inferred from r's Create: Go structs tagged as
// a component's arguments are, which the host checks against the schema or
// builds it from. Package host/custom says what each optional method adds.
func WithTypedResource[I, O any](token string, r custom.TypedResource[I, O]) Option {
	return func(p *Provider) error {
		return p.core.AddResource(token, core.NewTypedResource(p.core, token, r), core.SignatureOf[I, O](r))
	}
}

// WithResource serves the custom resource type token with r, a backend
// over property maps, with the rules package host/custom gives
// WithResource; its schema is the one [WithSchema] gives.
func WithResource(token string, r custom.Resource) Option {
	return func(p *Provider) error { return p.core.AddResource(token, r, core.NoSignature) }
}

// WithRawResource is [WithResource], with In and State the Go structs of
// the inputs and outputs the schema is built from or checked against.
func WithRawResource[In, State any](token string, r custom.Resource) Option {
	return func(p *Provider) error { return p.core.AddResource(token, r, core.SignatureOf[In, State](r)) }
}

// WithConfig runs fn when the engine configures the provider, with the
// configuration decoded into C: a struct whose `pulumi:"name"` fields are
// the package's configuration variables, or property.Map for the values as
// they are (with no schema to build from it). It is given once.
func WithConfig[C any](fn func(ctx context.Context, config C) error) Option {
	return func(p *Provider) error { return core.SetConfig(p.core, fn) }
}

// EnumValue is one value of an enum type: a named string, integer, number
// or boolean type that lists its values with a method
//
//	func (ContentType) Values() []host.EnumValue[ContentType]
//
// Name is the value's name in the SDKs (ContentTypeHtml); Description is
// optional.
type EnumValue[T any] = core.EnumValue[T]

// Ref is a reference to a resource whose Go type is T, with its markers: in
// the schema, a reference to the resource this provider registers with
// that Go type (a backend or its state, a component's outputs struct, a
// host/gosdk component) or that [WithResourceRef] names.
type Ref[T any] = typed.Ref[T]

// WithResourceRef says that a field of Go type T (*T, [Ref][T], or for
// host/gosdk an Output of *T) is a reference to the resource ref names: a
// token of this package, or another package's $ref,
// "/sitekit/v0.1.0/schema.json#/resources/sitekit:index:Site".
func WithResourceRef[T any](ref string) Option {
	t := reflect.TypeFor[T]()
	return func(p *Provider) error {
		if err := core.CheckResourceRef(t, ref); err != nil {
			return err
		}
		return p.core.AddResourceRef(t, ref)
	}
}
