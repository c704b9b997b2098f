package tfwire

import (
	"context"

	"github.com/hashicorp/terraform-plugin-go/tfprotov6"

	"github.com/polyhost/polyhost/host/terraform/internal/tfplugin6"
)

// v6 is a Server over a protocol 6 provider.
type v6 struct {
	name string // the provider, in errors
	pc   tfplugin6.ProviderClient
}

var _ Server = (*v6)(nil)

func (s *v6) GetMetadata(ctx context.Context, _ *tfprotov6.GetMetadataRequest) (*tfprotov6.GetMetadataResponse, error) {
	r, err := s.pc.GetMetadata(ctx, &tfplugin6.GetMetadata_Request{})
	if err != nil {
		return nil, rpcError(s.name, "GetMetadata", err)
	}
	return getMetadataResponseFrom6(r), nil
}

func (s *v6) GetProviderSchema(ctx context.Context, _ *tfprotov6.GetProviderSchemaRequest) (*tfprotov6.GetProviderSchemaResponse, error) {
	r, err := s.pc.GetProviderSchema(ctx, &tfplugin6.GetProviderSchema_Request{})
	if err != nil {
		return nil, rpcError(s.name, "GetProviderSchema", err)
	}
	out, err := getProviderSchemaResponseFrom6(r)
	if err != nil {
		return nil, rpcError(s.name, "GetProviderSchema", err)
	}
	return out, nil
}

func (s *v6) ValidateProviderConfig(ctx context.Context, req *tfprotov6.ValidateProviderConfigRequest) (*tfprotov6.ValidateProviderConfigResponse, error) {
	req = zeroIfNil(req)
	r, err := s.pc.ValidateProviderConfig(ctx, &tfplugin6.ValidateProviderConfig_Request{Config: dynamicValueTo6(req.Config)})
	if err != nil {
		return nil, rpcError(s.name, "ValidateProviderConfig", err)
	}
	// Protocol 6 has no prepared config.
	return &tfprotov6.ValidateProviderConfigResponse{Diagnostics: diagnosticsFrom6(r.Diagnostics)}, nil
}

func (s *v6) ConfigureProvider(ctx context.Context, req *tfprotov6.ConfigureProviderRequest) (*tfprotov6.ConfigureProviderResponse, error) {
	req = zeroIfNil(req)
	r, err := s.pc.ConfigureProvider(ctx, &tfplugin6.ConfigureProvider_Request{
		TerraformVersion:   req.TerraformVersion,
		Config:             dynamicValueTo6(req.Config),
		ClientCapabilities: clientCapabilitiesTo6(zeroIfNil(req.ClientCapabilities).DeferralAllowed, false),
	})
	if err != nil {
		return nil, rpcError(s.name, "ConfigureProvider", err)
	}
	return &tfprotov6.ConfigureProviderResponse{Diagnostics: diagnosticsFrom6(r.Diagnostics)}, nil
}

func (s *v6) StopProvider(ctx context.Context, _ *tfprotov6.StopProviderRequest) (*tfprotov6.StopProviderResponse, error) {
	r, err := s.pc.StopProvider(ctx, &tfplugin6.StopProvider_Request{})
	if err != nil {
		return nil, rpcError(s.name, "StopProvider", err)
	}
	return &tfprotov6.StopProviderResponse{Error: r.Error}, nil
}

func (s *v6) ValidateResourceConfig(ctx context.Context, req *tfprotov6.ValidateResourceConfigRequest) (*tfprotov6.ValidateResourceConfigResponse, error) {
	req = zeroIfNil(req)
	r, err := s.pc.ValidateResourceConfig(ctx, &tfplugin6.ValidateResourceConfig_Request{
		TypeName:           req.TypeName,
		Config:             dynamicValueTo6(req.Config),
		ClientCapabilities: clientCapabilitiesTo6(false, zeroIfNil(req.ClientCapabilities).WriteOnlyAttributesAllowed),
	})
	if err != nil {
		return nil, rpcError(s.name, "ValidateResourceConfig", err)
	}
	return &tfprotov6.ValidateResourceConfigResponse{Diagnostics: diagnosticsFrom6(r.Diagnostics)}, nil
}

