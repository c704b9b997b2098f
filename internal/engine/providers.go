package engine

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"sync"

	"github.com/blang/semver"
	"github.com/google/uuid"
	"github.com/pulumi/pulumi/sdk/v3/go/common/providers"
	"github.com/pulumi/pulumi/sdk/v3/go/common/resource"
	"github.com/pulumi/pulumi/sdk/v3/go/common/resource/plugin"
	"github.com/pulumi/pulumi/sdk/v3/go/common/tokens"
	"github.com/pulumi/pulumi/sdk/v3/go/common/util/contract"
	"golang.org/x/sync/errgroup"
)

// registry owns the provider plugins of one deployment: one plugin process
// per provider resource (default or explicit), like the real engine.
type registry struct {
	d *deployment

	mu           sync.Mutex
	byRef        map[string]plugin.Provider       // configured, by "urn::id"
	unconfigured map[resource.URN]plugin.Provider // loaded by Check, not yet configured
	loaded       []*loadedProvider
	ensureMu     sync.Mutex
}

// loadedProvider makes Close idempotent so early closes and the final sweep
// do not clash.
type loadedProvider struct {
	plugin.Provider
	once sync.Once
	err  error
}

func (p *loadedProvider) Close() error {
	p.once.Do(func() { p.err = p.Provider.Close() })
	return p.err
}

func newRegistry(d *deployment) *registry {
	return &registry{
		d:            d,
		byRef:        map[string]plugin.Provider{},
		unconfigured: map[resource.URN]plugin.Provider{},
	}
}

// load starts a fresh plugin for pkg (or the in-process builtin provider for
// package "pulumi").
func (r *registry) load(ctx context.Context, pkg tokens.Package) (plugin.Provider, error) {
	if pkg == "pulumi" {
		return &builtinProvider{d: r.d}, nil
	}
	path, ok := r.d.opts.Plugins[string(pkg)]
	if !ok {
		return nil, fmt.Errorf("no plugin for package %q: the engine needs the path of its pulumi-resource-%s binary "+
			"(Options.Plugins; with polyup, -plugin %s=PATH)", pkg, pkg, pkg)
	}
	p, err := plugin.NewProviderFromPath(r.d.pctx.Host, r.d.pctx, path)
	if err != nil {
		return nil, fmt.Errorf("loading plugin for package %q: %w", pkg, err)
	}
	lp := &loadedProvider{Provider: p}
	r.mu.Lock()
	r.loaded = append(r.loaded, lp)
	r.mu.Unlock()
	// The engine asks for the plugin info first; the client rejects a
	// non-semver version.
	if _, err := lp.GetPluginInfo(ctx); err != nil {
		_ = lp.Close()
		return nil, fmt.Errorf("plugin for package %q: GetPluginInfo: %w", pkg, err)
	}
	return lp, nil
}

// loadProvider starts the plugin of a provider resource of type typ with
// inputs: the plugin its __internal name says (else its package's), given
// the parameter recorded there, if any, as the real registry's
// loadParameterizedProvider does.
func (r *registry) loadProvider(ctx context.Context, typ tokens.Type, inputs resource.PropertyMap) (plugin.Provider, error) {
	pkg := providers.GetProviderPackage(typ)
	name, param, err := providerPlugin(pkg, inputs)
	if err != nil {
		return nil, fmt.Errorf("provider of package %s: %w", pkg, err)
	}
	p, err := r.load(ctx, name)
	if err != nil || param == nil {
		return p, err
	}
	if err := parameterize(ctx, p, param); err != nil {
		_ = p.Close()
		return nil, err
	}
	return p, nil
}

func (r *registry) get(ref string) (plugin.Provider, bool) {
	r.mu.Lock()
	defer r.mu.Unlock()
	p, ok := r.byRef[ref]
	return p, ok
}

func (r *registry) set(ref string, p plugin.Provider) {
	r.mu.Lock()
	prior, had := r.byRef[ref]
	r.byRef[ref] = p
	r.mu.Unlock()
	if had && prior != p {
		_ = prior.Close()
	}
}

func (r *registry) takeUnconfigured(urn resource.URN) (plugin.Provider, bool) {
	r.mu.Lock()
	defer r.mu.Unlock()
	p, ok := r.unconfigured[urn]
	delete(r.unconfigured, urn)
	return p, ok
}

