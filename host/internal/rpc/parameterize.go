package rpc

import (
	"context"
	"errors"

	pulumirpc "github.com/pulumi/pulumi/sdk/v3/proto/go"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"

	"github.com/polyhost/polyhost/host/internal/core"
)

func (s *server) Parameterize(ctx context.Context, req *pulumirpc.ParameterizeRequest) (*pulumirpc.ParameterizeResponse, error) {
	r := core.ParameterizeRequest{Args: req.GetArgs().GetArgs()}
	if v := req.GetValue(); v != nil {
		r = core.ParameterizeRequest{Name: v.GetName(), Version: v.GetVersion(), Value: v.GetValue()}
	}
	p, err := s.plugin.Parameterize(ctx, r)
	var refused *core.RefusedError
	switch {
	case errors.As(err, &refused) && refused.NotParameterized:
		return nil, status.Error(codes.Unimplemented, refused.Msg)
	case errors.As(err, &refused):
		return nil, status.Error(codes.FailedPrecondition, refused.Msg)
	case err != nil:
		return nil, toStatus(err)
	}
	return &pulumirpc.ParameterizeResponse{Name: p.Name(), Version: p.Version()}, nil
}
