package engine

import (
	"context"
	"errors"
	"fmt"
	"maps"
	"strings"
	"time"

	"github.com/pulumi/pulumi/sdk/v3/go/common/diag"
	"github.com/pulumi/pulumi/sdk/v3/go/common/providers"
	"github.com/pulumi/pulumi/sdk/v3/go/common/resource"
	"github.com/pulumi/pulumi/sdk/v3/go/common/resource/plugin"
	"github.com/pulumi/pulumi/sdk/v3/go/common/tokens"
	pulumirpc "github.com/pulumi/pulumi/sdk/v3/proto/go"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/metadata"
	"google.golang.org/grpc/status"
	"google.golang.org/protobuf/types/known/emptypb"
	"google.golang.org/protobuf/types/known/structpb"
)

// engineServer is the Engine service plugins and programs log to.
type engineServer struct {
	// Embedded on purpose: StartDebugging and RequirePulumiVersion answer
	// Unimplemented, which SDKs tolerate; new RPCs also default to that.
	pulumirpc.UnimplementedEngineServer
	d *deployment
}

func (s *engineServer) Log(_ context.Context, req *pulumirpc.LogRequest) (*emptypb.Empty, error) {
	sev := diag.Info
	switch req.GetSeverity() {
	case pulumirpc.LogSeverity_DEBUG:
		sev = diag.Debug
	case pulumirpc.LogSeverity_WARNING:
		sev = diag.Warning
	case pulumirpc.LogSeverity_ERROR:
		sev = diag.Error
	}
	if req.GetEphemeral() {
		sev = diag.Debug // status lines are not diagnostics
	}
	s.d.log(sev, resource.URN(req.GetUrn()), strings.ToValidUTF8(req.GetMessage(), "\uFFFD"))
	return &emptypb.Empty{}, nil
}

func (s *engineServer) GetRootResource(context.Context, *pulumirpc.GetRootResourceRequest) (*pulumirpc.GetRootResourceResponse, error) {
	s.d.mu.Lock()
	defer s.d.mu.Unlock()
	return &pulumirpc.GetRootResourceResponse{Urn: s.d.rootURN}, nil
}

func (s *engineServer) SetRootResource(_ context.Context, req *pulumirpc.SetRootResourceRequest) (*pulumirpc.SetRootResourceResponse, error) {
	s.d.mu.Lock()
	defer s.d.mu.Unlock()
	s.d.rootURN = req.GetUrn()
	return &pulumirpc.SetRootResourceResponse{}, nil
}

// monitorServer is the ResourceMonitor programs and component providers
// register resources with.
type monitorServer struct {
	// Embedded on purpose: transforms, hooks and SignalAndWaitForShutdown
	// answer Unimplemented (SDKs tolerate the last; the others only matter
	// to programs that use those features).
	pulumirpc.UnimplementedResourceMonitorServer
	d *deployment
}

var legacyFeatures = map[string]bool{
	"secrets": true, "resourceReferences": true, "outputValues": true, "aliasSpecs": true,
	"replacementTrigger": true, "deletedWith": true, "replaceWith": true, "transforms": true,
	"invokeTransforms": true, "parameterization": true, "resourceHooks": true, "errorHooks": true,
	"sendsOptionsToHooks": true,
}

func (m *monitorServer) SupportsFeature(_ context.Context, req *pulumirpc.SupportsFeatureRequest) (*pulumirpc.SupportsFeatureResponse, error) {
	return &pulumirpc.SupportsFeatureResponse{HasSupport: legacyFeatures[req.GetId()]}, nil
}

func (m *monitorServer) GetDeploymentInfo(context.Context, *emptypb.Empty) (*pulumirpc.DeploymentInfo, error) {
	d := m.d
	var features []pulumirpc.ResourceMonitorFeature
	for f := pulumirpc.ResourceMonitorFeature_RESOURCE_MONITOR_FEATURE_SECRETS; f <= pulumirpc.ResourceMonitorFeature_RESOURCE_MONITOR_FEATURE_INVOKE_PARENT; f++ {
		features = append(features, f)
	}
	cfg := maps.Clone(d.opts.Config)
	if cfg == nil {
		cfg = map[string]string{}
	}
	return &pulumirpc.DeploymentInfo{
		Project:           d.opts.Project,
		Stack:             d.opts.Stack,
		Organization:      d.opts.Organization,
		Config:            cfg,
		ConfigSecretKeys:  append([]string(nil), d.opts.SecretKeys...),
		DryRun:            d.dryRun,
		Parallel:          int32(d.opts.Parallel),
		SupportedFeatures: features,
	}, nil
}

// requestFromNodeJS tells Node.js callers apart, like the real engine: by the
// pulumi-runtime header, else the grpc-node-js user agent.
func requestFromNodeJS(ctx context.Context) bool {
	md, ok := metadata.FromIncomingContext(ctx)
	if !ok {
		return false
	}
	if rt, ok := md["pulumi-runtime"]; ok {
		return len(rt) == 1 && rt[0] == "nodejs"
	}
	ua := md["user-agent"]
	return len(ua) == 1 && strings.HasPrefix(ua[0], "grpc-node-js/")
}

