//lint:file-ignore SA1019 the round trip covers UnsafeToUseLegacyTypeSystem too.

package tfwire

import (
	"context"
	"encoding/json"
	"os"
	"reflect"
	"testing"

	plugin "github.com/hashicorp/go-plugin"
	"github.com/hashicorp/terraform-plugin-go/tfprotov5"
	"github.com/hashicorp/terraform-plugin-go/tfprotov5/tf5server"
	"github.com/hashicorp/terraform-plugin-go/tfprotov6"
	"github.com/hashicorp/terraform-plugin-go/tftypes"
)

// fake5 is fake6 for protocol 5, served by tf5server: its requests arrive
// as tfprotov5 values, its responses reach the caller as tfprotov6 ones.
type fake5 struct {
	tfprotov5.ProviderServer // nil: methods of no test
	got                      any
}

func attach5(t *testing.T, f *fake5) *Client {
	t.Helper()
	t.Setenv("TF_LOG_SDK_PROTO", "off")
	ctx, cancel := context.WithCancel(context.Background())
	rcCh := make(chan *plugin.ReattachConfig, 1)
	closeCh := make(chan struct{})
	go func() {
		if err := tf5server.Serve("registry.terraform.io/polyhost/fake", func() tfprotov5.ProviderServer { return f },
			tf5server.WithDebug(ctx, rcCh, closeCh)); err != nil {
			t.Errorf("tf5server.Serve: %v", err)
		}
	}()
	t.Cleanup(func() {
		cancel()
		<-closeCh
	})
	rc := <-rcCh
	b, err := json.Marshal(map[string]any{
		"Protocol": "grpc", "ProtocolVersion": 5, "Pid": os.Getpid(), "Test": true,
		"Addr": map[string]string{"Network": rc.Addr.Network(), "String": rc.Addr.String()},
	})
	if err != nil {
		t.Fatal(err)
	}
	c, err := Attach(ctx, "fake", string(b), nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { c.Close() })
	if v := c.ProtocolVersion(); v != 5 {
		t.Fatalf("ProtocolVersion() = %d, want 5", v)
	}
	return c
}

var (
	dv5    = &tfprotov5.DynamicValue{MsgPack: dv6.MsgPack}
	dv5J   = &tfprotov5.DynamicValue{JSON: dvJSON.JSON}
	id5    = &tfprotov5.ResourceIdentityData{IdentityData: &tfprotov5.DynamicValue{MsgPack: id6.IdentityData.MsgPack}}
	diags5 = []*tfprotov5.Diagnostic{
		{Severity: tfprotov5.DiagnosticSeverityError, Summary: "bad", Detail: "very bad", Attribute: diags6[0].Attribute},
		{Severity: tfprotov5.DiagnosticSeverityWarning, Summary: "meh"},
	}
	replace = []*tftypes.AttributePath{tftypes.NewAttributePath().WithAttributeName("id"), diags6[0].Attribute}
)

var thing5 = &tfprotov5.Schema{Version: 3, Block: &tfprotov5.SchemaBlock{
	Description: "a thing", DescriptionKind: tfprotov5.StringKindMarkdown, Deprecated: true, DeprecationMessage: "old",
	Attributes: []*tfprotov5.SchemaAttribute{
		{Name: "id", Type: tftypes.String, Computed: true},
		{Name: "tags", Type: tftypes.Set{ElementType: tftypes.String}, Optional: true, Sensitive: true, WriteOnly: true},
	},
	BlockTypes: []*tfprotov5.SchemaNestedBlock{
		{TypeName: "rule", Nesting: tfprotov5.SchemaNestedBlockNestingModeSet, MinItems: 1, MaxItems: 5,
			Block: &tfprotov5.SchemaBlock{Attributes: []*tfprotov5.SchemaAttribute{{Name: "port", Type: tftypes.Number, Required: true}}}},
		{TypeName: "timeouts", Nesting: tfprotov5.SchemaNestedBlockNestingModeSingle, Block: &tfprotov5.SchemaBlock{}},
		{TypeName: "by_name", Nesting: tfprotov5.SchemaNestedBlockNestingModeMap, Block: &tfprotov5.SchemaBlock{}},
		{TypeName: "group", Nesting: tfprotov5.SchemaNestedBlockNestingModeGroup, Block: &tfprotov5.SchemaBlock{}},
	},
}}

