package gosdk

import (
	"context"
	"fmt"
	"reflect"
	"strings"
	"sync"

	"github.com/pulumi/pulumi/sdk/v3/go/common/resource/urn"
	"github.com/pulumi/pulumi/sdk/v3/go/property"
	"github.com/pulumi/pulumi/sdk/v3/go/pulumi"
	"github.com/pulumi/pulumi/sdk/v3/go/pulumi/provider"
	"google.golang.org/grpc"

	"github.com/polyhost/polyhost/host"
	"github.com/polyhost/polyhost/host/diag"
	"github.com/polyhost/polyhost/host/internal/core"
	"github.com/polyhost/polyhost/host/internal/rpc"
)

// ComponentFunc builds a component, in the shape of a generated SDK's
// constructor: it registers the component (ctx.RegisterComponentResource
// with opts), its children with pulumi.Parent, and its outputs
// (ctx.RegisterResourceOutputs), and returns it. Its pulumi-tagged Output
// fields are the component's outputs. A is a struct (or a pointer to one)
// whose pulumi tags name the inputs.
type ComponentFunc[A any, C pulumi.ComponentResource] func(ctx *pulumi.Context, name string, args A, opts ...pulumi.ResourceOption) (C, error)

// Component serves the component type token with fn.
func Component[A any, C pulumi.ComponentResource](token string, fn ComponentFunc[A, C]) host.Option {
	return func(p *host.Provider) error {
		if err := checkArgsType[A](token); err != nil {
			return err
		}
		if err := noEmbedded(token, reflect.TypeFor[A](), reflect.TypeFor[C]()); err != nil {
			return err
		}
		e := core.Elsewhere{Args: reflect.TypeFor[A](), Result: reflect.TypeFor[C](), Fn: fn}
		core.Of(p).SetSDKTypes(sdkType)
		return rpc.AddSDKConstruct(core.Of(p), token, e, handler(provider.Construct, func(inputs property.Map) (provider.ConstructFunc, *error, error) {
			if err := keepsSecrets[A](inputs); err != nil {
				return nil, nil, err
			}
			var authorErr error // the SDK returns it as text: keep the error itself
			return func(ctx *pulumi.Context, typ, name string, in provider.ConstructInputs, opts pulumi.ResourceOption) (*provider.ConstructResult, error) {
				args, err := copyArgs[A](func(dst any) error { return in.CopyTo(dst) })
				if err != nil {
					return nil, err
				}
				c, err := fn(ctx, name, args, opts)
				if err != nil {
					authorErr = err
					return nil, err
				}
				return provider.NewConstructResult(c)
			}, &authorErr, nil
		}))
	}
}

// MethodFunc serves a method of a component built with [Component]. self is
// the component, its outputs read back through the engine; args as for
// [ComponentFunc]. A struct (or pointer to one) R is returned field by
// field from its pulumi tags; any other R (a pulumi.StringOutput, a
// string, ...) under the key "res", as the SDKs read a method with a single
// result.
type MethodFunc[C pulumi.ComponentResource, A, R any] func(ctx *pulumi.Context, self C, args A) (R, error)

// Method serves the method token ("pkg:module:Type/method") with fn.
func Method[C pulumi.ComponentResource, A, R any](token string, fn MethodFunc[C, A, R]) host.Option {
	return func(p *host.Provider) error {
		if err := checkArgsType[A](token); err != nil {
			return err
		}
		if reflect.TypeFor[C]().Kind() != reflect.Pointer || reflect.TypeFor[C]().Elem().Kind() != reflect.Struct {
			return fmt.Errorf("method %s: the component type %s must be a pointer to a struct", token, reflect.TypeFor[C]())
		}
		if err := noEmbedded(token, reflect.TypeFor[A](), reflect.TypeFor[R]()); err != nil {
			return err
		}
		typ, _, _ := strings.Cut(token, "/")
		e := core.Elsewhere{Args: reflect.TypeFor[A](), Result: reflect.TypeFor[R](), Fn: fn}
		core.Of(p).SetSDKTypes(sdkType)
		return rpc.AddSDKCall(core.Of(p), token, e, handler(provider.Call, func(args property.Map) (provider.CallFunc, *error, error) {
			self, ok := selfURN(args)
			if !ok {
				return nil, nil, diag.Errorf("__self__", "must be a reference to the component the method is called on")
			}
			if self.Type().String() != typ {
				return nil, nil, diag.Errorf("__self__", "%s is a method of %s, called on a %s", token, typ, self.Type())
			}
			if err := keepsSecrets[A](args.Delete("__self__")); err != nil {
				return nil, nil, err
			}
			var authorErr error // as in Component
			return func(ctx *pulumi.Context, tok string, in provider.CallArgs) (*provider.CallResult, error) {
				a, err := copyArgs[A](func(dst any) error { _, err := in.CopyTo(dst); return err })
				if err != nil {
					return nil, err
				}
				c := reflect.New(reflect.TypeFor[C]().Elem()).Interface().(C)
				if err := ctx.RegisterResource(typ, self.Name(), nil, c, pulumi.URN_(string(self))); err != nil {
					return nil, fmt.Errorf("reading %s: %w", self, err)
				}
				r, err := fn(ctx, c, a)
				if err != nil {
					authorErr = err
					return nil, err
				}
				return callResult(r)
			}, &authorErr, nil
		}))
	}
}

