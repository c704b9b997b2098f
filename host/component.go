package host

import (
	"context"

	"github.com/pulumi/pulumi/sdk/v3/go/common/resource/urn"
	"github.com/pulumi/pulumi/sdk/v3/go/property"

	"github.com/polyhost/polyhost/host/internal/core"
	"github.com/polyhost/polyhost/monitorclient"
)

// A ComponentFunc registers a component's children on c, returning its outputs.
type ComponentFunc[A, O any] func(ctx context.Context, c *Component, args A) (O, error)

// Component is one component instance being built; its methods are safe
// from several goroutines.
type Component struct{ c *core.Component }

// StackInfo describes the deployment; Config is the stack configuration
// ("namespace:name" keys, secrets marked).
type StackInfo = core.StackInfo

// Resolved is the resource a reference points at ([Component.Resolve]).
type Resolved = core.Resolved

// URN of the component.
func (c *Component) URN() urn.URN { return c.c.URN() }

// Name of the component.
func (c *Component) Name() string { return c.c.Name() }

// Type token of the component, also in a method.
func (c *Component) Type() string { return c.c.Type() }

// Inputs are the raw inputs (in a method, its arguments), markers kept.
func (c *Component) Inputs() property.Map { return c.c.Inputs() }

// State is, in a method, the component's recorded outputs.
func (c *Component) State() property.Map { return c.c.State() }

// Options are the resource options the program set on the component; in a
// method only Providers, the provider it was called through.
func (c *Component) Options() monitorclient.ResourceOptions { return c.c.Options() }

// Stack describes the deployment.
func (c *Component) Stack() StackInfo { return c.c.Stack() }

// DryRun reports whether this is a preview.
func (c *Component) DryRun() bool { return c.c.Stack().DryRun }

// ProviderConfig is the configuration of the provider serving the component.
func (c *Component) ProviderConfig() property.Map { return c.c.ProviderConfig() }

// Features are what the engine's resource monitor supports.
func (c *Component) Features() monitorclient.Features { return c.c.Features() }

// Register registers a child resource (Parent the component unless set,
// the program's providers passed on) and waits for the engine's answer. A
// name holding a secret is refused: URNs are plaintext.
func (c *Component) Register(ctx context.Context, req monitorclient.RegisterResourceRequest) (monitorclient.RegisterResourceResponse, error) {
	return c.c.Register(ctx, req)
}

// Invoke calls a function of any package as an output-form invoke does;
// failures are a *monitorclient.FailuresError.
func (c *Component) Invoke(ctx context.Context, req monitorclient.InvokeRequest) (monitorclient.InvokeResponse, error) {
	return c.c.Invoke(ctx, req)
}

// Call calls a method of the resource Args["__self__"] refers to.
func (c *Component) Call(ctx context.Context, req monitorclient.CallRequest) (monitorclient.CallResponse, error) {
	return c.c.Call(ctx, req)
}

// Read reads an existing resource into the stack, as the SDKs' Get
// functions do; the engine never creates or deletes it.
func (c *Component) Read(ctx context.Context, req monitorclient.ReadResourceRequest) (monitorclient.ReadResourceResponse, error) {
	return c.c.Read(ctx, req)
}

// Resolve looks up the resource v refers to (a reference, or its URN)
// through the engine's pulumi:pulumi:getResource.
func (c *Component) Resolve(ctx context.Context, v property.Value) (Resolved, error) {
	return c.c.Resolve(ctx, v)
}

// RegisterPackage registers a (parameterized) package for children to
// name in PackageRef.
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

// Group returns a Group for registering children concurrently, as many as
// the engine's parallel (64 at most).
func (c *Component) Group(ctx context.Context) (*Group, context.Context) {
	limit := c.c.Stack().Parallel
	if limit <= 0 || limit > maxGroup {
		limit = maxGroup
	}
	return newGroup(ctx, limit, c.c.Token(), c.c.Name())
}

// Nested builds the component token/name of this package under parent, in
// this process, with fn.
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
