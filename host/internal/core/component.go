package core

import (
	"context"
	"fmt"
	"maps"
	"slices"
	"strings"
	"sync"

	"github.com/pulumi/pulumi/sdk/v3/go/common/providers"
	"github.com/pulumi/pulumi/sdk/v3/go/common/resource/urn"
	"github.com/pulumi/pulumi/sdk/v3/go/property"

	"github.com/polyhost/polyhost/host/diag"
	"github.com/polyhost/polyhost/host/internal/redact"
	"github.com/polyhost/polyhost/host/internal/typed"
	"github.com/polyhost/polyhost/monitorclient"
)

// decodeArgs decodes inputs into args, turning mismatches into an
// InputError. It returns the paths of the unknown and secret inputs whose
// markers args has no room for (any field but a property.Value).
func decodeArgs(inputs property.Map, args any) (typed.Lost, error) {
	if raw, ok := args.(*property.Map); ok {
		*raw = inputs
		return typed.Lost{}, nil
	}
	lost, err := typed.Decode(inputs, args)
	if fes, ok := err.(typed.Errors); ok {
		return typed.Lost{}, &diag.InputError{Message: "invalid inputs", Failures: fes}
	}
	return lost, err
}

// unknownIf reports every output unknown if some unknown input was lost in
// decoding: outputs computed from its field's zero value would be wrong.
func unknownIf(lost []string, outputs property.Map) property.Map {
	if len(lost) == 0 {
		return outputs
	}
	return allUnknown(outputs)
}

// Decode fills the struct dst points to from m (host.Decode).
func Decode(m property.Map, dst any) error {
	_, err := decodeArgs(m, dst)
	return err
}

// StackInfo describes the deployment a Construct or Call runs in
// (host.StackInfo).
type StackInfo struct {
	Project      string
	Stack        string
	Organization string
	DryRun       bool // a preview: child outputs may be unknown
	Parallel     int
	// Config is the stack configuration, keys "namespace:name"; values of
	// secret keys are marked secret.
	Config property.Map
	// StackTraceHandle is the engine's handle for the program's stack trace
	// at this Construct or Call. What the component registers carries it as
	// its parentStackTraceHandle.
	StackTraceHandle string
}

// Component is one component instance being built, or the component a
// method is called on: host.Component's every call is one of its methods,
// where what all the calls share is written once.
type Component struct {
	token, name string // token: the component's type, or in a method the method's
	typ         string // the component's type
	urn         urn.URN
	inputs      property.Map
	state       property.Map // in a method: the component's recorded outputs
	opts        monitorclient.ResourceOptions
	info        StackInfo

	provider *Provider
	monitor  *monitorclient.Client
	window   *window         // the provider's registrations in flight, at most the engine's parallel
	prio     uint64          // order in the window: the Construct's (or Call's), shared with nested components
	pending  *sync.WaitGroup // registrations in flight, shared with nested components
	// secrets are the plaintexts of the secrets of the stack's and the
	// provider's configuration (and, in a method, of the component's
	// state): handed over with their markers, a value read out of them as
	// plain text is marked again where it reappears. Defence in depth;
	// arguments are covered by secretArgs.
	secrets *redact.Matcher
	// inputSecrets are those of the inputs alone. Only these refuse a child
	// name: a stack's secret config ("prod") may well be part of an
	// unrelated name.
	inputSecrets *redact.Matcher
	// secretArgs are the argument paths whose secrets were decoded into
	// plain Go values. If any, everything the component registers or
	// returns is secret: the host cannot tell what was computed from them.
	secretArgs []string
}

// The getters of host.Component's, which documents them.

func (c *Component) URN() urn.URN                           { return c.urn }
func (c *Component) Name() string                           { return c.name }
func (c *Component) Type() string                           { return c.typ }
func (c *Component) Token() string                          { return c.token } // of a method, the method's
func (c *Component) Inputs() property.Map                   { return c.inputs }
func (c *Component) State() property.Map                    { return c.state }
func (c *Component) Options() monitorclient.ResourceOptions { return c.opts }
func (c *Component) Stack() StackInfo                       { return c.info }
func (c *Component) ProviderConfig() property.Map           { return c.provider.Config() }
func (c *Component) Features() monitorclient.Features       { return c.monitor.Features() }