// configure calls Configure the way the registry does (configure_with_urn).
func configure(ctx context.Context, p plugin.Provider, urn resource.URN, id resource.ID, inputs resource.PropertyMap) error {
	name, typ := urn.Name(), urn.Type()
	_, err := p.Configure(ctx, plugin.ConfigureRequest{
		URN: &urn, Name: &name, Type: &typ, ID: &id, Inputs: filterProviderConfig(inputs),
	})
	return err
}

// same configures an unchanged provider resource with its old inputs.
func (r *registry) same(s *resState) error {
	if s.ID == "" || s.ID == providers.UnknownID {
		return fmt.Errorf("provider '%v' has an unknown ID", s.URN)
	}
	ref := string(s.URN) + resource.URNNameDelimiter + string(s.ID)
	if _, ok := r.get(ref); ok {
		return nil
	}
	p, ok := r.takeUnconfigured(s.URN)
	if !ok {
		var err error
		if p, err = r.loadProvider(r.d.ctx, s.Type, s.Inputs); err != nil {
			return err
		}
	}
	if err := configure(r.d.ctx, p, s.URN, s.ID, s.Inputs); err != nil {
		_ = p.Close()
		return fmt.Errorf("configure provider '%v': %w", s.URN, err)
	}
	r.set(ref, p)
	return nil
}

// ensure returns the configured provider for ref, loading it from the old
// state (configured with its old inputs) when this deployment did not
// register it.
func (r *registry) ensure(ctx context.Context, ref string) (plugin.Provider, error) {
	if ref == "" {
		return nil, errors.New("resource has no provider")
	}
	if p, ok := r.get(ref); ok {
		return p, nil
	}
	r.ensureMu.Lock()
	defer r.ensureMu.Unlock()
	if p, ok := r.get(ref); ok {
		return p, nil
	}
	parsed, err := providers.ParseReference(ref)
	if err != nil {
		return nil, err
	}
	var st *resState
	for _, s := range r.d.prev {
		if s.URN == parsed.URN() && s.ID == parsed.ID() {
			st = s
			if !s.Delete {
				break
			}
		}
	}
	if st == nil {
		return nil, fmt.Errorf("unknown provider %v", ref)
	}
	p, err := r.loadProvider(ctx, st.Type, st.Inputs)
	if err != nil {
		return nil, err
	}
	if err := configure(ctx, p, st.URN, st.ID, st.Inputs); err != nil {
		_ = p.Close()
		return nil, fmt.Errorf("configure provider '%v': %w", st.URN, err)
	}
	r.set(ref, p)
	return p, nil
}

// closeAll shuts every plugin down (in parallel: each Close may wait for the
// process to exit).
func (r *registry) closeAll() {
	r.mu.Lock()
	loaded := r.loaded
	r.loaded = nil
	r.byRef = map[string]plugin.Provider{}
	r.unconfigured = map[resource.URN]plugin.Provider{}
	r.mu.Unlock()
	var g errgroup.Group
	for _, p := range loaded {
		g.Go(p.Close)
	}
	_ = g.Wait()
}

func (r *registry) resourceOps() ops { return providerResourceOps{r} }

// providerResourceOps implements the CRUD steps of provider resources
// (pulumi:providers:<pkg>): CheckConfig, DiffConfig, Configure, like the
// real engine's provider registry.
type providerResourceOps struct{ r *registry }

func (o providerResourceOps) Check(ctx context.Context, req plugin.CheckRequest) (plugin.CheckResponse, error) {
	p, err := o.r.loadProvider(ctx, req.URN.Type(), req.News)
	if err != nil {
		return plugin.CheckResponse{}, err
	}
	resp, err := p.CheckConfig(ctx, plugin.CheckConfigRequest{
		URN: req.URN, Name: req.URN.Name(), Type: req.URN.Type(),
		Olds: filterProviderConfig(req.Olds), News: filterProviderConfig(req.News), AllowUnknowns: true,
	})
	if err != nil || len(resp.Failures) > 0 {
		_ = p.Close()
		return plugin.CheckResponse{Failures: resp.Failures}, err
	}
	o.r.mu.Lock()
	prior, had := o.r.unconfigured[req.URN]
	o.r.unconfigured[req.URN] = p
	o.r.mu.Unlock()
	if had {
		_ = prior.Close()
	}
	props := resource.PropertyMap{}
	for k, v := range resp.Properties {
		props[k] = v
	}
	if v, ok := req.News["version"]; ok {
		if nv, has := props["version"]; !has {
			props["version"] = v
		} else if !nv.DeepEquals(v) {
			return plugin.CheckResponse{}, fmt.Errorf("provider %q attempted to change version", req.URN)
		}
	}
	if v, ok := req.News["__internal"]; ok {
		props["__internal"] = v
	}
	return plugin.CheckResponse{Properties: props}, nil
}

