package host

import (
	"context"

	"github.com/pulumi/pulumi/sdk/v3/go/common/resource/urn"
	"github.com/pulumi/pulumi/sdk/v3/go/property"

	"github.com/polyhost/polyhost/host/internal/core"
	"github.com/polyhost/polyhost/monitorclient"
)

// A ComponentFunc builds one component instance: it registers the
// component's children on c and returns the component's outputs. Its
// inputs are decoded into A, and O encoded into its outputs, as the
// package doc says under "Inputs and outputs".
type ComponentFunc[A, O any] func(ctx context.Context, c *Component, args A) (O, error)

// Component is one component instance being built. Register its children
// with [Component.Register]; it is safe to do so from several goroutines.
type Component struct{ c *core.Component }

// StackInfo describes the deployment a Construct or Call runs in: Project,
// Stack, Organization, DryRun (a preview: child outputs may be unknown),
// Parallel, Config (the stack configuration, keys "namespace:name", secret
// values marked) and StackTraceHandle (what the component registers
// carries it as its parentStackTraceHandle).
type StackInfo = core.StackInfo

// Resolved is a resource a reference points at, as the engine knows it
// ([Component.Resolve]): its URN, ID (empty for components, and in a
// preview for a custom resource still to be created), Type, Provider and
// State (its outputs, secrets kept, every value depending on the
// resource). Known is false when the engine could not say, in a preview,
// what a reference without an ID points at.
type Resolved = core.Resolved

// URN of the component.
func (c *Component) URN() urn.URN { return c.c.URN() }

// Name of the component.
func (c *Component) Name() string { return c.c.Name() }

// Type token of the component, also in a method (not the method's token).
func (c *Component) Type() string { return c.c.Type() }

// Inputs are the raw inputs, with unknown, secret and dependency markers.
// In a method they are the method's arguments, without __self__ (the
// component's outputs are in [Component.State]).
func (c *Component) Inputs() property.Map { return c.c.Inputs() }

// State is, in a method, the component's outputs as the engine recorded
// them, secrets kept; each value depends on the component. It is empty
// during Construct.
func (c *Component) State() property.Map { return c.c.State() }

// Options are the resource options the program set on the component: the
// host applied them to the component's own registration and passes its
// providers on to its children (see [Component.Register]). In a method
// they hold only Providers, for the package itself: the provider the
// method was called through (the provider resource, for a provider's
// method), as a Call carries no options; a nested component ([Nested])
// has its parent's Providers only.
func (c *Component) Options() monitorclient.ResourceOptions { return c.c.Options() }

// Stack describes the deployment.
func (c *Component) Stack() StackInfo { return c.c.Stack() }

// DryRun reports whether this is a preview.
func (c *Component) DryRun() bool { return c.c.Stack().DryRun }

// ProviderConfig is the configuration of the provider instance serving this
// component (after CheckConfig defaults).
func (c *Component) ProviderConfig() property.Map { return c.c.ProviderConfig() }

// Features are what the engine's resource monitor said it supports, as
// the monitor of a Pulumi program's SDK asks it: Features().Transforms,
// .ResourceHooks, .Parameterization and so on.
func (c *Component) Features() monitorclient.Features { return c.c.Features() }

// Register registers a child resource and waits for the engine's answer.
// Parent defaults to the component. A custom child of a package the
// program passed in `providers` gets that provider unless it names one; a
// child component gets the whole map, as the Go SDK passes it on. Read the
// child's outputs with resp.Output(key), its ID with resp.IDValue() and a
// reference to it with resp.Reference(): values that depend on it,
// unknown in a preview where the engine sent none. Names are in URNs, in
// plaintext: a name holding a secret input, or a key of a secret map, is
// refused (one equal to a word of the component's own name aside). At
// most the engine's parallel registrations of the process are in flight
// at once, those of earlier components first.
func (c *Component) Register(ctx context.Context, req monitorclient.RegisterResourceRequest) (monitorclient.RegisterResourceResponse, error) {
	return c.c.Register(ctx, req)
}

// Invoke calls a function of any package, as an output-form invoke of the
// SDKs does from inside a component: the provider is req.Provider, else
// the one the program passed for the function's package, else the
// default; an argument holding an unknown (in a preview) gives an unknown
// result (resp.Unknown) without calling the provider; the result is secret
// if an argument was, and every value depends on what the arguments depend
// on; the engine holds the call while a dependency is being created
// (DependsOn, where the engine supports it). A function's failures come
// back as a *monitorclient.FailuresError.
func (c *Component) Invoke(ctx context.Context, req monitorclient.InvokeRequest) (monitorclient.InvokeResponse, error) {
	return c.c.Invoke(ctx, req)
}

// Call calls a method of another resource (its resource reference in
// Args["__self__"]), as the SDKs' method calls do: an argument holding an
// unknown gives an unknown result (Unknown) without calling it; the
// provider is req.Provider, else the receiver's own; the result keeps the
// markers the method set, and depends on what the method says it depends
// on.
func (c *Component) Call(ctx context.Context, req monitorclient.CallRequest) (monitorclient.CallResponse, error) {
	return c.c.Call(ctx, req)
}

// Read reads an existing resource of any package into the stack, as the
// SDKs' Get functions do: a child of the component unless Parent is set,
// with the provider the program passed for its package unless Provider is
// set. The engine records it as external: it never creates or deletes it.
// Its properties depend on it. Its name is checked as Register checks a
// child's.
func (c *Component) Read(ctx context.Context, req monitorclient.ReadResourceRequest) (monitorclient.ReadResourceResponse, error) {
	return c.c.Read(ctx, req)
}

// Resolve looks up the resource v refers to through the engine's builtin
// pulumi:pulumi:getResource. v is a resource reference, or, where the
// program could not send references, the resource's URN.
func (c *Component) Resolve(ctx context.Context, v property.Value) (Resolved, error) {
	return c.c.Resolve(ctx, v)
}

// RegisterPackage registers a package (a parameterized one, typically) so
// that children can name it in RegisterResourceRequest.PackageRef.
func (c *Component) RegisterPackage(ctx context.Context, req monitorclient.RegisterPackageRequest) (monitorclient.RegisterPackageResponse, error) {
	return c.c.RegisterPackage(ctx, req)
}

// Log sends a message to the engine, attached to the component.
func (c *Component) Log(ctx context.Context, severity monitorclient.Severity, msg string) {
	c.c.Log(ctx, severity, msg)
}

// maxGroup caps the goroutines of a Group when the engine sets no useful
// limit: registrations beyond it would only wait, each on its own stack.
const maxGroup = 64

// Group returns a Group for registering children concurrently, on at most
// as many goroutines as the engine's parallel allows (and never more than
// 64).
func (c *Component) Group(ctx context.Context) (*Group, context.Context) {
	limit := c.c.Stack().Parallel
	if limit <= 0 || limit > maxGroup {
		limit = maxGroup
	}
	return newGroup(ctx, limit, c.c.Token(), c.c.Name())
}

// Nested builds a component of this package as a child of parent, in this
// process: it registers token/name under parent, runs fn on it and records
// the outputs fn returns.
func Nested[A, O any](ctx context.Context, parent *Component, token, name string, args A, fn ComponentFunc[A, O]) (O, error) {
	var out O
	err := parent.c.Nested(ctx, token, name, args, func(ctx context.Context, child *core.Component) (any, error) {
		var err error
		out, err = fn(ctx, &Component{child}, args)
		return out, err
	})
	if err != nil {
		var zero O
		return zero, err
	}
	return out, nil
}
