package tfvalue

import (
	"math"
	"math/big"
	"strings"
	"testing"

	"github.com/hashicorp/terraform-plugin-go/tfprotov6"
	"github.com/hashicorp/terraform-plugin-go/tftypes"
	"github.com/pulumi/pulumi/sdk/v3/go/common/resource"
	"github.com/pulumi/pulumi/sdk/v3/go/common/resource/archive"
	"github.com/pulumi/pulumi/sdk/v3/go/common/resource/asset"
	"github.com/pulumi/pulumi/sdk/v3/go/property"
)

func TestPropertyName(t *testing.T) {
	for in, want := range map[string]string{
		"offset_days":    "offsetDays",
		"id":             "id",
		"ipv6_cidr":      "ipv6Cidr",
		"a_b_c":          "aBC",
		"fooBar":         "fooBar",
		"Foo_bar":        "Foo_bar",
		"_foo":           "_foo",
		"foo_":           "foo_",
		"foo__bar":       "foo__bar",
		"port_8080":      "port_8080",
		"foo_Bar":        "foo_Bar",
		"":               "",
		"_":              "_",
		"x1_y2":          "x1Y2",
		"name_with-dash": "name_with-dash",
	} {
		if got := PropertyName(in); got != want {
			t.Errorf("PropertyName(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestPropertyNames(t *testing.T) {
	got := PropertyNames([]string{"foo_bar", "fooBar", "offset_days", "a__b", "a_b", "aB2", "x",
		"urn", "urn_", "get_provider", "opts", "__self__", "constructor"})
	want := map[string]string{
		"urn":          "urn__",
		"urn_":         "urn_",
		"get_provider": "getProvider_",
		"opts":         "opts_",
		"__self__":     "__self___",
		"constructor":  "constructor_",
		"foo_bar":      "foo_bar",
		"fooBar":       "fooBar",
		"offset_days":  "offsetDays",
		"a__b":         "a__b",
		"a_b":          "aB",
		"aB2":          "aB2",
		"x":            "x",
	}
	if len(got) != len(want) {
		t.Fatalf("got %v, want %v", got, want)
	}
	for k, w := range want {
		if got[k] != w {
			t.Errorf("%q -> %q, want %q", k, got[k], w)
		}
	}
	// One-to-one.
	seen := map[string]string{}
	for k, p := range got {
		if o, ok := seen[p]; ok {
			t.Errorf("%q and %q both map to %q", k, o, p)
		}
		seen[p] = k
	}
}

func obj(attrs map[string]tftypes.Type) tftypes.Object {
	return tftypes.Object{AttributeTypes: attrs}
}

// testBlock covers every attribute type, nested attribute and nested block
// nesting mode, sensitivity at depth, and a name collision.
func testBlock() *tfprotov6.SchemaBlock {
	inner := []*tfprotov6.SchemaAttribute{
		{Name: "foo_bar", Type: tftypes.String, Optional: true},
		{Name: "secret_value", Type: tftypes.String, Optional: true, Sensitive: true},
	}
	innerBlock := func(nested ...*tfprotov6.SchemaNestedBlock) *tfprotov6.SchemaBlock {
		return &tfprotov6.SchemaBlock{Attributes: inner, BlockTypes: nested}
	}
	return &tfprotov6.SchemaBlock{
		Attributes: []*tfprotov6.SchemaAttribute{
			{Name: "id", Type: tftypes.String, Computed: true},
			{Name: "name", Type: tftypes.String, Required: true},
			{Name: "offset_days", Type: tftypes.Number, Optional: true},
			{Name: "enabled", Type: tftypes.Bool, Optional: true},
			{Name: "tags", Type: tftypes.List{ElementType: tftypes.String}, Optional: true},
			{Name: "ports", Type: tftypes.Set{ElementType: tftypes.Number}, Optional: true},
			{Name: "triggers", Type: tftypes.Map{ElementType: tftypes.String}, Optional: true},
			{Name: "pair", Type: tftypes.Tuple{ElementTypes: []tftypes.Type{tftypes.String, tftypes.Number}}, Optional: true},
			{Name: "settings", Type: obj(map[string]tftypes.Type{
				"max_size":  tftypes.Number,
				"sub_items": tftypes.List{ElementType: obj(map[string]tftypes.Type{"item_name": tftypes.String})},
			}), Optional: true},
			{Name: "anything", Type: tftypes.DynamicPseudoType, Optional: true},
			{Name: "password", Type: tftypes.String, Optional: true, Sensitive: true},
			{Name: "foo_bar", Type: tftypes.String, Optional: true},
			{Name: "fooBar", Type: tftypes.String, Optional: true},
			{Name: "urn", Type: tftypes.String, Optional: true},
			{Name: "single_nested", NestedType: &tfprotov6.SchemaObject{Nesting: tfprotov6.SchemaObjectNestingModeSingle, Attributes: inner}, Optional: true},
			{Name: "list_nested", NestedType: &tfprotov6.SchemaObject{Nesting: tfprotov6.SchemaObjectNestingModeList, Attributes: inner}, Optional: true},
			{Name: "set_nested", NestedType: &tfprotov6.SchemaObject{Nesting: tfprotov6.SchemaObjectNestingModeSet, Attributes: inner}, Optional: true},
			{Name: "map_nested", NestedType: &tfprotov6.SchemaObject{Nesting: tfprotov6.SchemaObjectNestingModeMap, Attributes: inner}, Optional: true},
		},
		BlockTypes: []*tfprotov6.SchemaNestedBlock{
			{TypeName: "single_block", Nesting: tfprotov6.SchemaNestedBlockNestingModeSingle, Block: innerBlock()},
			{TypeName: "rule", Nesting: tfprotov6.SchemaNestedBlockNestingModeList, Block: innerBlock(
				&tfprotov6.SchemaNestedBlock{TypeName: "sub_rule", Nesting: tfprotov6.SchemaNestedBlockNestingModeSet, Block: innerBlock()},
			)},
			{TypeName: "set_block", Nesting: tfprotov6.SchemaNestedBlockNestingModeSet, Block: innerBlock()},
			{TypeName: "map_block", Nesting: tfprotov6.SchemaNestedBlockNestingModeMap, Block: innerBlock()},
			{TypeName: "group_block", Nesting: tfprotov6.SchemaNestedBlockNestingModeGroup, Block: innerBlock(
				&tfprotov6.SchemaNestedBlock{TypeName: "list_in_group", Nesting: tfprotov6.SchemaNestedBlockNestingModeList, Block: innerBlock()},
			)},
		},
	}
}

func str(s string) property.Value             { return property.New(s) }
func num(f float64) property.Value            { return property.New(f) }
func arr(vs ...property.Value) property.Value { return property.New(property.NewArray(vs)) }
func pmap(m map[string]property.Value) property.Value {
	return property.New(m)
}
func secret(v property.Value) property.Value { return v.WithSecret(true) }

// emptyBlocks are the values FromTerraform gives for absent blocks.
func emptyBlocks() map[string]property.Value {
	return map[string]property.Value{
		"rule":       arr(),
		"setBlock":   arr(),
		"mapBlock":   pmap(map[string]property.Value{}),
		"groupBlock": pmap(map[string]property.Value{"listInGroup": arr()}),
	}
}

func with(m map[string]property.Value, more map[string]property.Value) property.Map {
	out := map[string]property.Value{}
	for k, v := range m {
		out[k] = v
	}
	for k, v := range more {
		out[k] = v
	}
	return property.NewMap(out)
}

// roundTrip converts m to Terraform, through msgpack, and back.
func roundTrip(t *testing.T, block *tfprotov6.SchemaBlock, m property.Map) property.Map {
	t.Helper()
	tv, err := ToTerraform(block, m)
	if err != nil {
		t.Fatalf("ToTerraform: %v", err)
	}
	dv, err := tfprotov6.NewDynamicValue(block.ValueType(), tv)
	if err != nil {
		t.Fatalf("NewDynamicValue: %v", err)
	}
	back, err := dv.Unmarshal(block.ValueType())
	if err != nil {
		t.Fatalf("Unmarshal: %v", err)
	}
	// Not back.Equal(tv): msgpack sends an integral float64 beyond 2^63
	// (math.MaxFloat64) as its shortest decimal text, a different big.Float.
	direct, err := FromTerraform(block, tv)
	if err != nil {
		t.Fatalf("FromTerraform: %v", err)
	}
	out, err := FromTerraform(block, back)
	if err != nil {
		t.Fatalf("FromTerraform after msgpack: %v", err)
	}
	if !out.Equals(direct) {
		t.Fatalf("msgpack changed the value:\n%v\n%v", direct, out)
	}
	return out
}

func TestRoundTrip(t *testing.T) {
	block := testBlock()
	inner := func(foo string) property.Value {
		return pmap(map[string]property.Value{"fooBar": str(foo), "secretValue": secret(str("s-" + foo))})
	}
	cases := map[string]map[string]property.Value{
		"minimal": {"name": str("n")},
		"primitives": {
			"name": str("n"), "offsetDays": num(-1.5), "enabled": property.New(false),
			"password": secret(str("hunter2")),
		},
		"big numbers": {"name": str("n"), "offsetDays": num(1 << 60), "ports": arr(num(math.MaxFloat64), num(5e-324), num(math.Inf(-1)), num(0.1))},
		"collections": {
			"name": str("n"), "tags": arr(str("a"), property.New(property.Null), str("")),
			"ports":    arr(num(80), num(443)),
			"triggers": pmap(map[string]property.Value{"some_key": str("x"), "a b\"c": str("y"), "": property.Value{}}),
			"pair":     arr(str("p"), num(2)),
		},
		"empty collections": {"name": str("n"), "tags": arr(), "ports": arr(), "triggers": pmap(map[string]property.Value{})},
		"object attribute": {"name": str("n"), "settings": pmap(map[string]property.Value{
			"maxSize":  num(3),
			"subItems": arr(pmap(map[string]property.Value{"itemName": str("i")}), pmap(map[string]property.Value{})),
		})},
		"collision": {"name": str("n"), "foo_bar": str("a"), "fooBar": str("b")},
		"reserved":  {"name": str("n"), "urn_": str("u")},
		"dynamic": {"name": str("n"), "anything": pmap(map[string]property.Value{
			"snake_key": arr(str("x"), num(1), property.New(true), property.Value{}, pmap(map[string]property.Value{})),
			"n":         property.Value{},
		})},
		"dynamic string": {"name": str("n"), "anything": str("s")},
		"nested attributes": {
			"name":         str("n"),
			"singleNested": inner("a"),
			"listNested":   arr(inner("b"), inner("c")),
			"setNested":    arr(inner("d")),
			"mapNested":    pmap(map[string]property.Value{"k_1": inner("e")}),
		},
		"blocks": {
			"name":        str("n"),
			"singleBlock": inner("a"),
			"rule": arr(pmap(map[string]property.Value{
				"fooBar":  str("r"),
				"subRule": arr(inner("x"), inner("y")),
			})),
			"setBlock":   arr(inner("s")),
			"mapBlock":   pmap(map[string]property.Value{"key_one": inner("m")}),
			"groupBlock": pmap(map[string]property.Value{"fooBar": str("g"), "listInGroup": arr(inner("l"))}),
		},
	}
	for name, c := range cases {
		t.Run(name, func(t *testing.T) {
			m := with(emptyBlocks(), c)
			got := roundTrip(t, block, m)
			if !got.Equals(m) {
				t.Errorf("round trip:\n got %v\nwant %v", got, m)
			}
		})
	}
}

func TestToTerraformValues(t *testing.T) {
	block := testBlock()
	innerT := obj(map[string]tftypes.Type{"foo_bar": tftypes.String, "secret_value": tftypes.String})
	tv, err := ToTerraform(block, property.NewMap(map[string]property.Value{
		"name":       secret(str("n")),
		"offsetDays": property.New(property.Computed),
		"tags":       property.New(property.Computed).WithSecret(true),
		"triggers":   pmap(map[string]property.Value{"a": property.New(property.Computed)}),
		"settings":   property.New(property.Computed),
		"anything":   property.New(property.Computed),
		"listNested": arr(property.New(property.Computed)),
		"rule":       property.New(property.Computed),
		"setBlock":   property.New(property.Null),
		"password":   secret(property.New(property.Null)),
	}))
	if err != nil {
		t.Fatal(err)
	}
	var attrs map[string]tftypes.Value
	if err := tv.As(&attrs); err != nil {
		t.Fatal(err)
	}
	if len(attrs) != len(block.ValueType().(tftypes.Object).AttributeTypes) {
		t.Errorf("got %d attributes, want all %d", len(attrs), len(block.ValueType().(tftypes.Object).AttributeTypes))
	}
	settingsT := block.ValueType().(tftypes.Object).AttributeTypes["settings"]
	want := map[string]tftypes.Value{
		"name":          tftypes.NewValue(tftypes.String, "n"),
		"id":            tftypes.NewValue(tftypes.String, nil),
		"offset_days":   tftypes.NewValue(tftypes.Number, tftypes.UnknownValue),
		"tags":          tftypes.NewValue(tftypes.List{ElementType: tftypes.String}, tftypes.UnknownValue),
		"triggers":      tftypes.NewValue(tftypes.Map{ElementType: tftypes.String}, map[string]tftypes.Value{"a": tftypes.NewValue(tftypes.String, tftypes.UnknownValue)}),
		"settings":      tftypes.NewValue(settingsT, tftypes.UnknownValue),
		"anything":      tftypes.NewValue(tftypes.DynamicPseudoType, tftypes.UnknownValue),
		"list_nested":   tftypes.NewValue(tftypes.List{ElementType: innerT}, []tftypes.Value{tftypes.NewValue(innerT, tftypes.UnknownValue)}),
		"password":      tftypes.NewValue(tftypes.String, nil),
		"single_nested": tftypes.NewValue(innerT, nil),
		"single_block":  tftypes.NewValue(innerT, nil),
		"set_block":     tftypes.NewValue(tftypes.Set{ElementType: innerT}, []tftypes.Value{}),
		"map_block":     tftypes.NewValue(tftypes.Map{ElementType: innerT}, map[string]tftypes.Value{}),
	}
	for k, w := range want {
		if !attrs[k].Equal(w) {
			t.Errorf("%s = %v, want %v", k, attrs[k], w)
		}
	}
	if r := attrs["rule"]; r.IsKnown() {
		t.Errorf("rule = %v, want one unknown", r)
	}
	// A group block is never null: an object of empty values.
	var group map[string]tftypes.Value
	if err := attrs["group_block"].As(&group); err != nil {
		t.Fatal(err)
	}
	if !group["foo_bar"].IsNull() || group["list_in_group"].IsNull() || !group["list_in_group"].IsKnown() {
		t.Errorf("group_block = %v", attrs["group_block"])
	}
	var lig []tftypes.Value
	if err := group["list_in_group"].As(&lig); err != nil || len(lig) != 0 {
		t.Errorf("list_in_group = %v, want an empty list", group["list_in_group"])
	}
}

func TestToTerraformErrors(t *testing.T) {
	block := testBlock()
	ref := property.New(property.ResourceReference{URN: "urn:pulumi:s::p::t::n"})
	cases := []struct {
		in   map[string]property.Value
		want string
	}{
		{map[string]property.Value{"nope": str("x")}, "nope: no such property"},
		{map[string]property.Value{"offset_days": num(1)}, "offset_days: no such property"},
		{map[string]property.Value{"name": num(1)}, "name: expected a string, got a number"},
		{map[string]property.Value{"offsetDays": str("1")}, "offsetDays: expected a number, got a string"},
		{map[string]property.Value{"enabled": str("true")}, "enabled: expected a bool"},
		{map[string]property.Value{"tags": str("x")}, "tags: expected an array"},
		{map[string]property.Value{"tags": arr(num(1))}, "tags[0]: expected a string"},
		{map[string]property.Value{"triggers": pmap(map[string]property.Value{"a": num(1)})}, `triggers["a"]: expected a string`},
		{map[string]property.Value{"pair": arr(str("x"))}, "pair: expected 2 elements, got 1"},
		{map[string]property.Value{"settings": pmap(map[string]property.Value{"max_size": num(1)})}, "settings.max_size: no such property"},
		{map[string]property.Value{"settings": pmap(map[string]property.Value{"subItems": arr(pmap(map[string]property.Value{"itemName": num(1)}))})}, "settings.subItems[0].itemName: expected a string"},
		{map[string]property.Value{"rule": arr(pmap(map[string]property.Value{"fooBar": property.New(true)}))}, "rule[0].fooBar: expected a string, got a bool"},
		{map[string]property.Value{"rule": arr(pmap(map[string]property.Value{"subRule": arr(pmap(map[string]property.Value{"x": str("")}))}))}, "rule[0].subRule[0].x: no such property"},
		{map[string]property.Value{"mapBlock": pmap(map[string]property.Value{"k": str("")})}, `mapBlock["k"]: expected a map, got a string`},
		{map[string]property.Value{"groupBlock": arr()}, "groupBlock: expected a map, got an array"},
		{map[string]property.Value{"name": property.New(&asset.Asset{Text: "x"})}, "name: an asset has no Terraform value"},
		{map[string]property.Value{"anything": arr(property.New(&archive.Archive{Path: "x"}))}, "anything[0]: an archive has no Terraform value"},
		{map[string]property.Value{"listNested": arr(pmap(map[string]property.Value{"fooBar": ref}))}, "listNested[0].fooBar: a resource reference has no Terraform value"},
		{map[string]property.Value{"offsetDays": secret(num(math.NaN()))}, "offsetDays: NaN is not a Terraform number"},
		{map[string]property.Value{"anything": pmap(map[string]property.Value{"a b": num(math.NaN())})}, `anything["a b"]: NaN`},
	}
	for _, c := range cases {
		_, err := ToTerraform(block, property.NewMap(c.in))
		if err == nil || !strings.HasPrefix(err.Error(), c.want) {
			t.Errorf("ToTerraform(%v) = %v, want %q", c.in, err, c.want)
		}
	}
}

func TestFromTerraform(t *testing.T) {
	block := testBlock()
	typ := block.ValueType().(tftypes.Object)
	innerT := obj(map[string]tftypes.Type{"foo_bar": tftypes.String, "secret_value": tftypes.String})
	attrs := map[string]tftypes.Value{}
	for n, at := range typ.AttributeTypes {
		attrs[n] = tftypes.NewValue(at, nil)
	}
	attrs["name"] = tftypes.NewValue(tftypes.String, "n")
	attrs["id"] = tftypes.NewValue(tftypes.String, tftypes.UnknownValue)
	attrs["password"] = tftypes.NewValue(tftypes.String, tftypes.UnknownValue)
	attrs["tags"] = tftypes.NewValue(typ.AttributeTypes["tags"], []tftypes.Value{tftypes.NewValue(tftypes.String, tftypes.UnknownValue)})
	attrs["set_nested"] = tftypes.NewValue(typ.AttributeTypes["set_nested"], []tftypes.Value{
		tftypes.NewValue(innerT, map[string]tftypes.Value{
			"foo_bar":      tftypes.NewValue(tftypes.String, nil),
			"secret_value": tftypes.NewValue(tftypes.String, "s"),
		}),
	})
	attrs["rule"] = tftypes.NewValue(typ.AttributeTypes["rule"], tftypes.UnknownValue)
	attrs["offset_days"] = tftypes.NewValue(tftypes.Number, new(big.Float).SetPrec(512).SetFloat64(0.5))
	got, err := FromTerraform(block, tftypes.NewValue(typ, attrs))
	if err != nil {
		t.Fatal(err)
	}
	want := property.NewMap(map[string]property.Value{
		"name":       str("n"),
		"id":         property.New(property.Computed),
		"password":   secret(property.New(property.Computed)),
		"tags":       arr(property.New(property.Computed)),
		"setNested":  arr(pmap(map[string]property.Value{"secretValue": secret(str("s"))})),
		"rule":       property.New(property.Computed),
		"offsetDays": num(0.5),
	})
	if !got.Equals(want) {
		t.Errorf("got %v\nwant %v", got, want)
	}

	if m, err := FromTerraform(block, tftypes.NewValue(typ, nil)); err != nil || m.Len() != 0 {
		t.Errorf("null object: %v, %v", m, err)
	}
	if _, err := FromTerraform(block, tftypes.NewValue(typ, tftypes.UnknownValue)); err == nil {
		t.Errorf("unknown object: no error")
	}
	other := obj(map[string]tftypes.Type{"zz_top": tftypes.String})
	if _, err := FromTerraform(block, tftypes.NewValue(other, map[string]tftypes.Value{"zz_top": tftypes.NewValue(tftypes.String, "x")})); err == nil || !strings.HasPrefix(err.Error(), "zz_top:") {
		t.Errorf("attribute not in schema: %v", err)
	}
	wrongT := obj(map[string]tftypes.Type{"name": tftypes.Number})
	wrong := tftypes.NewValue(wrongT, map[string]tftypes.Value{"name": tftypes.NewValue(tftypes.Number, big.NewFloat(1))})
	if _, err := FromTerraform(block, wrong); err == nil || !strings.HasPrefix(err.Error(), "name:") {
		t.Errorf("number for a string: %v", err)
	}
}

func TestNumbers(t *testing.T) {
	parse := func(s string) *big.Float {
		f, _, err := big.ParseFloat(s, 10, 512, big.ToNearestEven)
		if err != nil {
			t.Fatal(err)
		}
		return f
	}
	ok := map[string]float64{
		"0.1":                    0.1,
		"-123.456":               -123.456,
		"9007199254740992":       9007199254740992,
		"1152921504606846976":    1 << 60,
		"1e300":                  1e300,
		"0":                      0,
		"2.5":                    2.5,
		"0.30000000000000004":    0.30000000000000004,
		"1.7976931348623157e308": math.MaxFloat64,
	}
	for s, want := range ok {
		v, err := ValueFromTerraform(tftypes.NewValue(tftypes.Number, parse(s)))
		if err != nil || !v.IsNumber() || v.AsNumber() != want {
			t.Errorf("%s: got %v, %v; want %v", s, v, err, want)
		}
	}
	for _, s := range []string{"9007199254740993", "0.1000000000000000000001", "1e400", "1e-400", "12345678901234567e-3", "123456789012345678901234567890"} {
		_, err := ValueFromTerraform(tftypes.NewValue(tftypes.Number, parse(s)))
		if err == nil || !strings.Contains(err.Error(), "does not fit a float64") {
			t.Errorf("%s: got %v, want an error", s, err)
		}
	}
	// Infinities are Terraform numbers.
	v, err := ValueFromTerraform(tftypes.NewValue(tftypes.Number, new(big.Float).SetInf(true)))
	if err != nil || v.AsNumber() != math.Inf(-1) {
		t.Errorf("-Inf: %v, %v", v, err)
	}
}

func TestDynamic(t *testing.T) {
	cases := []property.Value{
		str("s"), num(2), property.New(true), {},
		property.New(property.Computed),
		arr(),
		arr(str("a"), num(1), arr(property.Value{})),
		pmap(map[string]property.Value{}),
		pmap(map[string]property.Value{"snake_case": pmap(map[string]property.Value{"x": property.Value{}}), "b": arr(property.New(property.Computed))}),
	}
	for _, c := range cases {
		tv, err := ValueToTerraform(tftypes.DynamicPseudoType, c)
		if err != nil {
			t.Fatalf("%v: %v", c, err)
		}
		dv, err := tfprotov6.NewDynamicValue(tftypes.DynamicPseudoType, tv)
		if err != nil {
			t.Fatalf("%v: %v", c, err)
		}
		back, err := dv.Unmarshal(tftypes.DynamicPseudoType)
		if err != nil {
			t.Fatalf("%v: %v", c, err)
		}
		got, err := ValueFromTerraformOf(tftypes.DynamicPseudoType, back)
		if err != nil {
			t.Fatalf("%v: %v", c, err)
		}
		if !got.Equals(c) {
			t.Errorf("got %v, want %v", got, c)
		}
	}
	tv, err := ValueToTerraform(tftypes.DynamicPseudoType, pmap(map[string]property.Value{"a": arr(str("x"), num(1))}))
	if err != nil {
		t.Fatal(err)
	}
	want := obj(map[string]tftypes.Type{"a": tftypes.Tuple{ElementTypes: []tftypes.Type{tftypes.String, tftypes.Number}}})
	if !tv.Type().Equal(want) {
		t.Errorf("inferred %v, want %v", tv.Type(), want)
	}
	// A value built in Go with DynamicPseudoType as its type.
	if v, err := ValueFromTerraform(tftypes.NewValue(tftypes.DynamicPseudoType, "x")); err != nil || !v.Equals(str("x")) {
		t.Errorf("Go-built dynamic: %v, %v", v, err)
	}
}

func TestValueTypes(t *testing.T) {
	typ := tftypes.Object{AttributeTypes: map[string]tftypes.Type{
		"first_name": tftypes.String,
		"scores":     tftypes.Map{ElementType: tftypes.List{ElementType: tftypes.Number}},
	}, OptionalAttributes: map[string]struct{}{"scores": {}}}
	in := pmap(map[string]property.Value{
		"firstName": str("a"),
		"scores":    pmap(map[string]property.Value{"snake_key": arr(num(1), num(2))}),
	})
	tv, err := ValueToTerraform(typ, in)
	if err != nil {
		t.Fatal(err)
	}
	var attrs map[string]tftypes.Value
	if err := tv.As(&attrs); err != nil {
		t.Fatal(err)
	}
	if _, ok := attrs["first_name"]; !ok {
		t.Errorf("first_name missing: %v", tv)
	}
	got, err := ValueFromTerraform(tv)
	if err != nil || !got.Equals(in) {
		t.Errorf("got %v, %v; want %v", got, err, in)
	}
	if _, err := ValueToTerraform(tftypes.List{ElementType: tftypes.Bool}, arr(property.New(true), str("x"))); err == nil || !strings.HasPrefix(err.Error(), "[1]: expected a bool") {
		t.Errorf("got %v", err)
	}
	if _, err := ValueToTerraform(nil, str("x")); err == nil {
		t.Errorf("nil type: no error")
	}
}

func TestPropertyPath(t *testing.T) {
	block := testBlock()
	p := tftypes.NewAttributePath
	cases := []struct {
		path *tftypes.AttributePath
		want string
	}{
		{nil, ""},
		{p(), ""},
		{p().WithAttributeName("offset_days"), "offsetDays"},
		{p().WithAttributeName("foo_bar"), "foo_bar"},
		{p().WithAttributeName("urn"), "urn_"},
		{p().WithAttributeName("rule").WithElementKeyInt(0).WithAttributeName("foo_bar"), "rule[0].fooBar"},
		{p().WithAttributeName("rule").WithElementKeyInt(2).WithAttributeName("sub_rule").WithElementKeyValue(tftypes.NewValue(tftypes.String, "x")).WithAttributeName("foo_bar"), "rule[2].subRule"},
		{p().WithAttributeName("triggers").WithElementKeyString("a"), `triggers["a"]`},
		{p().WithAttributeName("triggers").WithElementKeyString(`a "b"`), `triggers["a \"b\""]`},
		{p().WithAttributeName("map_nested").WithElementKeyString("k_1").WithAttributeName("secret_value"), `mapNested["k_1"].secretValue`},
		{p().WithAttributeName("settings").WithAttributeName("sub_items").WithElementKeyInt(1).WithAttributeName("item_name"), "settings.subItems[1].itemName"},
		{p().WithAttributeName("anything").WithAttributeName("snake_key").WithElementKeyInt(0), "anything.snake_key[0]"},
		{p().WithAttributeName("group_block").WithAttributeName("list_in_group").WithElementKeyInt(0).WithAttributeName("secret_value"), "groupBlock.listInGroup[0].secretValue"},
		{p().WithAttributeName("pair").WithElementKeyInt(1), "pair[1]"},
		{p().WithAttributeName("unknown_attr").WithAttributeName("deeper_name"), "unknown_attr.deeper_name"},
	}
	for _, c := range cases {
		got := PropertyPath(block, c.path)
		if got != c.want {
			t.Errorf("PropertyPath(%v) = %q, want %q", c.path, got, c.want)
		}
		if got == "" {
			continue
		}
		if _, err := resource.ParsePropertyPath(got); err != nil {
			t.Errorf("%q does not parse: %v", got, err)
		}
	}
}
