package rpc

import (
	"context"

	"github.com/pulumi/pulumi/sdk/v3/go/common/providers"
	"github.com/pulumi/pulumi/sdk/v3/go/common/resource"
	"github.com/pulumi/pulumi/sdk/v3/go/common/resource/urn"
	pulumirpc "github.com/pulumi/pulumi/sdk/v3/proto/go"
)

// The provider's own configuration: CheckConfig, DiffConfig, Configure.

func (s *server) CheckConfig(ctx context.Context, req *pulumirpc.CheckRequest) (*pulumirpc.CheckResponse, error) {
	news, err := FromCheckConfigRequest(req)
	if err != nil {
		return nil, err
	}
	checked, failures := s.serving().CheckConfig(news)
	return ToCheckConfigResponse(checked, failures, s.byteStrings.Load())
}

func (s *server) DiffConfig(ctx context.Context, req *pulumirpc.DiffRequest) (*pulumirpc.DiffResponse, error) {
	olds, news, err := FromDiffConfigRequest(req)
	if err != nil {
		return nil, err
	}
	return ToDiffConfigResponse(s.serving().DiffConfig(olds, news)), nil
}

func (s *server) Configure(ctx context.Context, req *pulumirpc.ConfigureRequest) (*pulumirpc.ConfigureResponse, error) {
	config, err := FromConfigureRequest(req)
	if err != nil {
		return nil, err
	}
	var self providers.Reference
	if req.GetUrn() != "" && req.GetId() != "" {
		self, _ = providers.NewReference(urn.URN(req.GetUrn()), resource.ID(req.GetId()))
	}
	if err := s.serving().Configure(ctx, config, self); err != nil {
		return nil, toStatus(err)
	}
	// An engine that skipped Handshake reads the flags here; byte strings
	// have no flag of their own: such an engine is sent none.
	return &pulumirpc.ConfigureResponse{
		AcceptSecrets: acceptSecrets, SupportsPreview: true, AcceptResources: acceptResources,
		AcceptOutputs: acceptOutputs, SupportsAutonamingConfiguration: supportsAutonaming,
	}, nil
}
