package host

import (
	"context"
	"fmt"
	"io"
	"os"
	"runtime"

	"github.com/polyhost/polyhost/host/internal/core"
	"github.com/polyhost/polyhost/host/internal/gctune"
	"github.com/polyhost/polyhost/host/internal/goschema"
	"github.com/polyhost/polyhost/host/internal/rpc"
	"github.com/polyhost/polyhost/host/schema"
)

// Provider is a package's provider. Build one with [New].
type Provider struct {
	core *core.Provider
	coreHandle
}

// coreHandle gives the packages beside host (gosdk, hosttest, terraform)
// a Provider's core through core.Of, with no name an author sees.
type coreHandle = core.Handle

// newProvider is the Provider around c.
func newProvider(c *core.Provider) *Provider { return &Provider{c, core.HandleOf(c)} }

// Option configures a [Provider].
type Option func(*Provider) error

// New builds the provider of package name.
func New(name string, opts ...Option) (*Provider, error) {
	p := newProvider(core.New(name))
	err := p.apply(opts)
	if err == nil {
		err = p.core.Finish()
	}
	if err != nil {
		_ = p.core.Close() // what the options started (a backend's processes)
		return nil, err
	}
	return p, nil
}

func (p *Provider) apply(opts []Option) error {
	for _, opt := range opts {
		if err := opt(p); err != nil {
			return fmt.Errorf("provider %s: %w", p.core.Name(), err)
		}
	}
	return nil
}

// Main builds the provider and serves it, exiting non-zero if that fails.
// Unless GOMAXPROCS is set, Go code runs on one thread ([WithMaxProcs]).
func Main(name string, opts ...Option) {
	p, err := New(name, opts...)
	if err == nil {
		if n := p.core.Procs(); n > 0 {
			runtime.GOMAXPROCS(n)
		}
		gctune.Tune(gctune.HeapHeadroom)
		err = Serve(context.Background(), p, os.Args[1:], os.Stdout)
	}
	if err != nil {
		fmt.Fprintf(os.Stderr, "pulumi-resource-%s: %v\n", name, err)
		os.Exit(1)
	}
}

// Serve serves p with the plugin's command line args until a signal, ctx's
// end or the engine going away.
func Serve(ctx context.Context, p *Provider, args []string, stdout io.Writer) error {
	return rpc.Serve(ctx, p.core, args, stdout)
}

// WithVersion sets the version (semver, e.g. -ldflags "-X
// main.version=..."); else the schema's, or 0.0.0-dev.
func WithVersion(v string) Option {
	return func(p *Provider) error { p.core.SetVersion(v); return nil }
}

// WithSchema embeds the package schema (YAML or JSON).
func WithSchema(src []byte) Option {
	return func(p *Provider) error { return p.core.SetSchema(src) }
}

// WithoutSchema says the provider has no schema.
func WithoutSchema() Option {
	return func(p *Provider) error { p.core.SetNoSchema(); return nil }
}

// WithDescription describes the component, custom resource, method,
// function or provider ("pulumi:providers:<pkg>") token in the schema built
// from the Go types.
func WithDescription(token, description string) Option {
	return func(p *Provider) error { return p.core.SetDescription(token, description) }
}

// WithMaxProcs sets GOMAXPROCS for [Main]: 1 unless set; 0 is Go's
// default.
func WithMaxProcs(n int) Option {
	return func(p *Provider) error { return p.core.SetMaxProcs(n) }
}

// Name returns the package name.
func (p *Provider) Name() string { return p.core.Name() }

// Version returns the version reported to the engine.
func (p *Provider) Version() string { return p.core.Version() }

// Schema returns the package schema, given or built; nil with
// [WithoutSchema].
func (p *Provider) Schema() *schema.Package { return p.core.Schema() }

// Close releases the monitor and engine connections.
func (p *Provider) Close() error { return p.core.Close() }

// Docs supplies the descriptions reflection cannot see, for [SchemaFromTypes].
type Docs = goschema.Docs

// ValueDocs is a [Docs] that also reads the doc comments of constants.
type ValueDocs = goschema.ValueDocs

// Annotator is what an [Annotated] struct's Annotate method is given, to
// describe the struct and its fields and set defaults of optional fields:
//
//	func (c *Config) Annotate(a host.Annotator) {
//		a.Describe(&c.Endpoint, "Where the vault listens.")
//		a.SetDefault(&c.Password, nil, "VAULT_PASSWORD") // from the environment
//	}
type Annotator = goschema.Annotator

// Annotated is a struct whose pointer has an Annotate method.
type Annotated = goschema.Annotated

// SchemaFromTypes builds the schema of package name, in YAML, from the Go
// types of opts' registrations; docs may be nil.
func SchemaFromTypes(name string, docs Docs, opts ...Option) ([]byte, error) {
	p := newProvider(core.NewForSchema(name))
	defer p.Close()
	if err := p.apply(opts); err != nil {
		return nil, err
	}
	return p.core.SchemaYAML(docs)
}
