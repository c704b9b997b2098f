//lint:file-ignore SA1019 the round trip covers UnsafeToUseLegacyTypeSystem too.

package tfwire

import (
	"context"
	"encoding/json"
	"os"
	"reflect"
	"testing"

	plugin "github.com/hashicorp/go-plugin"
	"github.com/hashicorp/terraform-plugin-go/tfprotov6"
	"github.com/hashicorp/terraform-plugin-go/tfprotov6/tf6server"
	"github.com/hashicorp/terraform-plugin-go/tftypes"
)

// fake6 is a protocol 6 provider, served in this process by
// terraform-plugin-go's tf6server: each method records its request and
// returns a canned response, so a call through a Client checks both
// directions of our protocol 6 conversion against terraform-plugin-go's.
type fake6 struct {
	tfprotov6.ProviderServer // nil: methods of no test
	got                      any
}

func attach6(t *testing.T, f *fake6) *Client {
	t.Helper()
	t.Setenv("TF_LOG_SDK_PROTO", "off") // tf6server's trace lines, to this process's stderr
	ctx, cancel := context.WithCancel(context.Background())
	rcCh := make(chan *plugin.ReattachConfig, 1)
	closeCh := make(chan struct{})
	go func() {
		if err := tf6server.Serve("registry.terraform.io/polyhost/fake", func() tfprotov6.ProviderServer { return f },
			tf6server.WithDebug(ctx, rcCh, closeCh), tf6server.WithoutLogStderrOverride()); err != nil {
			t.Errorf("tf6server.Serve: %v", err)
		}
	}()
	t.Cleanup(func() {
		cancel()
		<-closeCh
	})
	rc := <-rcCh
	// Test mode: Close leaves this process alone.
	b, err := json.Marshal(map[string]any{
		"Protocol": "grpc", "ProtocolVersion": 6, "Pid": os.Getpid(), "Test": true,
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
	if v := c.ProtocolVersion(); v != 6 {
		t.Fatalf("ProtocolVersion() = %d, want 6", v)
	}
	return c
}

var (
	dv6    = &tfprotov6.DynamicValue{MsgPack: []byte{0x81, 0xa1, 'a', 0x01}}
	dvJSON = &tfprotov6.DynamicValue{JSON: []byte(`{"a":1}`)}
	id6    = &tfprotov6.ResourceIdentityData{IdentityData: &tfprotov6.DynamicValue{MsgPack: []byte{0xc0}}}
	diags6 = []*tfprotov6.Diagnostic{
		{Severity: tfprotov6.DiagnosticSeverityError, Summary: "bad", Detail: "very bad",
			Attribute: tftypes.NewAttributePathWithSteps([]tftypes.AttributePathStep{
				tftypes.AttributeName("list"), tftypes.ElementKeyInt(2), tftypes.AttributeName("map"), tftypes.ElementKeyString("k"),
			})},
		{Severity: tfprotov6.DiagnosticSeverityWarning, Summary: "meh"},
	}
)

func (f *fake6) GetMetadata(_ context.Context, r *tfprotov6.GetMetadataRequest) (*tfprotov6.GetMetadataResponse, error) {
	f.got = r
	return metadata6, nil
}

var metadata6 = &tfprotov6.GetMetadataResponse{
	ServerCapabilities: &tfprotov6.ServerCapabilities{GetProviderSchemaOptional: true, PlanDestroy: true, MoveResourceState: true},
	Diagnostics:        diags6[1:],
	DataSources:        []tfprotov6.DataSourceMetadata{{TypeName: "fake_data"}},
	Resources:          []tfprotov6.ResourceMetadata{{TypeName: "fake_thing"}},
	Functions:          []tfprotov6.FunctionMetadata{{Name: "f"}},
}

func (f *fake6) GetProviderSchema(_ context.Context, r *tfprotov6.GetProviderSchemaRequest) (*tfprotov6.GetProviderSchemaResponse, error) {
	f.got = r
	return schema6, nil
}

var thing6 = &tfprotov6.Schema{Version: 3, Block: &tfprotov6.SchemaBlock{
	Description: "a thing", DescriptionKind: tfprotov6.StringKindMarkdown, Deprecated: true, DeprecationMessage: "old",
	Attributes: []*tfprotov6.SchemaAttribute{
		{Name: "id", Type: tftypes.String, Computed: true},
		{Name: "tags", Type: tftypes.Map{ElementType: tftypes.String}, Optional: true, Sensitive: true, WriteOnly: true},
		{Name: "obj", Required: true, Type: tftypes.Object{
			AttributeTypes: map[string]tftypes.Type{"n": tftypes.Number, "b": tftypes.Bool},
			// Empty as parsed (nil reads the same to tftypes).
			OptionalAttributes: map[string]struct{}{},
		}},
		{Name: "nested", Optional: true, NestedType: &tfprotov6.SchemaObject{
			Nesting:    tfprotov6.SchemaObjectNestingModeSet,
			Attributes: []*tfprotov6.SchemaAttribute{{Name: "x", Type: tftypes.List{ElementType: tftypes.DynamicPseudoType}, Required: true}},
		}},
	},
	BlockTypes: []*tfprotov6.SchemaNestedBlock{{
		TypeName: "rule", Nesting: tfprotov6.SchemaNestedBlockNestingModeList, MinItems: 1, MaxItems: 5,
		Block: &tfprotov6.SchemaBlock{Attributes: []*tfprotov6.SchemaAttribute{{Name: "port", Type: tftypes.Number, Required: true}}},
	}},
}}

var function6 = &tfprotov6.Function{
	Summary: "sum", Description: "adds", DescriptionKind: tfprotov6.StringKindPlain, DeprecationMessage: "no",
	Parameters:        []*tfprotov6.FunctionParameter{{Name: "a", Type: tftypes.Number, AllowNullValue: true, AllowUnknownValues: true}},
	VariadicParameter: &tfprotov6.FunctionParameter{Name: "rest", Type: tftypes.Number},
	Return:            &tfprotov6.FunctionReturn{Type: tftypes.Number},
}

var schema6 = &tfprotov6.GetProviderSchemaResponse{
	ServerCapabilities:       &tfprotov6.ServerCapabilities{PlanDestroy: true},
	Provider:                 &tfprotov6.Schema{Block: &tfprotov6.SchemaBlock{Attributes: []*tfprotov6.SchemaAttribute{{Name: "region", Type: tftypes.String, Optional: true}}}},
	ProviderMeta:             &tfprotov6.Schema{Block: &tfprotov6.SchemaBlock{}},
	ResourceSchemas:          map[string]*tfprotov6.Schema{"fake_thing": thing6},
	DataSourceSchemas:        map[string]*tfprotov6.Schema{"fake_data": thing6},
	EphemeralResourceSchemas: map[string]*tfprotov6.Schema{},
	ListResourceSchemas:      map[string]*tfprotov6.Schema{},
	StateStoreSchemas:        map[string]*tfprotov6.Schema{},
	Functions:                map[string]*tfprotov6.Function{"sum": function6},
	Diagnostics:              diags6[1:],
}

func (f *fake6) ValidateProviderConfig(_ context.Context, r *tfprotov6.ValidateProviderConfigRequest) (*tfprotov6.ValidateProviderConfigResponse, error) {
	f.got = r
	return &tfprotov6.ValidateProviderConfigResponse{Diagnostics: diags6}, nil
}

func (f *fake6) ConfigureProvider(_ context.Context, r *tfprotov6.ConfigureProviderRequest) (*tfprotov6.ConfigureProviderResponse, error) {
	f.got = r
	return &tfprotov6.ConfigureProviderResponse{Diagnostics: diags6}, nil
}

func (f *fake6) StopProvider(_ context.Context, r *tfprotov6.StopProviderRequest) (*tfprotov6.StopProviderResponse, error) {
	f.got = r
	return &tfprotov6.StopProviderResponse{Error: "cannot stop"}, nil
}

func (f *fake6) ValidateResourceConfig(_ context.Context, r *tfprotov6.ValidateResourceConfigRequest) (*tfprotov6.ValidateResourceConfigResponse, error) {
	f.got = r
	return &tfprotov6.ValidateResourceConfigResponse{Diagnostics: diags6}, nil
}

func (f *fake6) UpgradeResourceState(_ context.Context, r *tfprotov6.UpgradeResourceStateRequest) (*tfprotov6.UpgradeResourceStateResponse, error) {
	f.got = r
	return &tfprotov6.UpgradeResourceStateResponse{UpgradedState: dv6, Diagnostics: diags6}, nil
}

func (f *fake6) ReadResource(_ context.Context, r *tfprotov6.ReadResourceRequest) (*tfprotov6.ReadResourceResponse, error) {
	f.got = r
	return &tfprotov6.ReadResourceResponse{NewState: dv6, Diagnostics: diags6, Private: []byte("p"),
		Deferred: &tfprotov6.Deferred{Reason: tfprotov6.DeferredReasonAbsentPrereq}, NewIdentity: id6}, nil
}

func (f *fake6) PlanResourceChange(_ context.Context, r *tfprotov6.PlanResourceChangeRequest) (*tfprotov6.PlanResourceChangeResponse, error) {
	f.got = r
	return &tfprotov6.PlanResourceChangeResponse{
		PlannedState:                dv6,
		RequiresReplace:             []*tftypes.AttributePath{tftypes.NewAttributePath().WithAttributeName("id"), diags6[0].Attribute},
		PlannedPrivate:              []byte("pp"),
		Diagnostics:                 diags6,
		UnsafeToUseLegacyTypeSystem: true,
		Deferred:                    &tfprotov6.Deferred{Reason: tfprotov6.DeferredReasonResourceConfigUnknown},
		PlannedIdentity:             id6,
	}, nil
}

func (f *fake6) ApplyResourceChange(_ context.Context, r *tfprotov6.ApplyResourceChangeRequest) (*tfprotov6.ApplyResourceChangeResponse, error) {
	f.got = r
	return &tfprotov6.ApplyResourceChangeResponse{NewState: dv6, Private: []byte("ap"), Diagnostics: diags6,
		UnsafeToUseLegacyTypeSystem: true, NewIdentity: id6}, nil
}

func (f *fake6) ImportResourceState(_ context.Context, r *tfprotov6.ImportResourceStateRequest) (*tfprotov6.ImportResourceStateResponse, error) {
	f.got = r
	return &tfprotov6.ImportResourceStateResponse{
		ImportedResources: []*tfprotov6.ImportedResource{{TypeName: "fake_thing", State: dv6, Private: []byte("ip"), Identity: id6}},
		Diagnostics:       diags6,
		Deferred:          &tfprotov6.Deferred{Reason: tfprotov6.DeferredReasonProviderConfigUnknown},
	}, nil
}

func (f *fake6) ValidateDataResourceConfig(_ context.Context, r *tfprotov6.ValidateDataResourceConfigRequest) (*tfprotov6.ValidateDataResourceConfigResponse, error) {
	f.got = r
	return &tfprotov6.ValidateDataResourceConfigResponse{Diagnostics: diags6}, nil
}

func (f *fake6) ReadDataSource(_ context.Context, r *tfprotov6.ReadDataSourceRequest) (*tfprotov6.ReadDataSourceResponse, error) {
	f.got = r
	return &tfprotov6.ReadDataSourceResponse{State: dv6, Diagnostics: diags6,
		Deferred: &tfprotov6.Deferred{Reason: tfprotov6.DeferredReasonAbsentPrereq}}, nil
}

func (f *fake6) GetFunctions(_ context.Context, r *tfprotov6.GetFunctionsRequest) (*tfprotov6.GetFunctionsResponse, error) {
	f.got = r
	return &tfprotov6.GetFunctionsResponse{Functions: map[string]*tfprotov6.Function{"sum": function6}, Diagnostics: diags6}, nil
}

func (f *fake6) CallFunction(_ context.Context, r *tfprotov6.CallFunctionRequest) (*tfprotov6.CallFunctionResponse, error) {
	f.got = r
	arg := int64(1)
	return &tfprotov6.CallFunctionResponse{Result: dv6, Error: &tfprotov6.FunctionError{Text: "no", FunctionArgument: &arg}}, nil
}

// TestProtocol6RoundTrip calls each Server method of a protocol 6 Client
// and wants the fake to get the request sent, and the caller the
// response the fake made.
func TestProtocol6RoundTrip(t *testing.T) {
	f := &fake6{}
	c := attach6(t, f)
	ctx := context.Background()
	arg := int64(1)
	for _, tc := range []struct {
		name      string
		req, want any
		call      func() (any, error)
	}{
		{"GetMetadata", &tfprotov6.GetMetadataRequest{}, metadata6,
			func() (any, error) { return c.GetMetadata(ctx, &tfprotov6.GetMetadataRequest{}) }},
		{"GetProviderSchema", &tfprotov6.GetProviderSchemaRequest{}, schema6,
			func() (any, error) { return c.GetProviderSchema(ctx, &tfprotov6.GetProviderSchemaRequest{}) }},
		{"ValidateProviderConfig", &tfprotov6.ValidateProviderConfigRequest{Config: dv6},
			&tfprotov6.ValidateProviderConfigResponse{Diagnostics: diags6},
			func() (any, error) {
				return c.ValidateProviderConfig(ctx, &tfprotov6.ValidateProviderConfigRequest{Config: dv6})
			}},
		{"ConfigureProvider", &tfprotov6.ConfigureProviderRequest{TerraformVersion: "1.9.0", Config: dvJSON,
			ClientCapabilities: &tfprotov6.ConfigureProviderClientCapabilities{DeferralAllowed: true}},
			&tfprotov6.ConfigureProviderResponse{Diagnostics: diags6},
			func() (any, error) {
				return c.ConfigureProvider(ctx, &tfprotov6.ConfigureProviderRequest{TerraformVersion: "1.9.0", Config: dvJSON,
					ClientCapabilities: &tfprotov6.ConfigureProviderClientCapabilities{DeferralAllowed: true}})
			}},
		{"StopProvider", &tfprotov6.StopProviderRequest{}, &tfprotov6.StopProviderResponse{Error: "cannot stop"},
			func() (any, error) { return c.StopProvider(ctx, &tfprotov6.StopProviderRequest{}) }},
		{"ValidateResourceConfig", &tfprotov6.ValidateResourceConfigRequest{TypeName: "fake_thing", Config: dv6,
			ClientCapabilities: &tfprotov6.ValidateResourceConfigClientCapabilities{WriteOnlyAttributesAllowed: true}},
			&tfprotov6.ValidateResourceConfigResponse{Diagnostics: diags6},
			func() (any, error) {
				return c.ValidateResourceConfig(ctx, &tfprotov6.ValidateResourceConfigRequest{TypeName: "fake_thing", Config: dv6,
					ClientCapabilities: &tfprotov6.ValidateResourceConfigClientCapabilities{WriteOnlyAttributesAllowed: true}})
			}},
		{"UpgradeResourceState", &tfprotov6.UpgradeResourceStateRequest{TypeName: "fake_thing", Version: 2,
			RawState: &tfprotov6.RawState{JSON: []byte(`{"id":"x"}`), Flatmap: map[string]string{"id": "x"}}},
			&tfprotov6.UpgradeResourceStateResponse{UpgradedState: dv6, Diagnostics: diags6},
			func() (any, error) {
				return c.UpgradeResourceState(ctx, &tfprotov6.UpgradeResourceStateRequest{TypeName: "fake_thing", Version: 2,
					RawState: &tfprotov6.RawState{JSON: []byte(`{"id":"x"}`), Flatmap: map[string]string{"id": "x"}}})
			}},
		{"ReadResource", &tfprotov6.ReadResourceRequest{TypeName: "fake_thing", CurrentState: dv6, Private: []byte("p0"),
			ProviderMeta: dvJSON, ClientCapabilities: &tfprotov6.ReadResourceClientCapabilities{DeferralAllowed: true}, CurrentIdentity: id6},
			&tfprotov6.ReadResourceResponse{NewState: dv6, Diagnostics: diags6, Private: []byte("p"),
				Deferred: &tfprotov6.Deferred{Reason: tfprotov6.DeferredReasonAbsentPrereq}, NewIdentity: id6},
			func() (any, error) {
				return c.ReadResource(ctx, &tfprotov6.ReadResourceRequest{TypeName: "fake_thing", CurrentState: dv6, Private: []byte("p0"),
					ProviderMeta: dvJSON, ClientCapabilities: &tfprotov6.ReadResourceClientCapabilities{DeferralAllowed: true}, CurrentIdentity: id6})
			}},
		{"PlanResourceChange", &tfprotov6.PlanResourceChangeRequest{TypeName: "fake_thing", PriorState: dv6, ProposedNewState: dvJSON,
			Config: dv6, PriorPrivate: []byte("pp0"), ProviderMeta: dv6,
			ClientCapabilities: &tfprotov6.PlanResourceChangeClientCapabilities{DeferralAllowed: true}, PriorIdentity: id6},
			&tfprotov6.PlanResourceChangeResponse{
				PlannedState:                dv6,
				RequiresReplace:             []*tftypes.AttributePath{tftypes.NewAttributePath().WithAttributeName("id"), diags6[0].Attribute},
				PlannedPrivate:              []byte("pp"),
				Diagnostics:                 diags6,
				UnsafeToUseLegacyTypeSystem: true,
				Deferred:                    &tfprotov6.Deferred{Reason: tfprotov6.DeferredReasonResourceConfigUnknown},
				PlannedIdentity:             id6,
			},
			func() (any, error) {
				return c.PlanResourceChange(ctx, &tfprotov6.PlanResourceChangeRequest{TypeName: "fake_thing", PriorState: dv6, ProposedNewState: dvJSON,
					Config: dv6, PriorPrivate: []byte("pp0"), ProviderMeta: dv6,
					ClientCapabilities: &tfprotov6.PlanResourceChangeClientCapabilities{DeferralAllowed: true}, PriorIdentity: id6})
			}},
		{"ApplyResourceChange", &tfprotov6.ApplyResourceChangeRequest{TypeName: "fake_thing", PriorState: dv6, PlannedState: dvJSON,
			Config: dv6, PlannedPrivate: []byte("pp"), ProviderMeta: dv6, PlannedIdentity: id6},
			&tfprotov6.ApplyResourceChangeResponse{NewState: dv6, Private: []byte("ap"), Diagnostics: diags6,
				UnsafeToUseLegacyTypeSystem: true, NewIdentity: id6},
			func() (any, error) {
				return c.ApplyResourceChange(ctx, &tfprotov6.ApplyResourceChangeRequest{TypeName: "fake_thing", PriorState: dv6, PlannedState: dvJSON,
					Config: dv6, PlannedPrivate: []byte("pp"), ProviderMeta: dv6, PlannedIdentity: id6})
			}},
		{"ImportResourceState", &tfprotov6.ImportResourceStateRequest{TypeName: "fake_thing", ID: "i-1",
			ClientCapabilities: &tfprotov6.ImportResourceStateClientCapabilities{DeferralAllowed: true}, Identity: id6},
			&tfprotov6.ImportResourceStateResponse{
				ImportedResources: []*tfprotov6.ImportedResource{{TypeName: "fake_thing", State: dv6, Private: []byte("ip"), Identity: id6}},
				Diagnostics:       diags6,
				Deferred:          &tfprotov6.Deferred{Reason: tfprotov6.DeferredReasonProviderConfigUnknown},
			},
			func() (any, error) {
				return c.ImportResourceState(ctx, &tfprotov6.ImportResourceStateRequest{TypeName: "fake_thing", ID: "i-1",
					ClientCapabilities: &tfprotov6.ImportResourceStateClientCapabilities{DeferralAllowed: true}, Identity: id6})
			}},
		{"ValidateDataResourceConfig", &tfprotov6.ValidateDataResourceConfigRequest{TypeName: "fake_data", Config: dv6},
			&tfprotov6.ValidateDataResourceConfigResponse{Diagnostics: diags6},
			func() (any, error) {
				return c.ValidateDataResourceConfig(ctx, &tfprotov6.ValidateDataResourceConfigRequest{TypeName: "fake_data", Config: dv6})
			}},
		{"ReadDataSource", &tfprotov6.ReadDataSourceRequest{TypeName: "fake_data", Config: dv6, ProviderMeta: dvJSON,
			ClientCapabilities: &tfprotov6.ReadDataSourceClientCapabilities{DeferralAllowed: true}},
			&tfprotov6.ReadDataSourceResponse{State: dv6, Diagnostics: diags6,
				Deferred: &tfprotov6.Deferred{Reason: tfprotov6.DeferredReasonAbsentPrereq}},
			func() (any, error) {
				return c.ReadDataSource(ctx, &tfprotov6.ReadDataSourceRequest{TypeName: "fake_data", Config: dv6, ProviderMeta: dvJSON,
					ClientCapabilities: &tfprotov6.ReadDataSourceClientCapabilities{DeferralAllowed: true}})
			}},
		{"GetFunctions", &tfprotov6.GetFunctionsRequest{},
			&tfprotov6.GetFunctionsResponse{Functions: map[string]*tfprotov6.Function{"sum": function6}, Diagnostics: diags6},
			func() (any, error) { return c.GetFunctions(ctx, &tfprotov6.GetFunctionsRequest{}) }},
		{"CallFunction", &tfprotov6.CallFunctionRequest{Name: "sum", Arguments: []*tfprotov6.DynamicValue{dv6, dvJSON}},
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
			if !reflect.DeepEqual(f.got, tc.req) {
				t.Errorf("the provider got\n%#v\nwant\n%#v", f.got, tc.req)
			}
			if !reflect.DeepEqual(resp, tc.want) {
				t.Errorf("the caller got\n%#v\nwant\n%#v", resp, tc.want)
			}
		})
	}
}
