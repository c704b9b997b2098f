package host

import (
	"context"
	"fmt"
	"io"
	"os"
	"runtime"

	"github.com/polyhost/polyhost/host/internal/core"
	"github.com/polyhost/polyhost/host/internal/rpc"
	"github.com/polyhost/polyhost/host/schema"
)

// Provider is a package's provider: its schema, components, methods and
// custom resources. Build one with [New]; serve it with [Main] or [Serve].
type Provider struct{ core *core.Provider }

func init() { core.Of = func(p any) *core.Provider { return p.(*Provider).core } }

// Option configures a [Provider].
type Option func(*Provider) error

// New builds a provider for package name. Without [WithSchema] (or
// [WithoutSchema]) its schema is built from the Go types of its
// registrations; with one, the Go types are checked against it.
func New(name string, opts ...Option) (*Provider, error) {
	p := &Provider{core.New(name)}
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

// Main builds the provider and serves it with the process's arguments,
// exiting non-zero if that fails. Call it from the plugin's main function.
// It runs the plugin's Go code on one thread at a time, as a provider
// mostly waits on the engine ([WithMaxProcs] for more; docs/performance.md),
// unless GOMAXPROCS is set, and lets the heap grow by at least 4 MB between
// collections unless GOGC or GOMEMLIMIT is set or the plugin sets either.
func Main(name string, opts ...Option) {
	p, err := New(name, opts...)
	if err == nil {
		if n := p.core.Procs(); n > 0 {
			runtime.GOMAXPROCS(n)
		}
		core.TuneGC(core.HeapHeadroom)
		err = Serve(context.Background(), p, os.Args[1:], os.Stdout)
	}
	if err != nil {
		fmt.Fprintf(os.Stderr, "pulumi-resource-%s: %v\n", name, err)
		os.Exit(1)
	}
}

// Serve serves p on 127.0.0.1 and writes the chosen port as the first line
// of stdout, as the engine expects. args is the plugin command line: the
// engine's address as the one positional argument, or none to wait for the
// engine to Attach (PULUMI_DEBUG_PROVIDERS). Serve returns after SIGINT or
// SIGTERM, when ctx ends, or when the engine goes away.
func Serve(ctx context.Context, p *Provider, args []string, stdout io.Writer) error {
	return rpc.Serve(ctx, p.core, args, stdout)
}

// WithVersion sets the version GetPluginInfo reports. It must be semver;
// set it at build time with -ldflags "-X main.version=...". Without it the
// version is the schema's, or 0.0.0-dev.
func WithVersion(v string) Option {
	return func(p *Provider) error { p.core.SetVersion(v); return nil }
}

// WithSchema embeds the package schema (YAML or JSON). GetSchema serves it,
// and inputs and configuration are checked against it.
func WithSchema(src []byte) Option {
	return func(p *Provider) error { return p.core.SetSchema(src) }
}

// WithoutSchema says the provider has none: GetSchema serves an empty one
// and nothing is checked against a schema. Without it, and without
// [WithSchema], the host builds the schema from the Go types.
func WithoutSchema() Option {
	return func(p *Provider) error { p.core.SetNoSchema(); return nil }
}

// WithDescription describes a component, custom resource, method,
// function or the provider ("pulumi:providers:<pkg>") by its token in the
// schema built from the Go types, whether the running plugin builds it or
// go generate writes it: what an Annotate method's Describe of the struct
// itself does for a type. It wins over the doc comment go generate reads.
// A schema given with [WithSchema] has its own descriptions.
func WithDescription(token, description string) Option {
	return func(p *Provider) error { return p.core.SetDescription(token, description) }
}

// WithMaxProcs sets how many threads run the plugin's Go code at once
// (GOMAXPROCS) when [Main] runs it: 1 unless set; 0 leaves Go's default,
// the CPUs the process may use. Serve leaves the process as it is.
func WithMaxProcs(n int) Option {
	return func(p *Provider) error { return p.core.SetMaxProcs(n) }
}

// Name returns the package name.
func (p *Provider) Name() string { return p.core.Name() }

// Version returns the version reported to the engine.
func (p *Provider) Version() string { return p.core.Version() }

// Schema returns the package schema: the one given, or the one built from
// the Go types; nil with [WithoutSchema].
func (p *Provider) Schema() *schema.Package { return p.core.Schema() }

// Close releases the monitor and engine connections.
func (p *Provider) Close() error { return p.core.Close() }

// Docs supplies the descriptions of a schema built from Go types, the doc
// comments reflection cannot see (package schemagen reads them): of a
// named Type, a struct's Field, a Func by its runtime name; "" if unknown.
type Docs = core.Docs

// ValueDocs is a [Docs] that also reads the doc comments of constants: an
// enum value without an [EnumValue].Description gets that of the constant
// declaring it.
type ValueDocs = core.ValueDocs

// Annotator is what an [Annotated] struct's Annotate method is given, to
// describe the struct and its fields and to set the defaults of its
// optional fields, as pulumi-go-provider's infer.Annotator does:
//
//	func (c *Config) Annotate(a host.Annotator) {
//		a.Describe(&c, "How to reach the vault.")
//		a.Describe(&c.Endpoint, "Where the vault listens.")
//		a.SetDefault(&c.Endpoint, "https://vault.local")
//		a.SetDefault(&c.Password, nil, "VAULT_PASSWORD") // from the environment
//	}
//
// The schema built from the Go types has them, whether the running plugin
// builds it or go generate writes it (a description there wins over the
// doc comment); the host applies the defaults to configuration and to
// custom resource inputs that are absent, taking an environment variable
// named, the first one set, over the value.
type Annotator = core.Annotator

// Annotated is a struct (configuration, arguments, inputs, outputs or an
// object type) whose pointer has an Annotate method: give it a pointer
// receiver, as the method's pointers must be into the struct it annotates.
type Annotated = core.Annotated

// SchemaFromTypes builds the schema of package name, in YAML, from the Go
// types of the registrations in opts (components, methods, functions,
// resources given with [WithTypedResource], configuration given with
// [WithConfig]); a schema given with [WithSchema] is ignored. docs, which
// may be nil, supplies descriptions. The schema has what Go says; a
// package's name in each language, its description and the like are
// merged in by the caller (package schemagen does).
func SchemaFromTypes(name string, docs Docs, opts ...Option) ([]byte, error) {
	p := &Provider{core.NewForSchema(name)}
	defer p.Close()
	if err := p.apply(opts); err != nil {
		return nil, err
	}
	return p.core.SchemaYAML(docs)
}
