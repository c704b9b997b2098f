package rpc

import (
	"context"

	pulumirpc "github.com/pulumi/pulumi/sdk/v3/proto/go"
	"google.golang.org/protobuf/types/known/emptypb"

	"github.com/polyhost/polyhost/host/custom"
)

// The CRUD calls of custom resources. Serve reads the values of Check,
// Create and Diff from the request bytes (codec.go), then takes the same
// path.

func (s *server) Check(ctx context.Context, req *pulumirpc.CheckRequest) (*pulumirpc.CheckResponse, error) {
	creq, err := FromCheckRequest(req)
	if err != nil {
		return nil, err
	}
	resp, err := s.serving().Check(ctx, creq)
	if err != nil {
		return nil, toStatus(err)
	}
	return ToCheckResponse(resp, s.byteStrings.Load())
}

func (s *server) Diff(ctx context.Context, req *pulumirpc.DiffRequest) (*pulumirpc.DiffResponse, error) {
	dreq, err := FromDiffRequest(req)
	if err != nil {
		return nil, err
	}
	return s.diff(ctx, dreq)
}

func (s *server) diff(ctx context.Context, req custom.DiffRequest) (*pulumirpc.DiffResponse, error) {
	resp, err := s.serving().Diff(ctx, req)
	if err != nil {
		return nil, toStatus(err)
	}
	return ToDiffResponse(resp), nil
}

func (s *server) Create(ctx context.Context, req *pulumirpc.CreateRequest) (*pulumirpc.CreateResponse, error) {
	creq, preview, err := FromCreateRequest(req)
	if err != nil {
		return nil, err
	}
	resp, err := s.serving().Create(ctx, creq, preview)
	if err != nil {
		return nil, s.crudStatus(err, creq.Inputs)
	}
	return ToCreateResponse(resp, s.byteStrings.Load())
}

func (s *server) Read(ctx context.Context, req *pulumirpc.ReadRequest) (*pulumirpc.ReadResponse, error) {
	rreq, err := FromReadRequest(req)
	if err != nil {
		return nil, err
	}
	resp, err := s.serving().Read(ctx, rreq)
	if err != nil {
		return nil, s.crudStatus(err, rreq.Inputs)
	}
	return ToReadResponse(resp, s.byteStrings.Load())
}

func (s *server) Update(ctx context.Context, req *pulumirpc.UpdateRequest) (*pulumirpc.UpdateResponse, error) {
	ureq, preview, err := FromUpdateRequest(req)
	if err != nil {
		return nil, err
	}
	resp, err := s.serving().Update(ctx, ureq, preview)
	if err != nil {
		return nil, s.crudStatus(err, ureq.Inputs)
	}
	return ToUpdateResponse(resp, s.byteStrings.Load())
}

func (s *server) Delete(ctx context.Context, req *pulumirpc.DeleteRequest) (*emptypb.Empty, error) {
	dreq, err := FromDeleteRequest(req)
	if err != nil {
		return nil, err
	}
	if err := s.serving().Delete(ctx, dreq); err != nil {
		return nil, s.crudStatus(err, dreq.Inputs)
	}
	return &emptypb.Empty{}, nil
}
