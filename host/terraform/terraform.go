package terraform

import (
	"context"
	"encoding/json"
	"fmt"
	"log/slog"
	"maps"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"time"

	"github.com/hashicorp/terraform-plugin-go/tfprotov6"

	"github.com/polyhost/polyhost/host"
	"github.com/polyhost/polyhost/host/internal/core"
	"github.com/polyhost/polyhost/host/terraform/internal/tfresource"
	"github.com/polyhost/polyhost/host/terraform/internal/tfschema"
	"github.com/polyhost/polyhost/host/terraform/internal/tfwire"
)

// An Option configures [WithProvider].
type Option func(*options)

type options struct {
	only         []string
	prefix       string
	module       string
	env          []string
	startTimeout time.Duration
}

// Only serves just the named resources, data sources and functions, by
// their Terraform names (time_static, rfc3339_parse); without it, all.
func Only(names ...string) Option {
	return func(o *options) { o.only = append(o.only, names...) }
}

// Prefix is the provider's type name prefix, stripped from its resources'
// and data sources' names (time for time_static). Without it, the
// binary's name after terraform-provider- (terraform-provider-time_v0.14.2
// is time).
func Prefix(prefix string) Option {
	return func(o *options) { o.prefix = prefix }
}

// Module puts the provider's resources, functions and types in a module
// of the package: with Module("time"), time_static is pkg:time:Static
// rather than pkg:index:Static, apart from the package's own tokens.
func Module(name string) Option {
	return func(o *options) { o.module = name }
}

// Env adds KEY=value pairs to the provider processes' environment.
func Env(pairs ...string) Option {
	return func(o *options) { o.env = append(o.env, pairs...) }
}

// StartTimeout bounds a provider process's start, and the reading of its
// schema when the host is built (one minute when unset).
func StartTimeout(d time.Duration) Option {
	return func(o *options) { o.startTimeout = d }
}

// WithProvider serves the resources, data sources and functions of the
// Terraform or OpenTofu provider binary at path as the package's own, as
// the package doc says; a path without a folder is looked for beside the
// plugin's executable, then on PATH. It starts the binary to read its
// schema: a binary that is missing, is no provider or speaks no protocol 5
// or 6 fails host.New with an error naming it.
func WithProvider(path string, opts ...Option) host.Option {
	o := options{}
	for _, opt := range opts {
		opt(&o)
	}
	if o.prefix == "" {
		o.prefix = prefixOf(path)
	}
	return serve(binary{path: path, env: o.env, timeout: o.startTimeout}, o)
}

// versionSuffix is the _vX.Y.Z a release binary's name ends in.
var versionSuffix = regexp.MustCompile(`_v\d.*$`)

func prefixOf(path string) string {
	name := strings.TrimSuffix(filepath.Base(path), ".exe")
	name = strings.TrimPrefix(name, "terraform-provider-")
	return versionSuffix.ReplaceAllString(name, "")
}

// A source starts provider processes: one for the schema, one per
// configured instance.
type source interface {
	name() string
	start(ctx context.Context) (tfwire.Server, func() error, error)
}

// binary is a provider binary, or the running one TF_REATTACH_PROVIDERS
// names.
type binary struct {
	path    string
	env     []string
	timeout time.Duration
}

func (b binary) name() string { return filepath.Base(b.path) }

func (b binary) start(ctx context.Context) (tfwire.Server, func() error, error) {
	log := providerLog(b.name())
	if reattach, ok := reattachOf(os.Getenv("TF_REATTACH_PROVIDERS"), prefixOf(b.path)); ok {
		c, err := tfwire.Attach(ctx, b.name(), reattach, log)
		if err != nil {
			return nil, nil, err
		}
		return c, c.Close, nil
	}
	path, err := resolve(b.path)
	if err != nil {
		return nil, nil, err
	}
	c, err := tfwire.Start(ctx, tfwire.Config{Path: path, Env: b.env, Log: log, StartTimeout: b.timeout})
	if err != nil {
		return nil, nil, err
	}
	return c, c.Close, nil
}

// resolve finds a binary named without a folder beside the plugin's own
// executable, as a package ships the two, or else on PATH.
func resolve(path string) (string, error) {
	if strings.ContainsRune(path, filepath.Separator) {
		return path, nil
	}
	if exe, err := os.Executable(); err == nil {
		beside := filepath.Join(filepath.Dir(exe), path)
		if info, err := os.Stat(beside); err == nil && !info.IsDir() && info.Mode()&0o111 != 0 {
			return beside, nil
		}
	}
	found, err := exec.LookPath(path)
	if err != nil {
		return "", fmt.Errorf("terraform provider %s: neither beside the plugin nor on PATH", path)
	}
	return found, nil
}