// Register registers a child (host.Component.Register): the program's
// provider by default, the stack trace handle, the count of registrations
// in flight and the window, the child's outputs depending on it.
func (c *Component) Register(ctx context.Context, req monitorclient.RegisterResourceRequest) (monitorclient.RegisterResourceResponse, error) {
	if req.Parent == "" {
		req.Parent = c.urn
	}
	if err := c.checkName("register child", req.Type, req.Name); err != nil {
		return monitorclient.RegisterResourceResponse{}, err
	}
	step := fmt.Sprintf("register child %s %q", req.Type, req.Name)
	if err := c.provider.checkChildKind(req); err != nil {
		return monitorclient.RegisterResourceResponse{}, c.stepError(step, err)
	}
	if req.Custom {
		c.fillIn(&req.Provider, req.Type, &req.ParentStackTraceHandle)
	} else {
		c.fillIn(nil, "", &req.ParentStackTraceHandle)
		if len(c.opts.Providers) > 0 {
			own := req.Providers
			req.Providers = maps.Clone(c.opts.Providers)
			maps.Copy(req.Providers, own)
		}
	}
	c.provider.ownVersion(&req)
	req.Inputs = c.markSecrets(req.Inputs)
	// A remote component is answered when its Construct returns, which may
	// run in this process and need places: its registration takes none, or
	// a window full of them would wait forever.
	resp, err := inFlight(ctx, c, !req.Remote, func() (monitorclient.RegisterResourceResponse, error) {
		return c.monitor.RegisterResource(ctx, req)
	})
	resp.DryRun = c.info.DryRun
	if err != nil {
		return resp, c.stepError(step, err)
	}
	switch {
	case resp.Result == monitorclient.ResultFail:
		return resp, c.stepError(step, fmt.Errorf("the engine reports the registration failed"))
	case resp.Result == monitorclient.ResultSkip || resp.Unknown:
		resp.Outputs = allUnknown(resp.Outputs)
	}
	resp.Outputs = withDependency(resp.Outputs, resp.URN)
	return resp, nil
}

// checkName checks the name a child (registered or read) gets: names are
// stored in plaintext, in the URN, so a name holding a secret input's
// text, or a key of a secret map, is refused, the error not printing it.
// Nothing computed from the secret (a digest) stands in for it: a short
// key is found again by hashing guesses. What the component's own name
// holds is public already (in its URN): a secret equal to a word of it is
// not looked for there.
func (c *Component) checkName(step, typ, name string) error {
	public := publicSpans(name, c.name)
	for _, o := range c.inputSecrets.Occurrences(name) {
		if slices.ContainsFunc(public, func(p redact.Span) bool { return p.Start <= o.Start && o.End <= p.End }) {
			continue
		}
		if o.End-o.Start < redact.MinLen && !standsAlone(name, o.Span) {
			continue // a short key inside a word ("a" in "pages") is not it
		}
		what := "a secret input"
		if o.Key {
			what = "a key of a secret map (make the map's values secret, not the map)"
		}
		return c.stepError(step+" "+typ, fmt.Errorf("the child's name contains %s, and resource names are stored in plaintext (in the URN)", what))
	}
	return nil
}

// standsAlone reports whether sp of s is a word of its own: no letter or
// digit right before or after it.
func standsAlone(s string, sp redact.Span) bool {
	alnum := func(b byte) bool { return 'a' <= b|0x20 && b|0x20 <= 'z' || '0' <= b && b <= '9' }
	return (sp.Start == 0 || !alnum(s[sp.Start-1])) && (sp.End == len(s) || !alnum(s[sp.End]))
}

// publicSpans are the places s holds the text of name (not empty), ASCII
// case aside, as the matcher finds secrets.
func publicSpans(s, name string) []redact.Span {
	s, name = redact.LowerASCII(s), redact.LowerASCII(name) // byte for byte: the spans hold
	var out []redact.Span
	for i := 0; name != "" && i <= len(s)-len(name); {
		j := strings.Index(s[i:], name)
		if j < 0 {
			break
		}
		out = append(out, redact.Span{Start: i + j, End: i + j + len(name)})
		i += j + 1
	}
	return out
}

// The sequence the calls a component makes share: fillIn, markSecrets
// (below), inFlight and stepError.

// fillIn fills what a request from the component leaves unset: the
// provider (if asked: provider not nil), the one the program passed in
// `providers` for the package of token, else the default; and the
// program's stack trace handle.
func (c *Component) fillIn(provider *providers.Reference, token string, handle *string) {
	if provider != nil && provider.URN() == "" {
		*provider = c.opts.Providers[packageOf(token)]
	}
	if *handle == "" {
		*handle = c.info.StackTraceHandle
	}
}

