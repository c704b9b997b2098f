package core

import (
	"context"
	"errors"
	"fmt"
	"maps"
	"os"
	"reflect"
	"slices"
	"strings"
	"sync"
	"sync/atomic"

	"github.com/blang/semver"
	"github.com/pulumi/pulumi/sdk/v3/go/common/resource/urn"
	"github.com/pulumi/pulumi/sdk/v3/go/property"
	"gopkg.in/yaml.v3"

	"github.com/polyhost/polyhost/host/custom"
	"github.com/polyhost/polyhost/host/internal/goschema"
	"github.com/polyhost/polyhost/host/schema"
	"github.com/polyhost/polyhost/monitorclient"
)

// Provider is a package's provider as one plugin process serves it: the
// package (its registrations and schema, shared by fresh instances) and the
// state of the process: configuration, engine and monitor connections, the
// bound on registrations in flight. package host's Provider wraps it.
type Provider struct {
	*definition // what New and the options set; shared by fresh instances

	monitors *monitorclient.Pool
	// window bounds the registrations in flight of every component and
	// method this provider runs; constructs numbers them, for its order.
	window     *window
	constructs atomic.Uint64
	// param is set on the provider the engine's Parameterize chose to
	// serve this process.
	param *parameterization

	mu         sync.Mutex
	config     *configState
	engineAddr string
	engine     *monitorclient.EngineClient

	warnedSecrets sync.Map // token and argument paths already warned of: true
}

// definition is the package a Provider serves, as New and its options
// build it: read-only once New returns.
type definition struct {
	name    string
	version string
	schema  *schema.Package

	components      map[string]Constructor
	resources       map[string]custom.Resource
	methods         map[string]Method
	functions       map[string]Function
	contracts       map[string]contract                                  // the schema's of each token, set by Finish
	signatures      map[string]goschema.Signature                        // Go types per component, method, function and typed resource token
	configSignature *goschema.Signature                                  // the configuration's Go type, from WithConfig
	elsewhere       map[string]Elsewhere                                 // tokens served elsewhere (host/gosdk)
	handlers        Handlers                                             // the adapter's, of the tokens served elsewhere
	sdkTypes        goschema.SDKTypes                                    // what Go SDK types stand for (host/gosdk)
	refTypes        map[reflect.Type]string                              // WithResourceRef: Go types of resources, to their token or $ref
	onConfigure     func(ctx context.Context, config property.Map) error // WithConfig
	decodeConfig    func(config property.Map) (any, error)               // WithConfig: the values as its type
	parameterize    ParameterizeFunc                                     // WithParameterize
	noSchema        bool                                                 // WithoutSchema
	schemaSrc       []byte                                               // WithSchema's source, for parts to join
	parts           []*yaml.Node                                         // AddSchemaPart: sections a backend declares, parsed
	closersMu       sync.Mutex
	closers         []func() error    // AddCloser: what Close releases with the package
	generating      bool              // building the schema from types: WithSchema is ignored
	maxProcs        int               // GOMAXPROCS for Main; 0 leaves Go's default
	descriptions    map[string]string // WithDescription, by token
}

// New is an empty provider for package name; the options of package host
// fill it, and [Provider.Finish] completes it.
func New(name string) *Provider {
	return newInstance(&definition{
		name:         name,
		components:   map[string]Constructor{},
		resources:    map[string]custom.Resource{},
		methods:      map[string]Method{},
		functions:    map[string]Function{},
		signatures:   map[string]goschema.Signature{},
		elsewhere:    map[string]Elsewhere{},
		refTypes:     map[reflect.Type]string{},
		maxProcs:     defaultMaxProcs,
		descriptions: map[string]string{},
	})
}

// newInstance is a provider of d with the state of a process of its own:
// configuration, engine and monitor connections, the bound on
// registrations in flight, warnings.
func newInstance(d *definition) *Provider {
	return &Provider{definition: d, monitors: monitorclient.NewPool(), window: newWindow(0), config: &configState{}}
}

// Handle hands a *host.Provider's core to the packages beside host that
// need it (gosdk's options, hosttest, the Terraform backend): host.Provider
// embeds it under an unexported name (an alias), which promotes its one
// method, unexported, so only this package can call it, through Of.
type Handle struct{ p *Provider }

// HandleOf is the handle of p.
func HandleOf(p *Provider) Handle { return Handle{p} }

func (h Handle) coreProvider() *Provider { return h.p }

