package host

import (
	"context"
	"fmt"

	"github.com/polyhost/polyhost/host/diag"

	"github.com/pulumi/pulumi/sdk/v3/go/common/resource/urn"
	"github.com/pulumi/pulumi/sdk/v3/go/property"

	"github.com/polyhost/polyhost/monitorclient"
)

// Invoke calls a function of any package, as an output-form invoke of the
// SDKs does from inside a component:
//   - the provider is req.Provider, else the one the program passed in
//     `providers` for the function's package, else the default;
//   - arguments holding an unknown (in a preview) give an unknown result
//     (resp.Unknown) without calling the provider;
//   - the result is secret if an argument was, and every value depends on
//     what the arguments depend on;
//   - the engine holds the call while a dependency is still being created
//     (DependsOn, if the engine supports it), and answers Unknown then;
//   - a function of a parameterized package names it by req.PackageRef
//     (see [Component.RegisterPackage]).
//
// A function's failures come back as a *monitorclient.FailuresError.
func (c *Component) Invoke(ctx context.Context, req monitorclient.InvokeRequest) (monitorclient.InvokeResponse, error) {
	step := "invoke " + req.Token
	args := property.New(req.Args)
	if args.HasComputed() {
		return monitorclient.InvokeResponse{Unknown: true}, nil
	}
	if req.Provider.URN() == "" {
		req.Provider = c.programProvider(req.Token)
	}
	if req.ParentStackTraceHandle == "" {
		req.ParentStackTraceHandle = c.info.StackTraceHandle
	}
	deps := monitorclient.Dependencies(args)
	if req.DependsOn == nil {
		req.DependsOn = deps
	}
	req.Args = c.seal(req.Args)
	resp, err := c.monitor.Invoke(ctx, req)
	if err != nil {
		return resp, &diag.StepError{Token: c.token, Name: c.name, Step: step, Err: err}
	}
	out := resp.Return
	if args.HasSecrets() {
		out = allSecret(out)
	}
	resp.Return = c.seal(withDependencies(out, deps))
	return resp, nil
}

// Call calls a method of another resource (its resource reference in
// Args["__self__"]), as the SDKs' method calls do: arguments holding an
// unknown give an unknown result (Unknown) without calling it; the
// provider is req.Provider, else the receiver's own, read from the engine;
// the result keeps the markers the method set, and depends on what the
// method says it depends on.
func (c *Component) Call(ctx context.Context, req monitorclient.CallRequest) (monitorclient.CallResponse, error) {
	step := "call " + req.Token
	if property.New(req.Args).HasComputed() {
		return monitorclient.CallResponse{Unknown: true}, nil
	}
	if self, ok := req.Args.GetOk("__self__"); ok && self.IsResourceReference() && req.Provider.URN() == "" {
		got, err := c.monitor.GetResource(ctx, monitorclient.GetResourceRequest{URN: self.AsResourceReference().URN})
		if err != nil {
			return monitorclient.CallResponse{}, &diag.StepError{Token: c.token, Name: c.name, Step: step, Err: err}
		}
		req.Provider = got.Provider
	}
	if req.ParentStackTraceHandle == "" {
		req.ParentStackTraceHandle = c.info.StackTraceHandle
	}
	req.Args = c.seal(req.Args)
	resp, err := c.monitor.Call(ctx, req)
	if err != nil {
		return monitorclient.CallResponse{}, &diag.StepError{Token: c.token, Name: c.name, Step: step, Err: err}
	}
	out := resp.Return
	for k, deps := range resp.ReturnDependencies {
		if v, ok := out.GetOk(k); ok {
			for _, d := range deps {
				v = v.WithDependencies(appendUnique(v.Dependencies(), d))
			}
			out = out.Set(k, v)
		}
	}
	resp.Return = c.seal(out)
	return resp, nil
}

// Read reads an existing resource of any package into the stack, as the
// SDKs' Get functions do: a child of the component unless Parent is set,
// with the provider the program passed for its package unless Provider is
// set. The engine records it as external: it never creates or deletes it.
// Its properties depend on it. As with Register, a name that contains a
// secret input is refused.
func (c *Component) Read(ctx context.Context, req monitorclient.ReadResourceRequest) (monitorclient.ReadResourceResponse, error) {
	if req.Parent == "" {
		req.Parent = c.urn
	}
	if err := c.checkChildName("read", req.Type, req.Name); err != nil {
		return monitorclient.ReadResourceResponse{}, err
	}
	if req.Provider.URN() == "" {
		req.Provider = c.programProvider(req.Type)
	}
	if req.ParentStackTraceHandle == "" {
		req.ParentStackTraceHandle = c.info.StackTraceHandle
	}
	req.Properties = c.seal(req.Properties)
	// A read is a registration: counted and bounded as Register's are.
	c.pending.Add(1)
	defer c.pending.Done()
	if err := c.window.acquire(ctx, c.prio); err != nil {
		return monitorclient.ReadResourceResponse{}, err
	}
	resp, err := c.monitor.ReadResource(ctx, req)
	c.window.release()
	if err != nil {
		return resp, &diag.StepError{Token: c.token, Name: c.name, Step: fmt.Sprintf("read %s %q", req.Type, req.Name), Err: err}
	}
	resp.Properties = c.seal(withDependency(resp.Properties, resp.URN))
	return resp, nil
}

// RegisterPackage registers a package (a parameterized one, typically) so
// that children can name it in RegisterResourceRequest.PackageRef.
func (c *Component) RegisterPackage(ctx context.Context, req monitorclient.RegisterPackageRequest) (monitorclient.RegisterPackageResponse, error) {
	resp, err := c.monitor.RegisterPackage(ctx, req)
	if err != nil {
		// The client's error says "register package <name>" already.
		return resp, &diag.StepError{Token: c.token, Name: c.name, Err: err}
	}
	return resp, nil
}

// withDependencies adds deps to every value of m.
func withDependencies(m property.Map, deps []urn.URN) property.Map {
	for _, d := range deps {
		m = withDependency(m, d)
	}
	return m
}
