package rpc

import (
	"context"
	"slices"

	"github.com/pulumi/pulumi/sdk/v3/go/common/providers"
	"github.com/pulumi/pulumi/sdk/v3/go/common/resource/urn"
	"github.com/pulumi/pulumi/sdk/v3/go/property"
	pulumirpc "github.com/pulumi/pulumi/sdk/v3/proto/go"

	"github.com/polyhost/polyhost/host/diag"
	"github.com/polyhost/polyhost/host/internal/core"
	"github.com/polyhost/polyhost/internal/wire"
	"github.com/polyhost/polyhost/monitorclient"
)

func (s *server) Construct(ctx context.Context, req *pulumirpc.ConstructRequest) (*pulumirpc.ConstructResponse, error) {
	creq, err := FromConstructRequest(req)
	if err != nil {
		return nil, toStatus(err)
	}
	p := s.serving()
	if b := p.BridgedConstruct(creq.Type); b != nil {
		resp, err := p.ConstructBridged(ctx, creq, b, req, bridgedOutputs)
		if err != nil {
			return nil, constructStatus(err)
		}
		return resp.(*pulumirpc.ConstructResponse), nil
	}
	resp, err := p.Construct(ctx, creq)
	if err != nil {
		return nil, constructStatus(err)
	}
	out, err := ToConstructResponse(resp, s.byteStrings.Load())
	if err != nil { // the engine names the resource
		return nil, toStatus(p.Failed(ctx, &diag.StepError{Step: "marshal outputs", Err: err}, "", "", creq.Inputs))
	}
	return out, nil
}

// bridgedOutputs reads the URN and state of a Construct's answer from the
// Go SDK.
func bridgedOutputs(resp any) (urn.URN, property.Map, error) {
	r := resp.(*pulumirpc.ConstructResponse)
	state, err := fromWire(r.GetState())
	return urn.URN(r.GetUrn()), state, err
}

// FromConstructRequest reads a Construct off the wire: the inputs with
// their dependencies as markers, the program's options with its providers
// parsed, and the stack, its secret configuration marked. What does not
// read is the user's mistake.
func FromConstructRequest(req *pulumirpc.ConstructRequest) (core.ConstructRequest, error) {
	inputs, err := fromWire(req.GetInputs())
	if err != nil {
		return core.ConstructRequest{}, &diag.InputError{Message: "malformed inputs for " + req.GetType() + ": " + err.Error()}
	}
	deps := map[string][]urn.URN{}
	for k, d := range req.GetInputDependencies() {
		deps[k] = wire.URNs(d.GetUrns())
	}
	o := monitorclient.ResourceOptions{
		Dependencies:            wire.URNs(req.GetDependencies()),
		Protect:                 req.Protect,
		AdditionalSecretOutputs: req.GetAdditionalSecretOutputs(),
		DeletedWith:             urn.URN(req.GetDeletedWith()),
		DeleteBeforeReplace:     req.DeleteBeforeReplace,
		IgnoreChanges:           req.GetIgnoreChanges(),
		ReplaceOnChanges:        req.GetReplaceOnChanges(),
		RetainOnDelete:          req.RetainOnDelete,
		ReplaceWith:             wire.URNs(req.GetReplaceWith()),
		CustomTimeouts:          FromCustomTimeouts(req.GetCustomTimeouts()),
		Hooks:                   FromResourceHooks(req.GetResourceHooks()),
	}
	for pkg, s := range req.GetProviders() {
		ref, err := providers.ParseReference(s)
		if err != nil {
			return core.ConstructRequest{}, &diag.InputError{Message: "malformed provider reference for " + pkg + ": " + err.Error()}
		}
		if o.Providers == nil {
			o.Providers = map[string]providers.Reference{}
		}
		o.Providers[pkg] = ref
	}
	if o.ReplacementTrigger, err = wire.UnmarshalValue("replacementTrigger", req.GetReplacementTrigger(), programValues); err != nil {
		return core.ConstructRequest{}, &diag.InputError{Message: "malformed replacementTrigger for " + req.GetType() + ": " + err.Error()}
	}
	for _, a := range req.GetAliases() {
		o.Aliases = append(o.Aliases, FromAlias(a))
	}
	info := stackInfo(req.GetProject(), req.GetStack(), req.GetOrganization(), req.GetDryRun(), int(req.GetParallel()), req.GetConfig(), req.GetConfigSecretKeys())
	info.StackTraceHandle = req.GetStackTraceHandle()
	return core.ConstructRequest{
		Info:        info,
		MonitorAddr: req.GetMonitorEndpoint(),
		Type:        req.GetType(),
		Name:        req.GetName(),
		Parent:      urn.URN(req.GetParent()),
		Inputs:      withDependencies(inputs, deps),
		Options:     o,
	}, nil
}