// ownVersion gives a child of p's own package that names no provider,
// version or package the plugin's version when the engine serves this
// instance as a versioned default provider (default_0_1_0), as a generated
// SDK sends its own: the engine then serves the child by the provider that
// serves its parent, not by a second, unversioned one. On the unversioned
// default, it sends none, so the child lands there too. A parameterized
// package's children need its packageRef, and a development build has no
// version the engine could find: both are left as they are.
func (p *Provider) ownVersion(req *monitorclient.RegisterResourceRequest) {
	if req.Version != "" || req.PackageRef != "" || req.Provider.URN() != "" || len(req.Providers) > 0 {
		return
	}
	if packageOf(req.Type) != p.name || p.param != nil || p.version == devVersion {
		return
	}
	if self := p.configNow().self.URN(); self != "" && strings.HasPrefix(self.Name(), "default_") {
		req.Version = p.version
	}
}

// inFlight sends a registration of the component: counted until it is
// answered (a Construct waits for all of them), and if bounded, one of
// the engine's parallel in the provider's window.
func inFlight[T any](ctx context.Context, c *Component, bounded bool, send func() (T, error)) (T, error) {
	c.pending.Add(1)
	defer c.pending.Done()
	w := c.window
	if !bounded {
		w = nil
	}
	if err := w.acquire(ctx, c.prio); err != nil {
		var zero T
		return zero, err
	}
	defer w.release()
	return send()
}

// stepError says that step of the component failed.
func (c *Component) stepError(step string, err error) error {
	return &diag.StepError{Token: c.token, Name: c.name, Step: step, Err: err}
}

// allUnknown replaces every value of m by an unknown, keeping its secret
// and dependency markers.
func allUnknown(m property.Map) property.Map {
	for k, v := range m.All {
		m = m.Set(k, property.New(property.Computed).WithSecret(v.Secret()).WithDependencies(v.Dependencies()))
	}
	return m
}

// Log sends a message to the engine, attached to the component.
func (c *Component) Log(ctx context.Context, severity monitorclient.Severity, msg string) {
	c.provider.Log(ctx, severity, c.urn, msg)
}

// child returns the handle of a nested component registered under c.
func (c *Component) child(token, name string, u urn.URN, inputs property.Map) *Component {
	return &Component{
		token: token, typ: token, name: name, urn: u, inputs: inputs,
		opts:         monitorclient.ResourceOptions{Providers: c.opts.Providers},
		info:         c.info,
		provider:     c.provider,
		monitor:      c.monitor,
		window:       c.window,
		prio:         c.prio,
		pending:      c.pending,
		secrets:      c.secrets,
		inputSecrets: c.inputSecrets,
		secretArgs:   c.secretArgs,
	}
}

// failClosed records that secrets at paths of the arguments were decoded
// into plain Go values, and warns once per process for each token and set
// of paths.
func (c *Component) failClosed(ctx context.Context, paths []string) {
	if len(paths) == 0 {
		return
	}
	c.secretArgs = paths
	c.provider.warnSecretArgs(ctx, c.token, c.urn, paths)
}

// markSecrets marks m as it leaves the component: all of it secret if a secret
// argument reached a plain Go value, else with the config's secret texts.
func (c *Component) markSecrets(m property.Map) property.Map {
	if len(c.secretArgs) > 0 {
		return allSecret(m)
	}
	return c.secrets.Mark(m)
}

// allSecret marks every value of m secret.
func allSecret(m property.Map) property.Map {
	for k, v := range m.All {
		m = m.Set(k, v.WithSecret(true))
	}
	return m
}

// Nested builds a component of this package as a child of c, in this
// process (host.Nested): it registers token/name under c with inputs, runs
// build on the child and records the outputs build returns.
func (c *Component) Nested(ctx context.Context, token, name string, args any, build func(ctx context.Context, child *Component) (any, error)) error {
	inputs, err := typed.Encode(args)
	if err != nil {
		return &diag.StepError{Token: token, Name: name, Step: "encode inputs", Err: err}
	}
	resp, err := c.Register(ctx, monitorclient.RegisterResourceRequest{Type: token, Name: name})
	if err != nil {
		return err
	}
	child := c.child(token, name, resp.URN, inputs)
	ctx = c.provider.enter(ctx, resp.URN, inputs, c.info.Config)
	out, err := runSafely(ctx, token, name, func(ctx context.Context) (any, error) { return build(ctx, child) })
	if err != nil {
		return err
	}
	outputs, err := typed.Encode(out)
	if err != nil {
		return &diag.StepError{Token: token, Name: name, Step: "encode outputs", Err: err}
	}
	outputs = child.markSecrets(outputs)
	if err := c.provider.checkOutputs(ctx, token, name, resp.URN, outputs); err != nil {
		return err
	}
	if _, err := c.monitor.RegisterResourceOutputs(ctx, monitorclient.RegisterResourceOutputsRequest{URN: resp.URN, Outputs: outputs}); err != nil {
		return &diag.StepError{Token: token, Name: name, Step: "register outputs", Err: err}
	}
	return nil
}