// reattachOf is the entry of TF_REATTACH_PROVIDERS's JSON whose address
// ends in /name.
func reattachOf(env, name string) (string, bool) {
	if env == "" {
		return "", false
	}
	var all map[string]json.RawMessage
	if json.Unmarshal([]byte(env), &all) != nil {
		return "", false
	}
	for addr, cfg := range all {
		if addr == name || strings.HasSuffix(addr, "/"+name) {
			return string(cfg), true
		}
	}
	return "", false
}

// providerLog sends a provider's log lines to the plugin's stderr when the
// user asks for them with TF_LOG or a TF_LOG_* variable, as Terraform
// does; otherwise it drops them. What a provider logs is its own text,
// which nothing here can redact: its warnings and errors reach users as
// the diagnostics of its answers instead, redacted of the request's
// secrets.
func providerLog(name string) func(level, msg string) {
	if !tfwire.LogsAsked(os.Environ()) {
		return nil
	}
	return func(level, msg string) {
		slog.Default().Log(context.Background(), slog.LevelInfo, msg, "provider", name, "level", level)
	}
}

// serve registers src's resources, data sources and functions with the
// host provider hp.
func serve(src source, o options) host.Option {
	return func(hp *host.Provider) error {
		p := core.Of(hp)
		pool := newPool(src)
		// A provider that starts but never answers must not hang the
		// plugin's start: the schema read is bounded as the start is.
		timeout := o.startTimeout
		if timeout <= 0 {
			timeout = tfwire.DefaultStartTimeout
		}
		ctx, cancel := context.WithTimeout(context.Background(), timeout)
		defer cancel()
		schemaResp, err := pool.schema(ctx)
		if err != nil {
			return err
		}
		resp := subset(schemaResp, o.only)
		if missing := absent(schemaResp, o.only); len(missing) > 0 {
			_ = pool.close()
			return fmt.Errorf("terraform provider %s has no resource, data source or function %s", src.name(), strings.Join(missing, ", "))
		}
		pkg, err := tfschema.Build(resp, tfschema.Options{Name: p.Name(), Prefix: o.prefix, Module: o.module})
		if err != nil {
			_ = pool.close()
			return fmt.Errorf("terraform provider %s: %w", src.name(), err)
		}
		pool.provider = resp.Provider
		p.AddCloser(pool.close)
		if err := p.AddSchemaPart(pkg.JSON); err != nil {
			return err
		}
		for _, tok := range slices.Sorted(maps.Keys(pkg.Resources)) {
			name := pkg.Resources[tok]
			r, err := tfresource.New(name, resp.ResourceSchemas[name], pool.server)
			if err != nil {
				return err
			}
			r.Provider = "terraform provider " + src.name()
			if err := p.AddResource(tok, r, core.NoSignature); err != nil {
				return err
			}
		}
		for tok, name := range pkg.DataSources {
			if err := p.AddFunction(tok, core.NoSignature, pool.dataSource(tok, name, resp.DataSourceSchemas[name])); err != nil {
				return err
			}
		}
		for tok, fn := range pkg.Functions {
			if err := p.AddFunction(tok, core.NoSignature, pool.function(fn, resp.Functions[fn.Name])); err != nil {
				return err
			}
		}
		return nil
	}
}

// subset is resp with only the named resources, data sources and
// functions; all of them when names is empty.
func subset(resp *tfprotov6.GetProviderSchemaResponse, names []string) *tfprotov6.GetProviderSchemaResponse {
	if len(names) == 0 {
		return resp
	}
	out := *resp
	out.ResourceSchemas = only(resp.ResourceSchemas, names)
	out.DataSourceSchemas = only(resp.DataSourceSchemas, names)
	out.Functions = only(resp.Functions, names)
	out.EphemeralResourceSchemas, out.ListResourceSchemas, out.ActionSchemas = nil, nil, nil
	return &out
}

func only[V any](m map[string]V, names []string) map[string]V {
	out := map[string]V{}
	for k, v := range m {
		if slices.Contains(names, k) {
			out[k] = v
		}
	}
	return out
}

// absent are the names the provider has no resource, data source or
// function of.
func absent(resp *tfprotov6.GetProviderSchemaResponse, names []string) []string {
	var out []string
	for _, n := range names {
		_, r := resp.ResourceSchemas[n]
		_, d := resp.DataSourceSchemas[n]
		_, f := resp.Functions[n]
		if !r && !d && !f {
			out = append(out, n)
		}
	}
	return out
}
