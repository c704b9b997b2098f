package hosttest

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"

	"github.com/pulumi/pulumi/sdk/v3/go/common/providers"
	"github.com/pulumi/pulumi/sdk/v3/go/common/resource"
	"github.com/pulumi/pulumi/sdk/v3/go/common/resource/plugin"
	"github.com/pulumi/pulumi/sdk/v3/go/common/resource/urn"
	"github.com/pulumi/pulumi/sdk/v3/go/common/tokens"
	"github.com/pulumi/pulumi/sdk/v3/go/property"
	pulumirpc "github.com/pulumi/pulumi/sdk/v3/proto/go"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"
	"google.golang.org/protobuf/proto"
	"google.golang.org/protobuf/types/known/emptypb"
	"google.golang.org/protobuf/types/known/structpb"

	"github.com/polyhost/polyhost/host/diag"
	"github.com/polyhost/polyhost/host/internal/rpc"
	"github.com/polyhost/polyhost/internal/protocol"
	"github.com/polyhost/polyhost/internal/wire"
	"github.com/polyhost/polyhost/monitorclient"
)

// monitorServer embeds UnimplementedResourceMonitorServer on purpose: the
// RPCs a component host never needs (ReadResource, transforms, hooks,
// packages, shutdown) answer Unimplemented, as a minimal engine may, and
// new RPCs in later protocol versions do not break the build.
type monitorServer struct {
	pulumirpc.UnimplementedResourceMonitorServer
	m *Monitor
}

// engineServer embeds UnimplementedEngineServer for the same reason:
// StartDebugging and RequirePulumiVersion are out of scope.
type engineServer struct {
	pulumirpc.UnimplementedEngineServer
	m *Monitor
}

func decodeMap(s *structpb.Struct) (property.Map, error) {
	pm, err := plugin.UnmarshalProperties(s, plugin.MarshalOptions{
		KeepUnknowns: true, KeepSecrets: true, KeepResources: true, KeepOutputValues: true,
	})
	if err != nil {
		return property.Map{}, err
	}
	return resource.FromResourcePropertyMap(pm), nil
}

type encodeOpts struct {
	secrets, resources, partialValues bool
	secretKeys                        []string
}

// encodeMap marshals an answer the way the engine answers programs: no
// output values; secrets/resources per the caller; top-level keys holding
// unknowns dropped unless the caller supports partial values.
func encodeMap(m property.Map, o encodeOpts) (*structpb.Struct, error) {
	pm := resource.ToResourcePropertyMap(m)
	for _, k := range o.secretKeys {
		if v, ok := pm[resource.PropertyKey(k)]; ok && !v.IsSecret() {
			pm[resource.PropertyKey(k)] = resource.MakeSecret(v)
		}
	}
	if !o.partialValues {
		for k, v := range pm {
			if v.ContainsUnknowns() {
				delete(pm, k)
			}
		}
	}
	return plugin.MarshalProperties(pm, plugin.MarshalOptions{
		KeepUnknowns: true, KeepSecrets: o.secrets, KeepResources: o.resources,
	})
}

// stripDeps drops dependency markers, as a provider's outputs have none.
func stripDeps(v property.Value) property.Value {
	v = v.WithDependencies(nil)
	switch {
	case v.IsArray():
		arr := v.AsArray().AsSlice()
		for i := range arr {
			arr[i] = stripDeps(arr[i])
		}
		return property.WithGoValue(v, arr)
	case v.IsMap():
		mm := v.AsMap().AsMap()
		for k := range mm {
			mm[k] = stripDeps(mm[k])
		}
		return property.WithGoValue(v, mm)
	}
	return v
}

func (s *monitorServer) GetDeploymentInfo(context.Context, *emptypb.Empty) (*pulumirpc.DeploymentInfo, error) {
	s.m.deploymentInfoCalls.Add(1)
	if s.m.cfg.noDeploymentInfo {
		return nil, status.Error(codes.Unimplemented, "method GetDeploymentInfo not implemented")
	}
	info := &pulumirpc.DeploymentInfo{
		Project:          s.m.cfg.project,
		Stack:            s.m.cfg.stack,
		Organization:     s.m.cfg.organization,
		Config:           s.m.cfg.config,
		ConfigSecretKeys: s.m.cfg.configSecretKeys,
		DryRun:           s.m.cfg.dryRun,
	}
	for _, id := range s.m.cfg.features {
		info.SupportedFeatures = append(info.SupportedFeatures, featureEnums[id])
	}
	return info, nil
}

