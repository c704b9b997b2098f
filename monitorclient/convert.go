package monitorclient

// Converters between this package's types and pulumirpc messages. They are
// pure functions so they can be table-tested without a server.

import (
	"errors"
	"fmt"
	"maps"
	"slices"
	"strings"
	"unicode/utf8"

	"github.com/pulumi/pulumi/sdk/v3/go/common/providers"
	"github.com/pulumi/pulumi/sdk/v3/go/common/resource"
	"github.com/pulumi/pulumi/sdk/v3/go/common/resource/urn"
	"github.com/pulumi/pulumi/sdk/v3/go/common/tokens"
	"github.com/pulumi/pulumi/sdk/v3/go/property"
	pulumirpc "github.com/pulumi/pulumi/sdk/v3/proto/go"
	"google.golang.org/protobuf/encoding/protowire"
	"google.golang.org/protobuf/proto"
	"google.golang.org/protobuf/reflect/protoreflect"
	"google.golang.org/protobuf/types/known/structpb"

	"github.com/polyhost/polyhost/internal/protocol"
	"github.com/polyhost/polyhost/internal/wire"
)

// unmarshalOptions read values with everything kept; output values become
// secret/computed/dependency markers.
var unmarshalOptions = wire.UnmarshalOptions{Resources: true, OutputValues: true}

func unmarshalMap(s *structpb.Struct) (property.Map, error) {
	return wire.UnmarshalMap(s, unmarshalOptions)
}

// sortedUnion returns the sorted, deduplicated union of the lists; never nil.
func sortedUnion(lists ...[]urn.URN) []urn.URN {
	out := []urn.URN{}
	for _, l := range lists {
		out = append(out, l...)
	}
	slices.Sort(out)
	return slices.Compact(out)
}

// refStrings converts provider references for the wire; nil stays nil.
func refStrings(refs map[string]providers.Reference) map[string]string {
	if refs == nil {
		return nil
	}
	out := make(map[string]string, len(refs))
	for pkg, r := range refs {
		out[pkg] = r.String()
	}
	return out
}

// mergeKeyDeps gives every key of m (and of explicit) the union of its
// explicit dependencies and the markers found on its value, like the Go SDK,
// which sends an entry for every input. It also returns the union of all.
func mergeKeyDeps(m property.Map, explicit map[string][]urn.URN) (map[string][]urn.URN, []urn.URN) {
	if m.Len() == 0 && len(explicit) == 0 {
		return nil, nil
	}
	perKey := make(map[string][]urn.URN, m.Len()+len(explicit))
	var all []urn.URN
	for k, v := range m.All {
		if deps, ok := explicit[k]; ok {
			perKey[k] = sortedUnion(deps, Dependencies(v))
		} else {
			perKey[k] = Dependencies(v) // sorted and unique already
		}
	}
	for k, deps := range explicit {
		if _, ok := perKey[k]; !ok {
			perKey[k] = sortedUnion(deps)
		}
	}
	for _, deps := range perKey {
		all = append(all, deps...)
	}
	return perKey, sortedUnion(all)
}

// collapseAlias turns an alias into a URN for monitors without alias specs,
// filling empty parts from the resource (as the Go SDK does). Stack and
// project default to those of the parent URN.
func collapseAlias(a Alias, typ, name string, parent urn.URN) (string, error) {
	if _, err := protocol.ToAlias(a.URN, (*protocol.AliasSpec)(a.Spec)); err != nil {
		return "", err
	}
	if a.URN != "" {
		return string(a.URN), nil
	}
	s := a.Spec
	if s.Name != "" {
		name = s.Name
	}
	if s.Type != "" {
		typ = s.Type
	}
	aliasParent := parent
	switch {
	case s.NoParent:
		aliasParent = ""
	case s.ParentURN != "":
		aliasParent = s.ParentURN
	}
	stack, project := s.Stack, s.Project
	for _, u := range []urn.URN{parent, aliasParent} {
		if (stack == "" || project == "") && u.IsValid() {
			if stack == "" {
				stack = string(u.Stack())
			}
			if project == "" {
				project = string(u.Project())
			}
		}
	}
	if stack == "" || project == "" {
		return "", errors.New("cannot compute alias URN: no stack/project given and no parent URN to take them from")
	}
	var parentType tokens.Type
	if u := aliasParent; aliasParent != "" {
		if !u.IsValid() {
			return "", fmt.Errorf("alias parent %q is not a valid URN", aliasParent)
		}
		parentType = u.QualifiedType()
	}
	return string(urn.New(tokens.QName(stack), tokens.PackageName(project), parentType, tokens.Type(typ), name)), nil
}