func (o providerResourceOps) Diff(ctx context.Context, req plugin.DiffRequest) (plugin.DiffResponse, error) {
	o.r.mu.Lock()
	p, fromCheck := o.r.unconfigured[req.URN]
	o.r.mu.Unlock()
	if !fromCheck {
		var ok bool
		if p, ok = o.r.get(string(req.URN) + resource.URNNameDelimiter + string(req.ID)); !ok {
			// Diffing an old provider for a delete-before-replace fan-out.
			var err error
			if p, err = o.r.ensure(ctx, string(req.URN)+resource.URNNameDelimiter+string(req.ID)); err != nil {
				return plugin.DiffResult{}, err
			}
		}
	}
	newInputs := filterProviderConfig(req.NewInputs)
	diff, err := p.DiffConfig(ctx, plugin.DiffConfigRequest{
		URN: req.URN, Name: req.URN.Name(), Type: req.URN.Type(),
		OldInputs: filterProviderConfig(req.OldInputs), OldOutputs: req.OldOutputs, NewInputs: newInputs,
		AllowUnknowns: req.AllowUnknowns, IgnoreChanges: req.IgnoreChanges,
	})
	if err != nil {
		return plugin.DiffResult{Changes: plugin.DiffUnknown}, err
	}
	if diff.Changes == plugin.DiffUnknown {
		if req.OldOutputs.DeepEquals(newInputs) {
			diff.Changes = plugin.DiffNone
		} else {
			diff.Changes = plugin.DiffSome
		}
	}
	if diff.Replace() && fromCheck {
		// The replacement's Check loads a fresh plugin.
		if p, ok := o.r.takeUnconfigured(req.URN); ok {
			_ = p.Close()
		}
	}
	return diff, nil
}

func (o providerResourceOps) Create(ctx context.Context, req plugin.CreateRequest) (plugin.CreateResponse, error) {
	p, ok := o.r.takeUnconfigured(req.URN)
	if !ok {
		var err error
		if p, err = o.r.loadProvider(ctx, req.URN.Type(), req.Properties); err != nil {
			return plugin.CreateResponse{Status: resource.StatusUnknown}, err
		}
	}
	id := resource.ID(providers.UnknownID)
	if !req.Preview {
		id = resource.ID(uuid.NewString())
	}
	if err := configure(ctx, p, req.URN, id, req.Properties); err != nil {
		return plugin.CreateResponse{Status: resource.StatusOK}, err
	}
	o.r.set(string(req.URN)+resource.URNNameDelimiter+string(id), p)
	return plugin.CreateResponse{ID: id, Properties: filterProviderConfig(req.Properties), Status: resource.StatusOK}, nil
}

func (o providerResourceOps) Update(ctx context.Context, req plugin.UpdateRequest) (plugin.UpdateResponse, error) {
	p, ok := o.r.takeUnconfigured(req.URN)
	contract.Assertf(ok, "Check and Diff must precede Update for provider %v", req.URN)
	if err := configure(ctx, p, req.URN, req.ID, req.NewInputs); err != nil {
		return plugin.UpdateResponse{Status: resource.StatusUnknown}, err
	}
	o.r.set(string(req.URN)+resource.URNNameDelimiter+string(req.ID), p)
	return plugin.UpdateResponse{Properties: filterProviderConfig(req.NewInputs), Status: resource.StatusOK}, nil
}

func (o providerResourceOps) Delete(_ context.Context, req plugin.DeleteRequest) (plugin.DeleteResponse, error) {
	ref := string(req.URN) + resource.URNNameDelimiter + string(req.ID)
	o.r.mu.Lock()
	p, ok := o.r.byRef[ref]
	delete(o.r.byRef, ref)
	o.r.mu.Unlock()
	if ok {
		_ = p.Close()
	}
	return plugin.DeleteResponse{}, nil
}

