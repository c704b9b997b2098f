package tfwire

import (
	"context"

	"github.com/hashicorp/terraform-plugin-go/tfprotov6"

	"github.com/polyhost/polyhost/host/terraform/internal/tfplugin5"
)

// v6 is a Server over a protocol 5 provider.
type v5 struct {
	name string // the provider, in errors
	pc   tfplugin5.ProviderClient
}

var _ Server = (*v5)(nil)

func (s *v5) GetMetadata(ctx context.Context, _ *tfprotov6.GetMetadataRequest) (*tfprotov6.GetMetadataResponse, error) {
	r, err := s.pc.GetMetadata(ctx, &tfplugin5.GetMetadata_Request{})
	if err != nil {
		return nil, rpcError(s.name, "GetMetadata", err)
	}
	return getMetadataResponseFrom5(r), nil
}

func (s *v5) GetProviderSchema(ctx context.Context, _ *tfprotov6.GetProviderSchemaRequest) (*tfprotov6.GetProviderSchemaResponse, error) {
	r, err := s.pc.GetSchema(ctx, &tfplugin5.GetProviderSchema_Request{})
	if err != nil {
		return nil, rpcError(s.name, "GetSchema", err)
	}
	out, err := getProviderSchemaResponseFrom5(r)
	if err != nil {
		return nil, rpcError(s.name, "GetSchema", err)
	}
	return out, nil
}

func (s *v5) ValidateProviderConfig(ctx context.Context, req *tfprotov6.ValidateProviderConfigRequest) (*tfprotov6.ValidateProviderConfigResponse, error) {
	req = zeroIfNil(req)
	r, err := s.pc.PrepareProviderConfig(ctx, &tfplugin5.PrepareProviderConfig_Request{Config: dynamicValueTo5(req.Config)})
	if err != nil {
		return nil, rpcError(s.name, "PrepareProviderConfig", err)
	}
	return &tfprotov6.ValidateProviderConfigResponse{
		PreparedConfig: dynamicValueFrom5(r.PreparedConfig),
		Diagnostics:    diagnosticsFrom5(r.Diagnostics),
	}, nil
}

func (s *v5) ConfigureProvider(ctx context.Context, req *tfprotov6.ConfigureProviderRequest) (*tfprotov6.ConfigureProviderResponse, error) {
	req = zeroIfNil(req)
	r, err := s.pc.Configure(ctx, &tfplugin5.Configure_Request{
		TerraformVersion:   req.TerraformVersion,
		Config:             dynamicValueTo5(req.Config),
		ClientCapabilities: clientCapabilitiesTo5(zeroIfNil(req.ClientCapabilities).DeferralAllowed, false),
	})
	if err != nil {
		return nil, rpcError(s.name, "Configure", err)
	}
	return &tfprotov6.ConfigureProviderResponse{Diagnostics: diagnosticsFrom5(r.Diagnostics)}, nil
}

func (s *v5) StopProvider(ctx context.Context, _ *tfprotov6.StopProviderRequest) (*tfprotov6.StopProviderResponse, error) {
	r, err := s.pc.Stop(ctx, &tfplugin5.Stop_Request{})
	if err != nil {
		return nil, rpcError(s.name, "Stop", err)
	}
	return &tfprotov6.StopProviderResponse{Error: r.Error}, nil
}

func (s *v5) ValidateResourceConfig(ctx context.Context, req *tfprotov6.ValidateResourceConfigRequest) (*tfprotov6.ValidateResourceConfigResponse, error) {
	req = zeroIfNil(req)
	r, err := s.pc.ValidateResourceTypeConfig(ctx, &tfplugin5.ValidateResourceTypeConfig_Request{
		TypeName:           req.TypeName,
		Config:             dynamicValueTo5(req.Config),
		ClientCapabilities: clientCapabilitiesTo5(false, zeroIfNil(req.ClientCapabilities).WriteOnlyAttributesAllowed),
	})
	if err != nil {
		return nil, rpcError(s.name, "ValidateResourceTypeConfig", err)
	}
	return &tfprotov6.ValidateResourceConfigResponse{Diagnostics: diagnosticsFrom5(r.Diagnostics)}, nil
}