func (s *monitorServer) SupportsFeature(
	_ context.Context, req *pulumirpc.SupportsFeatureRequest,
) (*pulumirpc.SupportsFeatureResponse, error) {
	s.m.supportsFeatureCalls.Add(1)
	return &pulumirpc.SupportsFeatureResponse{HasSupport: slices.Contains(s.m.cfg.features, req.GetId())}, nil
}

// fromRegisterResourceRequest reads a registration as monitorclient wrote
// it: its inputs, and its options (aliases, timeouts and hooks with the
// converters the provider reads a Construct's with).
func fromRegisterResourceRequest(req *pulumirpc.RegisterResourceRequest) (Registration, error) {
	inputs, err := decodeMap(req.GetObject())
	if err != nil {
		return Registration{}, fmt.Errorf("decoding inputs: %w", err)
	}
	provider, err := parseProvider(req.GetProvider())
	if err != nil {
		return Registration{}, err
	}
	o := monitorclient.ResourceOptions{
		Dependencies:            wire.URNs(req.GetDependencies()),
		Protect:                 req.Protect,
		IgnoreChanges:           slices.Clone(req.GetIgnoreChanges()),
		ReplaceOnChanges:        slices.Clone(req.GetReplaceOnChanges()),
		AdditionalSecretOutputs: slices.Clone(req.GetAdditionalSecretOutputs()),
		DeletedWith:             urn.URN(req.GetDeletedWith()),
		RetainOnDelete:          req.RetainOnDelete,
		ReplaceWith:             wire.URNs(req.GetReplaceWith()),
		CustomTimeouts:          rpc.FromCustomTimeouts(req.GetCustomTimeouts()),
		Hooks:                   rpc.FromResourceHooks(req.GetHooks()),
	}
	if req.GetDeleteBeforeReplaceDefined() {
		o.DeleteBeforeReplace = new(req.GetDeleteBeforeReplace())
	}
	for pkg, ref := range req.GetProviders() {
		if o.Providers == nil {
			o.Providers = map[string]providers.Reference{}
		}
		if o.Providers[pkg], err = parseProvider(ref); err != nil {
			return Registration{}, fmt.Errorf("providers[%s]: %w", pkg, err)
		}
	}
	for _, a := range req.GetAliases() {
		u, spec := protocol.FromAlias(a)
		o.Aliases = append(o.Aliases, monitorclient.Alias{URN: u, Spec: (*monitorclient.AliasSpec)(spec)})
	}
	if t := req.GetReplacementTrigger(); t != nil {
		if o.ReplacementTrigger, err = decodeValue(t); err != nil {
			return Registration{}, fmt.Errorf("decoding replacementTrigger: %w", err)
		}
	}
	r := Registration{
		RegisterResourceRequest: monitorclient.RegisterResourceRequest{
			Type: req.GetType(), Name: req.GetName(), Parent: urn.URN(req.GetParent()),
			Custom: req.GetCustom(), Remote: req.GetRemote(), Inputs: inputs, Provider: provider, ResourceOptions: o,
			Version: req.GetVersion(), PluginDownloadURL: req.GetPluginDownloadURL(), ImportID: resource.ID(req.GetImportId()),
			HideDiffs: slices.Clone(req.GetHideDiffs()), PackageRef: req.GetPackageRef(),
			ParentStackTraceHandle: req.GetParentStackTraceHandle(),
		},
		AliasURNs:               wire.URNs(req.GetAliasURNs()),
		AliasSpecs:              req.GetAliasSpecs(),
		AcceptSecrets:           req.GetAcceptSecrets(),
		AcceptResources:         req.GetAcceptResources(),
		SupportsPartialValues:   req.GetSupportsPartialValues(),
		SupportsResultReporting: req.GetSupportsResultReporting(),
		Raw:                     proto.Clone(req).(*pulumirpc.RegisterResourceRequest),
	}
	r.PropertyDependencies = protocol.FromDependencies(req.GetPropertyDependencies())
	return r, nil
}

