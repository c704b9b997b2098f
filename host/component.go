package host

import (
	"context"
	"errors"
	"fmt"
	"maps"
	"runtime/debug"
	"strings"
	"sync"

	"github.com/polyhost/polyhost/host/diag"

	"github.com/pulumi/pulumi/sdk/v3/go/common/providers"
	"github.com/pulumi/pulumi/sdk/v3/go/common/resource/urn"
	"github.com/pulumi/pulumi/sdk/v3/go/property"

	"github.com/polyhost/polyhost/host/internal/typed"
	"github.com/polyhost/polyhost/monitorclient"
)

// A ComponentFunc builds one component instance: it registers the
// component's children on c and returns the component's outputs.
//
// A is a struct whose `pulumi:"name"` fields receive the inputs; a field
// tagged `pulumi:"name,optional"` may be missing. Use property.Map to take
// the inputs raw. O is encoded the same way into the component's outputs.
//
// A field of type property.Value receives the raw value, with its unknown,
// secret and dependency markers. Any other field gets only the plain value:
// a child built from it records no dependency on the resources the input
// came from (the component itself still depends on them).
// In a preview an unknown input leaves it at its zero value; the function
// still runs, so that its children are registered, but the host reports
// every output unknown, since they may be computed from that zero value.
// A secret arrives as its plaintext, and the host cannot follow what is
// computed from it (hashed, encoded, upper-cased), so it fails closed: once
// a secret has reached a plain field, every input of every child the
// component registers, and every output it returns, is marked secret, and
// the engine shows a warning naming the field, once per process. Use
// property.Value, with [Apply], for inputs that may be unknown or secret:
// its markers are kept exactly. Methods and functions decode their
// arguments the same way.
type ComponentFunc[A, O any] func(ctx context.Context, c *Component, args A) (O, error)

// constructor is a ComponentFunc with its argument and result types erased.
type constructor func(ctx context.Context, c *Component) (property.Map, error)

// WithComponent serves the component type token with fn.
func WithComponent[A, O any](token string, fn ComponentFunc[A, O]) Option {
	return func(p *Provider) error {
		if p.serves(token) {
			return fmt.Errorf("component %s registered twice", token)
		}
		p.components[token] = func(ctx context.Context, c *Component) (property.Map, error) {
			var args A
			lost, err := decodeArgs(c.inputs, &args)
			if err != nil {
				return property.Map{}, err
			}
			c.failClosed(ctx, lost.Secret)
			out, err := fn(ctx, c, args)
			if err != nil {
				return property.Map{}, err
			}
			m, err := typed.Encode(out)
			return unknownIf(lost.Unknown, m), err
		}
		p.shapes[token] = shapeOf[A, O](fn)
		return nil
	}
}

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

// Encode turns a struct with `pulumi:"name"` tags into a property map, for
// building child inputs from typed values.
func Encode(v any) (property.Map, error) { return typed.Encode(v) }

// Decode fills the struct dst points to from m; the inverse of [Encode].
func Decode(m property.Map, dst any) error {
	_, err := decodeArgs(m, dst)
	return err
}

// StackInfo describes the deployment a Construct or Call runs in.
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

// Component is one component instance being built. Register its children
// with [Component.Register]; it is safe to do so from several goroutines.
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
	// secrets are the plaintexts of the stack config's secrets (and, in a
	// method, of the component's state): handed over with their markers, a
	// value read out of them as plain text is marked again where it
	// reappears. Defence in depth; arguments are covered by secretArgs.
	secrets secretSet
	// inputSecrets are those of the inputs alone. Only these refuse a child
	// name: a stack's secret config ("prod") may well be part of an
	// unrelated name.
	inputSecrets secretSet
	// secretArgs are the argument paths whose secrets were decoded into
	// plain Go values. If any, everything the component registers or
	// returns is secret: the host cannot tell what was computed from them.
	secretArgs []string
}

// URN of the component.
func (c *Component) URN() urn.URN { return c.urn }

// Name of the component.
func (c *Component) Name() string { return c.name }

// Type token of the component, also in a method (not the method's token).
func (c *Component) Type() string { return c.typ }

// Inputs are the raw inputs, with unknown, secret and dependency markers.
// In a method they are the method's arguments, without __self__: a Call
// does not carry the component's inputs (its outputs are in [Component.State]).
func (c *Component) Inputs() property.Map { return c.inputs }

// State is, in a method, the component's outputs as the engine recorded
// them, secrets kept; each value depends on the component. It is empty
// during Construct.
func (c *Component) State() property.Map { return c.state }

// Options are the resource options the program set on the component; the
// host applied them to the component's own registration, and passes its
// providers on to its children (see [Component.Register]). In a method they
// are empty: a Call does not carry them, so children a method registers
// get no providers from the program either (pass them in the request). A
// nested component ([Nested]) has its parent's Providers only.
func (c *Component) Options() monitorclient.ResourceOptions { return c.opts }