func (s *v5) UpgradeResourceState(ctx context.Context, req *tfprotov6.UpgradeResourceStateRequest) (*tfprotov6.UpgradeResourceStateResponse, error) {
	req = zeroIfNil(req)
	r, err := s.pc.UpgradeResourceState(ctx, &tfplugin5.UpgradeResourceState_Request{
		TypeName: req.TypeName,
		Version:  req.Version,
		RawState: rawStateTo5(req.RawState),
	})
	if err != nil {
		return nil, rpcError(s.name, "UpgradeResourceState", err)
	}
	return &tfprotov6.UpgradeResourceStateResponse{
		UpgradedState: dynamicValueFrom5(r.UpgradedState),
		Diagnostics:   diagnosticsFrom5(r.Diagnostics),
	}, nil
}

func (s *v5) ReadResource(ctx context.Context, req *tfprotov6.ReadResourceRequest) (*tfprotov6.ReadResourceResponse, error) {
	req = zeroIfNil(req)
	r, err := s.pc.ReadResource(ctx, &tfplugin5.ReadResource_Request{
		TypeName:           req.TypeName,
		CurrentState:       dynamicValueTo5(req.CurrentState),
		Private:            req.Private,
		ProviderMeta:       dynamicValueTo5(req.ProviderMeta),
		ClientCapabilities: clientCapabilitiesTo5(zeroIfNil(req.ClientCapabilities).DeferralAllowed, false),
		CurrentIdentity:    resourceIdentityDataTo5(req.CurrentIdentity),
	})
	if err != nil {
		return nil, rpcError(s.name, "ReadResource", err)
	}
	return &tfprotov6.ReadResourceResponse{
		NewState:    dynamicValueFrom5(r.NewState),
		Diagnostics: diagnosticsFrom5(r.Diagnostics),
		Private:     r.Private,
		Deferred:    deferredFrom5(r.Deferred),
		NewIdentity: resourceIdentityDataFrom5(r.NewIdentity),
	}, nil
}

func (s *v5) PlanResourceChange(ctx context.Context, req *tfprotov6.PlanResourceChangeRequest) (*tfprotov6.PlanResourceChangeResponse, error) {
	req = zeroIfNil(req)
	r, err := s.pc.PlanResourceChange(ctx, &tfplugin5.PlanResourceChange_Request{
		TypeName:           req.TypeName,
		PriorState:         dynamicValueTo5(req.PriorState),
		ProposedNewState:   dynamicValueTo5(req.ProposedNewState),
		Config:             dynamicValueTo5(req.Config),
		PriorPrivate:       req.PriorPrivate,
		ProviderMeta:       dynamicValueTo5(req.ProviderMeta),
		ClientCapabilities: clientCapabilitiesTo5(zeroIfNil(req.ClientCapabilities).DeferralAllowed, false),
		PriorIdentity:      resourceIdentityDataTo5(req.PriorIdentity),
	})
	if err != nil {
		return nil, rpcError(s.name, "PlanResourceChange", err)
	}
	return &tfprotov6.PlanResourceChangeResponse{
		PlannedState:    dynamicValueFrom5(r.PlannedState),
		RequiresReplace: attributePathsFrom5(r.RequiresReplace),
		PlannedPrivate:  r.PlannedPrivate,
		Diagnostics:     diagnosticsFrom5(r.Diagnostics),
		//lint:ignore SA1019 Terraform relaxes its checks for legacy-SDK providers; callers must know.
		UnsafeToUseLegacyTypeSystem: r.LegacyTypeSystem,
		Deferred:                    deferredFrom5(r.Deferred),
		PlannedIdentity:             resourceIdentityDataFrom5(r.PlannedIdentity),
	}, nil
}

func (s *v5) ApplyResourceChange(ctx context.Context, req *tfprotov6.ApplyResourceChangeRequest) (*tfprotov6.ApplyResourceChangeResponse, error) {
	req = zeroIfNil(req)
	r, err := s.pc.ApplyResourceChange(ctx, &tfplugin5.ApplyResourceChange_Request{
		TypeName:        req.TypeName,
		PriorState:      dynamicValueTo5(req.PriorState),
		PlannedState:    dynamicValueTo5(req.PlannedState),
		Config:          dynamicValueTo5(req.Config),
		PlannedPrivate:  req.PlannedPrivate,
		ProviderMeta:    dynamicValueTo5(req.ProviderMeta),
		PlannedIdentity: resourceIdentityDataTo5(req.PlannedIdentity),
	})
	if err != nil {
		return nil, rpcError(s.name, "ApplyResourceChange", err)
	}
	return &tfprotov6.ApplyResourceChangeResponse{
		NewState:    dynamicValueFrom5(r.NewState),
		Private:     r.Private,
		Diagnostics: diagnosticsFrom5(r.Diagnostics),
		//lint:ignore SA1019 Terraform relaxes its checks for legacy-SDK providers; callers must know.
		UnsafeToUseLegacyTypeSystem: r.LegacyTypeSystem,
		NewIdentity:                 resourceIdentityDataFrom5(r.NewIdentity),
	}, nil
}