func (s *v6) UpgradeResourceState(ctx context.Context, req *tfprotov6.UpgradeResourceStateRequest) (*tfprotov6.UpgradeResourceStateResponse, error) {
	req = zeroIfNil(req)
	r, err := s.pc.UpgradeResourceState(ctx, &tfplugin6.UpgradeResourceState_Request{
		TypeName: req.TypeName,
		Version:  req.Version,
		RawState: rawStateTo6(req.RawState),
	})
	if err != nil {
		return nil, rpcError(s.name, "UpgradeResourceState", err)
	}
	return &tfprotov6.UpgradeResourceStateResponse{
		UpgradedState: dynamicValueFrom6(r.UpgradedState),
		Diagnostics:   diagnosticsFrom6(r.Diagnostics),
	}, nil
}

func (s *v6) ReadResource(ctx context.Context, req *tfprotov6.ReadResourceRequest) (*tfprotov6.ReadResourceResponse, error) {
	req = zeroIfNil(req)
	r, err := s.pc.ReadResource(ctx, &tfplugin6.ReadResource_Request{
		TypeName:           req.TypeName,
		CurrentState:       dynamicValueTo6(req.CurrentState),
		Private:            req.Private,
		ProviderMeta:       dynamicValueTo6(req.ProviderMeta),
		ClientCapabilities: clientCapabilitiesTo6(zeroIfNil(req.ClientCapabilities).DeferralAllowed, false),
		CurrentIdentity:    resourceIdentityDataTo6(req.CurrentIdentity),
	})
	if err != nil {
		return nil, rpcError(s.name, "ReadResource", err)
	}
	return &tfprotov6.ReadResourceResponse{
		NewState:    dynamicValueFrom6(r.NewState),
		Diagnostics: diagnosticsFrom6(r.Diagnostics),
		Private:     r.Private,
		Deferred:    deferredFrom6(r.Deferred),
		NewIdentity: resourceIdentityDataFrom6(r.NewIdentity),
	}, nil
}

func (s *v6) PlanResourceChange(ctx context.Context, req *tfprotov6.PlanResourceChangeRequest) (*tfprotov6.PlanResourceChangeResponse, error) {
	req = zeroIfNil(req)
	r, err := s.pc.PlanResourceChange(ctx, &tfplugin6.PlanResourceChange_Request{
		TypeName:           req.TypeName,
		PriorState:         dynamicValueTo6(req.PriorState),
		ProposedNewState:   dynamicValueTo6(req.ProposedNewState),
		Config:             dynamicValueTo6(req.Config),
		PriorPrivate:       req.PriorPrivate,
		ProviderMeta:       dynamicValueTo6(req.ProviderMeta),
		ClientCapabilities: clientCapabilitiesTo6(zeroIfNil(req.ClientCapabilities).DeferralAllowed, false),
		PriorIdentity:      resourceIdentityDataTo6(req.PriorIdentity),
	})
	if err != nil {
		return nil, rpcError(s.name, "PlanResourceChange", err)
	}
	return &tfprotov6.PlanResourceChangeResponse{
		PlannedState:    dynamicValueFrom6(r.PlannedState),
		RequiresReplace: attributePathsFrom6(r.RequiresReplace),
		PlannedPrivate:  r.PlannedPrivate,
		Diagnostics:     diagnosticsFrom6(r.Diagnostics),
		//lint:ignore SA1019 Terraform relaxes its checks for legacy-SDK providers; callers must know.
		UnsafeToUseLegacyTypeSystem: r.LegacyTypeSystem,
		Deferred:                    deferredFrom6(r.Deferred),
		PlannedIdentity:             resourceIdentityDataFrom6(r.PlannedIdentity),
	}, nil
}

func (s *v6) ApplyResourceChange(ctx context.Context, req *tfprotov6.ApplyResourceChangeRequest) (*tfprotov6.ApplyResourceChangeResponse, error) {
	req = zeroIfNil(req)
	r, err := s.pc.ApplyResourceChange(ctx, &tfplugin6.ApplyResourceChange_Request{
		TypeName:        req.TypeName,
		PriorState:      dynamicValueTo6(req.PriorState),
		PlannedState:    dynamicValueTo6(req.PlannedState),
		Config:          dynamicValueTo6(req.Config),
		PlannedPrivate:  req.PlannedPrivate,
		ProviderMeta:    dynamicValueTo6(req.ProviderMeta),
		PlannedIdentity: resourceIdentityDataTo6(req.PlannedIdentity),
	})
	if err != nil {
		return nil, rpcError(s.name, "ApplyResourceChange", err)
	}
	return &tfprotov6.ApplyResourceChangeResponse{
		NewState:    dynamicValueFrom6(r.NewState),
		Private:     r.Private,
		Diagnostics: diagnosticsFrom6(r.Diagnostics),
		//lint:ignore SA1019 Terraform relaxes its checks for legacy-SDK providers; callers must know.
		UnsafeToUseLegacyTypeSystem: r.LegacyTypeSystem,
		NewIdentity:                 resourceIdentityDataFrom6(r.NewIdentity),
	}, nil
}