// Stack describes the deployment.
func (c *Component) Stack() StackInfo { return c.info }

// DryRun reports whether this is a preview.
func (c *Component) DryRun() bool { return c.info.DryRun }

// ProviderConfig is the configuration of the provider instance serving this
// component (after CheckConfig defaults).
func (c *Component) ProviderConfig() property.Map { return c.provider.currentConfig() }

// Register registers a child resource and waits for the engine's answer.
// Parent defaults to the component. A custom child of a package the
// program passed in `providers` gets that provider unless it names one. A
// child component, local or remote, gets the whole map in its Providers
// (entries it sets itself win), as the Go SDK passes them on: a remote
// component's own provider then builds its children with the program's
// providers, with nothing to do here. Each output of the child carries a
// dependency on the child, so values derived from it carry it too. Read
// them with resp.Output(key), and the ID with resp.IDValue(): in a preview
// an output or ID the engine did not send is unknown there, not null, as
// in the Go SDK. A name that contains a secret input is refused: it would
// be stored in the URN. At most the engine's parallel registrations of all
// the components of the process are in flight at once, those of earlier
// components first; a remote component's registration is not counted.
func (c *Component) Register(ctx context.Context, req monitorclient.RegisterResourceRequest) (monitorclient.RegisterResourceResponse, error) {
	if req.Parent == "" {
		req.Parent = c.urn
	}
	if err := c.checkChildName("register child", req.Type, req.Name); err != nil {
		return monitorclient.RegisterResourceResponse{}, err
	}
	if err := c.provider.checkChildKind(req); err != nil {
		return monitorclient.RegisterResourceResponse{}, &diag.StepError{Token: c.token, Name: c.name, Step: fmt.Sprintf("register child %s %q", req.Type, req.Name), Err: err}
	}
	switch {
	case req.Custom && req.Provider == (providers.Reference{}):
		req.Provider = c.programProvider(req.Type)
	case !req.Custom && len(c.opts.Providers) > 0:
		own := req.Providers
		req.Providers = maps.Clone(c.opts.Providers)
		maps.Copy(req.Providers, own)
	}
	if req.ParentStackTraceHandle == "" {
		req.ParentStackTraceHandle = c.info.StackTraceHandle
	}
	req.Inputs = c.seal(req.Inputs)
	c.pending.Add(1)
	defer c.pending.Done()
	// A remote component is answered when its Construct returns, which may
	// run in this process and need places: its registration takes none, or
	// a window full of them would wait forever.
	w := c.window
	if req.Remote {
		w = nil
	}
	if err := w.acquire(ctx, c.prio); err != nil {
		return monitorclient.RegisterResourceResponse{}, err
	}
	resp, err := c.monitor.RegisterResource(ctx, req)
	w.release()
	resp.DryRun = c.info.DryRun
	if err != nil {
		return resp, &diag.StepError{Token: c.token, Name: c.name, Step: fmt.Sprintf("register child %s %q", req.Type, req.Name), Err: err}
	}
	switch {
	case resp.Result == monitorclient.ResultFail:
		return resp, &diag.StepError{Token: c.token, Name: c.name, Step: fmt.Sprintf("register child %s %q", req.Type, req.Name),
			Err: fmt.Errorf("the engine reports the registration failed")}
	case resp.Result == monitorclient.ResultSkip || resp.Unknown:
		resp.Outputs = allUnknown(resp.Outputs)
	}
	resp.Outputs = withDependency(resp.Outputs, resp.URN)
	return resp, nil
}

// checkChildName refuses a name (of a child registered or read) that
// contains a secret input: names are stored in plaintext, in the URN. The
// error does not print the name.
func (c *Component) checkChildName(step, typ, name string) error {
	if !c.inputSecrets.within(name) {
		return nil
	}
	return &diag.StepError{Token: c.token, Name: c.name, Step: step + " " + typ,
		Err: errors.New("the child's name contains a secret input, and resource names are stored in plaintext (in the URN)")}
}

// programProvider is the provider the program passed in `providers` for
// the package of token, or the zero reference (the default provider).
func (c *Component) programProvider(token string) providers.Reference {
	return c.opts.Providers[packageOf(token)]
}

// allUnknown replaces every value of m by an unknown, keeping its secret
// and dependency markers.
func allUnknown(m property.Map) property.Map {
	for k, v := range m.All {
		m = m.Set(k, property.New(property.Computed).WithSecret(v.Secret()).WithDependencies(v.Dependencies()))
	}
	return m
}

// maxGroup caps the goroutines of a Group when the engine sets no useful
// limit: registrations beyond it would only wait, each on its own stack.
const maxGroup = 64