func (s *v5) ImportResourceState(ctx context.Context, req *tfprotov6.ImportResourceStateRequest) (*tfprotov6.ImportResourceStateResponse, error) {
	req = zeroIfNil(req)
	r, err := s.pc.ImportResourceState(ctx, &tfplugin5.ImportResourceState_Request{
		TypeName:           req.TypeName,
		Id:                 req.ID,
		ClientCapabilities: clientCapabilitiesTo5(zeroIfNil(req.ClientCapabilities).DeferralAllowed, false),
		Identity:           resourceIdentityDataTo5(req.Identity),
	})
	if err != nil {
		return nil, rpcError(s.name, "ImportResourceState", err)
	}
	return &tfprotov6.ImportResourceStateResponse{
		ImportedResources: importedResourcesFrom5(r.ImportedResources),
		Diagnostics:       diagnosticsFrom5(r.Diagnostics),
		Deferred:          deferredFrom5(r.Deferred),
	}, nil
}

func (s *v5) ValidateDataResourceConfig(ctx context.Context, req *tfprotov6.ValidateDataResourceConfigRequest) (*tfprotov6.ValidateDataResourceConfigResponse, error) {
	req = zeroIfNil(req)
	r, err := s.pc.ValidateDataSourceConfig(ctx, &tfplugin5.ValidateDataSourceConfig_Request{
		TypeName: req.TypeName,
		Config:   dynamicValueTo5(req.Config),
	})
	if err != nil {
		return nil, rpcError(s.name, "ValidateDataSourceConfig", err)
	}
	return &tfprotov6.ValidateDataResourceConfigResponse{Diagnostics: diagnosticsFrom5(r.Diagnostics)}, nil
}

func (s *v5) ReadDataSource(ctx context.Context, req *tfprotov6.ReadDataSourceRequest) (*tfprotov6.ReadDataSourceResponse, error) {
	req = zeroIfNil(req)
	r, err := s.pc.ReadDataSource(ctx, &tfplugin5.ReadDataSource_Request{
		TypeName:           req.TypeName,
		Config:             dynamicValueTo5(req.Config),
		ProviderMeta:       dynamicValueTo5(req.ProviderMeta),
		ClientCapabilities: clientCapabilitiesTo5(zeroIfNil(req.ClientCapabilities).DeferralAllowed, false),
	})
	if err != nil {
		return nil, rpcError(s.name, "ReadDataSource", err)
	}
	return &tfprotov6.ReadDataSourceResponse{
		State:       dynamicValueFrom5(r.State),
		Diagnostics: diagnosticsFrom5(r.Diagnostics),
		Deferred:    deferredFrom5(r.Deferred),
	}, nil
}

func (s *v5) GetFunctions(ctx context.Context, _ *tfprotov6.GetFunctionsRequest) (*tfprotov6.GetFunctionsResponse, error) {
	r, err := s.pc.GetFunctions(ctx, &tfplugin5.GetFunctions_Request{})
	if err != nil {
		return nil, rpcError(s.name, "GetFunctions", err)
	}
	fs, err := functionsFrom5(r.Functions)
	if err != nil {
		return nil, rpcError(s.name, "GetFunctions", err)
	}
	return &tfprotov6.GetFunctionsResponse{Functions: fs, Diagnostics: diagnosticsFrom5(r.Diagnostics)}, nil
}

func (s *v5) CallFunction(ctx context.Context, req *tfprotov6.CallFunctionRequest) (*tfprotov6.CallFunctionResponse, error) {
	req = zeroIfNil(req)
	r, err := s.pc.CallFunction(ctx, &tfplugin5.CallFunction_Request{Name: req.Name, Arguments: dynamicValuesTo5(req.Arguments)})
	if err != nil {
		return nil, rpcError(s.name, "CallFunction", err)
	}
	return &tfprotov6.CallFunctionResponse{Result: dynamicValueFrom5(r.Result), Error: functionErrorFrom5(r.Error)}, nil
}