// ToConstructRequest writes a Construct as a program's engine sends it:
// the inputs' dependencies as the request's, and output values accepted.
func ToConstructRequest(r core.ConstructRequest) (*pulumirpc.ConstructRequest, error) {
	inputs, err := marshal(r.Inputs, false)
	if err != nil {
		return nil, err
	}
	o := r.Options
	out := &pulumirpc.ConstructRequest{
		Project: r.Info.Project, Stack: r.Info.Stack, Organization: r.Info.Organization,
		DryRun: r.Info.DryRun, Parallel: int32(r.Info.Parallel), StackTraceHandle: r.Info.StackTraceHandle,
		MonitorEndpoint: r.MonitorAddr, Type: r.Type, Name: r.Name, Parent: string(r.Parent),
		Inputs: inputs, InputDependencies: map[string]*pulumirpc.ConstructRequest_PropertyDependencies{},
		Dependencies: wire.URNStrings(o.Dependencies), Protect: o.Protect,
		AdditionalSecretOutputs: o.AdditionalSecretOutputs, DeletedWith: string(o.DeletedWith),
		DeleteBeforeReplace: o.DeleteBeforeReplace, IgnoreChanges: o.IgnoreChanges,
		ReplaceOnChanges: o.ReplaceOnChanges, RetainOnDelete: o.RetainOnDelete,
		ReplaceWith:    wire.URNStrings(o.ReplaceWith),
		CustomTimeouts: ToCustomTimeouts(o.CustomTimeouts), ResourceHooks: ToResourceHooks(o.Hooks),
		AcceptsOutputValues: true,
	}
	out.Config, out.ConfigSecretKeys = configStrings(r.Info.Config)
	for k, urns := range monitorclient.DependencyMap(r.Inputs) {
		out.InputDependencies[k] = &pulumirpc.ConstructRequest_PropertyDependencies{Urns: wire.URNStrings(urns)}
	}
	if len(o.Providers) > 0 {
		out.Providers = map[string]string{}
		for pkg, ref := range o.Providers {
			out.Providers[pkg] = ref.String()
		}
	}
	if !o.ReplacementTrigger.IsNull() {
		if out.ReplacementTrigger, err = wire.MarshalValue("replacementTrigger", o.ReplacementTrigger, wire.MarshalOptions{Secrets: true, Resources: true}); err != nil {
			return nil, err
		}
	}
	for _, a := range o.Aliases {
		out.Aliases = append(out.Aliases, ToAlias(a))
	}
	return out, nil
}

// ToConstructResponse writes what Construct answers; byteStrings as the
// engine said at Handshake.
func ToConstructResponse(r core.ConstructResponse, byteStrings bool) (*pulumirpc.ConstructResponse, error) {
	state, err := marshal(r.State, byteStrings)
	if err != nil {
		return nil, err
	}
	out := &pulumirpc.ConstructResponse{Urn: string(r.URN), State: state,
		StateDependencies: map[string]*pulumirpc.ConstructResponse_PropertyDependencies{}}
	for k, deps := range r.StateDependencies {
		out.StateDependencies[k] = &pulumirpc.ConstructResponse_PropertyDependencies{Urns: wire.URNStrings(deps)}
	}
	return out, nil
}

// FromConstructResponse reads what Construct answered as a program's
// engine does: each output depends on what its state dependencies say.
func FromConstructResponse(r *pulumirpc.ConstructResponse) (core.ConstructResponse, error) {
	state, err := fromWire(r.GetState())
	if err != nil {
		return core.ConstructResponse{}, err
	}
	deps := map[string][]urn.URN{}
	for k, d := range r.GetStateDependencies() {
		deps[k] = wire.URNs(d.GetUrns())
	}
	return core.ConstructResponse{URN: urn.URN(r.GetUrn()), State: withDependencies(state, deps), StateDependencies: deps}, nil
}

// stackInfo builds the deployment's description; secret config values are
// marked secret so they stay secret in whatever the component builds.
func stackInfo(project, stack, org string, dryRun bool, parallel int, config map[string]string, secretKeys []string) core.StackInfo {
	cfg := make(map[string]property.Value, len(config))
	for k, v := range config {
		cfg[k] = property.New(v).WithSecret(slices.Contains(secretKeys, k))
	}
	return core.StackInfo{Project: project, Stack: stack, Organization: org, DryRun: dryRun, Parallel: parallel,
		Config: property.NewMap(cfg)}
}