func (s *v6) ImportResourceState(ctx context.Context, req *tfprotov6.ImportResourceStateRequest) (*tfprotov6.ImportResourceStateResponse, error) {
	req = zeroIfNil(req)
	r, err := s.pc.ImportResourceState(ctx, &tfplugin6.ImportResourceState_Request{
		TypeName:           req.TypeName,
		Id:                 req.ID,
		ClientCapabilities: clientCapabilitiesTo6(zeroIfNil(req.ClientCapabilities).DeferralAllowed, false),
		Identity:           resourceIdentityDataTo6(req.Identity),
	})
	if err != nil {
		return nil, rpcError(s.name, "ImportResourceState", err)
	}
	return &tfprotov6.ImportResourceStateResponse{
		ImportedResources: importedResourcesFrom6(r.ImportedResources),
		Diagnostics:       diagnosticsFrom6(r.Diagnostics),
		Deferred:          deferredFrom6(r.Deferred),
	}, nil
}

func (s *v6) ValidateDataResourceConfig(ctx context.Context, req *tfprotov6.ValidateDataResourceConfigRequest) (*tfprotov6.ValidateDataResourceConfigResponse, error) {
	req = zeroIfNil(req)
	r, err := s.pc.ValidateDataResourceConfig(ctx, &tfplugin6.ValidateDataResourceConfig_Request{
		TypeName: req.TypeName,
		Config:   dynamicValueTo6(req.Config),
	})
	if err != nil {
		return nil, rpcError(s.name, "ValidateDataResourceConfig", err)
	}
	return &tfprotov6.ValidateDataResourceConfigResponse{Diagnostics: diagnosticsFrom6(r.Diagnostics)}, nil
}

func (s *v6) ReadDataSource(ctx context.Context, req *tfprotov6.ReadDataSourceRequest) (*tfprotov6.ReadDataSourceResponse, error) {
	req = zeroIfNil(req)
	r, err := s.pc.ReadDataSource(ctx, &tfplugin6.ReadDataSource_Request{
		TypeName:           req.TypeName,
		Config:             dynamicValueTo6(req.Config),
		ProviderMeta:       dynamicValueTo6(req.ProviderMeta),
		ClientCapabilities: clientCapabilitiesTo6(zeroIfNil(req.ClientCapabilities).DeferralAllowed, false),
	})
	if err != nil {
		return nil, rpcError(s.name, "ReadDataSource", err)
	}
	return &tfprotov6.ReadDataSourceResponse{
		State:       dynamicValueFrom6(r.State),
		Diagnostics: diagnosticsFrom6(r.Diagnostics),
		Deferred:    deferredFrom6(r.Deferred),
	}, nil
}

func (s *v6) GetFunctions(ctx context.Context, _ *tfprotov6.GetFunctionsRequest) (*tfprotov6.GetFunctionsResponse, error) {
	r, err := s.pc.GetFunctions(ctx, &tfplugin6.GetFunctions_Request{})
	if err != nil {
		return nil, rpcError(s.name, "GetFunctions", err)
	}
	fs, err := functionsFrom6(r.Functions)
	if err != nil {
		return nil, rpcError(s.name, "GetFunctions", err)
	}
	return &tfprotov6.GetFunctionsResponse{Functions: fs, Diagnostics: diagnosticsFrom6(r.Diagnostics)}, nil
}

func (s *v6) CallFunction(ctx context.Context, req *tfprotov6.CallFunctionRequest) (*tfprotov6.CallFunctionResponse, error) {
	req = zeroIfNil(req)
	r, err := s.pc.CallFunction(ctx, &tfplugin6.CallFunction_Request{Name: req.Name, Arguments: dynamicValuesTo6(req.Arguments)})
	if err != nil {
		return nil, rpcError(s.name, "CallFunction", err)
	}
	return &tfprotov6.CallFunctionResponse{Result: dynamicValueFrom6(r.Result), Error: functionErrorFrom6(r.Error)}, nil
}

// zeroIfNil lets a nil request read as an empty one.
func zeroIfNil[T any](p *T) *T {
	if p == nil {
		return new(T)
	}
	return p
}