// handler is serve, the Go SDK's provider.Construct or provider.Call, as
// the adapter's handler of a token (rpc.SDKConstruct, rpc.SDKCall), whose
// request and answer are the protocol's messages; this package passes
// both on without naming them. prepare checks the inputs and gives the
// function serve runs, and where it keeps the author's own error: the SDK
// returns that as text, and the handler returns the error itself.
func handler[Req, Resp, F any](serve func(context.Context, Req, *grpc.ClientConn, F) (Resp, error), prepare func(inputs property.Map) (F, *error, error)) func(context.Context, string, property.Map, Req) (Resp, error) {
	return func(ctx context.Context, engineAddr string, inputs property.Map, req Req) (Resp, error) {
		var none Resp
		f, authorErr, err := prepare(inputs)
		if err != nil {
			return none, err
		}
		conn, err := engineConn(engineAddr)
		if err != nil {
			return none, err
		}
		resp, err := serve(ctx, req, conn, f)
		if err != nil && *authorErr != nil {
			return none, *authorErr
		}
		return resp, err
	}
}

// selfURN is the URN of the component a method is called on.
func selfURN(args property.Map) (urn.URN, bool) {
	v, ok := args.GetOk("__self__")
	if !ok || !v.IsResourceReference() {
		return "", false
	}
	u := v.AsResourceReference().URN
	return u, u.IsValid()
}

func callResult(r any) (*provider.CallResult, error) {
	v := reflect.ValueOf(r)
	switch {
	case !v.IsValid() || v.Type().Implements(inputType): // an Input or Output is one result
	case v.Kind() == reflect.Struct:
		ptr := reflect.New(v.Type())
		ptr.Elem().Set(v)
		return provider.NewCallResult(ptr.Interface())
	case v.Kind() == reflect.Pointer && v.Type().Elem().Kind() == reflect.Struct:
		return provider.NewCallResult(r)
	}
	return provider.NewSingletonCallResult(r)
}

// checkArgsType refuses argument types CopyTo cannot fill.
func checkArgsType[A any](token string) error {
	t := reflect.TypeFor[A]()
	if t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	if t.Kind() != reflect.Struct {
		return fmt.Errorf("%s: the arguments %s must be a struct or a pointer to one", token, reflect.TypeFor[A]())
	}
	// CopyTo sets an Input field to an Output: a concrete Input value
	// (pulumi.String, an enum's string type) cannot hold one. (A resource,
	// *sitekit.Site, is set to the resource.)
	for i := range t.NumField() {
		f := t.Field(i)
		k := f.Type.Kind()
		if _, tagged := f.Tag.Lookup("pulumi"); tagged && k != reflect.Interface && k != reflect.Pointer && k != reflect.Struct &&
			f.Type.Implements(inputType) && !f.Type.Implements(outputType) {
			return fmt.Errorf("%s: field %s.%s is %s, which the Go SDK cannot fill (it sets an Output): declare it as its Input interface (%sInput) or a plain Go type",
				token, t, f.Name, f.Type, f.Type.Name())
		}
	}
	return nil
}

