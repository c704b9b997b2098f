package rpc

import (
	"context"
	"errors"

	"github.com/pulumi/pulumi/sdk/v3/go/property"
	pulumirpc "github.com/pulumi/pulumi/sdk/v3/proto/go"

	"github.com/polyhost/polyhost/host/diag"
	"github.com/polyhost/polyhost/host/internal/redact"
	"github.com/polyhost/polyhost/internal/wire"
)

func (s *server) Call(ctx context.Context, req *pulumirpc.CallRequest) (*pulumirpc.CallResponse, error) {
	creq, err := FromCallRequest(req)
	if err != nil {
		return &pulumirpc.CallResponse{Failures: ToCheckFailures(malformedArguments(err))}, nil
	}
	p := s.serving()
	if call := sdkCall(p, creq.Token); call != nil {
		var resp *pulumirpc.CallResponse
		failures, err := p.CallElsewhere(ctx, creq, func(ctx context.Context, engineAddr string, args property.Map) (err error) {
			resp, err = call(ctx, engineAddr, args, req)
			return err
		}, func() (property.Map, bool, error) {
			if len(resp.GetFailures()) > 0 {
				return property.Map{}, true, nil
			}
			ret, err := fromWire(resp.GetReturn())
			return ret, false, err
		})
		switch {
		case err != nil:
			return nil, toStatus(err)
		case failures != nil:
			return &pulumirpc.CallResponse{Failures: ToCheckFailures(failures)}, nil
		}
		return resp, nil
	}
	resp, err := p.Call(ctx, creq)
	if err != nil {
		return nil, toStatus(err)
	}
	out, err := ToCallResponse(resp, s.byteStrings.Load())
	if err != nil {
		return nil, toStatus(redact.Of(creq.Args).Error(err))
	}
	return out, nil
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
		return nil, toStatus(redact.Of(ireq.Args).Error(err))
	}
	return out, nil
}