// Group returns a Group for registering children concurrently. It runs at
// most as many goroutines as the engine's parallel setting allows (and never
// more than 64), so a component with thousands of children does not start
// thousands of goroutines.
func (c *Component) Group(ctx context.Context) (*Group, context.Context) {
	limit := c.info.Parallel
	if limit <= 0 || limit > maxGroup {
		limit = maxGroup
	}
	return newGroup(ctx, limit, c.token, c.name)
}

// Log sends a message to the engine, attached to the component.
func (c *Component) Log(ctx context.Context, severity monitorclient.Severity, msg string) {
	c.provider.log(ctx, severity, c.urn, msg)
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

// seal marks m as it leaves the component: all of it secret if a secret
// argument reached a plain Go value, else with the config's secret texts.
func (c *Component) seal(m property.Map) property.Map {
	if len(c.secretArgs) > 0 {
		return allSecret(m)
	}
	return c.secrets.mark(m)
}

// allSecret marks every value of m secret.
func allSecret(m property.Map) property.Map {
	for k, v := range m.All {
		m = m.Set(k, v.WithSecret(true))
	}
	return m
}

// Nested builds a component of this package as a child of parent, in this
// process: it registers token/name under parent, runs fn on it and records
// the outputs fn returns.
func Nested[A, O any](ctx context.Context, parent *Component, token, name string, args A, fn ComponentFunc[A, O]) (O, error) {
	var zero O
	inputs, err := typed.Encode(args)
	if err != nil {
		return zero, &diag.StepError{Token: token, Name: name, Step: "encode inputs", Err: err}
	}
	resp, err := parent.Register(ctx, monitorclient.RegisterResourceRequest{Type: token, Name: name})
	if err != nil {
		return zero, err
	}
	child := parent.child(token, name, resp.URN, inputs)
	out, err := runSafely(ctx, token, name, func(ctx context.Context) (O, error) { return fn(ctx, child, args) })
	if err != nil {
		return zero, err
	}
	outputs, err := typed.Encode(out)
	if err != nil {
		return zero, &diag.StepError{Token: token, Name: name, Step: "encode outputs", Err: err}
	}
	outputs = child.seal(outputs)
	if err := parent.provider.checkOutputs(ctx, token, name, resp.URN, outputs); err != nil {
		return zero, err
	}
	if _, err := parent.monitor.RegisterResourceOutputs(ctx, monitorclient.RegisterResourceOutputsRequest{URN: resp.URN, Outputs: outputs}); err != nil {
		return zero, &diag.StepError{Token: token, Name: name, Step: "register outputs", Err: err}
	}
	return out, nil
}

// runSafely runs component code, turning a panic into a StepError so one bad
// call cannot take the provider down.
func runSafely[T any](ctx context.Context, token, name string, f func(context.Context) (T, error)) (out T, err error) {
	defer func() {
		if r := recover(); r != nil {
			err = panicError(token, name, diag.StepConstruct, r)
		}
	}()
	out, err = f(ctx)
	if err != nil {
		if _, ok := err.(*diag.StepError); !ok {
			if _, isInput := asInputError(err); !isInput {
				err = &diag.StepError{Token: token, Name: name, Step: diag.StepConstruct, Err: err}
			}
		}
	}
	return out, err
}

// panicError records a panic r in component code, with where it happened.
func panicError(token, name, step string, r any) *diag.StepError {
	return &diag.StepError{Token: token, Name: name, Step: step, Panic: true,
		Err: fmt.Errorf("%v", r), Stack: debug.Stack()}
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

// Apply derives a value from others as an output's apply does: if any input
// is unknown the result is unknown, and the result is secret, and depends on
// everything, that any input is or depends on. f sees the inputs without
// markers. For a derivation that can fail, use [ApplyErr].
func Apply(f func(vals ...property.Value) property.Value, vals ...property.Value) property.Value {
	v, _ := ApplyErr(func(vals ...property.Value) (property.Value, error) { return f(vals...), nil }, vals...)
	return v
}

// ApplyErr is [Apply] for a derivation that can fail: it returns f's error,
// for the component or method to return, which fails it (a [diag.InputError],
// from [diag.Errorf], goes to the user as bad input). Like an output's apply, f
// does not run while an input is unknown, so in a preview an error may only
// show in the update.
func ApplyErr(f func(vals ...property.Value) (property.Value, error), vals ...property.Value) (property.Value, error) {
	var deps []urn.URN
	seen := map[urn.URN]bool{}
	secret, unknown := false, false
	plain := make([]property.Value, len(vals))
	for i, v := range vals {
		for _, d := range collectDeps(v) {
			if !seen[d] {
				seen[d] = true
				deps = append(deps, d)
			}
		}
		secret = secret || v.HasSecrets()
		unknown = unknown || v.HasComputed()
		plain[i] = stripMarkers(v)
	}
	out := property.New(property.Computed)
	if !unknown {
		var err error
		if out, err = f(plain...); err != nil {
			return property.Value{}, err
		}
	}
	return out.WithSecret(secret || out.Secret()).WithDependencies(deps), nil
}
