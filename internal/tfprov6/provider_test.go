package tfprov6_test

import (
	"context"
	"os"
	"path/filepath"
	"testing"

	"github.com/hashicorp/terraform-plugin-go/tfprotov6"
	"github.com/hashicorp/terraform-plugin-go/tftypes"

	"github.com/polyhost/polyhost/internal/tfprov6"
)

// TestServer checks the parts the lifecycle tests of
// host/terraform/internal/tfresource do not use: the schema is valid, the
// data source reads an entry, the function answers.
func TestServer(t *testing.T) {
	ctx := context.Background()
	s := tfprov6.New("test")
	schema, err := s.GetProviderSchema(ctx, &tfprotov6.GetProviderSchemaRequest{})
	if err != nil || len(schema.Diagnostics) > 0 {
		t.Fatalf("GetProviderSchema: %v %v", err, schema.Diagnostics)
	}
	entry := schema.ResourceSchemas["kv_entry"]
	if entry == nil || entry.Version != 1 || len(entry.Block.BlockTypes) != 1 || schema.DataSourceSchemas["kv_entry"] == nil || schema.Functions["checksum"] == nil {
		t.Fatalf("schema: %+v", schema)
	}

	root := t.TempDir()
	cfgType := schema.Provider.ValueType()
	cfg, _ := tfprotov6.NewDynamicValue(cfgType, tftypes.NewValue(cfgType, map[string]tftypes.Value{"root": tftypes.NewValue(tftypes.String, root)}))
	if r, err := s.ConfigureProvider(ctx, &tfprotov6.ConfigureProviderRequest{Config: &cfg}); err != nil || len(r.Diagnostics) > 0 {
		t.Fatalf("ConfigureProvider: %v %v", err, r.Diagnostics)
	}
	if err := os.WriteFile(filepath.Join(root, "k.json"), []byte(`{"value":"v","ttl":7}`), 0o644); err != nil {
		t.Fatal(err)
	}
	dsType := schema.DataSourceSchemas["kv_entry"].ValueType()
	ds, _ := tfprotov6.NewDynamicValue(dsType, tftypes.NewValue(dsType, map[string]tftypes.Value{
		"key":         tftypes.NewValue(tftypes.String, "k"),
		"value":       tftypes.NewValue(tftypes.String, nil),
		"ttl_seconds": tftypes.NewValue(tftypes.Number, nil),
	}))
	read, err := s.ReadDataSource(ctx, &tfprotov6.ReadDataSourceRequest{TypeName: "kv_entry", Config: &ds})
	if err != nil || len(read.Diagnostics) > 0 {
		t.Fatalf("ReadDataSource: %v %v", err, read.Diagnostics)
	}
	got, _ := read.State.Unmarshal(dsType)
	var m map[string]tftypes.Value
	var value string
	if err := got.As(&m); err != nil || m["value"].As(&value) != nil || value != "v" {
		t.Errorf("data source state %v, want value v", got)
	}

	call, err := s.CallFunction(ctx, &tfprotov6.CallFunctionRequest{Name: "checksum", Arguments: []*tfprotov6.DynamicValue{mustDV(t, tftypes.String, "abc")}})
	if err != nil || call.Error != nil {
		t.Fatalf("CallFunction: %v %v", err, call.Error)
	}
	res, _ := call.Result.Unmarshal(tftypes.String)
	var sum string
	if res.As(&sum); sum != "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad" {
		t.Errorf("checksum(abc) = %q", sum)
	}
}

func mustDV(t *testing.T, typ tftypes.Type, v any) *tfprotov6.DynamicValue {
	t.Helper()
	dv, err := tfprotov6.NewDynamicValue(typ, tftypes.NewValue(typ, v))
	if err != nil {
		t.Fatal(err)
	}
	return &dv
}
