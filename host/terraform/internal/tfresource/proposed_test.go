package tfresource

import (
	"encoding/json"
	"math/big"
	"testing"

	"github.com/hashicorp/terraform-plugin-go/tfprotov6"
	"github.com/hashicorp/terraform-plugin-go/tftypes"
)

// A schema with what the kv provider lacks: a computed attribute in a set
// block and in an optional+computed nested attribute, and a dynamic one.
var testBlock = &tfprotov6.SchemaBlock{
	Attributes: []*tfprotov6.SchemaAttribute{
		{Name: "name", Type: tftypes.String, Required: true},
		{Name: "arn", Type: tftypes.String, Computed: true},
		{Name: "size", Type: tftypes.Number, Optional: true, Computed: true},
		{Name: "any", Type: tftypes.DynamicPseudoType, Optional: true},
		{Name: "cfg", Optional: true, Computed: true, NestedType: &tfprotov6.SchemaObject{
			Nesting: tfprotov6.SchemaObjectNestingModeSingle,
			Attributes: []*tfprotov6.SchemaAttribute{
				{Name: "mode", Type: tftypes.String, Optional: true},
				{Name: "stamp", Type: tftypes.String, Computed: true},
			}}},
	},
	BlockTypes: []*tfprotov6.SchemaNestedBlock{{
		TypeName: "port", Nesting: tfprotov6.SchemaNestedBlockNestingModeSet,
		Block: &tfprotov6.SchemaBlock{Attributes: []*tfprotov6.SchemaAttribute{
			{Name: "number", Type: tftypes.Number, Required: true},
			{Name: "uid", Type: tftypes.String, Computed: true},
		}},
	}},
}

var (
	objT  = testBlock.ValueType().(tftypes.Object)
	cfgT  = objT.AttributeTypes["cfg"]
	portT = objT.AttributeTypes["port"].(tftypes.Set).ElementType
)

func str(s any) tftypes.Value { return tftypes.NewValue(tftypes.String, s) }
func num(n any) tftypes.Value { return tftypes.NewValue(tftypes.Number, n) }

func port(n int64, uid any) tftypes.Value {
	return tftypes.NewValue(portT, map[string]tftypes.Value{"number": num(n), "uid": str(uid)})
}

func obj(name, arn, size any, cfg tftypes.Value, ports ...tftypes.Value) tftypes.Value {
	if ports == nil {
		ports = []tftypes.Value{}
	}
	return tftypes.NewValue(objT, map[string]tftypes.Value{
		"name": str(name), "arn": str(arn), "size": num(size), "any": tftypes.NewValue(tftypes.DynamicPseudoType, nil),
		"cfg": cfg, "port": tftypes.NewValue(objT.AttributeTypes["port"], ports),
	})
}

func cfgV(mode, stamp any) tftypes.Value {
	return tftypes.NewValue(cfgT, map[string]tftypes.Value{"mode": str(mode), "stamp": str(stamp)})
}

func TestProposedNew(t *testing.T) {
	nullCfg := tftypes.NewValue(cfgT, nil)
	prior := obj("n", "arn:1", 5, cfgV("fast", "t1"), port(80, "u80"), port(443, "u443"))
	for _, tc := range []struct {
		name          string
		prior, config tftypes.Value
		want          tftypes.Value
	}{
		{"create: nulls stay null", tftypes.NewValue(objT, nil), obj("n", nil, nil, nullCfg, port(80, nil)),
			obj("n", nil, nil, nullCfg, port(80, nil))},
		{"computed kept from prior", prior, obj("n", nil, nil, cfgV("fast", nil), port(443, nil), port(80, nil)),
			obj("n", "arn:1", 5, cfgV("fast", "t1"), port(80, "u80"), port(443, "u443"))},
		{"configured wins", prior, obj("m", nil, 7, cfgV("slow", nil), port(8080, nil)),
			obj("m", "arn:1", 7, cfgV("slow", "t1"), port(8080, nil))},
		{"optional+computed nested set by config, now gone", prior, obj("n", nil, nil, nullCfg),
			obj("n", "arn:1", 5, nullCfg)},
		{"unknown config kept", prior, obj("n", nil, tftypes.UnknownValue, tftypes.NewValue(cfgT, tftypes.UnknownValue)),
			obj("n", "arn:1", tftypes.UnknownValue, tftypes.NewValue(cfgT, tftypes.UnknownValue))},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, err := proposedNew(testBlock, tc.prior, tc.config)
			if err != nil {
				t.Fatal(err)
			}
			if !got.Equal(tc.want) {
				t.Errorf("got  %v\nwant %v", got, tc.want)
			}
		})
	}
}