// nodeAliasSpec maps the legacy Node.js parent encoding to the proper one:
// an empty parent URN meant "no parent", and noParent=true meant "default".
func nodeAliasSpec(spec *pulumirpc.Alias_Spec) *pulumirpc.Alias_Spec {
	out := &pulumirpc.Alias_Spec{Name: spec.GetName(), Type: spec.GetType(), Stack: spec.GetStack(), Project: spec.GetProject()}
	switch p := spec.GetParent().(type) {
	case *pulumirpc.Alias_Spec_ParentUrn:
		if p.ParentUrn == "" {
			out.Parent = &pulumirpc.Alias_Spec_NoParent{NoParent: true}
		} else {
			out.Parent = p
		}
	case *pulumirpc.Alias_Spec_NoParent:
		if !p.NoParent {
			out.Parent = p
		}
	default:
		out.Parent = &pulumirpc.Alias_Spec_NoParent{NoParent: true}
	}
	return out
}

// inheritFromParent copies unset options from the parent's goal (§2.3 step 1).
func inheritFromParent(req *pulumirpc.RegisterResourceRequest, parent *goal) {
	if req.DeletedWith == "" {
		req.DeletedWith = string(parent.DeletedWith)
	}
	if req.Protect == nil {
		req.Protect = parent.Protect
	}
	if req.RetainOnDelete == nil {
		req.RetainOnDelete = parent.RetainOnDelete
	}
	if req.Provider == "" {
		ref, err := providers.ParseReference(parent.Provider)
		if (!req.Remote && !req.Custom) ||
			(err == nil && ref.URN().Type().Name() == tokens.TypeName(tokens.Type(req.Type).Package())) {
			req.Provider = parent.Provider
		}
	}
}

// resolveProvider picks the provider for a package: explicit provider, then
// the providers map, then the parent component's providers (§2.3 step 5).
func (d *deployment) resolveProvider(provider string, provs map[string]string, parent resource.URN, pkg tokens.Package) string {
	if provider != "" {
		return provider
	}
	if p, ok := provs[string(pkg)]; ok {
		return p
	}
	if parent != "" {
		d.mu.Lock()
		defer d.mu.Unlock()
		if p, ok := d.componentProviders[parent][string(pkg)]; ok {
			return p
		}
	}
	return ""
}

// providerRef turns a raw provider string into a reference, registering the
// default provider req asks for when raw is empty.
func (d *deployment) providerRef(ctx context.Context, raw string, req providerRequest) (string, error) {
	if raw == "" {
		return d.defaultProviderRef(ctx, req)
	}
	ref, err := providers.ParseReference(raw)
	if err != nil {
		return "", fmt.Errorf("could not parse provider reference: %w", err)
	}
	return ref.String(), nil
}

func parseURNs(raw []string, what string) ([]resource.URN, error) {
	var out []resource.URN
	for _, s := range raw {
		u, err := resource.ParseURN(s)
		if err != nil {
			return nil, status.Errorf(codes.InvalidArgument, "invalid %s URN: %v", what, err)
		}
		out = append(out, u)
	}
	return out, nil
}

func timeoutSeconds(s string) (float64, error) {
	if s == "" {
		return 0, nil
	}
	dur, err := time.ParseDuration(s)
	if err != nil {
		return 0, fmt.Errorf("unable to parse customTimeout Value %s", s)
	}
	return dur.Seconds(), nil
}

