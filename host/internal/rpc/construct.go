package rpc

import (
	"context"

	"github.com/pulumi/pulumi/sdk/v3/go/common/resource/urn"
	"github.com/pulumi/pulumi/sdk/v3/go/property"
	pulumirpc "github.com/pulumi/pulumi/sdk/v3/proto/go"

	"github.com/polyhost/polyhost/host/diag"
	"github.com/polyhost/polyhost/host/internal/core"
	"github.com/polyhost/polyhost/host/internal/redact"
)

func (s *server) Construct(ctx context.Context, req *pulumirpc.ConstructRequest) (*pulumirpc.ConstructResponse, error) {
	creq, err := FromConstructRequest(req)
	if err != nil {
		return nil, toStatus(err)
	}
	return s.construct(ctx, req, creq)
}

// constructIn is a ConstructRequest as crudCodec reads it: raw says its
// inputs were read from the bytes, and req holds the other fields, so that
// no structpb copy of the inputs stays alive beside them; otherwise req is
// the whole request, read by proto. A component the Go SDK builds
// (bridged) is given the whole request, as it reads the inputs itself.
type constructIn struct {
	frames
	req     pulumirpc.ConstructRequest
	inputs  property.Map
	raw     bool
	bridged func(token string) bool
}

func (c *constructIn) prepare(s *server) {
	c.bridged = func(token string) bool { return sdkConstruct(s.serving(), token) != nil }
}

func (c *constructIn) decode(b [][]byte) error {
	st, ok, err := splitStructs(b, &c.req, programValues, constructInputs)
	if !ok || err == nil && c.bridged != nil && c.bridged(c.req.GetType()) {
		c.req.Reset()
		return protoDecode(b, &c.req)
	}
	c.inputs, c.raw = st.Maps[0], true
	return err
}

func (s *server) rawConstruct(ctx context.Context, in *constructIn) (any, error) {
	if !in.raw {
		return s.Construct(ctx, &in.req)
	}
	creq, err := constructRequest(&in.req, in.inputs, nil)
	in.inputs = property.Map{} // creq holds them now
	if err != nil {
		return nil, toStatus(err)
	}
	return s.construct(ctx, &in.req, creq)
}

func (s *server) construct(ctx context.Context, req *pulumirpc.ConstructRequest, creq core.ConstructRequest) (*pulumirpc.ConstructResponse, error) {
	p := s.serving()
	if build := sdkConstruct(p, creq.Type); build != nil {
		var resp *pulumirpc.ConstructResponse
		err := p.ConstructElsewhere(ctx, creq, func(ctx context.Context, engineAddr string, inputs property.Map) (err error) {
			resp, err = build(ctx, engineAddr, inputs, req)
			return err
		}, func() (urn.URN, property.Map, error) {
			state, err := fromWire(resp.GetState())
			return urn.URN(resp.GetUrn()), state, err
		})
		if err != nil {
			return nil, constructStatus(err)
		}
		return resp, nil
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
