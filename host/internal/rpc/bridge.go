package rpc

import (
	"context"

	"github.com/pulumi/pulumi/sdk/v3/go/common/resource/urn"
	pulumirpc "github.com/pulumi/pulumi/sdk/v3/proto/go"

	"github.com/polyhost/polyhost/host/internal/core"
)

// constructBridged serves a Construct with the Go SDK (host/gosdk).
func (s *server) constructBridged(ctx context.Context, h core.BridgeConstruct, req *pulumirpc.ConstructRequest, creq core.ConstructRequest) (*pulumirpc.ConstructResponse, error) {
	fail := func(err error) (*pulumirpc.ConstructResponse, error) {
		s.logPanic(ctx, err, creq.Inputs, creq.Info.Config)
		return nil, constructErrorToStatus(err, creq.Inputs, creq.Info.Config)
	}
	if err := s.serving().CheckInputs(creq.Type, creq.Inputs); err != nil {
		return fail(err)
	}
	resp, err := core.RunSafely(ctx, creq.Type, creq.Name, func(ctx context.Context) (*pulumirpc.ConstructResponse, error) {
		resp, err := h(ctx, s.serving().EngineAddress(), creq.Inputs, req)
		r, _ := resp.(*pulumirpc.ConstructResponse)
		return r, err
	})
	if err != nil {
		return fail(err)
	}
	state, err := fromWire(resp.GetState())
	if err == nil {
		err = s.serving().CheckOutputs(ctx, creq.Type, creq.Name, urn.URN(resp.GetUrn()), state)
	}
	if err != nil {
		return fail(err)
	}
	return resp, nil
}

// callBridged serves a Call with the Go SDK (host/gosdk).
func (s *server) callBridged(ctx context.Context, h core.BridgeCall, req *pulumirpc.CallRequest, creq core.CallRequest) (*pulumirpc.CallResponse, error) {
	fail := func(err error) (*pulumirpc.CallResponse, error) {
		s.logPanic(ctx, err, creq.Args, creq.Info.Config)
		return nil, errorToStatus(err, creq.Args, creq.Info.Config)
	}
	if _, _, failures := s.serving().CallArgs(creq); len(failures) > 0 {
		return &pulumirpc.CallResponse{Failures: checkFailures(failures, creq.Args, creq.Info.Config)}, nil
	}
	resp, err := core.RunSafely(ctx, creq.Token, "", func(ctx context.Context) (*pulumirpc.CallResponse, error) {
		resp, err := h(ctx, s.serving().EngineAddress(), creq.Args, req)
		r, _ := resp.(*pulumirpc.CallResponse)
		return r, err
	})
	if ie, ok := asInputError(err); ok { // bad arguments, as the raw path reports them
		return &pulumirpc.CallResponse{Failures: checkFailures(ie.Failures, creq.Args, creq.Info.Config)}, nil
	}
	if err != nil {
		return fail(err)
	}
	if len(resp.GetFailures()) > 0 {
		return resp, nil
	}
	ret, err := fromWire(resp.GetReturn())
	if err == nil {
		err = s.serving().CheckOutputs(ctx, creq.Token, "", "", ret)
	}
	if err != nil {
		return fail(err)
	}
	return resp, nil
}
