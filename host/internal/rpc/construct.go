package rpc

import (
	"context"

	"github.com/pulumi/pulumi/sdk/v3/go/common/resource/urn"
	"github.com/pulumi/pulumi/sdk/v3/go/property"
	pulumirpc "github.com/pulumi/pulumi/sdk/v3/proto/go"

	"github.com/polyhost/polyhost/host/diag"
	"github.com/polyhost/polyhost/host/internal/redact"
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
		return nil, toStatus(redact.Of(creq.Inputs).Error(&diag.StepError{Step: "marshal outputs", Err: err}))
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