// noEmbedded refuses a struct, among ts and the structs their fields hold,
// that embeds a struct with `pulumi` tags: the Go SDK reads and writes only
// a struct's own fields, so the embedded ones would be in the schema but
// never set.
func noEmbedded(token string, ts ...reflect.Type) error {
	seen := map[reflect.Type]bool{}
	var fields func(t reflect.Type) error
	// value checks the struct a value of type t holds, if any.
	value := func(t reflect.Type) error {
		if st, ok := sdkType(t); ok {
			if st.Elem == nil {
				return nil // a resource or a builtin
			}
			t = st.Elem
		}
		for t.Kind() == reflect.Pointer || t.Kind() == reflect.Slice || t.Kind() == reflect.Map || t.Kind() == reflect.Array {
			t = t.Elem()
		}
		return fields(t)
	}
	fields = func(t reflect.Type) error {
		for t.Kind() == reflect.Pointer {
			t = t.Elem()
		}
		if t.Kind() != reflect.Struct || seen[t] || t.PkgPath() == sdkPkg {
			return nil
		}
		seen[t] = true
		for i := range t.NumField() {
			f := t.Field(i)
			_, tagged := f.Tag.Lookup("pulumi")
			et := f.Type
			if et.Kind() == reflect.Pointer {
				et = et.Elem()
			}
			switch {
			case tagged:
				if err := value(f.Type); err != nil {
					return err
				}
			case f.Anonymous && et.Kind() == reflect.Struct && et.PkgPath() != sdkPkg && hasTagged(et):
				return fmt.Errorf("%s: %s embeds %s, whose fields the Go SDK neither reads nor writes; make it a field with a `pulumi` tag", token, t, et)
			}
		}
		return nil
	}
	for _, t := range ts {
		if err := fields(t); err != nil {
			return err
		}
	}
	return nil
}

// sdkPkg is the Go SDK's package: its structs (pulumi.ResourceState) are
// no properties.
var sdkPkg = reflect.TypeFor[pulumi.String]().PkgPath()

func hasTagged(t reflect.Type) bool {
	for i := range t.NumField() {
		if _, ok := t.Field(i).Tag.Lookup("pulumi"); ok {
			return true
		}
	}
	return false
}

// copyArgs fills a new A with copyTo, which takes a pointer to a struct.
func copyArgs[A any](copyTo func(any) error) (A, error) {
	var args A
	t := reflect.TypeFor[A]()
	if t.Kind() == reflect.Pointer {
		ptr := reflect.New(t.Elem())
		if err := copyTo(ptr.Interface()); err != nil {
			return args, err
		}
		return ptr.Interface().(A), nil
	}
	err := copyTo(&args)
	return args, err
}

// inputType is what pulumi.Input and pulumi.Output have in common: a field
// of such a type keeps a secret secret.
var inputType = reflect.TypeFor[interface{ ElementType() reflect.Type }]()

// keepsSecrets refuses inputs that are secret (or hold secrets) where A has
// a plain Go field for them, naming the field: the SDK would unwrap them
// into plaintext.
func keepsSecrets[A any](inputs property.Map) error {
	t := reflect.TypeFor[A]()
	if t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	for i := range t.NumField() {
		f := t.Field(i)
		name, _, _ := strings.Cut(f.Tag.Get("pulumi"), ",")
		if name == "" || !f.IsExported() {
			continue
		}
		v, ok := inputs.GetOk(name)
		if !ok || !v.HasSecrets() || keepsSecret(f.Type) {
			continue
		}
		return diag.Errorf(name, "is secret, but the component reads it into %s.%s, a plain %s, which would keep it as plaintext; "+
			"the component's author must make the field a pulumi Input type (for example pulumi.StringInput)", t.Name(), f.Name, f.Type)
	}
	return nil
}

// keepsSecret reports whether a field of type t keeps secrets: an Input or
// Output type, or a map or slice of them.
func keepsSecret(t reflect.Type) bool {
	for t.Kind() == reflect.Map || t.Kind() == reflect.Slice {
		if t.Implements(inputType) {
			return true
		}
		t = t.Elem()
	}
	return t.Implements(inputType)
}

var engines struct {
	sync.Mutex
	clients map[string]*provider.HostClient
}

// engineConn is one connection per engine address, for the SDK's logging.
func engineConn(addr string) (*grpc.ClientConn, error) {
	if addr == "" {
		return nil, fmt.Errorf("the provider is not attached to an engine")
	}
	engines.Lock()
	defer engines.Unlock()
	if c, ok := engines.clients[addr]; ok {
		return c.EngineConn(), nil
	}
	c, err := provider.NewHostClient(addr)
	if err != nil {
		return nil, fmt.Errorf("connecting to the engine at %s: %w", addr, err)
	}
	if engines.clients == nil {
		engines.clients = map[string]*provider.HostClient{}
	}
	engines.clients[addr] = c
	return c.EngineConn(), nil
}