func (m *monitorServer) RegisterResource(ctx context.Context, req *pulumirpc.RegisterResourceRequest) (*pulumirpc.RegisterResourceResponse, error) {
	d := m.d
	done, err := d.begin()
	if err != nil {
		return nil, err
	}
	defer done()

	name, custom, remote := req.GetName(), req.GetCustom(), req.GetRemote()
	parent, err := resource.ParseOptionalURN(req.GetParent())
	if err != nil {
		return nil, status.Errorf(codes.InvalidArgument, "invalid parent URN: %v", err)
	}
	d.mu.Lock()
	d.inflight[parent]++
	if pg, ok := d.goals[parent]; ok && parent != "" {
		inheritFromParent(req, pg)
	}
	d.mu.Unlock()
	defer func() {
		d.mu.Lock()
		d.inflight[parent]--
		d.mu.Unlock()
	}()

	var t tokens.Type
	if custom || remote {
		if t, err = tokens.ParseTypeToken(req.GetType()); err != nil {
			return nil, status.Error(codes.InvalidArgument, err.Error())
		}
	} else {
		t = tokens.Type(req.GetType())
	}
	label := fmt.Sprintf("ResourceMonitor.RegisterResource(%s,%s)", t, name)
	switch {
	case len(req.GetTransforms()) > 0:
		return nil, status.Error(codes.Unimplemented, "the test engine does not support transforms")
	case len(req.GetEnvVarMappings()) > 0 && !providers.IsProviderType(t):
		return nil, status.Error(codes.InvalidArgument, "envVarMappings can only be used with provider resources")
	}

	var aliases []resource.Alias
	for _, a := range req.GetAliasURNs() {
		u, err := resource.ParseURN(a)
		if err != nil {
			return nil, status.Errorf(codes.InvalidArgument, "invalid alias URN: %v", err)
		}
		aliases = append(aliases, resource.Alias{URN: u})
	}
	// Old Node.js SDKs sent malformed alias specs; the engine fixes them up
	// unless the request says its specs are well formed.
	nodeCompat := !req.GetAliasSpecs() && requestFromNodeJS(ctx)
	for _, a := range req.GetAliases() {
		if spec := a.GetSpec(); spec != nil {
			if nodeCompat {
				spec = nodeAliasSpec(spec)
			}
			alias := resource.Alias{Name: spec.GetName(), Type: spec.GetType(), Stack: spec.GetStack(), Project: spec.GetProject()}
			switch p := spec.GetParent().(type) {
			case *pulumirpc.Alias_Spec_ParentUrn:
				if alias.Parent, err = resource.ParseOptionalURN(p.ParentUrn); err != nil {
					return nil, status.Errorf(codes.InvalidArgument, "invalid parent alias URN: %v", err)
				}
			case *pulumirpc.Alias_Spec_NoParent:
				alias.NoParent = p.NoParent
			}
			aliases = append(aliases, alias)
		} else {
			u, err := resource.ParseURN(a.GetUrn())
			if err != nil {
				return nil, status.Errorf(codes.InvalidArgument, "invalid alias URN: %v", err)
			}
			aliases = append(aliases, resource.Alias{URN: u})
		}
	}

	var dbr *bool
	if req.GetDeleteBeforeReplaceDefined() || req.GetDeleteBeforeReplace() {
		v := req.GetDeleteBeforeReplace()
		dbr = &v
	}

	props, err := plugin.UnmarshalProperties(req.GetObject(), plugin.MarshalOptions{
		Label: label, KeepUnknowns: true, ComputeAssetHashes: true, KeepSecrets: true,
		KeepResources: true, KeepOutputValues: true, UpgradeToOutputValues: true,
	})
	if err != nil {
		return nil, fmt.Errorf("unmarshal properties: %w", err)
	}
	if props == nil {
		props = resource.PropertyMap{}
	}

	deps, err := parseURNs(req.GetDependencies(), "dependency")
	if err != nil {
		return nil, err
	}
	propDeps := map[resource.PropertyKey][]resource.URN{}
	if len(req.GetPropertyDependencies()) == 0 && !remote {
		for k := range props {
			propDeps[k] = dedupURNs(deps)
		}
	} else {
		for k, pd := range req.GetPropertyDependencies() {
			us, err := parseURNs(pd.GetUrns(), "property dependency")
			if err != nil {
				return nil, err
			}
			propDeps[resource.PropertyKey(k)] = us
		}
	}
	for k, v := range props {
		propDeps[k] = extendDeps(propDeps[k], v)
	}
	deps = dedupURNs(deps)

	provider := req.GetProvider()
	if custom || remote {
		provider = d.resolveProvider(provider, req.GetProviders(), parent, t.Package())
	}
	provs := maps.Clone(req.GetProviders())
	if !custom && parent != "" {
		d.mu.Lock()
		if pp, ok := d.componentProviders[parent]; ok {
			for k, v := range pp {
				if provs == nil {
					provs = map[string]string{}
				}
				if _, has := provs[k]; !has {
					provs[k] = v
				}
			}
		}
		d.mu.Unlock()
	}

	var providerRef string
	var providerRefs map[string]string
	if (custom && !providers.IsProviderType(t)) || remote {
		// A package reference names the package's provider in place of
		// the token's package, version and download URL.
		preq, err := d.packages.lookup(req.GetPackageRef(), t.Package(), req.GetVersion(), req.GetPluginDownloadURL())
		if err != nil {
			return nil, err
		}
		// Steps run on the deployment's context, not the caller's RPC: a
		// caller going away must not cut a provider call in half.
		if providerRef, err = d.providerRef(d.ctx, provider, preq); err != nil {
			return nil, err
		}
		providerRefs = make(map[string]string, len(provs))
		for pkg, p := range provs {
			ref, err := d.providerRef(d.ctx, p, preq)
			if err != nil {
				return nil, err
			}
			providerRefs[pkg] = ref
		}
	}

	if providers.IsProviderType(t) {
		v, u := req.GetVersion(), req.GetPluginDownloadURL()
		if v != "" {
			setProviderVersion(props, v)
		}
		if u != "" {
			setProviderURL(props, u)
		}
		if ref := req.GetPackageRef(); ref != "" {
			// An explicit provider of a registered package records its
			// plugin as the package's default provider does.
			preq, err := d.packages.lookup(ref, "", "", "")
			if err != nil {
				return nil, err
			}
			if preq.version != "" {
				setProviderVersion(props, preq.version)
			}
			preq.record(props)
		}
		if v == "" && u == "" {
			// An explicit provider naming no plugin gets the default
			// provider's, as in the real engine's RegisterResource.
			if spec, ok := d.defaults.plugins[providers.GetProviderPackage(t)]; ok {
				if spec.version != nil {
					setProviderVersion(props, spec.version.String())
				}
				if spec.url != "" {
					setProviderURL(props, spec.url)
				}
			}
		}
	}

	trigger := resource.NewNullProperty()
	if tv := req.GetReplacementTrigger(); tv != nil {
		pv, err := plugin.UnmarshalPropertyValue("replacementTrigger", tv, plugin.MarshalOptions{
			Label: label, KeepUnknowns: true, ComputeAssetHashes: true, KeepSecrets: true,
			KeepResources: true, KeepOutputValues: true,
		})
		if err != nil {
			return nil, fmt.Errorf("unmarshaling replacement trigger: %w", err)
		}
		if pv != nil {
			trigger = *pv
		}
	}
	var timeouts resource.CustomTimeouts
	if ct := req.GetCustomTimeouts(); ct != nil {
		for _, f := range []struct {
			s   string
			dst *float64
		}{{ct.GetCreate(), &timeouts.Create}, {ct.GetUpdate(), &timeouts.Update}, {ct.GetDelete(), &timeouts.Delete}, {ct.GetRead(), &timeouts.Read}} {
			if *f.dst, err = timeoutSeconds(f.s); err != nil {
				return nil, err
			}
		}
	}
	deletedWith, err := resource.ParseOptionalURN(req.GetDeletedWith())
	if err != nil {
		return nil, status.Errorf(codes.InvalidArgument, "invalid DeletedWith URN: %v", err)
	}
	replaceWith, err := parseURNs(req.GetReplaceWith(), "replaceWith")
	if err != nil {
		return nil, err
	}

	if remote {
		return m.construct(ctx, req, t, parent, props, constructOpts{
			aliases: aliases, deps: deps, propDeps: propDeps, providerRef: providerRef,
			providerRefs: providerRefs, provs: provs, dbr: dbr, trigger: trigger,
			deletedWith: deletedWith, replaceWith: replaceWith,
		})
	}
	props = downgradeOutputValues(props)

	var aso []resource.PropertyKey
	for _, k := range req.GetAdditionalSecretOutputs() {
		aso = append(aso, resource.PropertyKey(k))
	}
	var hideDiff []resource.PropertyPath
	for i, raw := range req.GetHideDiffs() {
		path, err := resource.ParsePropertyPath(raw)
		if err != nil {
			return nil, fmt.Errorf("%d: %w", i, err)
		}
		hideDiff = append(hideDiff, path)
	}
	g := &goal{
		Type: t, Name: name, Custom: custom, Props: props, Parent: parent, Protect: req.Protect,
		Dependencies: deps, Provider: providerRef, PropertyDependencies: propDeps,
		DeleteBeforeReplace: dbr, IgnoreChanges: req.GetIgnoreChanges(), AdditionalSecretOutputs: aso,
		Aliases: aliases, CustomTimeouts: timeouts, ReplaceOnChanges: req.GetReplaceOnChanges(), HideDiff: hideDiff,
		RetainOnDelete: req.RetainOnDelete, DeletedWith: deletedWith, ReplaceWith: replaceWith,
		ReplacementTrigger: trigger, ImportID: resource.ID(req.GetImportId()),
	}
	st, err := d.register(d.ctx, g)
	if err != nil {
		if req.GetSupportsResultReporting() {
			return &pulumirpc.RegisterResourceResponse{
				Urn:    string(d.generateURN(parent, t, name)),
				Result: pulumirpc.Result_FAIL,
			}, nil
		}
		return nil, status.Error(codes.Internal, "resource registration failed")
	}

	d.mu.Lock()
	d.goals[st.URN] = g
	d.parents[st.URN] = parent
	if !custom {
		d.componentProviders[st.URN] = provs
	}
	id := st.ID
	outputs := st.Outputs
	d.mu.Unlock()

	if !custom {
		// Local components answer with no outputs: they only come from
		// RegisterResourceOutputs.
		outputs = resource.PropertyMap{}
	}
	if outputs == nil {
		outputs = resource.PropertyMap{}
	}
	if !req.GetSupportsPartialValues() {
		outputs = stripUnknowns(outputs)
	}
	obj, err := plugin.MarshalProperties(outputs, plugin.MarshalOptions{
		Label: label, KeepUnknowns: true, KeepSecrets: req.GetAcceptSecrets(),
		KeepResources: req.GetAcceptResources(), KeepByteString: req.GetAcceptsByteString(),
	})
	if err != nil {
		return nil, err
	}
	return &pulumirpc.RegisterResourceResponse{
		Urn: string(st.URN), Id: string(id), Object: obj, Result: pulumirpc.Result_SUCCESS,
	}, nil
}

