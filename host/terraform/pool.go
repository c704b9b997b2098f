package terraform

import (
	"context"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"sync"

	"github.com/hashicorp/terraform-plugin-go/tfprotov6"
	"github.com/pulumi/pulumi/sdk/v3/go/property"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"

	"github.com/polyhost/polyhost/host"
	"github.com/polyhost/polyhost/host/custom"
	"github.com/polyhost/polyhost/host/internal/core"
	"github.com/polyhost/polyhost/host/terraform/internal/tfresource"
	"github.com/polyhost/polyhost/host/terraform/internal/tfschema"
	"github.com/polyhost/polyhost/host/terraform/internal/tfvalue"
	"github.com/polyhost/polyhost/host/terraform/internal/tfwire"
)

// terraformVersion is the Terraform version ConfigureProvider reports.
const terraformVersion = "1.9.0"

// pool keeps one configured provider process per provider instance: per
// distinct configuration its requests carry.
type pool struct {
	src      source
	provider *tfprotov6.Schema // the provider block's schema

	mu     sync.Mutex
	spare  *proc            // started for the schema, not yet configured
	procs  map[string]*proc // by configuration
	closed bool
}

type proc struct {
	ready chan struct{} // closed once srv or err is set
	srv   tfwire.Server
	stop  func() error
	err   error
}

// exited reports whether pr's process is known to have exited.
func (pr *proc) exited() bool {
	select {
	case <-pr.ready:
	default:
		return false
	}
	e, ok := pr.srv.(interface{ Exited() bool })
	return pr.err == nil && ok && e.Exited()
}

func newPool(src source) *pool { return &pool{src: src, procs: map[string]*proc{}} }

// schema starts a process and reads the provider's schema; the process is
// kept for the first configuration.
func (p *pool) schema(ctx context.Context) (*tfprotov6.GetProviderSchemaResponse, error) {
	srv, stop, err := p.src.start(ctx)
	if err != nil {
		return nil, err
	}
	resp, err := srv.GetProviderSchema(ctx, &tfprotov6.GetProviderSchemaRequest{})
	if err == nil {
		err = tfresource.DiagnosticsError(resp.Diagnostics, nil)
	}
	if err == nil && resp.Provider == nil {
		err = errors.New("no provider schema")
	}
	if err != nil {
		_ = stop()
		return nil, fmt.Errorf("terraform provider %s: schema: %w", p.src.name(), err)
	}
	ready := make(chan struct{})
	close(ready)
	p.spare = &proc{ready: ready, srv: srv, stop: stop}
	return resp, nil
}

// server is the configured process of a resource's provider instance; in
// a preview whose provider configuration holds unknowns, none: no provider
// can plan before it is configured (tfresource.ErrUnknownConfig).
func (p *pool) server(ctx context.Context, info custom.ResourceInfo) (tfwire.Server, error) {
	cfg := p.providerConfig(info.Config)
	if property.New(cfg).HasComputed() {
		return nil, fmt.Errorf("terraform provider %s: %w", p.src.name(), tfresource.ErrUnknownConfig)
	}
	return p.retrying(ctx, cfg)
}

// providerConfig is the provider block's part of a package's
// configuration: the package may have variables of its own.
func (p *pool) providerConfig(config property.Map) property.Map {
	return tfvalue.Known(p.provider.Block, config)
}

// retrying is configured as a retrier.
func (p *pool) retrying(ctx context.Context, cfg property.Map) (*retrier, error) {
	return retrierOf(ctx, func(ctx context.Context) (tfwire.Server, error) { return p.configured(ctx, cfg) })
}

// retrierOf is the process get returns as a retrier, which calls get again
// for a process that replaces it.
func retrierOf(ctx context.Context, get func(context.Context) (tfwire.Server, error)) (*retrier, error) {
	srv, err := get(ctx)
	if err != nil {
		return nil, err
	}
	return &retrier{srv, get}, nil
}

// unknownKeys are the configuration variables of cfg whose values are not
// known yet, sorted.
func unknownKeys(cfg property.Map) []string {
	var keys []string
	for k, v := range cfg.AllStable {
		if v.HasComputed() {
			keys = append(keys, k)
		}
	}
	return keys
}

// retrier is a configured process whose calls without side effects, when
// they find the process gone, are made again on the one that replaces it,
// which serves its later calls; when the process answers a transient
// Unavailable and lives on, they are made once more on it. Applies are
// not: the gone process may have applied. Only a process that exited is
// replaced (tfwire.Client.Exited).
type retrier struct {
	tfwire.Server
	again func(context.Context) (tfwire.Server, error)
}