// packageOf returns the package of a type token, "pkg:module:Type" -> "pkg".
func packageOf(token string) string {
	pkg, _, _ := strings.Cut(token, ":")
	return pkg
}

// withDependency marks every top-level value of m as depending on urn.
func withDependency(m property.Map, u urn.URN) property.Map {
	if m.Len() == 0 {
		return m
	}
	out := make(map[string]property.Value, m.Len())
	only := []urn.URN{u} // WithDependencies copies it
	for k, v := range m.All {
		if deps := v.Dependencies(); len(deps) > 0 {
			out[k] = v.WithDependencies(appendUnique(deps, u))
		} else {
			out[k] = v.WithDependencies(only)
		}
	}
	return property.NewMap(out)
}

func appendUnique(deps []urn.URN, u urn.URN) []urn.URN {
	for _, d := range deps {
		if d == u {
			return deps
		}
	}
	return append(append([]urn.URN(nil), deps...), u)
}

// Invoke calls a function of any package (host.Component.Invoke).
func (c *Component) Invoke(ctx context.Context, req monitorclient.InvokeRequest) (monitorclient.InvokeResponse, error) {
	step := "invoke " + req.Token
	args := property.New(req.Args)
	if args.HasComputed() {
		return monitorclient.InvokeResponse{Unknown: true}, nil
	}
	c.fillIn(&req.Provider, req.Token, &req.ParentStackTraceHandle)
	deps := monitorclient.Dependencies(args)
	if req.DependsOn == nil {
		req.DependsOn = deps
	}
	req.Args = c.markSecrets(req.Args)
	resp, err := c.monitor.Invoke(ctx, req)
	if err != nil {
		return resp, c.stepError(step, err)
	}
	out := resp.Return
	if args.HasSecrets() {
		out = allSecret(out)
	}
	resp.Return = c.markSecrets(withDependencies(out, deps))
	return resp, nil
}

// Call calls a method of another resource (host.Component.Call).
func (c *Component) Call(ctx context.Context, req monitorclient.CallRequest) (monitorclient.CallResponse, error) {
	step := "call " + req.Token
	if property.New(req.Args).HasComputed() {
		return monitorclient.CallResponse{Unknown: true}, nil
	}
	if self, ok := req.Args.GetOk("__self__"); ok && self.IsResourceReference() && req.Provider.URN() == "" {
		got, err := c.monitor.GetResource(ctx, monitorclient.GetResourceRequest{URN: self.AsResourceReference().URN})
		if err != nil {
			return monitorclient.CallResponse{}, c.stepError(step, err)
		}
		req.Provider = got.Provider
	}
	c.fillIn(nil, "", &req.ParentStackTraceHandle) // the receiver's provider, not the program's
	req.Args = c.markSecrets(req.Args)
	resp, err := c.monitor.Call(ctx, req)
	if err != nil {
		return monitorclient.CallResponse{}, c.stepError(step, err)
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
	resp.Return = c.markSecrets(out)
	return resp, nil
}

// Read reads an existing resource into the stack (host.Component.Read).
func (c *Component) Read(ctx context.Context, req monitorclient.ReadResourceRequest) (monitorclient.ReadResourceResponse, error) {
	if req.Parent == "" {
		req.Parent = c.urn
	}
	if err := c.checkName("read", req.Type, req.Name); err != nil {
		return monitorclient.ReadResourceResponse{}, err
	}
	c.fillIn(&req.Provider, req.Type, &req.ParentStackTraceHandle)
	req.Properties = c.markSecrets(req.Properties)
	// A read is a registration: counted and bounded as Register's are.
	resp, err := inFlight(ctx, c, true, func() (monitorclient.ReadResourceResponse, error) {
		return c.monitor.ReadResource(ctx, req)
	})
	if err != nil {
		return resp, c.stepError(fmt.Sprintf("read %s %q", req.Type, req.Name), err)
	}
	resp.Properties = c.markSecrets(withDependency(resp.Properties, resp.URN))
	return resp, nil
}

// RegisterPackage registers a package (host.Component.RegisterPackage).
func (c *Component) RegisterPackage(ctx context.Context, req monitorclient.RegisterPackageRequest) (monitorclient.RegisterPackageResponse, error) {
	resp, err := c.monitor.RegisterPackage(ctx, req)
	if err != nil {
		return resp, c.stepError("", err) // the client's error says "register package <name>" already
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
