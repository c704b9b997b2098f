package rpc

import (
	"fmt"
	"github.com/pulumi/pulumi/sdk/v3/go/property"
	pulumirpc "github.com/pulumi/pulumi/sdk/v3/proto/go"
	"google.golang.org/protobuf/types/known/structpb"

	"github.com/polyhost/polyhost/host/custom"
	"github.com/polyhost/polyhost/host/diag"
	"github.com/polyhost/polyhost/host/internal/core"
	"github.com/polyhost/polyhost/internal/protocol"
	"github.com/polyhost/polyhost/internal/wire"
	"github.com/polyhost/polyhost/monitorclient"
)

// The converters of messages for the wire, ToX writing message X from
// the core's or the author's types: the server writes answers with them,
// hosttest's harness requests.

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
		alias, err := protocol.ToAlias(a.URN, (*protocol.AliasSpec)(a.Spec))
		if err != nil {
			return nil, err
		}
		out.Aliases = append(out.Aliases, alias)
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

// ToCustomTimeouts writes custom timeouts for a Construct request.
func ToCustomTimeouts(ct *monitorclient.CustomTimeouts) *pulumirpc.ConstructRequest_CustomTimeouts {
	if ct == nil {
		return nil
	}
	return &pulumirpc.ConstructRequest_CustomTimeouts{Create: ct.Create, Update: ct.Update, Delete: ct.Delete, Read: ct.Read}
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

// ToCallRequest writes a Call as a program's engine sends it.
func ToCallRequest(r core.CallRequest) (*pulumirpc.CallRequest, error) {
	args, err := marshal(r.Args, false)
	if err != nil {
		return nil, err
	}
	out := &pulumirpc.CallRequest{
		Tok: r.Token, Args: args, ArgDependencies: map[string]*pulumirpc.CallRequest_ArgumentDependencies{},
		Project: r.Info.Project, Stack: r.Info.Stack, Organization: r.Info.Organization, DryRun: r.Info.DryRun,
		Parallel: int32(r.Info.Parallel), StackTraceHandle: r.Info.StackTraceHandle,
		MonitorEndpoint: r.MonitorAddr, AcceptsOutputValues: true,
	}
	out.Config, out.ConfigSecretKeys = configStrings(r.Info.Config)
	for k, urns := range monitorclient.DependencyMap(r.Args) {
		out.ArgDependencies[k] = &pulumirpc.CallRequest_ArgumentDependencies{Urns: wire.URNStrings(urns)}
	}
	return out, nil
}

// ToCallResponse writes what a Call answers: the failures, or the return
// values and their dependencies.
func ToCallResponse(r core.CallResponse, byteStrings bool) (*pulumirpc.CallResponse, error) {
	out := &pulumirpc.CallResponse{ReturnDependencies: map[string]*pulumirpc.CallResponse_ReturnDependencies{},
		Failures: ToCheckFailures(r.Failures)}
	if len(out.Failures) > 0 {
		return out, nil
	}
	var err error
	if out.Return, err = marshal(r.Return, byteStrings); err != nil {
		return nil, err
	}
	for k, deps := range r.ReturnDependencies {
		out.ReturnDependencies[k] = &pulumirpc.CallResponse_ReturnDependencies{Urns: wire.URNStrings(deps)}
	}
	return out, nil
}

// ToInvokeRequest writes an Invoke as the engine sends it.
func ToInvokeRequest(r core.InvokeRequest) (*pulumirpc.InvokeRequest, error) {
	args, err := marshal(r.Args, false)
	if err != nil {
		return nil, err
	}
	return &pulumirpc.InvokeRequest{Tok: r.Token, Args: args, Preview: r.Preview}, nil
}

// ToInvokeResponse writes what an Invoke answers: the failures, or the
// results.
func ToInvokeResponse(r core.InvokeResponse, byteStrings bool) (*pulumirpc.InvokeResponse, error) {
	out := &pulumirpc.InvokeResponse{Failures: ToCheckFailures(r.Failures)}
	if len(out.Failures) == 0 {
		var err error
		if out.Return, err = marshal(r.Return, byteStrings); err != nil {
			return nil, err
		}
	}
	return out, nil
}

// ToCheckRequest writes a Check as the engine sends it.
func ToCheckRequest(r custom.CheckRequest) (*pulumirpc.CheckRequest, error) {
	s, err := marshalAll(r.OldInputs, r.Inputs)
	if err != nil {
		return nil, err
	}
	out := &pulumirpc.CheckRequest{Urn: string(r.URN), Name: r.Name, Type: r.Type, Olds: s[0], News: s[1], RandomSeed: r.RandomSeed}
	if a := r.Autonaming; a != nil {
		out.Autonaming = &pulumirpc.CheckRequest_AutonamingOptions{ProposedName: a.ProposedName}
		switch a.Mode {
		case custom.AutonamingEnforce:
			out.Autonaming.Mode = pulumirpc.CheckRequest_AutonamingOptions_ENFORCE
		case custom.AutonamingDisable:
			out.Autonaming.Mode = pulumirpc.CheckRequest_AutonamingOptions_DISABLE
		}
	}
	return out, nil
}

// ToCheckResponse writes what Check answers.
func ToCheckResponse(r custom.CheckResponse, byteStrings bool) (*pulumirpc.CheckResponse, error) {
	inputs, err := marshal(r.Inputs, byteStrings)
	if err != nil {
		return nil, err
	}
	return &pulumirpc.CheckResponse{Inputs: inputs, Failures: ToCheckFailures(r.Failures)}, nil
}

// ToDiffRequest writes a Diff as the engine sends it.
func ToDiffRequest(r custom.DiffRequest) (*pulumirpc.DiffRequest, error) {
	s, err := marshalAll(r.OldOutputs, r.OldInputs, r.Inputs)
	if err != nil {
		return nil, err
	}
	return &pulumirpc.DiffRequest{Urn: string(r.URN), Name: r.Name, Type: r.Type, Id: string(r.ID),
		Olds: s[0], OldInputs: s[1], News: s[2], IgnoreChanges: r.IgnoreChanges}, nil
}

// ToDiffResponse writes what Diff answers, each change detailed.
func ToDiffResponse(d custom.DiffResponse) *pulumirpc.DiffResponse {
	resp := &pulumirpc.DiffResponse{
		Changes:             pulumirpc.DiffResponse_DIFF_NONE,
		Replaces:            d.Replaces,
		DeleteBeforeReplace: d.DeleteBeforeReplace,
		HasDetailedDiff:     true,
		DetailedDiff:        map[string]*pulumirpc.PropertyDiff{},
	}
	if d.HasChanges {
		resp.Changes = pulumirpc.DiffResponse_DIFF_SOME
	}
	for path, kind := range d.Changes {
		resp.DetailedDiff[path] = &pulumirpc.PropertyDiff{Kind: pulumirpc.PropertyDiff_Kind(kind), InputDiff: true}
		resp.Diffs = append(resp.Diffs, path)
	}
	return resp
}

// ToCreateRequest writes a Create as the engine sends it.
func ToCreateRequest(r custom.CreateRequest, preview bool) (*pulumirpc.CreateRequest, error) {
	props, err := marshal(r.Inputs, false)
	if err != nil {
		return nil, err
	}
	return &pulumirpc.CreateRequest{Urn: string(r.URN), Name: r.Name, Type: r.Type, Properties: props,
		Timeout: r.Timeout.Seconds(), Preview: preview}, nil
}

// ToCreateResponse writes what Create answers.
func ToCreateResponse(r custom.CreateResponse, byteStrings bool) (*pulumirpc.CreateResponse, error) {
	props, err := marshal(r.Outputs, byteStrings)
	if err != nil {
		return nil, err
	}
	return &pulumirpc.CreateResponse{Id: string(r.ID), Properties: props}, nil
}

// ToReadRequest writes a Read as the engine sends it.
func ToReadRequest(r custom.ReadRequest) (*pulumirpc.ReadRequest, error) {
	s, err := marshalAll(r.Inputs, r.Outputs)
	if err != nil {
		return nil, err
	}
	return &pulumirpc.ReadRequest{Urn: string(r.URN), Name: r.Name, Type: r.Type, Id: string(r.ID),
		Inputs: s[0], Properties: s[1]}, nil
}

// ToReadResponse writes what Read answers: nothing for a resource that is
// gone.
func ToReadResponse(r custom.ReadResponse, byteStrings bool) (*pulumirpc.ReadResponse, error) {
	if r.ID == "" {
		return &pulumirpc.ReadResponse{}, nil
	}
	props, err := marshal(r.Outputs, byteStrings)
	if err != nil {
		return nil, err
	}
	ins, err := marshal(r.Inputs, byteStrings)
	if err != nil {
		return nil, err
	}
	return &pulumirpc.ReadResponse{Id: string(r.ID), Properties: props, Inputs: ins}, nil
}

// ToUpdateRequest writes an Update as the engine sends it.
func ToUpdateRequest(r custom.UpdateRequest, preview bool) (*pulumirpc.UpdateRequest, error) {
	s, err := marshalAll(r.OldOutputs, r.OldInputs, r.Inputs)
	if err != nil {
		return nil, err
	}
	return &pulumirpc.UpdateRequest{Urn: string(r.URN), Name: r.Name, Type: r.Type, Id: string(r.ID),
		Olds: s[0], OldInputs: s[1], News: s[2], IgnoreChanges: r.IgnoreChanges,
		Timeout: r.Timeout.Seconds(), Preview: preview}, nil
}

// ToUpdateResponse writes what Update answers.
func ToUpdateResponse(r custom.UpdateResponse, byteStrings bool) (*pulumirpc.UpdateResponse, error) {
	props, err := marshal(r.Outputs, byteStrings)
	if err != nil {
		return nil, err
	}
	return &pulumirpc.UpdateResponse{Properties: props}, nil
}

// ToDeleteRequest writes a Delete as the engine sends it.
func ToDeleteRequest(r custom.DeleteRequest) (*pulumirpc.DeleteRequest, error) {
	s, err := marshalAll(r.Outputs, r.Inputs)
	if err != nil {
		return nil, err
	}
	return &pulumirpc.DeleteRequest{Urn: string(r.URN), Name: r.Name, Type: r.Type, Id: string(r.ID),
		Properties: s[0], OldInputs: s[1], Timeout: r.Timeout.Seconds()}, nil
}

// marshalAll writes the maps of a request.
func marshalAll(ms ...property.Map) ([]*structpb.Struct, error) {
	out := make([]*structpb.Struct, len(ms))
	for i, m := range ms {
		var err error
		if out[i], err = marshal(m, false); err != nil {
			return nil, err
		}
	}
	return out, nil
}

// ToCheckConfigRequest writes a CheckConfig of a new provider, as the
// engine sends it.
func ToCheckConfigRequest(news property.Map) (*pulumirpc.CheckRequest, error) {
	s, err := wire.MarshalMap(news, wire.MarshalOptions{Secrets: true})
	if err != nil {
		return nil, err
	}
	return &pulumirpc.CheckRequest{News: s, Olds: &structpb.Struct{}}, nil
}

// ToCheckConfigResponse writes what CheckConfig answers.
func ToCheckConfigResponse(checked property.Map, failures []diag.CheckFailure, byteStrings bool) (*pulumirpc.CheckResponse, error) {
	inputs, err := marshal(checked, byteStrings)
	if err != nil {
		return nil, err
	}
	return &pulumirpc.CheckResponse{Inputs: inputs, Failures: ToCheckFailures(failures)}, nil
}

// ToDiffConfigResponse writes what DiffConfig answers, each change
// detailed.
func ToDiffConfigResponse(d core.ConfigDiff) *pulumirpc.DiffResponse {
	resp := &pulumirpc.DiffResponse{Changes: pulumirpc.DiffResponse_DIFF_NONE, HasDetailedDiff: true,
		DetailedDiff: map[string]*pulumirpc.PropertyDiff{}}
	replace := map[string]bool{}
	for _, k := range d.Replaces {
		replace[k] = true
	}
	for _, k := range d.Changed {
		kind := pulumirpc.PropertyDiff_UPDATE
		if replace[k] {
			kind = pulumirpc.PropertyDiff_UPDATE_REPLACE
		}
		resp.DetailedDiff[k] = &pulumirpc.PropertyDiff{Kind: kind, InputDiff: true}
		resp.Diffs = append(resp.Diffs, k)
	}
	resp.Replaces = d.Replaces
	if len(d.Changed) > 0 {
		resp.Changes = pulumirpc.DiffResponse_DIFF_SOME
	}
	return resp
}

// ToConfigureRequest writes a Configure with checked configuration, as the
// engine sends it.
func ToConfigureRequest(checked property.Map) (*pulumirpc.ConfigureRequest, error) {
	args, err := wire.MarshalMap(checked, wire.MarshalOptions{Secrets: true})
	if err != nil {
		return nil, err
	}
	return &pulumirpc.ConfigureRequest{Args: args, AcceptSecrets: true, AcceptResources: true}, nil
}

// ToCheckFailures writes failures for the wire, bounded: more than
// maxFailures end with one saying how many were left out.
func ToCheckFailures(fs []diag.CheckFailure) []*pulumirpc.CheckFailure {
	if len(fs) == 0 {
		return nil
	}
	fs, more := boundedFailures(fs)
	out := make([]*pulumirpc.CheckFailure, len(fs), len(fs)+1)
	for i, f := range fs {
		out[i] = &pulumirpc.CheckFailure{Property: f.Property, Reason: f.Reason}
	}
	if more > 0 {
		out = append(out, &pulumirpc.CheckFailure{Reason: fmt.Sprintf("and %d more failures", more)})
	}
	return out
}