// retry calls f on r's process, and once more on a new one if it exited,
// or on the same one if it answered Unavailable and lives on.
func retry[T any](ctx context.Context, r *retrier, f func(tfwire.Server) (T, error)) (T, error) {
	resp, err := f(r.Server)
	if err == nil {
		return resp, nil
	}
	if e, ok := r.Server.(interface{ Exited() bool }); ok && e.Exited() {
		if srv, err2 := r.again(ctx); err2 == nil {
			r.Server = srv
			return f(srv)
		}
	} else if status.Code(err) == codes.Unavailable && ctx.Err() == nil {
		return f(r.Server)
	}
	return resp, err
}

func (r *retrier) ValidateResourceConfig(ctx context.Context, req *tfprotov6.ValidateResourceConfigRequest) (*tfprotov6.ValidateResourceConfigResponse, error) {
	return retry(ctx, r, func(s tfwire.Server) (*tfprotov6.ValidateResourceConfigResponse, error) {
		return s.ValidateResourceConfig(ctx, req)
	})
}

func (r *retrier) UpgradeResourceState(ctx context.Context, req *tfprotov6.UpgradeResourceStateRequest) (*tfprotov6.UpgradeResourceStateResponse, error) {
	return retry(ctx, r, func(s tfwire.Server) (*tfprotov6.UpgradeResourceStateResponse, error) {
		return s.UpgradeResourceState(ctx, req)
	})
}

func (r *retrier) ReadResource(ctx context.Context, req *tfprotov6.ReadResourceRequest) (*tfprotov6.ReadResourceResponse, error) {
	return retry(ctx, r, func(s tfwire.Server) (*tfprotov6.ReadResourceResponse, error) { return s.ReadResource(ctx, req) })
}

func (r *retrier) PlanResourceChange(ctx context.Context, req *tfprotov6.PlanResourceChangeRequest) (*tfprotov6.PlanResourceChangeResponse, error) {
	return retry(ctx, r, func(s tfwire.Server) (*tfprotov6.PlanResourceChangeResponse, error) {
		return s.PlanResourceChange(ctx, req)
	})
}

func (r *retrier) ImportResourceState(ctx context.Context, req *tfprotov6.ImportResourceStateRequest) (*tfprotov6.ImportResourceStateResponse, error) {
	return retry(ctx, r, func(s tfwire.Server) (*tfprotov6.ImportResourceStateResponse, error) {
		return s.ImportResourceState(ctx, req)
	})
}

func (r *retrier) ValidateDataResourceConfig(ctx context.Context, req *tfprotov6.ValidateDataResourceConfigRequest) (*tfprotov6.ValidateDataResourceConfigResponse, error) {
	return retry(ctx, r, func(s tfwire.Server) (*tfprotov6.ValidateDataResourceConfigResponse, error) {
		return s.ValidateDataResourceConfig(ctx, req)
	})
}

func (r *retrier) ReadDataSource(ctx context.Context, req *tfprotov6.ReadDataSourceRequest) (*tfprotov6.ReadDataSourceResponse, error) {
	return retry(ctx, r, func(s tfwire.Server) (*tfprotov6.ReadDataSourceResponse, error) { return s.ReadDataSource(ctx, req) })
}

func (r *retrier) CallFunction(ctx context.Context, req *tfprotov6.CallFunctionRequest) (*tfprotov6.CallFunctionResponse, error) {
	return retry(ctx, r, func(s tfwire.Server) (*tfprotov6.CallFunctionResponse, error) { return s.CallFunction(ctx, req) })
}

// unconfiguredKey keys the process that serves provider functions while
// the configuration is not known: Terraform calls functions on a provider
// it has not configured, as they must not depend on the configuration.
const unconfiguredKey = "\x00unconfigured"

// configured is the process configured with cfg (providerConfig's), started
// and configured on its first use.
func (p *pool) configured(ctx context.Context, cfg property.Map) (tfwire.Server, error) {
	return p.process(ctx, keyOf(property.New(cfg)), func(spare *proc) (tfwire.Server, func() error, error) {
		return p.start(ctx, spare, cfg)
	})
}

// unconfigured is the process that is never configured, started on its
// first use.
func (p *pool) unconfigured(ctx context.Context) (tfwire.Server, error) {
	return p.process(ctx, unconfiguredKey, func(spare *proc) (tfwire.Server, func() error, error) {
		if spare != nil {
			return spare.srv, spare.stop, nil
		}
		return p.src.start(ctx)
	})
}