// urnFor applies the URN rule: the parent's qualified type is prefixed
// unless the parent is empty or the root stack.
func (m *Monitor) urnFor(parent urn.URN, typ, name string) (urn.URN, error) {
	var parentType tokens.Type
	if parent != "" {
		if !parent.IsValid() {
			return "", fmt.Errorf("invalid parent URN %q", parent)
		}
		parentType = parent.QualifiedType()
	}
	return (urn.New(tokens.QName(m.cfg.stack), tokens.PackageName(m.cfg.project),
		parentType, tokens.Type(typ), name)), nil
}

func (s *monitorServer) RegisterResource(
	_ context.Context, req *pulumirpc.RegisterResourceRequest,
) (*pulumirpc.RegisterResourceResponse, error) {
	m := s.m
	reg, err := fromRegisterResourceRequest(req)
	if err != nil {
		return nil, status.Error(codes.InvalidArgument, err.Error())
	}
	if (reg.Custom || reg.Remote) && strings.Count(reg.Type, ":") != 2 {
		return nil, status.Errorf(codes.InvalidArgument, "invalid type token %q: expected pkg:module:Type", reg.Type)
	}
	if reg.URN, err = m.urnFor(reg.Parent, reg.Type, reg.Name); err != nil {
		return nil, status.Error(codes.InvalidArgument, err.Error())
	}

	dupErr := func() error {
		return status.Errorf(codes.InvalidArgument,
			"Duplicate resource URN '%s'; try giving it a unique name", reg.URN)
	}
	m.mu.Lock()
	_, dup := m.byURN[reg.URN]
	m.mu.Unlock()
	if dup {
		return nil, dupErr()
	}

	// Hooks run without the lock: they may call the Monitor's accessors.
	var hookErr error
	var outputs property.Map
	switch {
	case m.cfg.registerHook != nil:
		reg.ID, outputs, hookErr = m.cfg.registerHook(reg)
	case reg.Custom:
		reg.ID, outputs, _ = defaultRegister(reg)
	}
	if !reg.Custom {
		reg.ID = ""
		if !reg.Remote {
			outputs = property.Map{} // local components: outputs come via RegisterResourceOutputs
		}
	}
	if reg.Custom && m.cfg.dryRun {
		reg.ID = ""
		if m.cfg.previewUnknowns != nil {
			for _, k := range m.cfg.previewUnknowns(reg) {
				outputs = outputs.Set(k, property.New(property.Computed))
			}
		}
	}
	if hookErr != nil {
		outputs = property.Map{}
	}
	reg.Outputs = outputs

	m.mu.Lock()
	if _, dup := m.byURN[reg.URN]; dup {
		m.mu.Unlock()
		return nil, dupErr()
	}
	m.byURN[reg.URN] = len(m.registrations)
	m.registrations = append(m.registrations, reg)
	m.mu.Unlock()

	if hookErr != nil {
		result := pulumirpc.Result_FAIL
		if errors.Is(hookErr, ErrSkip) {
			result = pulumirpc.Result_SKIP
		}
		if reg.SupportsResultReporting && (errors.Is(hookErr, ErrFail) || errors.Is(hookErr, ErrSkip)) {
			return &pulumirpc.RegisterResourceResponse{Urn: string(reg.URN), Result: result}, nil
		}
		return nil, status.Error(codes.Unknown, hookErr.Error())
	}

	obj, err := encodeMap(outputs, encodeOpts{
		secrets:       reg.AcceptSecrets,
		resources:     reg.AcceptResources,
		partialValues: reg.SupportsPartialValues,
		secretKeys:    reg.AdditionalSecretOutputs,
	})
	if err != nil {
		return nil, status.Errorf(codes.Internal, "encoding outputs: %v", err)
	}
	resp := &pulumirpc.RegisterResourceResponse{Urn: string(reg.URN), Id: string(reg.ID), Object: obj}
	if reg.Remote {
		for k, deps := range monitorclient.DependencyMap(outputs) {
			if resp.PropertyDependencies == nil {
				resp.PropertyDependencies = map[string]*pulumirpc.RegisterResourceResponse_PropertyDependencies{}
			}
			resp.PropertyDependencies[k] = &pulumirpc.RegisterResourceResponse_PropertyDependencies{Urns: wire.URNStrings(deps)}
		}
	}
	return resp, nil
}