// configStrings is stack configuration as the engine sends it: the values
// as strings, and the keys of the secret ones.
func configStrings(config property.Map) (map[string]string, []string) {
	if config.Len() == 0 {
		return nil, nil
	}
	out := map[string]string{}
	var secret []string
	for k, v := range config.AllStable {
		if v.IsString() {
			out[k] = v.AsString()
		}
		if v.Secret() {
			secret = append(secret, k)
		}
	}
	return out, secret
}

// FromAlias reads an alias off the wire: a URN, or a spec.
func FromAlias(a *pulumirpc.Alias) monitorclient.Alias {
	if u := a.GetUrn(); u != "" {
		return monitorclient.Alias{URN: urn.URN(u)}
	}
	spec := a.GetSpec()
	return monitorclient.Alias{Spec: &monitorclient.AliasSpec{
		Name: spec.GetName(), Type: spec.GetType(), Stack: spec.GetStack(), Project: spec.GetProject(),
		ParentURN: urn.URN(spec.GetParentUrn()), NoParent: spec.GetNoParent(),
	}}
}

// ToAlias writes an alias for a Construct request: a URN, or a spec.
func ToAlias(a monitorclient.Alias) *pulumirpc.Alias {
	if a.Spec == nil {
		return &pulumirpc.Alias{Alias: &pulumirpc.Alias_Urn{Urn: string(a.URN)}}
	}
	spec := &pulumirpc.Alias_Spec{Name: a.Spec.Name, Type: a.Spec.Type, Stack: a.Spec.Stack, Project: a.Spec.Project}
	if a.Spec.NoParent {
		spec.Parent = &pulumirpc.Alias_Spec_NoParent{NoParent: true}
	} else if a.Spec.ParentURN != "" {
		spec.Parent = &pulumirpc.Alias_Spec_ParentUrn{ParentUrn: string(a.Spec.ParentURN)}
	}
	return &pulumirpc.Alias{Alias: &pulumirpc.Alias_Spec_{Spec: spec}}
}

// FromCustomTimeouts reads custom timeouts off the wire; nil stays nil.
func FromCustomTimeouts[T interface {
	GetCreate() string
	GetUpdate() string
	GetDelete() string
	GetRead() string
	comparable
}](ct T) *monitorclient.CustomTimeouts {
	var none T
	if ct == none {
		return nil
	}
	return &monitorclient.CustomTimeouts{Create: ct.GetCreate(), Update: ct.GetUpdate(), Delete: ct.GetDelete(), Read: ct.GetRead()}
}

// ToCustomTimeouts writes custom timeouts for a Construct request.
func ToCustomTimeouts(ct *monitorclient.CustomTimeouts) *pulumirpc.ConstructRequest_CustomTimeouts {
	if ct == nil {
		return nil
	}
	return &pulumirpc.ConstructRequest_CustomTimeouts{Create: ct.Create, Update: ct.Update, Delete: ct.Delete, Read: ct.Read}
}

// FromResourceHooks reads the resource hooks a request names; nil stays
// nil.
func FromResourceHooks[T interface {
	GetBeforeCreate() []string
	GetAfterCreate() []string
	GetBeforeUpdate() []string
	GetAfterUpdate() []string
	GetBeforeDelete() []string
	GetAfterDelete() []string
	GetOnError() []string
	comparable
}](h T) *monitorclient.ResourceHooks {
	var none T
	if h == none {
		return nil
	}
	return &monitorclient.ResourceHooks{
		BeforeCreate: h.GetBeforeCreate(), AfterCreate: h.GetAfterCreate(), BeforeUpdate: h.GetBeforeUpdate(),
		AfterUpdate: h.GetAfterUpdate(), BeforeDelete: h.GetBeforeDelete(), AfterDelete: h.GetAfterDelete(), OnError: h.GetOnError(),
	}
}

// ToResourceHooks writes resource hooks for a Construct request.
func ToResourceHooks(h *monitorclient.ResourceHooks) *pulumirpc.ConstructRequest_ResourceHooksBinding {
	if h == nil {
		return nil
	}
	return &pulumirpc.ConstructRequest_ResourceHooksBinding{
		BeforeCreate: h.BeforeCreate, AfterCreate: h.AfterCreate, BeforeUpdate: h.BeforeUpdate,
		AfterUpdate: h.AfterUpdate, BeforeDelete: h.BeforeDelete, AfterDelete: h.AfterDelete, OnError: h.OnError,
	}
}