type constructOpts struct {
	aliases      []resource.Alias
	deps         []resource.URN
	propDeps     map[resource.PropertyKey][]resource.URN
	providerRef  string
	providerRefs map[string]string
	provs        map[string]string
	dbr          *bool
	trigger      resource.PropertyValue
	deletedWith  resource.URN
	replaceWith  []resource.URN
}

// construct handles a remote component: Construct on the package's provider.
func (m *monitorServer) construct(ctx context.Context, req *pulumirpc.RegisterResourceRequest, t tokens.Type,
	parent resource.URN, props resource.PropertyMap, o constructOpts,
) (*pulumirpc.RegisterResourceResponse, error) {
	d := m.d
	prov, ok := d.registry.get(o.providerRef)
	if !ok {
		return nil, fmt.Errorf("unknown provider '%v'", o.providerRef)
	}
	cfg, secretKeys, err := d.configKeys()
	if err != nil {
		return nil, err
	}
	options := plugin.ConstructOptions{
		Aliases:                 o.aliases,
		Dependencies:            o.deps,
		Protect:                 req.Protect,
		PropertyDependencies:    o.propDeps,
		Providers:               o.providerRefs,
		AdditionalSecretOutputs: req.GetAdditionalSecretOutputs(),
		DeletedWith:             o.deletedWith,
		ReplaceWith:             o.replaceWith,
		DeleteBeforeReplace:     o.dbr,
		IgnoreChanges:           req.GetIgnoreChanges(),
		ReplaceOnChanges:        req.GetReplaceOnChanges(),
		ReplacementTrigger:      resource.FromResourcePropertyValue(o.trigger),
		RetainOnDelete:          req.RetainOnDelete,
	}
	if ct := req.GetCustomTimeouts(); ct != nil {
		options.CustomTimeouts = &plugin.CustomTimeouts{
			Create: ct.GetCreate(), Update: ct.GetUpdate(), Delete: ct.GetDelete(), Read: ct.GetRead(),
		}
	}
	res, err := prov.Construct(ctx, plugin.ConstructRequest{
		Info: plugin.ConstructInfo{
			Project: d.opts.Project, Stack: d.opts.Stack, Organization: d.opts.Organization,
			Config: cfg, ConfigSecretKeys: secretKeys, DryRun: d.dryRun,
			Parallel: int32(d.opts.Parallel), MonitorAddress: d.address(),
		},
		Type: t, Name: req.GetName(), Parent: parent, Inputs: props, Options: options,
	})
	if err != nil {
		// Like the real engine: the details go to a diagnostic with no URN
		// (a failed Construct returns none), and the program only learns
		// that the deployment is over.
		err = fmt.Errorf("%s resource '%s' has a problem: %s", t, req.GetName(), providerErrorMessage(err, props))
		d.log(diag.Error, "", err.Error())
		d.fail(err)
		return nil, status.Error(codes.Unknown, "resource monitor shut down")
	}

	outputs := res.Outputs
	if outputs == nil {
		outputs = resource.PropertyMap{}
	}
	outDeps := map[string]*pulumirpc.RegisterResourceResponse_PropertyDependencies{}
	keys := map[resource.PropertyKey]bool{}
	for k := range outputs {
		keys[k] = true
	}
	for k := range res.OutputDependencies {
		keys[k] = true
	}
	for k := range keys {
		us := extendDeps(res.OutputDependencies[k], outputs[k])
		strs := make([]string, len(us))
		for i, u := range us {
			strs[i] = string(u)
		}
		outDeps[string(k)] = &pulumirpc.RegisterResourceResponse_PropertyDependencies{Urns: strs}
	}

	d.mu.Lock()
	d.parents[res.URN] = parent
	d.componentProviders[res.URN] = o.provs
	d.mu.Unlock()

	if !req.GetSupportsPartialValues() {
		outputs = stripUnknowns(outputs)
	}
	obj, err := plugin.MarshalProperties(outputs, plugin.MarshalOptions{
		KeepUnknowns: true, KeepSecrets: req.GetAcceptSecrets(), KeepResources: req.GetAcceptResources(),
		KeepByteString: req.GetAcceptsByteString(),
	})
	if err != nil {
		return nil, err
	}
	return &pulumirpc.RegisterResourceResponse{
		Urn: string(res.URN), Object: obj, PropertyDependencies: outDeps, Result: pulumirpc.Result_SUCCESS,
	}, nil
}

