// Package tfwire speaks the Terraform plugin protocol to a provider: it
// starts a provider binary ([Start]) or attaches to one running in debug
// mode ([Attach]) with go-plugin's handshake, and serves both protocol 5
// and protocol 6 providers as one [Server], in terraform-plugin-go's
// protocol 6 types: a [Client].
package tfwire

import (
	"context"

	"github.com/hashicorp/terraform-plugin-go/tfprotov6"
)

// Server is the part of a Terraform provider the backend calls. Its methods
// are those of terraform-plugin-go's tfprotov6.ProviderServer, so a
// provider served in-process (terraform-plugin-framework's
// providerserver.NewProtocol6) is a Server as well as a provider process
// reached over gRPC is.
type Server interface {
	GetMetadata(context.Context, *tfprotov6.GetMetadataRequest) (*tfprotov6.GetMetadataResponse, error)
	GetProviderSchema(context.Context, *tfprotov6.GetProviderSchemaRequest) (*tfprotov6.GetProviderSchemaResponse, error)
	ValidateProviderConfig(context.Context, *tfprotov6.ValidateProviderConfigRequest) (*tfprotov6.ValidateProviderConfigResponse, error)
	ConfigureProvider(context.Context, *tfprotov6.ConfigureProviderRequest) (*tfprotov6.ConfigureProviderResponse, error)
	StopProvider(context.Context, *tfprotov6.StopProviderRequest) (*tfprotov6.StopProviderResponse, error)

	ValidateResourceConfig(context.Context, *tfprotov6.ValidateResourceConfigRequest) (*tfprotov6.ValidateResourceConfigResponse, error)
	UpgradeResourceState(context.Context, *tfprotov6.UpgradeResourceStateRequest) (*tfprotov6.UpgradeResourceStateResponse, error)
	ReadResource(context.Context, *tfprotov6.ReadResourceRequest) (*tfprotov6.ReadResourceResponse, error)
	PlanResourceChange(context.Context, *tfprotov6.PlanResourceChangeRequest) (*tfprotov6.PlanResourceChangeResponse, error)
	ApplyResourceChange(context.Context, *tfprotov6.ApplyResourceChangeRequest) (*tfprotov6.ApplyResourceChangeResponse, error)
	ImportResourceState(context.Context, *tfprotov6.ImportResourceStateRequest) (*tfprotov6.ImportResourceStateResponse, error)

	ValidateDataResourceConfig(context.Context, *tfprotov6.ValidateDataResourceConfigRequest) (*tfprotov6.ValidateDataResourceConfigResponse, error)
	ReadDataSource(context.Context, *tfprotov6.ReadDataSourceRequest) (*tfprotov6.ReadDataSourceResponse, error)

	GetFunctions(context.Context, *tfprotov6.GetFunctionsRequest) (*tfprotov6.GetFunctionsResponse, error)
	CallFunction(context.Context, *tfprotov6.CallFunctionRequest) (*tfprotov6.CallFunctionResponse, error)
}

// Static check: every tfprotov6.ProviderServer is a Server.
var _ Server = tfprotov6.ProviderServer(nil)