var thing5as6 = &tfprotov6.Schema{Version: 3, Block: &tfprotov6.SchemaBlock{
	Description: "a thing", DescriptionKind: tfprotov6.StringKindMarkdown, Deprecated: true, DeprecationMessage: "old",
	Attributes: []*tfprotov6.SchemaAttribute{
		{Name: "id", Type: tftypes.String, Computed: true},
		{Name: "tags", Type: tftypes.Set{ElementType: tftypes.String}, Optional: true, Sensitive: true, WriteOnly: true},
	},
	BlockTypes: []*tfprotov6.SchemaNestedBlock{
		{TypeName: "rule", Nesting: tfprotov6.SchemaNestedBlockNestingModeSet, MinItems: 1, MaxItems: 5,
			Block: &tfprotov6.SchemaBlock{Attributes: []*tfprotov6.SchemaAttribute{{Name: "port", Type: tftypes.Number, Required: true}}}},
		{TypeName: "timeouts", Nesting: tfprotov6.SchemaNestedBlockNestingModeSingle, Block: &tfprotov6.SchemaBlock{}},
		{TypeName: "by_name", Nesting: tfprotov6.SchemaNestedBlockNestingModeMap, Block: &tfprotov6.SchemaBlock{}},
		{TypeName: "group", Nesting: tfprotov6.SchemaNestedBlockNestingModeGroup, Block: &tfprotov6.SchemaBlock{}},
	},
}}

var function5 = &tfprotov5.Function{
	Summary: "sum", Description: "adds", DescriptionKind: tfprotov5.StringKindPlain, DeprecationMessage: "no",
	Parameters:        []*tfprotov5.FunctionParameter{{Name: "a", Type: tftypes.Number, AllowNullValue: true, AllowUnknownValues: true}},
	VariadicParameter: &tfprotov5.FunctionParameter{Name: "rest", Type: tftypes.Number},
	Return:            &tfprotov5.FunctionReturn{Type: tftypes.Number},
}

func (f *fake5) GetMetadata(_ context.Context, r *tfprotov5.GetMetadataRequest) (*tfprotov5.GetMetadataResponse, error) {
	f.got = r
	return &tfprotov5.GetMetadataResponse{
		ServerCapabilities: &tfprotov5.ServerCapabilities{GetProviderSchemaOptional: true, PlanDestroy: true},
		Diagnostics:        diags5[1:],
		DataSources:        []tfprotov5.DataSourceMetadata{{TypeName: "fake_data"}},
		Resources:          []tfprotov5.ResourceMetadata{{TypeName: "fake_thing"}},
		Functions:          []tfprotov5.FunctionMetadata{{Name: "sum"}},
		EphemeralResources: []tfprotov5.EphemeralResourceMetadata{{TypeName: "fake_eph"}},
	}, nil
}

func (f *fake5) GetProviderSchema(_ context.Context, r *tfprotov5.GetProviderSchemaRequest) (*tfprotov5.GetProviderSchemaResponse, error) {
	f.got = r
	return &tfprotov5.GetProviderSchemaResponse{
		ServerCapabilities: &tfprotov5.ServerCapabilities{MoveResourceState: true},
		Provider:           &tfprotov5.Schema{Block: &tfprotov5.SchemaBlock{}},
		ResourceSchemas:    map[string]*tfprotov5.Schema{"fake_thing": thing5},
		DataSourceSchemas:  map[string]*tfprotov5.Schema{"fake_data": thing5},
		Functions:          map[string]*tfprotov5.Function{"sum": function5},
		Diagnostics:        diags5[1:],
	}, nil
}

func (f *fake5) PrepareProviderConfig(_ context.Context, r *tfprotov5.PrepareProviderConfigRequest) (*tfprotov5.PrepareProviderConfigResponse, error) {
	f.got = r
	return &tfprotov5.PrepareProviderConfigResponse{PreparedConfig: dv5J, Diagnostics: diags5}, nil
}