// Field numbers of the fields the RegisterResource converters write and
// read themselves.
var (
	requestObjectField   = fieldNumber(&pulumirpc.RegisterResourceRequest{}, "object")
	requestPropDepsField = fieldNumber(&pulumirpc.RegisterResourceRequest{}, "propertyDependencies")
	propDepsURNsField    = fieldNumber(&pulumirpc.RegisterResourceRequest_PropertyDependencies{}, "urns")
	responseObjectField  = fieldNumber(&pulumirpc.RegisterResourceResponse{}, "object")
)

// The fields of every map entry on the wire.
const (
	mapEntryKey   protowire.Number = 1
	mapEntryValue protowire.Number = 2
)

func fieldNumber(m proto.Message, name protoreflect.Name) protowire.Number {
	return m.ProtoReflect().Descriptor().Fields().ByName(name).Number()
}

// registerRequest is a RegisterResourceRequest ready to encode: the message
// but for its object and property dependencies, which
// encodeRegisterResourceRequest writes straight into its bytes.
type registerRequest struct {
	msg      *pulumirpc.RegisterResourceRequest
	propDeps map[string][]urn.URN
	inputs   wire.MarshalOptions // how the inputs go on the wire
}

// encodeRegisterResourceRequest appends to dst the protobuf encoding of the
// RegisterResourceRequest for req: the message toRPCRegisterResourceRequest
// makes, then its property dependencies and inputs. The request is in
// segments: a large string of the inputs is its own, the string's memory
// rather than a copy (wire.AppendMapFieldSegments).
func encodeRegisterResourceRequest(dst []byte, req RegisterResourceRequest, f Features) (*rawMessage, error) {
	r, err := toRPCRegisterResourceRequest(req, f)
	if err != nil {
		return nil, err
	}
	b, err := proto.MarshalOptions{}.MarshalAppend(dst, r.msg)
	if err != nil {
		return nil, err
	}
	if b, err = appendPropertyDependencies(b, r.propDeps); err != nil {
		return nil, err
	}
	m := &rawMessage{}
	if m.segs, err = wire.AppendMapFieldSegments(m.one[:0], b, requestObjectField, req.Inputs, r.inputs); err != nil {
		return nil, fmt.Errorf("marshaling inputs: %w", err)
	}
	return m, nil
}

// appendPropertyDependencies appends deps as the request's
// propertyDependencies, a map of messages that proto marshals by
// reflection. Their URNs are in the message's dependencies too, where proto
// has checked them.
func appendPropertyDependencies(b []byte, deps map[string][]urn.URN) ([]byte, error) {
	for _, k := range slices.Sorted(maps.Keys(deps)) {
		urns := deps[k]
		value := 0
		for _, u := range urns {
			value += protowire.SizeTag(propDepsURNsField) + protowire.SizeBytes(len(u))
		}
		if !utf8.ValidString(k) {
			return nil, fmt.Errorf("property name %q is not valid UTF-8", k)
		}
		entry := protowire.SizeTag(mapEntryKey) + protowire.SizeBytes(len(k)) +
			protowire.SizeTag(mapEntryValue) + protowire.SizeBytes(value)
		b = protowire.AppendTag(b, requestPropDepsField, protowire.BytesType)
		b = protowire.AppendVarint(b, uint64(entry))
		b = protowire.AppendTag(b, mapEntryKey, protowire.BytesType)
		b = protowire.AppendString(b, k)
		b = protowire.AppendTag(b, mapEntryValue, protowire.BytesType)
		b = protowire.AppendVarint(b, uint64(value))
		for _, u := range urns {
			b = protowire.AppendTag(b, propDepsURNsField, protowire.BytesType)
			b = protowire.AppendString(b, string(u))
		}
	}
	return b, nil
}