func (s *monitorServer) ReadResource(
	_ context.Context, req *pulumirpc.ReadResourceRequest,
) (*pulumirpc.ReadResourceResponse, error) {
	m := s.m
	props, err := decodeMap(req.GetProperties())
	if err != nil {
		return nil, status.Errorf(codes.InvalidArgument, "decoding properties: %v", err)
	}
	if strings.Count(req.GetType(), ":") != 2 || req.GetName() == "" || req.GetId() == "" {
		return nil, status.Errorf(codes.InvalidArgument, "read of %q %q (ID %q): want a pkg:module:Type token, a name and an ID", req.GetType(), req.GetName(), req.GetId())
	}
	provider, err := parseProvider(req.GetProvider())
	if err != nil {
		return nil, status.Error(codes.InvalidArgument, err.Error())
	}
	reg := Registration{
		RegisterResourceRequest: monitorclient.RegisterResourceRequest{
			Type: req.GetType(), Name: req.GetName(), Parent: urn.URN(req.GetParent()), Custom: true,
			Inputs: props, Provider: provider, ResourceOptions: monitorclient.ResourceOptions{Dependencies: wire.URNs(req.GetDependencies())},
			Version: req.GetVersion(), ImportID: resource.ID(req.GetId()), PackageRef: req.GetPackageRef(),
		},
		Read: true, AcceptSecrets: req.GetAcceptSecrets(), AcceptResources: req.GetAcceptResources(),
	}
	if reg.URN, err = m.urnFor(reg.Parent, reg.Type, reg.Name); err != nil {
		return nil, status.Error(codes.InvalidArgument, err.Error())
	}
	reg.ID, reg.Outputs = resource.ID(req.GetId()), stripDeps(property.New(props)).AsMap()
	if m.cfg.registerHook != nil {
		if _, reg.Outputs, err = m.cfg.registerHook(reg); err != nil {
			return nil, status.Error(codes.Unknown, err.Error())
		}
	}
	m.mu.Lock()
	if _, dup := m.byURN[reg.URN]; dup {
		m.mu.Unlock()
		return nil, status.Errorf(codes.InvalidArgument, "Duplicate resource URN '%s'; try giving it a unique name", reg.URN)
	}
	m.byURN[reg.URN] = len(m.registrations)
	m.registrations = append(m.registrations, reg)
	m.mu.Unlock()
	obj, err := encodeMap(reg.Outputs, encodeOpts{secrets: reg.AcceptSecrets, resources: reg.AcceptResources})
	if err != nil {
		return nil, status.Errorf(codes.Internal, "encoding properties: %v", err)
	}
	return &pulumirpc.ReadResourceResponse{Urn: string(reg.URN), Properties: obj}, nil
}

func (s *monitorServer) RegisterPackage(
	_ context.Context, req *pulumirpc.RegisterPackageRequest,
) (*pulumirpc.RegisterPackageResponse, error) {
	s.m.mu.Lock()
	defer s.m.mu.Unlock()
	s.m.packages = append(s.m.packages, proto.Clone(req).(*pulumirpc.RegisterPackageRequest))
	return &pulumirpc.RegisterPackageResponse{Ref: fmt.Sprintf("ref-%d", len(s.m.packages))}, nil
}

func (s *monitorServer) RegisterResourceOutputs(
	_ context.Context, req *pulumirpc.RegisterResourceOutputsRequest,
) (*emptypb.Empty, error) {
	outs, err := decodeMap(req.GetOutputs())
	if err != nil {
		return nil, status.Errorf(codes.InvalidArgument, "decoding outputs: %v", err)
	}
	m := s.m
	m.mu.Lock()
	defer m.mu.Unlock()
	// Like the engine: only once, and only after the registration.
	u := urn.URN(req.GetUrn())
	if _, ok := m.byURN[u]; !ok || m.outputsDone[u] {
		return nil, status.Errorf(codes.FailedPrecondition,
			"cannot complete a resource '%v' whose registration isn't pending", u)
	}
	m.outputsDone[u] = true
	m.outputs[u] = outs
	return &emptypb.Empty{}, nil
}