func (m *monitorServer) RegisterResourceOutputs(_ context.Context, req *pulumirpc.RegisterResourceOutputsRequest) (*emptypb.Empty, error) {
	d := m.d
	done, err := d.begin()
	if err != nil {
		return nil, err
	}
	defer done()
	urn, err := resource.ParseURN(req.GetUrn())
	if err != nil {
		return nil, fmt.Errorf("invalid resource URN: %w", err)
	}
	outs, err := plugin.UnmarshalProperties(req.GetOutputs(), plugin.MarshalOptions{
		Label: fmt.Sprintf("ResourceMonitor.RegisterResourceOutputs(%s)", urn), KeepUnknowns: true,
		ComputeAssetHashes: true, KeepSecrets: true, KeepResources: true,
	})
	if err != nil {
		return nil, fmt.Errorf("cannot unmarshal output properties: %w", err)
	}
	if outs == nil {
		outs = resource.PropertyMap{}
	}
	d.mu.Lock()
	defer d.mu.Unlock()
	// The real step executor drops a registration from its pending ones
	// when its outputs come: a second call is an error.
	st, ok := d.newsByURN[urn]
	if !ok || d.completed[urn] {
		return nil, fmt.Errorf("cannot complete a resource '%v' whose registration isn't pending", urn)
	}
	d.completed[urn] = true
	st.Outputs = outs
	return &emptypb.Empty{}, nil
}