// toRPCRegisterResourceRequest converts req, all but its inputs. The
// message shares req's slices and maps: it is for encoding at once.
func toRPCRegisterResourceRequest(req RegisterResourceRequest, f Features) (registerRequest, error) {
	opts := wire.MarshalOptions{
		Secrets:   f.Secrets,
		Resources: f.ResourceReferences,
		// Like the Go SDK: output values only for multi-language components.
		OutputValues: req.Remote && f.OutputValues,
		ByteStrings:  f.ByteString,
	}
	if req.Type == "" {
		return registerRequest{}, errors.New("resource type cannot be empty")
	}
	if req.Name == "" {
		return registerRequest{}, errors.New("resource name cannot be empty")
	}
	if req.DeletedWith != "" && !f.DeletedWith {
		return registerRequest{}, errors.New("the monitor does not support the DeletedWith option")
	}
	if len(req.ReplaceWith) > 0 && !f.ReplaceWith {
		return registerRequest{}, errors.New("the monitor does not support the ReplaceWith option")
	}
	if !req.ReplacementTrigger.IsNull() && !f.ReplacementTrigger {
		return registerRequest{}, errors.New("the monitor does not support the ReplacementTrigger option")
	}
	if req.PackageRef != "" && !f.Parameterization {
		return registerRequest{}, errors.New("the monitor does not support package references (parameterization)")
	}
	if !req.Hooks.empty() && !f.ResourceHooks {
		return registerRequest{}, errors.New("the monitor does not support resource hooks")
	}
	if req.Hooks != nil && len(req.Hooks.OnError) > 0 && !f.ErrorHooks {
		return registerRequest{}, errors.New("the monitor does not support error hooks")
	}
	propDeps, allPropDeps := mergeKeyDeps(req.Inputs, req.PropertyDependencies)

	out := &pulumirpc.RegisterResourceRequest{
		Type:                    req.Type,
		Name:                    req.Name,
		Parent:                  string(req.Parent),
		Custom:                  req.Custom,
		Remote:                  req.Remote,
		Provider:                req.Provider.String(),
		Providers:               refStrings(req.Providers),
		Dependencies:            wire.URNStrings(sortedUnion(req.Dependencies, allPropDeps)),
		AdditionalSecretOutputs: req.AdditionalSecretOutputs,
		IgnoreChanges:           req.IgnoreChanges,
		ReplaceOnChanges:        req.ReplaceOnChanges,
		DeletedWith:             string(req.DeletedWith),
		ReplaceWith:             wire.URNStrings(req.ReplaceWith),
		Version:                 req.Version,
		PluginDownloadURL:       req.PluginDownloadURL,
		ImportId:                string(req.ImportID),
		ParentStackTraceHandle:  req.ParentStackTraceHandle,
		HideDiffs:               req.HideDiffs,
		PackageRef:              req.PackageRef,
		AcceptSecrets:           true,
		AcceptResources:         true,
		AcceptsByteString:       true,
		SupportsPartialValues:   true,
		SupportsResultReporting: true,
	}
	if len(out.Dependencies) == 0 {
		out.Dependencies = nil
	}
	if req.Protect != nil {
		out.Protect = new(*req.Protect)
	}
	if req.RetainOnDelete != nil {
		out.RetainOnDelete = new(*req.RetainOnDelete)
	}
	if req.DeleteBeforeReplace != nil {
		out.DeleteBeforeReplace = *req.DeleteBeforeReplace
		out.DeleteBeforeReplaceDefined = true
	}
	if ct := req.CustomTimeouts; ct != nil {
		out.CustomTimeouts = &pulumirpc.RegisterResourceRequest_CustomTimeouts{
			Create: ct.Create, Update: ct.Update, Delete: ct.Delete, Read: ct.Read,
		}
	}
	if !req.ReplacementTrigger.IsNull() {
		trigger, err := wire.MarshalValue("replacementTrigger", req.ReplacementTrigger, wire.MarshalOptions{Secrets: f.Secrets, Resources: f.ResourceReferences})
		if err != nil {
			return registerRequest{}, fmt.Errorf("marshaling replacementTrigger: %w", err)
		}
		out.ReplacementTrigger = trigger
	}
	if h := req.Hooks; !h.empty() {
		out.Hooks = &pulumirpc.RegisterResourceRequest_ResourceHooksBinding{
			BeforeCreate: h.BeforeCreate, AfterCreate: h.AfterCreate, BeforeUpdate: h.BeforeUpdate,
			AfterUpdate: h.AfterUpdate, BeforeDelete: h.BeforeDelete, AfterDelete: h.AfterDelete, OnError: h.OnError,
		}
	}
	for _, a := range req.Aliases {
		if f.AliasSpecs {
			ra, err := protocol.ToAlias(a.URN, (*protocol.AliasSpec)(a.Spec))
			if err != nil {
				return registerRequest{}, err
			}
			out.Aliases = append(out.Aliases, ra)
			out.AliasSpecs = true
			continue
		}
		u, err := collapseAlias(a, req.Type, req.Name, req.Parent)
		if err != nil {
			return registerRequest{}, err
		}
		out.AliasURNs = append(out.AliasURNs, u)
	}
	return registerRequest{msg: out, propDeps: propDeps, inputs: opts}, nil
}