func (o providerResourceOps) Read(context.Context, plugin.ReadRequest) (plugin.ReadResponse, error) {
	return plugin.ReadResponse{}, errors.New("provider resources may not be read")
}

// defaultProviders registers default provider resources on first use, one
// per (package, version, download URL), serialized like the real engine.
type defaultProviders struct {
	mu   sync.Mutex
	refs map[string]string
	// plugins fills in what a request leaves out, per package.
	plugins map[tokens.Package]pluginSpec
}

// pluginSpec names the plugin of a package's default provider.
type pluginSpec struct {
	version *semver.Version
	url     string
}

// defaultPlugins picks each package's default plugin like the real engine's
// computeDefaultProviderPackages (engine/plugins.go): the language host's
// packages if it reported any, else the old state's provider resources;
// per package the newest version wins, and no version loses to any.
func defaultPlugins(pkgs []Package, prev []*resState) map[tokens.Package]pluginSpec {
	type cand struct {
		pkg tokens.Package
		pluginSpec
	}
	var cands []cand
	for _, p := range pkgs {
		c := cand{pkg: tokens.Package(p.Name), pluginSpec: pluginSpec{url: p.PluginDownloadURL}}
		if p.Version != "" {
			v := semver.MustParse(p.Version) // checked by New
			c.version = &v
		}
		cands = append(cands, c)
	}
	if len(cands) == 0 {
		for _, s := range prev {
			if !providers.IsProviderType(s.Type) {
				continue
			}
			c := cand{pkg: providers.GetProviderPackage(s.Type)}
			// A parameterized provider's plugin version is under
			// __internal, as the real engine's GetProviderVersion reads it.
			versions := s.Inputs
			if in := s.Inputs["__internal"]; in.IsObject() && in.ObjectValue().HasValue("parameterization") {
				versions = in.ObjectValue()
			}
			if v := versions["version"]; v.IsString() {
				if parsed, err := semver.ParseTolerant(v.StringValue()); err == nil {
					c.version = &parsed
				}
			}
			if in := s.Inputs["__internal"]; in.IsObject() {
				if u := in.ObjectValue()["pluginDownloadURL"]; u.IsString() {
					c.url = u.StringValue()
				}
			}
			cands = append(cands, c)
		}
	}
	slices.SortStableFunc(cands, func(a, b cand) int {
		switch {
		case a.version == nil && b.version == nil:
			return 0
		case a.version == nil:
			return -1
		case b.version == nil:
			return 1
		}
		return a.version.Compare(*b.version)
	})
	out := map[tokens.Package]pluginSpec{}
	for _, c := range cands {
		if seen, ok := out[c.pkg]; !ok || seen.version == nil || (c.version != nil && c.version.GTE(*seen.version)) {
			out[c.pkg] = c.pluginSpec
		}
	}
	return out
}

// normalize fills in a missing version and download URL from the
// package's default plugin, as the real engine's
// defaultProviders.normalizeProviderRequest does.
func (dp *defaultProviders) normalize(pkg tokens.Package, version, url string) (string, string) {
	spec, ok := dp.plugins[pkg]
	if !ok {
		return version, url
	}
	if version == "" && spec.version != nil {
		version = spec.version.String()
	}
	if url == "" {
		url = spec.url
	}
	return version, url
}