func (s *monitorServer) Invoke(
	_ context.Context, req *pulumirpc.ResourceInvokeRequest,
) (*pulumirpc.ResourceInvokeResponse, error) {
	args, err := decodeMap(req.GetArgs())
	if err != nil {
		return nil, status.Errorf(codes.InvalidArgument, "decoding args: %v", err)
	}
	var ret property.Map
	var failures []diag.CheckFailure
	if req.GetTok() == "pulumi:pulumi:getResource" {
		ret, err = s.getResource(args)
	} else {
		provider, perr := parseProvider(req.GetProvider())
		if perr != nil {
			return nil, status.Error(codes.InvalidArgument, perr.Error())
		}
		inv := Invocation{
			InvokeRequest: monitorclient.InvokeRequest{
				Token: req.GetTok(), Args: args, Provider: provider, Version: req.GetVersion(),
				PluginDownloadURL: req.GetPluginDownloadURL(), DependsOn: wire.URNs(req.GetDependsOn()),
				Parent: urn.URN(req.GetParent()), PackageRef: req.GetPackageRef(),
				ParentStackTraceHandle: req.GetParentStackTraceHandle(),
			},
			Raw: proto.Clone(req).(*pulumirpc.ResourceInvokeRequest),
		}
		s.m.mu.Lock()
		s.m.invocations = append(s.m.invocations, inv)
		s.m.mu.Unlock()
		if s.m.cfg.invokeHook == nil {
			return nil, status.Errorf(codes.Unimplemented, "hosttest: no invoke hook for %q", req.GetTok())
		}
		var res monitorclient.InvokeResponse
		res, err = s.m.cfg.invokeHook(inv)
		if err == nil && res.Unknown {
			return &pulumirpc.ResourceInvokeResponse{Unknown: true}, nil
		}
		ret, failures, err = res.Return, hookFailures(err), hookError(err)
	}
	if err != nil {
		return nil, status.Errorf(codes.Unknown, "invocation of %v returned an error: %v", req.GetTok(), err)
	}
	obj, err := encodeMap(ret, encodeOpts{secrets: true, resources: req.GetAcceptResources(), partialValues: true})
	if err != nil {
		return nil, status.Errorf(codes.Internal, "encoding return: %v", err)
	}
	return &pulumirpc.ResourceInvokeResponse{Return: obj, Failures: rpc.ToCheckFailures(failures)}, nil
}

// hookFailures are the failures a hook answered with, as a
// *monitorclient.FailuresError; hookError is its error if it is none.
func hookFailures(err error) []diag.CheckFailure {
	var fe *monitorclient.FailuresError
	if errors.As(err, &fe) {
		return fe.Failures
	}
	return nil
}

func hookError(err error) error {
	var fe *monitorclient.FailuresError
	if errors.As(err, &fe) {
		return nil
	}
	return err
}

// getResource is the builtin pulumi:pulumi:getResource: {urn, id, provider,
// state} of a resource registered in this deployment.
func (s *monitorServer) getResource(args property.Map) (property.Map, error) {
	u := args.Get("urn")
	if !u.IsString() {
		return property.Map{}, errors.New("the 'urn' argument must be a string")
	}
	s.m.mu.Lock()
	defer s.m.mu.Unlock()
	i, ok := s.m.byURN[urn.URN(u.AsString())]
	if !ok {
		return property.Map{}, fmt.Errorf("unknown resource %v", u.AsString())
	}
	reg := s.m.registrations[i]
	state := reg.Outputs
	if o, ok := s.m.outputs[reg.URN]; ok {
		state = o
	}
	return property.NewMap(map[string]property.Value{
		"urn":      property.New(string(reg.URN)),
		"id":       property.New(string(reg.ID)),
		"provider": property.New(providerString(reg.Provider)),
		"state":    property.New(state),
	}), nil
}

