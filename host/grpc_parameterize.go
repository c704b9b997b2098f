package host

import (
	"context"
	"errors"

	pulumirpc "github.com/pulumi/pulumi/sdk/v3/proto/go"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"
)

func (s *server) Parameterize(ctx context.Context, req *pulumirpc.ParameterizeRequest) (*pulumirpc.ParameterizeResponse, error) {
	r := ParameterizeRequest{Args: req.GetArgs().GetArgs()}
	if v := req.GetValue(); v != nil {
		r = ParameterizeRequest{Name: v.GetName(), Version: v.GetVersion(), Value: v.GetValue()}
	}
	p, err := s.parameterize(ctx, r)
	var ref *refusal
	switch {
	case errors.As(err, &ref) && ref.unimplemented:
		return nil, status.Error(codes.Unimplemented, ref.msg)
	case errors.As(err, &ref):
		return nil, status.Error(codes.FailedPrecondition, ref.msg)
	case err != nil:
		return nil, errorToStatus(err)
	}
	return &pulumirpc.ParameterizeResponse{Name: p.name, Version: p.version}, nil
}