// defaultProviderRef returns the reference of the default provider for
// req, registering `pulumi:providers:<pkg>::default[_<version>]` if needed
// (the version is the parameterized package's, for one registered with
// RegisterPackage). Its inputs are the stack config of the package
// (namespace stripped; strings, secret when the key is secret), and the
// plugin to run, as the real engine's newRegisterDefaultProviderEvent
// records it.
func (d *deployment) defaultProviderRef(ctx context.Context, req providerRequest) (string, error) {
	d.defaults.mu.Lock()
	defer d.defaults.mu.Unlock()
	if d.defaults.refs == nil {
		d.defaults.refs = map[string]string{}
	}
	pkg := req.pkg()
	req.version, req.url = d.defaults.normalize(pkg, req.version, req.url)
	var v *semver.Version
	if req.version != "" {
		parsed, err := semver.Parse(req.version)
		if err != nil {
			return "", fmt.Errorf("invalid version %q for package %s: %w", req.version, pkg, err)
		}
		v = &parsed
	}
	// Keyed as the real engine's ProviderRequest.String: the package, its
	// version (the parameterized package's, if any) and the download URL.
	named, namedVersion := v, req.version
	if req.param != nil {
		named, namedVersion = &req.param.version, req.param.version.String()
	}
	key := string(pkg) + "\x00" + namedVersion + "\x00" + req.url
	if ref, ok := d.defaults.refs[key]; ok {
		return ref, nil
	}
	inputs := resource.PropertyMap{}
	secret := map[string]bool{}
	for _, k := range d.opts.SecretKeys {
		secret[k] = true
	}
	for k, val := range d.opts.Config {
		ns, name, ok := cutConfigKey(k)
		if !ok || ns != string(pkg) {
			continue
		}
		pv := resource.NewProperty(val)
		if secret[k] {
			pv = resource.MakeSecret(pv)
		}
		inputs[resource.PropertyKey(name)] = pv
	}
	if v != nil {
		setProviderVersion(inputs, v.String())
	}
	req.record(inputs)
	st, err := d.register(ctx, &goal{
		Type:   providers.MakeProviderType(pkg),
		Name:   defaultProviderName(named, req.url),
		Custom: true,
		Props:  inputs,
	})
	if err != nil {
		return "", fmt.Errorf("default provider for package %s: %w", pkg, err)
	}
	id := st.ID
	if id == "" {
		id = providers.UnknownID
	}
	ref := string(st.URN) + resource.URNNameDelimiter + string(id)
	d.defaults.refs[key] = ref
	return ref, nil
}

// cutConfigKey splits "ns:key" (or the older "ns:config:key").
func cutConfigKey(k string) (string, string, bool) {
	for i := 0; i < len(k); i++ {
		if k[i] == ':' {
			ns, rest := k[:i], k[i+1:]
			if len(rest) > 7 && rest[:7] == "config:" {
				rest = rest[7:]
			}
			return ns, rest, rest != ""
		}
	}
	return "", "", false
}

// builtinProvider serves package "pulumi" in process, as the engine's
// builtins do: only the getResource invoke is supported.
type builtinProvider struct {
	plugin.UnimplementedProvider
	d *deployment
}

func (p *builtinProvider) Close() error { return nil }

func (p *builtinProvider) CheckConfig(context.Context, plugin.CheckConfigRequest) (plugin.CheckConfigResponse, error) {
	return plugin.CheckConfigResponse{}, nil
}

func (p *builtinProvider) DiffConfig(context.Context, plugin.DiffConfigRequest) (plugin.DiffConfigResponse, error) {
	return plugin.DiffResult{Changes: plugin.DiffNone}, nil
}

func (p *builtinProvider) Configure(context.Context, plugin.ConfigureRequest) (plugin.ConfigureResponse, error) {
	return plugin.ConfigureResponse{}, nil
}

func (p *builtinProvider) GetPluginInfo(context.Context) (plugin.PluginInfo, error) {
	return plugin.PluginInfo{}, nil
}

func (p *builtinProvider) Invoke(_ context.Context, req plugin.InvokeRequest) (plugin.InvokeResponse, error) {
	if req.Tok != "pulumi:pulumi:getResource" {
		return plugin.InvokeResponse{}, fmt.Errorf("unrecognized function name: '%v'", req.Tok)
	}
	urnV, ok := req.Args["urn"]
	if !ok || !urnV.IsString() {
		return plugin.InvokeResponse{}, errors.New("getResource: missing string argument 'urn'")
	}
	urn := resource.URN(urnV.StringValue())
	p.d.mu.Lock()
	st, ok := p.d.newsByURN[urn]
	var outs resource.PropertyMap
	var id resource.ID
	var prov string
	if ok {
		outs, id, prov = st.Outputs, st.ID, st.Provider
	}
	p.d.mu.Unlock()
	if !ok {
		return plugin.InvokeResponse{}, fmt.Errorf("unknown resource %v", urn)
	}
	if outs == nil {
		outs = resource.PropertyMap{}
	}
	return plugin.InvokeResponse{Properties: resource.PropertyMap{
		"urn":      urnV,
		"id":       resource.NewProperty(string(id)),
		"provider": resource.NewProperty(prov),
		"state":    resource.NewProperty(outs),
	}}, nil
}