func fromRPCResult(r pulumirpc.Result) Result {
	switch r {
	case pulumirpc.Result_FAIL:
		return ResultFail
	case pulumirpc.Result_SKIP:
		return ResultSkip
	default:
		return ResultSuccess
	}
}

// decodeRegisterResourceResponse reads a RegisterResourceResponse from its
// protobuf encoding, in the pieces gRPC received it in, as proto.Unmarshal
// and fromRPCRegisterResourceResponse would, but reads the outputs straight
// into property values (wire.ReadMessageStructs); proto reads the other
// fields. inputs are the request's: an output string equal to the input at
// the same place is the input's string, not a copy, since a monitor's
// outputs echo the inputs. A response that is malformed or unusual, or
// whose object is not one length-delimited field, goes all through proto
// and fromRPCRegisterResourceResponse, so its errors are theirs. It leaves
// bufs as they are, and the result does not refer to them.
func decodeRegisterResourceResponse(bufs [][]byte, inputs property.Map) (RegisterResourceResponse, error) {
	s, rest, ok := wire.ReadMessageStructs(bufs, nil, unmarshalOptions, []protowire.Number{responseObjectField}, []property.Map{inputs})
	if !ok {
		return decodeRegisterResourceResponseProto(slices.Concat(bufs...))
	}
	outs := s.Maps[0]
	if !s.Seen[0] {
		outs = property.NewMap(map[string]property.Value{})
	}
	var resp pulumirpc.RegisterResourceResponse
	if err := proto.Unmarshal(rest, &resp); err != nil {
		return RegisterResourceResponse{}, err
	}
	return registerResourceResponse(&resp, outs), nil
}

func decodeRegisterResourceResponseProto(b []byte) (RegisterResourceResponse, error) {
	var resp pulumirpc.RegisterResourceResponse
	if err := proto.Unmarshal(b, &resp); err != nil {
		return RegisterResourceResponse{}, err
	}
	return fromRPCRegisterResourceResponse(&resp)
}

func fromRPCRegisterResourceResponse(resp *pulumirpc.RegisterResourceResponse) (RegisterResourceResponse, error) {
	if resp == nil {
		return RegisterResourceResponse{}, nil
	}
	outs, err := unmarshalMap(resp.GetObject())
	if err != nil {
		return RegisterResourceResponse{}, fmt.Errorf("unmarshaling outputs: %w", err)
	}
	return registerResourceResponse(resp, outs), nil
}