func (s *monitorServer) Call(_ context.Context, req *pulumirpc.ResourceCallRequest) (*pulumirpc.CallResponse, error) {
	args, err := decodeMap(req.GetArgs())
	if err != nil {
		return nil, status.Errorf(codes.InvalidArgument, "decoding args: %v", err)
	}
	provider, err := parseProvider(req.GetProvider())
	if err != nil {
		return nil, status.Error(codes.InvalidArgument, err.Error())
	}
	c := Call{
		CallRequest: monitorclient.CallRequest{
			Token: req.GetTok(), Args: args, Provider: provider, Version: req.GetVersion(),
			PluginDownloadURL: req.GetPluginDownloadURL(), PackageRef: req.GetPackageRef(),
			ParentStackTraceHandle: req.GetParentStackTraceHandle(),
		},
		Raw: proto.Clone(req).(*pulumirpc.ResourceCallRequest),
	}
	c.ArgDependencies = protocol.FromDependencies(req.GetArgDependencies())
	s.m.mu.Lock()
	s.m.calls = append(s.m.calls, c)
	s.m.mu.Unlock()
	if s.m.cfg.callHook == nil {
		return nil, status.Errorf(codes.Unimplemented, "hosttest: no call hook for %q", req.GetTok())
	}
	res, err := s.m.cfg.callHook(c)
	if err := hookError(err); err != nil {
		return nil, status.Errorf(codes.Unknown, "call of %v returned an error: %v", req.GetTok(), err)
	}
	obj, err2 := encodeMap(res.Return, encodeOpts{secrets: true, resources: true, partialValues: true})
	if err2 != nil {
		return nil, status.Errorf(codes.Internal, "encoding return: %v", err2)
	}
	resp := &pulumirpc.CallResponse{Return: obj, Failures: rpc.ToCheckFailures(hookFailures(err))}
	deps := monitorclient.DependencyMap(res.Return)
	for k, v := range res.ReturnDependencies {
		deps[k] = append(deps[k], v...)
	}
	for k, v := range deps {
		slices.Sort(v)
		if resp.ReturnDependencies == nil {
			resp.ReturnDependencies = map[string]*pulumirpc.CallResponse_ReturnDependencies{}
		}
		resp.ReturnDependencies[k] = &pulumirpc.CallResponse_ReturnDependencies{Urns: wire.URNStrings(slices.Compact(v))}
	}
	return resp, nil
}

func (s *engineServer) Log(_ context.Context, req *pulumirpc.LogRequest) (*emptypb.Empty, error) {
	s.m.mu.Lock()
	defer s.m.mu.Unlock()
	s.m.logs = append(s.m.logs, monitorclient.LogRequest{
		Severity: severities[req.GetSeverity()], Message: req.GetMessage(), URN: urn.URN(req.GetUrn()),
		StreamID: req.GetStreamId(), Ephemeral: req.GetEphemeral(),
	})
	return &emptypb.Empty{}, nil
}

func (s *engineServer) GetRootResource(
	context.Context, *pulumirpc.GetRootResourceRequest,
) (*pulumirpc.GetRootResourceResponse, error) {
	s.m.mu.Lock()
	defer s.m.mu.Unlock()
	return &pulumirpc.GetRootResourceResponse{Urn: s.m.root}, nil
}

func (s *engineServer) SetRootResource(
	_ context.Context, req *pulumirpc.SetRootResourceRequest,
) (*pulumirpc.SetRootResourceResponse, error) {
	s.m.mu.Lock()
	defer s.m.mu.Unlock()
	s.m.root = req.GetUrn()
	return &pulumirpc.SetRootResourceResponse{}, nil
}

// severities are the engine's log severities as monitorclient's.
var severities = map[pulumirpc.LogSeverity]monitorclient.Severity{
	pulumirpc.LogSeverity_DEBUG: monitorclient.SeverityDebug, pulumirpc.LogSeverity_INFO: monitorclient.SeverityInfo,
	pulumirpc.LogSeverity_WARNING: monitorclient.SeverityWarning, pulumirpc.LogSeverity_ERROR: monitorclient.SeverityError,
}

// decodeValue reads one value as decodeMap reads a map's.
func decodeValue(v *structpb.Value) (property.Value, error) {
	pv, err := plugin.UnmarshalPropertyValue("", v, plugin.MarshalOptions{
		KeepUnknowns: true, KeepSecrets: true, KeepResources: true, KeepOutputValues: true,
	})
	if err != nil || pv == nil {
		return property.Value{}, err
	}
	return resource.FromResourcePropertyValue(*pv), nil
}

// defaultRegister is what a custom resource's registration returns when no
// hook says otherwise: id "id-"+name, outputs = inputs without dependencies.
func defaultRegister(reg Registration) (resource.ID, property.Map, error) {
	return resource.ID("id-" + reg.Name), stripDeps(property.New(reg.Inputs)).AsMap(), nil
}

// parseProvider reads a provider reference, "<provider URN>::<ID>"; empty
// is none.
func parseProvider(s string) (providers.Reference, error) {
	if s == "" {
		return providers.Reference{}, nil
	}
	ref, err := providers.ParseReference(s)
	if err != nil {
		return providers.Reference{}, fmt.Errorf("provider reference %q: %w", s, err)
	}
	return ref, nil
}

// providerString writes a provider reference as the engine does; none is "".
func providerString(ref providers.Reference) string {
	if ref == (providers.Reference{}) {
		return ""
	}
	return ref.String()
}
