package rpc

import (
	"context"
	"errors"

	pulumirpc "github.com/pulumi/pulumi/sdk/v3/proto/go"

	"github.com/polyhost/polyhost/host/internal/core"
	"github.com/polyhost/polyhost/internal/wire"
)

func (s *server) Call(ctx context.Context, req *pulumirpc.CallRequest) (*pulumirpc.CallResponse, error) {
	args, err := fromWire(req.GetArgs())
	if err != nil {
		return &pulumirpc.CallResponse{Failures: []*pulumirpc.CheckFailure{malformedArgument(err)}}, nil
	}
	deps := map[string][]string{}
	for k, d := range req.GetArgDependencies() {
		deps[k] = d.GetUrns()
	}
	org, secretKeys := s.callDeploymentInfo(ctx, req)
	info := stackInfo(req.GetProject(), req.GetStack(), org, req.GetDryRun(), int(req.GetParallel()), req.GetConfig(), secretKeys)
	info.StackTraceHandle = req.GetStackTraceHandle()
	creq := core.CallRequest{
		Info:        info,
		MonitorAddr: req.GetMonitorEndpoint(),
		Token:       req.GetTok(),
		Args:        core.WithInputDependencies(args, deps),
	}
	if h := s.serving().BridgedCall(creq.Token); h != nil {
		return s.callBridged(ctx, h, req, creq)
	}
	resp, err := s.serving().Call(ctx, creq)
	if err != nil {
		s.logPanic(ctx, err, creq.Args, creq.Info.Config)
		return nil, errorToStatus(core.EngineNamed(err, creq.Token, ""), creq.Args, creq.Info.Config)
	}
	secrets := core.SecretTexts(creq.Args, creq.Info.Config)
	out := &pulumirpc.CallResponse{ReturnDependencies: map[string]*pulumirpc.CallResponse_ReturnDependencies{}}
	for _, f := range resp.Failures {
		out.Failures = append(out.Failures, &pulumirpc.CheckFailure{Property: f.Property, Reason: core.Redact(f.Reason, secrets)})
	}
	if len(out.Failures) > 0 {
		return out, nil
	}
	if out.Return, err = s.toWire(resp.Return); err != nil {
		return nil, errorToStatus(err, creq.Args)
	}
	for k, deps := range resp.ReturnDependencies {
		out.ReturnDependencies[k] = &pulumirpc.CallResponse_ReturnDependencies{Urns: wire.URNStrings(deps)}
	}
	return out, nil
}

// malformedArgument is the failure for arguments that do not decode, at
// the argument whose value is malformed.
func malformedArgument(err error) *pulumirpc.CheckFailure {
	f := &pulumirpc.CheckFailure{Reason: "malformed arguments: " + err.Error()}
	var ke *wire.KeyError
	if errors.As(err, &ke) {
		f.Property = ke.Key
	}
	return f
}

// callDeploymentInfo returns the organization and the secret config keys of
// a Call. The engine leaves both out of CallRequest, so they come from the
// monitor's GetDeploymentInfo when the request lacks them; without the keys,
// a method would read secret stack config as plain.
func (s *server) callDeploymentInfo(ctx context.Context, req *pulumirpc.CallRequest) (string, []string) {
	org, keys := req.GetOrganization(), req.GetConfigSecretKeys()
	if org != "" && len(keys) > 0 {
		return org, keys
	}
	info, ok := s.serving().DeploymentInfo(ctx, req.GetMonitorEndpoint())
	if !ok {
		return org, keys
	}
	if org == "" {
		org = info.Organization
	}
	if len(keys) == 0 {
		keys = info.ConfigSecretKeys
	}
	return org, keys
}

func (s *server) Invoke(ctx context.Context, req *pulumirpc.InvokeRequest) (*pulumirpc.InvokeResponse, error) {
	args, err := crudFromWire(req.GetArgs())
	if err != nil {
		return &pulumirpc.InvokeResponse{Failures: []*pulumirpc.CheckFailure{malformedArgument(err)}}, nil
	}
	if req.GetPreview() {
		ctx = core.WithPreview(ctx)
	}
	resp, err := s.serving().Invoke(ctx, req.GetTok(), args)
	if err != nil {
		s.logPanic(ctx, err, args)
		return nil, errorToStatus(core.EngineNamed(err, req.GetTok(), ""), args)
	}
	out := &pulumirpc.InvokeResponse{Failures: checkFailures(resp.Failures, args)}
	if len(out.Failures) == 0 {
		if out.Return, err = s.toWire(resp.Return); err != nil {
			return nil, errorToStatus(err, args)
		}
	}
	return out, nil
}