// Of is the core of hostProvider, a *host.Provider (or anything else
// embedding a Handle); nil for anything else.
func Of(hostProvider any) *Provider {
	h, ok := hostProvider.(interface{ coreProvider() *Provider })
	if !ok {
		return nil
	}
	return h.coreProvider()
}

// Fresh is a new instance of p, as a second process of the same plugin
// would be.
func (p *Provider) Fresh() *Provider { return newInstance(p.definition) }

// warnSecretArgs warns, once per process for each token and set of paths,
// that secret arguments reached plain Go values, so all that token's code
// produces is marked secret.
func (p *Provider) warnSecretArgs(ctx context.Context, token string, u urn.URN, paths []string) {
	key := token + "\x00" + strings.Join(paths, ",")
	if _, warned := p.warnedSecrets.LoadOrStore(key, true); warned {
		return
	}
	p.Log(ctx, monitorclient.SeverityWarning, u, fmt.Sprintf("%s: secret arguments reached plain Go values (%s), so everything it registers and returns is marked secret; "+
		"declare those fields as property.Value to keep secrets exact", token, strings.Join(paths, ", ")))
}

// Finish completes a provider its options have filled: without a schema
// (or WithoutSchema) it builds one from the Go types of the registrations;
// with one, it checks the Go types against it; and it checks what the
// schema declares and the version.
func (p *Provider) Finish() error {
	name := p.name
	fromTypes := p.schema == nil && !p.noSchema
	if fromTypes {
		s, err := p.loadFromTypes()
		if err != nil {
			return fmt.Errorf("provider %s: %w\n(or give the schema with host.WithSchema, or serve none and check nothing with host.WithoutSchema)", name, err)
		}
		p.schema = s
	}
	if len(p.parts) > 0 && !fromTypes && p.schema != nil { // fromTypes joined them already
		var doc yaml.Node
		if err := yaml.Unmarshal(p.schemaSrc, &doc); err != nil || len(doc.Content) != 1 {
			return fmt.Errorf("provider %s: schema: %v", name, err)
		}
		s, err := p.withParts(doc.Content[0])
		if err != nil {
			return fmt.Errorf("provider %s: %w", name, err)
		}
		p.schema = s
	}
	if p.schema != nil && p.schema.Name != name {
		return fmt.Errorf("provider %s: schema is for package %q", name, p.schema.Name)
	}
	if p.schema != nil {
		if err := languageProblems(p.schema); err != nil {
			return fmt.Errorf("provider %s: %w", name, err)
		}
	}
	for tok := range p.componentTokens() {
		if p.schema == nil {
			break
		}
		if r, ok := p.schema.Resource(tok); !ok || !r.IsComponent {
			return fmt.Errorf("provider %s: component %s is not a component resource in the schema", name, tok)
		}
	}
	for tok, e := range p.elsewhere {
		if p.schema == nil || !e.Method {
			continue
		}
		if _, ok := p.schema.Function(tok); !ok {
			return fmt.Errorf("provider %s: method %s is not a function in the schema", name, tok)
		}
	}
	for tok := range p.resources {
		if p.schema == nil {
			break
		}
		if r, ok := p.schema.Resource(tok); !ok || r.IsComponent {
			return fmt.Errorf("provider %s: resource %s is not a custom resource in the schema", name, tok)
		}
	}
	if p.schema != nil && !fromTypes { // one built from the types agrees with them
		if err := p.checkGoTypes(); err != nil {
			return fmt.Errorf("provider %s: %w", name, err)
		}
	}
	if p.version == "" && p.schema != nil {
		p.version = p.schema.Version
	}
	if p.version == "" {
		p.version = devVersion
	}
	if _, err := semver.Parse(p.version); err != nil {
		return fmt.Errorf("provider %s: version %q is not semver: %w", name, p.version, err)
	}
	p.contracts = contractsOf(p.schema)
	return nil
}

// languageProblems refuses a schema with names for which Pulumi's SDK
// generators write code that does not compile (a resource named Object is a
// TypeScript class Object, which tsc refuses), naming each token, language
// and reason: consumers generate their SDKs from this schema, and would find
// out only then.
func languageProblems(s *schema.Package) error {
	probs := s.LanguageProblems()
	if len(probs) == 0 {
		return nil
	}
	lines := make([]string, len(probs))
	for i, pr := range probs {
		lines[i] = pr.String()
	}
	what := "a name that generates"
	if len(probs) > 1 {
		what = fmt.Sprintf("%d names that generate", len(probs))
	}
	return fmt.Errorf("schema: %s invalid code in an SDK language (Pulumi's generators: TypeScript, Python, Go):\n\t%s",
		what, strings.Join(lines, "\n\t"))
}