// process is the process of key, started with start (given the spare
// process, if any) on its first use, or when the last one exited.
func (p *pool) process(ctx context.Context, key string, start func(spare *proc) (tfwire.Server, func() error, error)) (tfwire.Server, error) {
	p.mu.Lock()
	if p.closed {
		p.mu.Unlock()
		return nil, fmt.Errorf("terraform provider %s: the plugin is stopping", p.src.name())
	}
	pr, ok := p.procs[key]
	if ok && pr.exited() {
		// The process is gone (it crashed, or was killed): start another.
		delete(p.procs, key)
		go func(stop func() error) { _ = stop() }(pr.stop)
		ok = false
	}
	if !ok {
		pr = &proc{ready: make(chan struct{})}
		p.procs[key] = pr
		spare := p.spare
		p.spare = nil
		p.mu.Unlock()
		pr.srv, pr.stop, pr.err = start(spare)
		if pr.err != nil {
			p.mu.Lock()
			delete(p.procs, key) // the next request tries again
			p.mu.Unlock()
		}
		close(pr.ready)
	} else {
		p.mu.Unlock()
		select {
		case <-pr.ready:
		case <-ctx.Done():
			return nil, ctx.Err()
		}
	}
	return pr.srv, pr.err
}

// start configures spare, or a new process, with cfg.
func (p *pool) start(ctx context.Context, spare *proc, cfg property.Map) (tfwire.Server, func() error, error) {
	var (
		srv  tfwire.Server
		stop func() error
	)
	if spare != nil {
		srv, stop = spare.srv, spare.stop
	} else {
		var err error
		if srv, stop, err = p.src.start(ctx); err != nil {
			return nil, nil, err
		}
	}
	if err := p.configure(ctx, srv, cfg); err != nil {
		_ = stop()
		return nil, nil, err
	}
	return srv, stop, nil
}

func (p *pool) configure(ctx context.Context, srv tfwire.Server, cfg property.Map) error {
	fail := func(err error) error { return fmt.Errorf("terraform provider %s: configure: %w", p.src.name(), err) }
	val, err := tfvalue.ToTerraform(p.provider.Block, cfg)
	if err != nil {
		return fail(err)
	}
	dv, err := tfprotov6.NewDynamicValue(p.provider.ValueType(), val)
	if err != nil {
		return fail(err)
	}
	v, err := srv.ValidateProviderConfig(ctx, &tfprotov6.ValidateProviderConfigRequest{Config: &dv})
	if err == nil {
		err = p.errorOf(v.Diagnostics)
	}
	if err != nil {
		return fail(err)
	}
	c, err := srv.ConfigureProvider(ctx, &tfprotov6.ConfigureProviderRequest{
		TerraformVersion:   terraformVersion,
		Config:             &dv,
		ClientCapabilities: &tfprotov6.ConfigureProviderClientCapabilities{},
	})
	if err == nil {
		err = p.errorOf(c.Diagnostics)
	}
	if err != nil {
		return fail(err)
	}
	return nil
}

// errorOf is the error diagnostics of ds, their attributes named as the
// provider's configuration names them.
func (p *pool) errorOf(ds []*tfprotov6.Diagnostic) error {
	return tfresource.DiagnosticsError(ds, p.provider.Block)
}

// dataSource reads the data source name, of schema s, as a function.
func (p *pool) dataSource(tok, name string, s *tfprotov6.Schema) core.Function {
	return func(ctx context.Context, args property.Map) (property.Map, error) {
		fail := func(err error) (property.Map, error) { return property.Map{}, fmt.Errorf("%s: %w", name, err) }
		cfg := p.providerConfig(host.Config[property.Map](ctx))
		if unknown := unknownKeys(cfg); len(unknown) > 0 {
			// Pulumi takes no unknown results from an Invoke.
			return property.Map{}, fmt.Errorf("%s (data source %s of terraform provider %s): %w: %s depends on another resource's output; a data source is read only by a configured provider",
				tok, name, p.src.name(), tfresource.ErrUnknownConfig, strings.Join(unknown, ", "))
		}
		srv, err := p.retrying(ctx, cfg)
		if err != nil {
			return property.Map{}, err
		}
		val, err := tfvalue.ToTerraform(s.Block, args)
		if err != nil {
			return fail(err)
		}
		dv, err := tfprotov6.NewDynamicValue(s.ValueType(), val)
		if err != nil {
			return fail(err)
		}
		v, err := srv.ValidateDataResourceConfig(ctx, &tfprotov6.ValidateDataResourceConfigRequest{TypeName: name, Config: &dv})
		if err == nil {
			err = tfresource.DiagnosticsError(v.Diagnostics, s.Block)
		}
		if err != nil {
			return fail(err)
		}
		r, err := srv.ReadDataSource(ctx, &tfprotov6.ReadDataSourceRequest{TypeName: name, Config: &dv})
		if err == nil {
			err = tfresource.DiagnosticsError(r.Diagnostics, s.Block)
		}
		if err == nil && r.State == nil {
			err = errors.New("the provider returned no state")
		}
		if err != nil {
			return fail(err)
		}
		state, err := r.State.Unmarshal(s.ValueType())
		if err != nil {
			return fail(fmt.Errorf("terraform provider %s returned a state not of %s's schema: %w", p.src.name(), name, err))
		}
		out, err := tfvalue.FromTerraform(s.Block, state)
		if err != nil {
			return fail(err)
		}
		return out, nil
	}
}