func (f *fake5) ConfigureProvider(_ context.Context, r *tfprotov5.ConfigureProviderRequest) (*tfprotov5.ConfigureProviderResponse, error) {
	f.got = r
	return &tfprotov5.ConfigureProviderResponse{Diagnostics: diags5}, nil
}

func (f *fake5) StopProvider(_ context.Context, r *tfprotov5.StopProviderRequest) (*tfprotov5.StopProviderResponse, error) {
	f.got = r
	return &tfprotov5.StopProviderResponse{Error: "cannot stop"}, nil
}

func (f *fake5) ValidateResourceTypeConfig(_ context.Context, r *tfprotov5.ValidateResourceTypeConfigRequest) (*tfprotov5.ValidateResourceTypeConfigResponse, error) {
	f.got = r
	return &tfprotov5.ValidateResourceTypeConfigResponse{Diagnostics: diags5}, nil
}

func (f *fake5) UpgradeResourceState(_ context.Context, r *tfprotov5.UpgradeResourceStateRequest) (*tfprotov5.UpgradeResourceStateResponse, error) {
	f.got = r
	return &tfprotov5.UpgradeResourceStateResponse{UpgradedState: dv5, Diagnostics: diags5}, nil
}

func (f *fake5) ReadResource(_ context.Context, r *tfprotov5.ReadResourceRequest) (*tfprotov5.ReadResourceResponse, error) {
	f.got = r
	return &tfprotov5.ReadResourceResponse{NewState: dv5, Diagnostics: diags5, Private: []byte("p"),
		Deferred: &tfprotov5.Deferred{Reason: tfprotov5.DeferredReasonAbsentPrereq}, NewIdentity: id5}, nil
}

func (f *fake5) PlanResourceChange(_ context.Context, r *tfprotov5.PlanResourceChangeRequest) (*tfprotov5.PlanResourceChangeResponse, error) {
	f.got = r
	return &tfprotov5.PlanResourceChangeResponse{PlannedState: dv5, RequiresReplace: replace, PlannedPrivate: []byte("pp"),
		Diagnostics: diags5, UnsafeToUseLegacyTypeSystem: true,
		Deferred: &tfprotov5.Deferred{Reason: tfprotov5.DeferredReasonResourceConfigUnknown}, PlannedIdentity: id5}, nil
}

func (f *fake5) ApplyResourceChange(_ context.Context, r *tfprotov5.ApplyResourceChangeRequest) (*tfprotov5.ApplyResourceChangeResponse, error) {
	f.got = r
	return &tfprotov5.ApplyResourceChangeResponse{NewState: dv5, Private: []byte("ap"), Diagnostics: diags5,
		UnsafeToUseLegacyTypeSystem: true, NewIdentity: id5}, nil
}

func (f *fake5) ImportResourceState(_ context.Context, r *tfprotov5.ImportResourceStateRequest) (*tfprotov5.ImportResourceStateResponse, error) {
	f.got = r
	return &tfprotov5.ImportResourceStateResponse{
		ImportedResources: []*tfprotov5.ImportedResource{{TypeName: "fake_thing", State: dv5, Private: []byte("ip"), Identity: id5}},
		Diagnostics:       diags5,
		Deferred:          &tfprotov5.Deferred{Reason: tfprotov5.DeferredReasonProviderConfigUnknown},
	}, nil
}

func (f *fake5) ValidateDataSourceConfig(_ context.Context, r *tfprotov5.ValidateDataSourceConfigRequest) (*tfprotov5.ValidateDataSourceConfigResponse, error) {
	f.got = r
	return &tfprotov5.ValidateDataSourceConfigResponse{Diagnostics: diags5}, nil
}

func (f *fake5) ReadDataSource(_ context.Context, r *tfprotov5.ReadDataSourceRequest) (*tfprotov5.ReadDataSourceResponse, error) {
	f.got = r
	return &tfprotov5.ReadDataSourceResponse{State: dv5, Diagnostics: diags5,
		Deferred: &tfprotov5.Deferred{Reason: tfprotov5.DeferredReasonAbsentPrereq}}, nil
}