// registerResourceResponse converts resp, whose outputs are outs.
func registerResourceResponse(resp *pulumirpc.RegisterResourceResponse, outs property.Map) RegisterResourceResponse {
	out := RegisterResourceResponse{
		URN:     urn.URN(resp.GetUrn()),
		ID:      resource.ID(resp.GetId()),
		Outputs: outs,
		Stables: slices.Clone(resp.GetStables()),
		Result:  fromRPCResult(resp.GetResult()),
		Unknown: resp.GetUnknown(),
	}
	out.PropertyDependencies = protocol.FromDependencies(resp.GetPropertyDependencies())
	return out
}

func toRPCRegisterResourceOutputsRequest(
	req RegisterResourceOutputsRequest, f Features,
) (*pulumirpc.RegisterResourceOutputsRequest, error) {
	if req.URN == "" {
		return nil, errors.New("URN cannot be empty")
	}
	outs, err := wire.MarshalMap(req.Outputs, wire.MarshalOptions{
		Secrets: f.Secrets, Resources: f.ResourceReferences, ByteStrings: f.ByteString,
	})
	if err != nil {
		return nil, fmt.Errorf("marshaling outputs: %w", err)
	}
	return &pulumirpc.RegisterResourceOutputsRequest{Urn: string(req.URN), Outputs: outs}, nil
}

func toRPCInvokeRequest(req InvokeRequest, f Features) (*pulumirpc.ResourceInvokeRequest, error) {
	if req.Token == "" {
		return nil, errors.New("function token cannot be empty")
	}
	if req.PackageRef != "" && !f.Parameterization {
		return nil, errors.New("the monitor does not support package references (parameterization)")
	}
	args, err := wire.MarshalMap(req.Args, wire.MarshalOptions{
		Secrets: f.Secrets, Resources: f.ResourceReferences, ByteStrings: f.ByteString,
	})
	if err != nil {
		return nil, fmt.Errorf("marshaling arguments: %w", err)
	}
	return &pulumirpc.ResourceInvokeRequest{
		Tok:               req.Token,
		Args:              args,
		Provider:          req.Provider.String(),
		Version:           req.Version,
		PluginDownloadURL: req.PluginDownloadURL,
		DependsOn:         wire.URNStrings(req.DependsOn),
		Parent:            string(req.Parent),
		AcceptResources:   true,
		AcceptsByteString: true,
		PackageRef:        req.PackageRef,

		ParentStackTraceHandle: req.ParentStackTraceHandle,
	}, nil
}

func fromRPCInvokeResponse(tok string, resp *pulumirpc.ResourceInvokeResponse) (InvokeResponse, error) {
	if resp == nil {
		return InvokeResponse{Return: property.Map{}}, nil
	}
	if len(resp.GetFailures()) > 0 {
		return InvokeResponse{}, &FailuresError{Token: tok, Failures: protocol.FromCheckFailures(resp.GetFailures())}
	}
	if resp.GetUnknown() {
		return InvokeResponse{Return: property.Map{}, Unknown: true}, nil
	}
	ret, err := unmarshalMap(resp.GetReturn())
	if err != nil {
		return InvokeResponse{}, fmt.Errorf("unmarshaling return: %w", err)
	}
	return InvokeResponse{Return: ret}, nil
}

// getResourceToken is the engine's builtin for reading a registered resource.
const getResourceToken = "pulumi:pulumi:getResource"

func fromGetResourceReturn(ret property.Map) (GetResourceResponse, error) {
	str := func(k string) (string, error) {
		v := ret.Get(k)
		switch {
		case v.IsNull():
			return "", nil
		case v.IsString():
			return v.AsString(), nil
		default:
			return "", fmt.Errorf("getResource result: %q is not a string", k)
		}
	}
	var out GetResourceResponse
	u, err := str("urn")
	if err != nil {
		return GetResourceResponse{}, err
	}
	id, err := str("id")
	if err != nil {
		return GetResourceResponse{}, err
	}
	prov, err := str("provider")
	if err != nil {
		return GetResourceResponse{}, err
	}
	if prov != "" {
		if out.Provider, err = providers.ParseReference(prov); err != nil {
			return GetResourceResponse{}, fmt.Errorf("getResource result: provider: %w", err)
		}
	}
	out.URN, out.ID = urn.URN(u), resource.ID(id)
	switch st := ret.Get("state"); {
	case st.IsMap():
		out.State = st.AsMap()
	case st.IsNull():
	default:
		return GetResourceResponse{}, errors.New("getResource result: state is not an object")
	}
	return out, nil
}