// hasUnresolved reports whether any of urns (or a component's children) is
// still being registered or has no known ID yet.
func (d *deployment) hasUnresolved(urns []resource.URN) bool {
	d.mu.Lock()
	defer d.mu.Unlock()
	children := map[resource.URN][]resource.URN{}
	for u, p := range d.parents {
		children[p] = append(children[p], u)
	}
	var check func(u resource.URN, depth int) bool
	check = func(u resource.URN, depth int) bool {
		if depth > 1000 || d.inflight[u] > 0 {
			return true
		}
		st, ok := d.newsByURN[u]
		if !ok {
			return true
		}
		if st.Custom && (st.ID == "" || st.ID == providers.UnknownID) {
			return true
		}
		for _, c := range children[u] {
			if check(c, depth+1) {
				return true
			}
		}
		return false
	}
	for _, u := range urns {
		if check(u, 0) {
			return true
		}
	}
	return false
}

func (m *monitorServer) Invoke(ctx context.Context, req *pulumirpc.ResourceInvokeRequest) (*pulumirpc.ResourceInvokeResponse, error) {
	d := m.d
	done, err := d.begin()
	if err != nil {
		return nil, err
	}
	defer done()
	tok := tokens.ModuleMember(req.GetTok())
	label := fmt.Sprintf("ResourceMonitor.Invoke(%s)", tok)
	args, err := plugin.UnmarshalProperties(req.GetArgs(), plugin.MarshalOptions{
		Label: label, KeepUnknowns: true, KeepSecrets: true, KeepResources: true,
	})
	if err != nil {
		return nil, fmt.Errorf("failed to unmarshal %v args: %w", tok, err)
	}
	preq, err := d.packages.lookup(req.GetPackageRef(), tok.Package(), req.GetVersion(), req.GetPluginDownloadURL())
	if err != nil {
		return nil, err
	}
	parent, err := resource.ParseOptionalURN(req.GetParent())
	if err != nil {
		return nil, status.Errorf(codes.InvalidArgument, "invalid parent URN: %v", err)
	}
	raw := d.resolveProvider(req.GetProvider(), nil, parent, preq.pkg())
	ref, err := d.providerRef(d.ctx, raw, preq)
	if err != nil {
		return nil, fmt.Errorf("Invoke: %w", err)
	}
	prov, ok := d.registry.get(ref)
	if !ok {
		return nil, fmt.Errorf("unknown provider '%v' -> '%v'", raw, ref)
	}
	if len(req.GetDependsOn()) > 0 {
		deps, err := parseURNs(req.GetDependsOn(), "dependsOn")
		if err != nil {
			return nil, err
		}
		if d.hasUnresolved(deps) {
			return &pulumirpc.ResourceInvokeResponse{Unknown: true}, nil
		}
	}
	resp, err := prov.Invoke(ctx, plugin.InvokeRequest{Tok: tok, Args: args, Preview: d.dryRun})
	if err != nil {
		return nil, fmt.Errorf("invocation of %v returned an error: %w", tok, err)
	}
	ret, err := plugin.MarshalProperties(resp.Properties, plugin.MarshalOptions{
		Label: label, KeepUnknowns: true, KeepSecrets: true,
		KeepResources:  req.GetAcceptResources() || tok == "pulumi:pulumi:getResource",
		KeepByteString: req.GetAcceptsByteString(),
	})
	if err != nil {
		return nil, fmt.Errorf("failed to marshal %v return: %w", tok, err)
	}
	return &pulumirpc.ResourceInvokeResponse{Return: ret, Failures: checkFailures(resp.Failures)}, nil
}

func checkFailures(fs []plugin.CheckFailure) []*pulumirpc.CheckFailure {
	out := make([]*pulumirpc.CheckFailure, 0, len(fs))
	for _, f := range fs {
		out = append(out, &pulumirpc.CheckFailure{Property: string(f.Property), Reason: f.Reason})
	}
	return out
}