func (f *fake5) GetFunctions(_ context.Context, r *tfprotov5.GetFunctionsRequest) (*tfprotov5.GetFunctionsResponse, error) {
	f.got = r
	return &tfprotov5.GetFunctionsResponse{Functions: map[string]*tfprotov5.Function{"sum": function5}, Diagnostics: diags5}, nil
}

func (f *fake5) CallFunction(_ context.Context, r *tfprotov5.CallFunctionRequest) (*tfprotov5.CallFunctionResponse, error) {
	f.got = r
	arg := int64(1)
	return &tfprotov5.CallFunctionResponse{Result: dv5, Error: &tfprotov5.FunctionError{Text: "no", FunctionArgument: &arg}}, nil
}

// TestProtocol5RoundTrip calls each Server method of a protocol 5 Client
// and wants the fake to get the request sent (in protocol 5 types), and
// the caller the response the fake made (in protocol 6 types).
func TestProtocol5RoundTrip(t *testing.T) {
	f := &fake5{}
	c := attach5(t, f)
	ctx := context.Background()
	arg := int64(1)
	raw := &tfprotov6.RawState{JSON: []byte(`{"id":"x"}`), Flatmap: map[string]string{"id": "x"}}
	for _, tc := range []struct {
		name            string
		wantReq, wantRe any
		call            func() (any, error)
	}{
		{"GetMetadata", &tfprotov5.GetMetadataRequest{}, &tfprotov6.GetMetadataResponse{
			ServerCapabilities: &tfprotov6.ServerCapabilities{GetProviderSchemaOptional: true, PlanDestroy: true},
			Diagnostics:        diags6[1:],
			DataSources:        []tfprotov6.DataSourceMetadata{{TypeName: "fake_data"}},
			Resources:          []tfprotov6.ResourceMetadata{{TypeName: "fake_thing"}},
			Functions:          []tfprotov6.FunctionMetadata{{Name: "sum"}},
			EphemeralResources: []tfprotov6.EphemeralResourceMetadata{{TypeName: "fake_eph"}},
		}, func() (any, error) { return c.GetMetadata(ctx, nil) }},
		{"GetProviderSchema", &tfprotov5.GetProviderSchemaRequest{}, &tfprotov6.GetProviderSchemaResponse{
			ServerCapabilities:       &tfprotov6.ServerCapabilities{MoveResourceState: true},
			Provider:                 &tfprotov6.Schema{Block: &tfprotov6.SchemaBlock{}},
			ResourceSchemas:          map[string]*tfprotov6.Schema{"fake_thing": thing5as6},
			DataSourceSchemas:        map[string]*tfprotov6.Schema{"fake_data": thing5as6},
			EphemeralResourceSchemas: map[string]*tfprotov6.Schema{},
			ListResourceSchemas:      map[string]*tfprotov6.Schema{},
			Functions:                map[string]*tfprotov6.Function{"sum": function6},
			Diagnostics:              diags6[1:],
		}, func() (any, error) { return c.GetProviderSchema(ctx, nil) }},
		{"ValidateProviderConfig", &tfprotov5.PrepareProviderConfigRequest{Config: dv5},
			&tfprotov6.ValidateProviderConfigResponse{PreparedConfig: dvJSON, Diagnostics: diags6},
			func() (any, error) {
				return c.ValidateProviderConfig(ctx, &tfprotov6.ValidateProviderConfigRequest{Config: dv6})
			}},
		{"ConfigureProvider", &tfprotov5.ConfigureProviderRequest{TerraformVersion: "1.9.0", Config: dv5J,
			ClientCapabilities: &tfprotov5.ConfigureProviderClientCapabilities{DeferralAllowed: true}},
			&tfprotov6.ConfigureProviderResponse{Diagnostics: diags6},
			func() (any, error) {
				return c.ConfigureProvider(ctx, &tfprotov6.ConfigureProviderRequest{TerraformVersion: "1.9.0", Config: dvJSON,
					ClientCapabilities: &tfprotov6.ConfigureProviderClientCapabilities{DeferralAllowed: true}})
			}},
		{"StopProvider", &tfprotov5.StopProviderRequest{}, &tfprotov6.StopProviderResponse{Error: "cannot stop"},
			func() (any, error) { return c.StopProvider(ctx, nil) }},
		{"ValidateResourceConfig", &tfprotov5.ValidateResourceTypeConfigRequest{TypeName: "fake_thing", Config: dv5,
			ClientCapabilities: &tfprotov5.ValidateResourceTypeConfigClientCapabilities{WriteOnlyAttributesAllowed: true}},
			&tfprotov6.ValidateResourceConfigResponse{Diagnostics: diags6},
			func() (any, error) {
				return c.ValidateResourceConfig(ctx, &tfprotov6.ValidateResourceConfigRequest{TypeName: "fake_thing", Config: dv6,
					ClientCapabilities: &tfprotov6.ValidateResourceConfigClientCapabilities{WriteOnlyAttributesAllowed: true}})
			}},
		{"UpgradeResourceState", &tfprotov5.UpgradeResourceStateRequest{TypeName: "fake_thing", Version: 2,
			RawState: &tfprotov5.RawState{JSON: raw.JSON, Flatmap: raw.Flatmap}},
			&tfprotov6.UpgradeResourceStateResponse{UpgradedState: dv6, Diagnostics: diags6},
			func() (any, error) {
				return c.UpgradeResourceState(ctx, &tfprotov6.UpgradeResourceStateRequest{TypeName: "fake_thing", Version: 2, RawState: raw})
			}},
		{"ReadResource", &tfprotov5.ReadResourceRequest{TypeName: "fake_thing", CurrentState: dv5, Private: []byte("p0"),
			ProviderMeta: dv5J, ClientCapabilities: &tfprotov5.ReadResourceClientCapabilities{DeferralAllowed: true}, CurrentIdentity: id5},
			&tfprotov6.ReadResourceResponse{NewState: dv6, Diagnostics: diags6, Private: []byte("p"),
				Deferred: &tfprotov6.Deferred{Reason: tfprotov6.DeferredReasonAbsentPrereq}, NewIdentity: id6},
			func() (any, error) {
				return c.ReadResource(ctx, &tfprotov6.ReadResourceRequest{TypeName: "fake_thing", CurrentState: dv6, Private: []byte("p0"),
					ProviderMeta: dvJSON, ClientCapabilities: &tfprotov6.ReadResourceClientCapabilities{DeferralAllowed: true}, CurrentIdentity: id6})
			}},
		{"PlanResourceChange", &tfprotov5.PlanResourceChangeRequest{TypeName: "fake_thing", PriorState: dv5, ProposedNewState: dv5J,
			Config: dv5, PriorPrivate: []byte("pp0"), ProviderMeta: dv5,
			ClientCapabilities: &tfprotov5.PlanResourceChangeClientCapabilities{DeferralAllowed: true}, PriorIdentity: id5},
			&tfprotov6.PlanResourceChangeResponse{PlannedState: dv6, RequiresReplace: replace, PlannedPrivate: []byte("pp"),
				Diagnostics: diags6, UnsafeToUseLegacyTypeSystem: true,
				Deferred: &tfprotov6.Deferred{Reason: tfprotov6.DeferredReasonResourceConfigUnknown}, PlannedIdentity: id6},
			func() (any, error) {
				return c.PlanResourceChange(ctx, &tfprotov6.PlanResourceChangeRequest{TypeName: "fake_thing", PriorState: dv6, ProposedNewState: dvJSON,
					Config: dv6, PriorPrivate: []byte("pp0"), ProviderMeta: dv6,
					ClientCapabilities: &tfprotov6.PlanResourceChangeClientCapabilities{DeferralAllowed: true}, PriorIdentity: id6})
			}},
		{"ApplyResourceChange", &tfprotov5.ApplyResourceChangeRequest{TypeName: "fake_thing", PriorState: dv5, PlannedState: dv5J,
			Config: dv5, PlannedPrivate: []byte("pp"), ProviderMeta: dv5, PlannedIdentity: id5},
			&tfprotov6.ApplyResourceChangeResponse{NewState: dv6, Private: []byte("ap"), Diagnostics: diags6,
				UnsafeToUseLegacyTypeSystem: true, NewIdentity: id6},
			func() (any, error) {
				return c.ApplyResourceChange(ctx, &tfprotov6.ApplyResourceChangeRequest{TypeName: "fake_thing", PriorState: dv6, PlannedState: dvJSON,
					Config: dv6, PlannedPrivate: []byte("pp"), ProviderMeta: dv6, PlannedIdentity: id6})
			}},
		{"ImportResourceState", &tfprotov5.ImportResourceStateRequest{TypeName: "fake_thing", ID: "i-1",
			ClientCapabilities: &tfprotov5.ImportResourceStateClientCapabilities{DeferralAllowed: true}, Identity: id5},
			&tfprotov6.ImportResourceStateResponse{
				ImportedResources: []*tfprotov6.ImportedResource{{TypeName: "fake_thing", State: dv6, Private: []byte("ip"), Identity: id6}},
				Diagnostics:       diags6,
				Deferred:          &tfprotov6.Deferred{Reason: tfprotov6.DeferredReasonProviderConfigUnknown},
			},
			func() (any, error) {
				return c.ImportResourceState(ctx, &tfprotov6.ImportResourceStateRequest{TypeName: "fake_thing", ID: "i-1",
					ClientCapabilities: &tfprotov6.ImportResourceStateClientCapabilities{DeferralAllowed: true}, Identity: id6})
			}},
		{"ValidateDataResourceConfig", &tfprotov5.ValidateDataSourceConfigRequest{TypeName: "fake_data", Config: dv5},
			&tfprotov6.ValidateDataResourceConfigResponse{Diagnostics: diags6},
			func() (any, error) {
				return c.ValidateDataResourceConfig(ctx, &tfprotov6.ValidateDataResourceConfigRequest{TypeName: "fake_data", Config: dv6})
			}},
		{"ReadDataSource", &tfprotov5.ReadDataSourceRequest{TypeName: "fake_data", Config: dv5, ProviderMeta: dv5J,
			ClientCapabilities: &tfprotov5.ReadDataSourceClientCapabilities{DeferralAllowed: true}},
			&tfprotov6.ReadDataSourceResponse{State: dv6, Diagnostics: diags6,
				Deferred: &tfprotov6.Deferred{Reason: tfprotov6.DeferredReasonAbsentPrereq}},
			func() (any, error) {
				return c.ReadDataSource(ctx, &tfprotov6.ReadDataSourceRequest{TypeName: "fake_data", Config: dv6, ProviderMeta: dvJSON,
					ClientCapabilities: &tfprotov6.ReadDataSourceClientCapabilities{DeferralAllowed: true}})
			}},
		{"GetFunctions", &tfprotov5.GetFunctionsRequest{},
			&tfprotov6.GetFunctionsResponse{Functions: map[string]*tfprotov6.Function{"sum": function6}, Diagnostics: diags6},
			func() (any, error) { return c.GetFunctions(ctx, nil) }},
		{"CallFunction", &tfprotov5.CallFunctionRequest{Name: "sum", Arguments: []*tfprotov5.DynamicValue{dv5, dv5J}},
			&tfprotov6.CallFunctionResponse{Result: dv6, Error: &tfprotov6.FunctionError{Text: "no", FunctionArgument: &arg}},
			func() (any, error) {
				return c.CallFunction(ctx, &tfprotov6.CallFunctionRequest{Name: "sum", Arguments: []*tfprotov6.DynamicValue{dv6, dvJSON}})
			}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			f.got = nil
			resp, err := tc.call()
			if err != nil {
				t.Fatal(err)
			}
			if !reflect.DeepEqual(f.got, tc.wantReq) {
				t.Errorf("the provider got\n%#v\nwant\n%#v", f.got, tc.wantReq)
			}
			if !reflect.DeepEqual(resp, tc.wantRe) {
				t.Errorf("the caller got\n%#v\nwant\n%#v", resp, tc.wantRe)
			}
		})
	}
}