func toRPCCallRequest(req CallRequest, f Features) (*pulumirpc.ResourceCallRequest, error) {
	if req.Token == "" {
		return nil, errors.New("method token cannot be empty")
	}
	if req.PackageRef != "" && !f.Parameterization {
		return nil, errors.New("the monitor does not support package references (parameterization)")
	}
	args, err := wire.MarshalMap(req.Args, wire.MarshalOptions{
		Secrets:      f.Secrets,
		Resources:    f.ResourceReferences,
		OutputValues: f.OutputValues,
		ByteStrings:  f.ByteString,
	})
	if err != nil {
		return nil, fmt.Errorf("marshaling arguments: %w", err)
	}
	out := &pulumirpc.ResourceCallRequest{
		Tok:               req.Token,
		Args:              args,
		Provider:          req.Provider.String(),
		Version:           req.Version,
		PluginDownloadURL: req.PluginDownloadURL,
		AcceptsByteString: true,
		PackageRef:        req.PackageRef,

		ParentStackTraceHandle: req.ParentStackTraceHandle,
	}
	if argDeps, _ := mergeKeyDeps(req.Args, req.ArgDependencies); len(argDeps) > 0 {
		out.ArgDependencies = make(map[string]*pulumirpc.ResourceCallRequest_ArgumentDependencies, len(argDeps))
		for k, deps := range argDeps {
			out.ArgDependencies[k] = &pulumirpc.ResourceCallRequest_ArgumentDependencies{Urns: wire.URNStrings(deps)}
		}
	}
	return out, nil
}

func fromRPCCallResponse(tok string, resp *pulumirpc.CallResponse) (CallResponse, error) {
	if resp == nil {
		return CallResponse{Return: property.Map{}}, nil
	}
	if len(resp.GetFailures()) > 0 {
		return CallResponse{}, &FailuresError{Token: tok, Failures: protocol.FromCheckFailures(resp.GetFailures())}
	}
	ret, err := unmarshalMap(resp.GetReturn())
	if err != nil {
		return CallResponse{}, fmt.Errorf("unmarshaling return: %w", err)
	}
	return CallResponse{Return: ret, ReturnDependencies: protocol.FromDependencies(resp.GetReturnDependencies())}, nil
}

// legacyFeatures are the SupportsFeature ids probed when GetDeploymentInfo
// is unimplemented. Unlike the Go SDK we also probe "secrets": the engine
// answers it, and we only keep secrets when it is supported.
var legacyFeatures = map[string]func(*Features){
	"secrets":            func(f *Features) { f.Secrets = true },
	"resourceReferences": func(f *Features) { f.ResourceReferences = true },
	"outputValues":       func(f *Features) { f.OutputValues = true },
	"aliasSpecs":         func(f *Features) { f.AliasSpecs = true },
	"deletedWith":        func(f *Features) { f.DeletedWith = true },
	"replaceWith":        func(f *Features) { f.ReplaceWith = true },
	"transforms":         func(f *Features) { f.Transforms = true },
	"invokeTransforms":   func(f *Features) { f.InvokeTransforms = true },
	"parameterization":   func(f *Features) { f.Parameterization = true },
	"resourceHooks":      func(f *Features) { f.ResourceHooks = true },
	"errorHooks":         func(f *Features) { f.ErrorHooks = true },
}