func (m *monitorServer) Call(ctx context.Context, req *pulumirpc.ResourceCallRequest) (*pulumirpc.CallResponse, error) {
	d := m.d
	done, err := d.begin()
	if err != nil {
		return nil, err
	}
	defer done()
	tok := tokens.ModuleMember(req.GetTok())
	// A package reference, if any, names the default provider in place of
	// the token's package, version and download URL.
	preq, err := d.packages.lookup(req.GetPackageRef(), tok.Package(), req.GetVersion(), req.GetPluginDownloadURL())
	if err != nil {
		return nil, err
	}
	var self map[string]*structpb.Value
	if sv, ok := req.GetArgs().GetFields()["__self__"]; ok {
		self = sv.GetStructValue().GetFields()
	}

	var ref string
	switch {
	case providers.IsProviderType(tokens.Type(tok)):
		// A method of a provider resource is served by that provider.
		if self == nil || self["urn"] == nil || self["id"] == nil {
			return nil, errors.New("missing __self__ urn/id for provider method call")
		}
		ref = self["urn"].GetStringValue() + resource.URNNameDelimiter + self["id"].GetStringValue()
	case req.GetProvider() != "":
		ref = req.GetProvider()
	case self != nil:
		if self["urn"] == nil {
			return nil, errors.New("missing __self__.urn for method call")
		}
		u := resource.URN(self["urn"].GetStringValue())
		d.mu.Lock()
		g, ok := d.goals[u]
		d.mu.Unlock()
		if !ok {
			return nil, fmt.Errorf("unknown resource %v", u)
		}
		ref = g.Provider
	}
	if ref == "" {
		if ref, err = d.defaultProviderRef(d.ctx, preq); err != nil {
			return nil, err
		}
	}
	prov, ok := d.registry.get(ref)
	if !ok {
		return nil, fmt.Errorf("unknown provider '%v'", ref)
	}

	label := fmt.Sprintf("ResourceMonitor.Call(%s)", tok)
	args, err := plugin.UnmarshalProperties(req.GetArgs(), plugin.MarshalOptions{
		Label: label, KeepUnknowns: true, KeepSecrets: true, KeepResources: true,
		KeepOutputValues: true, UpgradeToOutputValues: true,
	})
	if err != nil {
		return nil, fmt.Errorf("failed to unmarshal %v args: %w", tok, err)
	}
	argDeps := map[resource.PropertyKey][]resource.URN{}
	for k, ds := range req.GetArgDependencies() {
		us, err := parseURNs(ds.GetUrns(), "argument dependency")
		if err != nil {
			return nil, err
		}
		argDeps[resource.PropertyKey(k)] = us
	}
	for k, v := range args {
		argDeps[k] = extendDeps(argDeps[k], v)
	}
	cfg, _, err := d.configKeys()
	if err != nil {
		return nil, err
	}
	ret, err := prov.Call(ctx, plugin.CallRequest{
		Tok:  tok,
		Args: args,
		Info: plugin.CallInfo{
			Project: d.opts.Project, Stack: d.opts.Stack, Config: cfg, DryRun: d.dryRun,
			Parallel: int32(d.opts.Parallel), MonitorAddress: d.address(),
		},
		Options: plugin.CallOptions{ArgDependencies: argDeps},
	})
	if err != nil {
		// Like the real engine: a diagnostic with the details, and an
		// error for the program with the message alone.
		d.log(diag.Error, "", fmt.Sprintf("call to function '%v' failed: %s", tok, providerErrorMessage(err, args)))
		msg := err.Error()
		if st, ok := status.FromError(err); ok {
			msg = st.Message()
		}
		err = fmt.Errorf("call of %v returned an error: %s", tok, msg)
		d.fail(err)
		return nil, err
	}
	retDeps := map[string]*pulumirpc.CallResponse_ReturnDependencies{}
	keys := map[resource.PropertyKey]bool{}
	for k := range ret.Return {
		keys[k] = true
	}
	for k := range ret.ReturnDependencies {
		keys[k] = true
	}
	for k := range keys {
		us := extendDeps(ret.ReturnDependencies[k], ret.Return[k])
		strs := make([]string, len(us))
		for i, u := range us {
			strs[i] = string(u)
		}
		retDeps[string(k)] = &pulumirpc.CallResponse_ReturnDependencies{Urns: strs}
	}
	mret, err := plugin.MarshalProperties(ret.Return, plugin.MarshalOptions{
		Label: label, KeepUnknowns: true, KeepSecrets: true, KeepResources: true,
		KeepByteString: req.GetAcceptsByteString(),
	})
	if err != nil {
		return nil, fmt.Errorf("failed to marshal %v return: %w", tok, err)
	}
	return &pulumirpc.CallResponse{Return: mret, ReturnDependencies: retDeps, Failures: checkFailures(ret.Failures)}, nil
}

