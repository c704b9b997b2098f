package rpc

import (
	"context"
	"errors"

	"github.com/pulumi/pulumi/sdk/v3/go/common/resource/urn"
	"github.com/pulumi/pulumi/sdk/v3/go/property"
	pulumirpc "github.com/pulumi/pulumi/sdk/v3/proto/go"

	"github.com/polyhost/polyhost/host/diag"
	"github.com/polyhost/polyhost/host/internal/core"
	"github.com/polyhost/polyhost/internal/wire"
	"github.com/polyhost/polyhost/monitorclient"
)

func (s *server) Call(ctx context.Context, req *pulumirpc.CallRequest) (*pulumirpc.CallResponse, error) {
	creq, err := FromCallRequest(req)
	if err != nil {
		return &pulumirpc.CallResponse{Failures: ToCheckFailures(malformedArguments(err))}, nil
	}
	p := s.serving()
	if b := p.BridgedCall(creq.Token); b != nil {
		resp, failures, err := p.CallBridged(ctx, creq, b, req, bridgedResults)
		switch {
		case err != nil:
			return nil, toStatus(err)
		case failures != nil:
			return &pulumirpc.CallResponse{Failures: ToCheckFailures(failures)}, nil
		}
		return resp.(*pulumirpc.CallResponse), nil
	}
	resp, err := p.Call(ctx, creq)
	if err != nil {
		return nil, toStatus(err)
	}
	out, err := ToCallResponse(resp, s.byteStrings.Load())
	if err != nil {
		return nil, toStatus(p.Failed(ctx, err, "", "", creq.Args))
	}
	return out, nil
}

// bridgedResults reads the return values of a Call's answer from the Go
// SDK, or says it failed.
func bridgedResults(resp any) (property.Map, bool, error) {
	r := resp.(*pulumirpc.CallResponse)
	if len(r.GetFailures()) > 0 {
		return property.Map{}, true, nil
	}
	ret, err := fromWire(r.GetReturn())
	return ret, false, err
}

// malformedArguments is the failure for arguments that do not decode, at
// the argument whose value is malformed.
func malformedArguments(err error) []diag.CheckFailure {
	f := diag.CheckFailure{Reason: "malformed arguments: " + err.Error()}
	var ke *wire.KeyError
	if errors.As(err, &ke) {
		f.Property = ke.Key
	}
	return []diag.CheckFailure{f}
}

// FromCallRequest reads a Call off the wire: the arguments (__self__
// included) with their dependencies as markers, and the stack.
func FromCallRequest(req *pulumirpc.CallRequest) (core.CallRequest, error) {
	args, err := fromWire(req.GetArgs())
	if err != nil {
		return core.CallRequest{}, err
	}
	deps := map[string][]urn.URN{}
	for k, d := range req.GetArgDependencies() {
		deps[k] = wire.URNs(d.GetUrns())
	}
	info := stackInfo(req.GetProject(), req.GetStack(), req.GetOrganization(), req.GetDryRun(), int(req.GetParallel()), req.GetConfig(), req.GetConfigSecretKeys())
	info.StackTraceHandle = req.GetStackTraceHandle()
	return core.CallRequest{
		Info:        info,
		MonitorAddr: req.GetMonitorEndpoint(),
		Token:       req.GetTok(),
		Args:        withDependencies(args, deps),
	}, nil
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

// FromCallResponse reads what a Call answered as a program's engine does:
// each value depends on what its return dependencies say.
func FromCallResponse(r *pulumirpc.CallResponse) (core.CallResponse, error) {
	ret, err := fromWire(r.GetReturn())
	if err != nil {
		return core.CallResponse{}, err
	}
	deps := map[string][]urn.URN{}
	for k, d := range r.GetReturnDependencies() {
		deps[k] = wire.URNs(d.GetUrns())
	}
	return core.CallResponse{Return: withDependencies(ret, deps), ReturnDependencies: deps, Failures: FromCheckFailures(r.GetFailures())}, nil
}

func (s *server) Invoke(ctx context.Context, req *pulumirpc.InvokeRequest) (*pulumirpc.InvokeResponse, error) {
	ireq, err := FromInvokeRequest(req)
	if err != nil {
		return &pulumirpc.InvokeResponse{Failures: ToCheckFailures(malformedArguments(err))}, nil
	}
	p := s.serving()
	resp, err := p.Invoke(ctx, ireq)
	if err != nil {
		return nil, toStatus(err)
	}
	out, err := ToInvokeResponse(resp, s.byteStrings.Load())
	if err != nil {
		return nil, toStatus(p.Failed(ctx, err, "", "", ireq.Args))
	}
	return out, nil
}

// FromInvokeRequest reads an Invoke off the wire.
func FromInvokeRequest(req *pulumirpc.InvokeRequest) (core.InvokeRequest, error) {
	args, err := crudFromWire(req.GetArgs())
	if err != nil {
		return core.InvokeRequest{}, err
	}
	return core.InvokeRequest{Token: req.GetTok(), Args: args, Preview: req.GetPreview()}, nil
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

// FromInvokeResponse reads what an Invoke answered.
func FromInvokeResponse(r *pulumirpc.InvokeResponse) (core.InvokeResponse, error) {
	ret, err := wire.UnmarshalMap(r.GetReturn(), answerValues)
	return core.InvokeResponse{Return: ret, Failures: FromCheckFailures(r.GetFailures())}, err
}