func featuresFromList(list []pulumirpc.ResourceMonitorFeature) Features {
	var f Features
	for _, x := range list {
		switch x {
		case pulumirpc.ResourceMonitorFeature_RESOURCE_MONITOR_FEATURE_SECRETS:
			f.Secrets = true
		case pulumirpc.ResourceMonitorFeature_RESOURCE_MONITOR_FEATURE_RESOURCE_REFERENCES:
			f.ResourceReferences = true
		case pulumirpc.ResourceMonitorFeature_RESOURCE_MONITOR_FEATURE_OUTPUT_VALUES:
			f.OutputValues = true
		case pulumirpc.ResourceMonitorFeature_RESOURCE_MONITOR_FEATURE_ALIAS_SPECS:
			f.AliasSpecs = true
		case pulumirpc.ResourceMonitorFeature_RESOURCE_MONITOR_FEATURE_REPLACEMENT_TRIGGER:
			f.ReplacementTrigger = true
		case pulumirpc.ResourceMonitorFeature_RESOURCE_MONITOR_FEATURE_DELETED_WITH:
			f.DeletedWith = true
		case pulumirpc.ResourceMonitorFeature_RESOURCE_MONITOR_FEATURE_REPLACE_WITH:
			f.ReplaceWith = true
		case pulumirpc.ResourceMonitorFeature_RESOURCE_MONITOR_FEATURE_TRANSFORMS:
			f.Transforms = true
		case pulumirpc.ResourceMonitorFeature_RESOURCE_MONITOR_FEATURE_INVOKE_TRANSFORMS:
			f.InvokeTransforms = true
		case pulumirpc.ResourceMonitorFeature_RESOURCE_MONITOR_FEATURE_PARAMETERIZATION:
			f.Parameterization = true
		case pulumirpc.ResourceMonitorFeature_RESOURCE_MONITOR_FEATURE_RESOURCE_HOOKS:
			f.ResourceHooks = true
		case pulumirpc.ResourceMonitorFeature_RESOURCE_MONITOR_FEATURE_ERROR_HOOKS:
			f.ErrorHooks = true
		case pulumirpc.ResourceMonitorFeature_RESOURCE_MONITOR_FEATURE_SENDS_OPTIONS_TO_HOOKS:
			f.SendsOptionsToHooks = true
		case pulumirpc.ResourceMonitorFeature_RESOURCE_MONITOR_FEATURE_BYTE_STRING:
			f.ByteString = true
		case pulumirpc.ResourceMonitorFeature_RESOURCE_MONITOR_FEATURE_INVOKE_DEPENDS_ON:
			f.InvokeDependsOn = true
		case pulumirpc.ResourceMonitorFeature_RESOURCE_MONITOR_FEATURE_INVOKE_PARENT:
			f.InvokeParent = true
		case pulumirpc.ResourceMonitorFeature_RESOURCE_MONITOR_FEATURE_STATE_MIGRATIONS:
			f.StateMigrations = true
		}
	}
	return f
}

func fromRPCDeploymentInfo(di *pulumirpc.DeploymentInfo) DeploymentInfo {
	if di == nil {
		return DeploymentInfo{}
	}
	return DeploymentInfo{
		Project:          di.GetProject(),
		Stack:            di.GetStack(),
		Organization:     di.GetOrganization(),
		Config:           maps.Clone(di.GetConfig()),
		ConfigSecretKeys: slices.Clone(di.GetConfigSecretKeys()),
		DryRun:           di.GetDryRun(),
		Parallel:         di.GetParallel(),
	}
}

func toRPCSeverity(s Severity) (pulumirpc.LogSeverity, error) {
	switch s {
	case SeverityDebug:
		return pulumirpc.LogSeverity_DEBUG, nil
	case SeverityInfo:
		return pulumirpc.LogSeverity_INFO, nil
	case SeverityWarning:
		return pulumirpc.LogSeverity_WARNING, nil
	case SeverityError:
		return pulumirpc.LogSeverity_ERROR, nil
	default:
		return 0, fmt.Errorf("unknown log severity %d", int(s))
	}
}

func toRPCLogRequest(req LogRequest) (*pulumirpc.LogRequest, error) {
	sev, err := toRPCSeverity(req.Severity)
	if err != nil {
		return nil, err
	}
	return &pulumirpc.LogRequest{
		Severity:  sev,
		Message:   strings.ToValidUTF8(req.Message, "\uFFFD"),
		Urn:       string(req.URN),
		StreamId:  req.StreamID,
		Ephemeral: req.Ephemeral,
	}, nil
}