// function calls the provider function f as the schema presents it (fn).
func (p *pool) function(fn tfschema.Function, f *tfprotov6.Function) core.Function {
	return func(ctx context.Context, args property.Map) (property.Map, error) {
		fail := func(err error) (property.Map, error) { return property.Map{}, fmt.Errorf("%s: %w", fn.Name, err) }
		cfg := p.providerConfig(host.Config[property.Map](ctx))
		get := func(ctx context.Context) (tfwire.Server, error) { return p.configured(ctx, cfg) }
		if len(unknownKeys(cfg)) > 0 {
			get = p.unconfigured
		}
		srv, err := retrierOf(ctx, get)
		if err != nil {
			return property.Map{}, err
		}
		var dvs []*tfprotov6.DynamicValue
		add := func(prop string, param *tfprotov6.FunctionParameter, v property.Value) error {
			tv, err := tfvalue.ValueToTerraform(param.Type, v)
			if err != nil {
				return fmt.Errorf("%s: %w", prop, err)
			}
			dv, err := tfprotov6.NewDynamicValue(param.Type, tv)
			if err != nil {
				return fmt.Errorf("%s: %w", prop, err)
			}
			dvs = append(dvs, &dv)
			return nil
		}
		for i, prop := range fn.Parameters {
			if err := add(prop, f.Parameters[i], args.Get(prop)); err != nil {
				return fail(err)
			}
		}
		if v := args.Get(fn.Variadic); fn.Variadic != "" && v.IsArray() {
			for i, e := range v.AsArray().All {
				if err := add(fmt.Sprintf("%s[%d]", fn.Variadic, i), f.VariadicParameter, e); err != nil {
					return fail(err)
				}
			}
		}
		r, err := srv.CallFunction(ctx, &tfprotov6.CallFunctionRequest{Name: fn.Name, Arguments: dvs})
		if err != nil {
			return fail(err)
		}
		if r.Error != nil {
			msg := r.Error.Text
			if i := r.Error.FunctionArgument; i != nil && *i >= 0 && int(*i) < len(fn.Parameters) {
				msg = fn.Parameters[*i] + ": " + msg
			} else if i != nil && *i >= 0 && fn.Variadic != "" {
				msg = fmt.Sprintf("%s[%d]: %s", fn.Variadic, int(*i)-len(fn.Parameters), msg)
			}
			return fail(errors.New(msg))
		}
		if r.Result == nil || f.Return == nil {
			return fail(errors.New("the provider returned no result"))
		}
		res, err := r.Result.Unmarshal(f.Return.Type)
		if err != nil {
			return fail(err)
		}
		v, err := tfvalue.ValueFromTerraformOf(f.Return.Type, res)
		if err != nil {
			return fail(err)
		}
		if fn.Flat && v.IsMap() {
			return v.AsMap(), nil
		}
		return property.NewMap(map[string]property.Value{"result": v}), nil
	}
}

// close stops every process.
func (p *pool) close() error {
	p.mu.Lock()
	p.closed = true
	procs := make([]*proc, 0, len(p.procs)+1)
	for _, pr := range p.procs {
		procs = append(procs, pr)
	}
	if p.spare != nil {
		procs = append(procs, p.spare)
	}
	p.procs, p.spare = map[string]*proc{}, nil
	p.mu.Unlock()
	var errs []error
	for _, pr := range procs {
		<-pr.ready
		if pr.stop != nil {
			errs = append(errs, pr.stop())
		}
	}
	return errors.Join(errs...)
}

// keyOf writes v in one canonical text: maps by sorted key, secret and
// unknown marked. It tells configurations apart and stays in memory.
func keyOf(v property.Value) string {
	var b strings.Builder
	var write func(v property.Value)
	write = func(v property.Value) {
		if v.Secret() {
			b.WriteString("s:")
		}
		switch {
		case v.IsComputed():
			b.WriteString("?")
		case v.IsNull():
			b.WriteString("n")
		case v.IsString():
			b.WriteString(strconv.Quote(v.AsString()))
		case v.IsNumber():
			b.WriteString(strconv.FormatFloat(v.AsNumber(), 'g', -1, 64))
		case v.IsBool():
			b.WriteString(strconv.FormatBool(v.AsBool()))
		case v.IsArray():
			b.WriteByte('[')
			for _, e := range v.AsArray().All {
				write(e)
				b.WriteByte(',')
			}
			b.WriteByte(']')
		case v.IsMap():
			b.WriteByte('{')
			for k, e := range v.AsMap().AllStable {
				b.WriteString(strconv.Quote(k) + ":")
				write(e)
				b.WriteByte(',')
			}
			b.WriteByte('}')
		default:
			fmt.Fprintf(&b, "%v", v)
		}
	}
	write(v)
	return b.String()
}