// SetVersion sets the version GetPluginInfo reports (host.WithVersion).
func (p *Provider) SetVersion(v string) {
	if v != "" {
		p.version = v
	}
}

// SetSchema loads the package schema, YAML or JSON (host.WithSchema); a
// provider built for SchemaFromTypes ignores it.
func (p *Provider) SetSchema(src []byte) error {
	if p.generating {
		return nil // the Go types say what the schema is
	}
	s, err := schema.Load(src)
	if err != nil {
		return err
	}
	p.schema, p.schemaSrc = s, src
	return nil
}

// SetDescription describes the registration token (host.WithDescription)
// in the schema built from the Go types.
func (p *Provider) SetDescription(token, text string) error {
	if _, dup := p.descriptions[token]; dup {
		return fmt.Errorf("%s described twice", token)
	}
	p.descriptions[token] = text
	return nil
}

// SetNoSchema says the provider has none (host.WithoutSchema).
func (p *Provider) SetNoSchema() { p.noSchema = true }

// SetMaxProcs sets the GOMAXPROCS host.Main runs the plugin with.
func (p *Provider) SetMaxProcs(n int) error {
	if n < 0 {
		return fmt.Errorf("WithMaxProcs(%d): want 0 (one per CPU) or more", n)
	}
	p.maxProcs = n
	return nil
}

// devVersion is the version of a provider given none.
const devVersion = "0.0.0-dev"

// Name returns the package name.
func (p *Provider) Name() string { return p.name }

// providerToken is the type token of the package's provider resource,
// whose methods are "<token>/<method>".
func (p *Provider) providerToken() string { return "pulumi:providers:" + p.name }

// Version returns the version reported to the engine.
func (p *Provider) Version() string { return p.version }

// Schema returns the package schema: the one given, or the one built from
// the Go types; nil with [WithoutSchema].
func (p *Provider) Schema() *schema.Package { return p.schema }

// unknownToken is the error for a token this provider does not serve; it
// lists the ones of that kind it does serve.
func unknownToken[V any](p *Provider, kind, token string, served map[string]V) error {
	toks := slices.Sorted(maps.Keys(served))
	if len(toks) == 0 {
		return fmt.Errorf("unknown %s %q: provider %s serves none", kind, token, p.name)
	}
	return fmt.Errorf("unknown %s %q: provider %s serves %s", kind, token, p.name, strings.Join(toks, ", "))
}

// Close releases the monitor and engine connections, and what backends
// gave AddCloser (their processes).
func (p *Provider) Close() error {
	p.mu.Lock()
	engine := p.engine
	p.engine = nil
	p.mu.Unlock()
	if engine != nil {
		_ = engine.Close()
	}
	err := p.monitors.Close()
	p.closersMu.Lock()
	closers := slices.Clone(p.closers)
	p.closersMu.Unlock()
	for _, c := range closers {
		err = errors.Join(err, c())
	}
	return err
}

// AddCloser has Close run c: a backend's processes end with the plugin,
// and so does the package a Parameterize chose.
func (p *Provider) AddCloser(c func() error) {
	p.closersMu.Lock()
	defer p.closersMu.Unlock()
	p.closers = append(p.closers, c)
}

// SetEngine records the engine's address, from argv, Handshake or Attach.
func (p *Provider) SetEngine(addr string) {
	if addr == "" {
		return
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	p.engineAddr = addr
}

// Log sends a message to the engine's log, attached to urn if set. Logging
// is best effort: a provider without an engine connection drops it.
func (p *Provider) Log(ctx context.Context, sev monitorclient.Severity, u urn.URN, msg string) {
	e, err := p.engineClient(ctx)
	if err != nil || e == nil {
		return
	}
	_, _ = e.Log(ctx, monitorclient.LogRequest{Severity: sev, Message: msg, URN: u})
}

func (p *Provider) engineClient(ctx context.Context) (*monitorclient.EngineClient, error) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.engine != nil || p.engineAddr == "" {
		return p.engine, nil
	}
	e, err := monitorclient.DialEngine(ctx, p.engineAddr)
	if err != nil {
		return nil, err
	}
	p.engine = e
	return e, nil
}

// Procs is the GOMAXPROCS host.Main sets, or 0 to leave it: the
// environment's GOMAXPROCS, set at all, wins.
func (p *Provider) Procs() int {
	if _, set := os.LookupEnv("GOMAXPROCS"); set {
		return 0
	}
	return p.maxProcs
}

// defaultMaxProcs is the GOMAXPROCS host.Main runs a plugin with.
const defaultMaxProcs = 1