func (m *monitorServer) ReadResource(ctx context.Context, req *pulumirpc.ReadResourceRequest) (*pulumirpc.ReadResourceResponse, error) {
	d := m.d
	done, err := d.begin()
	if err != nil {
		return nil, err
	}
	defer done()
	t, err := tokens.ParseTypeToken(req.GetType())
	if err != nil {
		return nil, status.Error(codes.InvalidArgument, err.Error())
	}
	parent, err := resource.ParseOptionalURN(req.GetParent())
	if err != nil {
		return nil, status.Errorf(codes.InvalidArgument, "invalid parent URN: %v", err)
	}
	provider := req.GetProvider()
	if !providers.IsProviderType(t) && provider == "" {
		preq, err := d.packages.lookup(req.GetPackageRef(), t.Package(), req.GetVersion(), req.GetPluginDownloadURL())
		if err != nil {
			return nil, err
		}
		if provider, err = d.defaultProviderRef(d.ctx, preq); err != nil {
			return nil, err
		}
	}
	deps, err := parseURNs(req.GetDependencies(), "dependency")
	if err != nil {
		return nil, err
	}
	label := fmt.Sprintf("ResourceMonitor.ReadResource(%s, %s, %s)", req.GetId(), t, req.GetName())
	props, err := plugin.UnmarshalProperties(req.GetProperties(), plugin.MarshalOptions{
		Label: label, KeepUnknowns: true, KeepSecrets: true, KeepResources: true,
	})
	if err != nil {
		return nil, err
	}
	if props == nil {
		props = resource.PropertyMap{}
	}
	var aso []resource.PropertyKey
	for _, k := range req.GetAdditionalSecretOutputs() {
		aso = append(aso, resource.PropertyKey(k))
	}
	st, err := d.read(d.ctx, &resState{
		Type: t, Custom: true, ID: resource.ID(req.GetId()), Inputs: props, Parent: parent,
		External: true, Dependencies: dedupURNs(deps), Provider: provider, AdditionalSecretOutputs: aso,
	}, req.GetName())
	if err != nil {
		return nil, err
	}
	d.mu.Lock()
	d.parents[st.URN] = parent
	outputs := st.Outputs
	d.mu.Unlock()
	obj, err := plugin.MarshalProperties(outputs, plugin.MarshalOptions{
		Label: label, KeepUnknowns: true, KeepSecrets: req.GetAcceptSecrets(),
		KeepResources: req.GetAcceptResources(), KeepByteString: req.GetAcceptsByteString(),
	})
	if err != nil {
		return nil, fmt.Errorf("failed to marshal %s return state: %w", st.URN, err)
	}
	return &pulumirpc.ReadResourceResponse{Urn: string(st.URN), Properties: obj}, nil
}

// read performs a ReadResource: the provider's Read, recorded as an external
// resource (a read-replacement when it takes over a managed one).
func (d *deployment) read(ctx context.Context, news *resState, name string) (*resState, error) {
	d.mu.Lock()
	if news.Parent != "" && !d.urns[news.Parent] {
		d.mu.Unlock()
		err := fmt.Errorf("could not find parent resource %v", news.Parent)
		d.fail(err)
		return nil, err
	}
	news.URN = d.generateURN(news.Parent, news.Type, name)
	if d.urns[news.URN] {
		d.mu.Unlock()
		//lint:ignore ST1005 the real engine's message, word for word
		err := fmt.Errorf("Duplicate resource URN '%v'; try giving it a unique name", news.URN)
		d.log(diag.Error, news.URN, err.Error())
		d.fail(err)
		return nil, err
	}
	d.urns[news.URN] = true
	old := d.olds[news.URN]
	d.mu.Unlock()

	err := d.runSteps(ctx, func() (chain, error) {
		if news.ID == "" {
			//lint:ignore ST1005 the real engine's message, word for word
			return nil, fmt.Errorf("Expected an ID for %v", news.URN)
		}
		return func(ctx context.Context) error { return d.readStep(ctx, news, old) }, nil
	})
	if _, ok := errors.AsType[*failedEarlier](err); ok {
		return nil, err
	}
	if err != nil {
		err = &stepError{urn: news.URN, err: err}
		d.log(diag.Error, news.URN, err.Error())
		d.fail(err)
		return nil, err
	}
	return news, nil
}

// readStep runs the provider's Read and commits the result.
func (d *deployment) readStep(ctx context.Context, news, old *resState) error {
	news.Outputs = resource.PropertyMap{}
	if news.ID != plugin.UnknownStringValue {
		prov, err := d.opsFor(news)
		if err != nil {
			return err
		}
		resp, err := prov.Read(ctx, plugin.ReadRequest{
			URN: news.URN, Name: news.URN.Name(), Type: news.URN.Type(), ID: news.ID,
			Inputs: news.Inputs, State: news.Inputs,
		})
		if err != nil && resp.Status != resource.StatusPartialFailure {
			d.stepFailed(OpRead, news)
			return fmt.Errorf("read: %w", err)
		}
		if resp.Outputs == nil {
			d.stepFailed(OpRead, news)
			return fmt.Errorf("resource '%s' does not exist", news.ID)
		}
		news.Outputs = resp.Outputs
		if resp.ID != "" {
			news.ID = resp.ID
		}
	}
	if old != nil {
		news.Created, news.Modified = old.Created, old.Modified
	}
	if old != nil && !old.External && old.ID != news.ID {
		d.mu.Lock()
		d.replaces[news.URN] = true
		d.mu.Unlock()
		d.markDelete(old)
		d.commit(OpReadReplacement, news, old)
		d.recordStep(OpReplace, news)
		return nil
	}
	d.mu.Lock()
	d.reads[news.URN] = true
	d.mu.Unlock()
	d.commit(OpRead, news, old)
	return nil
}