func TestJSONOf(t *testing.T) {
	v := tftypes.NewValue(objT, map[string]tftypes.Value{
		"name": str("n"), "arn": str(nil), "size": num(1.5), "any": num(3),
		"cfg": cfgV("m", nil), "port": tftypes.NewValue(objT.AttributeTypes["port"], []tftypes.Value{port(80, "u")}),
	})
	j, err := jsonOf(objT, v)
	if err != nil {
		t.Fatal(err)
	}
	b, _ := json.Marshal(j)
	want := `{"any":{"type":"number","value":3},"arn":null,"cfg":{"mode":"m","stamp":null},"name":"n","port":[{"number":80,"uid":"u"}],"size":1.5}`
	if string(b) != want {
		t.Errorf("got  %s\nwant %s", b, want)
	}
	back, err := (&tfprotov6.RawState{JSON: b}).UnmarshalWithOpts(objT, tfprotov6.UnmarshalOpts{})
	if err != nil || !back.Equal(v) {
		t.Errorf("read back %v %v, want %v", back, err, v)
	}
	if _, err := jsonOf(objT, tftypes.NewValue(objT, tftypes.UnknownValue)); err == nil {
		t.Errorf("an unknown value wrote")
	}
}

func TestSnake(t *testing.T) {
	for in, want := range map[string]string{"offsetDays": "offset_days", "id": "id", "aBC": "a_b_c"} {
		if got := snake(in); got != want {
			t.Errorf("snake(%q) = %q, want %q", in, got, want)
		}
	}
}

// TestProposedCreateIsConfig: with no prior state the element-by-element
// proposal is the configuration itself, which proposedNew then returns
// without walking it (and Check and Create send its encoding once).
func TestProposedCreateIsConfig(t *testing.T) {
	null := tftypes.NewValue(objT, nil)
	for _, config := range []tftypes.Value{
		obj("n", nil, nil, tftypes.NewValue(cfgT, nil), port(80, nil)),
		obj("n", nil, 3, cfgV("fast", nil), port(80, nil), port(443, nil)),
		obj("n", nil, tftypes.UnknownValue, tftypes.NewValue(cfgT, tftypes.UnknownValue)),
	} {
		walked, err := proposedBlock(testBlock, null, config)
		if err != nil || !walked.Equal(config) {
			t.Errorf("proposedBlock of %v = %v, %v", config, walked, err)
		}
		got, err := proposedNew(testBlock, null, config)
		if err != nil || !got.Equal(config) {
			t.Errorf("proposedNew of %v = %v, %v", config, got, err)
		}
	}
}

// TestNumberText: a state's numbers are written as big.Float's shortest
// text, by whichever way.
func TestNumberText(t *testing.T) {
	for _, f := range []float64{0, 1, -1, 1767225600, 1 << 53, -(1 << 53), 1<<53 + 2, 1e21, 0.1, -2.5, 1e-7, 123456789} {
		b := big.NewFloat(f)
		if got, want := numberText(b), b.Text('g', -1); got != want {
			t.Errorf("%v: %s, want %s", f, got, want)
		}
	}
}
