package tfschema

import (
	"bytes"
	"flag"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/hashicorp/terraform-plugin-go/tfprotov6"
	"github.com/hashicorp/terraform-plugin-go/tftypes"

	"github.com/polyhost/polyhost/host/schema"
	"github.com/polyhost/polyhost/host/terraform/internal/tfvalue"
)

var update = flag.Bool("update", false, "rewrite the golden schemas in testdata")

func golden(t *testing.T, name string, got []byte) {
	t.Helper()
	file := filepath.Join("testdata", name)
	if *update {
		if err := os.WriteFile(file, got, 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(got, want) {
		t.Errorf("%s differs from the schema built (go test -run %s -update to rewrite it):\n%s", file, t.Name(), got)
	}
}

func mustBuild(t *testing.T, resp *tfprotov6.GetProviderSchemaResponse, opts Options) *Package {
	t.Helper()
	p, err := Build(resp, opts)
	if err != nil {
		t.Fatal(err)
	}
	// Build loads it; so must a caller.
	if _, err := schema.LoadJSON(p.JSON); err != nil {
		t.Fatalf("LoadJSON: %v", err)
	}
	for _, pr := range p.Schema.LanguageProblems() {
		t.Errorf("language problem: %s (%s)", pr, pr.Language)
	}
	return p
}

func TestTimeProvider(t *testing.T) {
	p := mustBuild(t, timeSchema(), Options{Name: "time", Prefix: "time", Version: "0.14.2"})
	golden(t, "time.json", p.JSON)
	wantRes := map[string]string{
		"time:index:Offset": "time_offset", "time:index:Rotating": "time_rotating",
		"time:index:Sleep": "time_sleep", "time:index:Static": "time_static",
	}
	if !maps.Equal(p.Resources, wantRes) {
		t.Errorf("Resources = %v, want %v", p.Resources, wantRes)
	}
	fn, ok := p.Functions["time:index:rfc3339Parse"]
	if !ok || fn.Name != "rfc3339_parse" || !fn.Flat || !slices.Equal(fn.Parameters, []string{"timestamp"}) {
		t.Errorf("rfc3339Parse = %+v, %v", fn, ok)
	}
	off := p.Schema.Resources["time:index:Offset"]
	if _, ok := off.InputProperties["offsetDays"]; !ok {
		t.Errorf("Offset inputs: %v", slices.Sorted(maps.Keys(off.InputProperties)))
	}
	if _, ok := off.Properties["id"]; ok {
		t.Errorf("Offset has an id property")
	}
	if _, ok := off.InputProperties["day"]; ok {
		t.Errorf("the computed-only day is an input")
	}
	if got := off.Properties["triggers"]; got.Type != "object" || got.AdditionalProperties == nil || got.AdditionalProperties.Type != "string" {
		t.Errorf("triggers = %+v", got)
	}
	if len(p.Problems) != 0 {
		t.Errorf("Problems = %v", p.Problems)
	}
}

var inner = []*tfprotov6.SchemaAttribute{
	{Name: "foo_bar", Type: tftypes.String, Required: true, Description: "A `foo`."},
	{Name: "secret_value", Type: tftypes.String, Optional: true, Sensitive: true},
	{Name: "computed_value", Type: tftypes.Number, Computed: true},
}

func nested(mode tfprotov6.SchemaObjectNestingMode) *tfprotov6.SchemaObject {
	return &tfprotov6.SchemaObject{Nesting: mode, Attributes: inner}
}

func nestedBlock(name string, mode tfprotov6.SchemaNestedBlockNestingMode, min int64, more ...*tfprotov6.SchemaNestedBlock) *tfprotov6.SchemaNestedBlock {
	return &tfprotov6.SchemaNestedBlock{TypeName: name, Nesting: mode, MinItems: min,
		Block: &tfprotov6.SchemaBlock{Attributes: inner, BlockTypes: more, Description: "The " + name + " block."}}
}

// coverage covers every nesting mode, nested attributes, object types,
// sensitive, deprecated, write-only, dynamic, a data source and functions.
func coverage() *tfprotov6.GetProviderSchemaResponse {
	return &tfprotov6.GetProviderSchemaResponse{
		Provider: &tfprotov6.Schema{Block: &tfprotov6.SchemaBlock{Attributes: []*tfprotov6.SchemaAttribute{
			{Name: "api_token", Type: tftypes.String, Required: true, Sensitive: true, Description: "The token."},
			{Name: "endpoint", Type: tftypes.String, Optional: true},
			{Name: "retry_count", Type: tftypes.Number, Optional: true},
			{Name: "assume_role", NestedType: nested(tfprotov6.SchemaObjectNestingModeSingle), Optional: true},
		}}},
		ResourceSchemas: map[string]*tfprotov6.Schema{
			"cov_thing": {Block: &tfprotov6.SchemaBlock{
				Description: "A **thing**.",
				Attributes: []*tfprotov6.SchemaAttribute{
					{Name: "id", Type: tftypes.String, Computed: true},
					{Name: "name", Type: tftypes.String, Required: true},
					{Name: "size_gb", Type: tftypes.Number, Optional: true, Computed: true},
					{Name: "enabled", Type: tftypes.Bool, Optional: true, Deprecated: true, DeprecationMessage: "Use state."},
					{Name: "old_flag", Type: tftypes.Bool, Optional: true, Deprecated: true},
					{Name: "arn", Type: tftypes.String, Computed: true},
					{Name: "password_wo", Type: tftypes.String, Optional: true, WriteOnly: true, Sensitive: true},
					{Name: "tags", Type: tftypes.List{ElementType: tftypes.String}, Optional: true},
					{Name: "ports", Type: tftypes.Set{ElementType: tftypes.Number}, Optional: true},
					{Name: "labels", Type: tftypes.Map{ElementType: tftypes.String}, Optional: true},
					{Name: "pair", Type: tftypes.Tuple{ElementTypes: []tftypes.Type{tftypes.String, tftypes.Number}}, Optional: true},
					{Name: "anything", Type: tftypes.DynamicPseudoType, Optional: true},
					{Name: "settings", Type: tftypes.Object{AttributeTypes: map[string]tftypes.Type{
						"max_size":  tftypes.Number,
						"sub_items": tftypes.List{ElementType: tftypes.Object{AttributeTypes: map[string]tftypes.Type{"item_name": tftypes.String}}},
					}}, Optional: true},
					{Name: "single_nested", NestedType: nested(tfprotov6.SchemaObjectNestingModeSingle), Optional: true},
					{Name: "list_nested", NestedType: nested(tfprotov6.SchemaObjectNestingModeList), Optional: true},
					{Name: "set_nested", NestedType: nested(tfprotov6.SchemaObjectNestingModeSet), Computed: true},
					{Name: "map_nested", NestedType: nested(tfprotov6.SchemaObjectNestingModeMap), Required: true},
					{Name: "urn", Type: tftypes.String, Computed: true},
				},
				BlockTypes: []*tfprotov6.SchemaNestedBlock{
					nestedBlock("single_block", tfprotov6.SchemaNestedBlockNestingModeSingle, 0),
					nestedBlock("rule", tfprotov6.SchemaNestedBlockNestingModeList, 1,
						nestedBlock("sub_rule", tfprotov6.SchemaNestedBlockNestingModeSet, 0)),
					nestedBlock("set_block", tfprotov6.SchemaNestedBlockNestingModeSet, 0),
					nestedBlock("map_block", tfprotov6.SchemaNestedBlockNestingModeMap, 0),
					nestedBlock("group_block", tfprotov6.SchemaNestedBlockNestingModeGroup, 0),
				},
			}},
			// Object is a name TypeScript refuses for a class.
			"cov_object": {Block: &tfprotov6.SchemaBlock{Attributes: []*tfprotov6.SchemaAttribute{
				{Name: "key", Type: tftypes.String, Required: true},
			}}},
			// Its type ThingRule would be the Thing's block rule's.
			"cov_thing_rule": {Block: &tfprotov6.SchemaBlock{Deprecated: true, Attributes: []*tfprotov6.SchemaAttribute{
				{Name: "value", Type: tftypes.String, Optional: true},
			}}},
		},
		DataSourceSchemas: map[string]*tfprotov6.Schema{
			"cov_lookup": {Block: &tfprotov6.SchemaBlock{
				Description: "Looks a thing up.",
				Attributes: []*tfprotov6.SchemaAttribute{
					{Name: "id", Type: tftypes.String, Optional: true, Computed: true},
					{Name: "name_regex", Type: tftypes.String, Required: true},
					{Name: "result_count", Type: tftypes.Number, Computed: true},
					{Name: "items", NestedType: nested(tfprotov6.SchemaObjectNestingModeList), Computed: true},
				},
				BlockTypes: []*tfprotov6.SchemaNestedBlock{
					nestedBlock("filter", tfprotov6.SchemaNestedBlockNestingModeList, 0),
				},
			}},
		},
		Functions: map[string]*tfprotov6.Function{
			"parse_thing": {
				Summary: "Parses a thing.",
				Parameters: []*tfprotov6.FunctionParameter{
					{Name: "input", Type: tftypes.String, Description: "The text."},
					{Name: "strict_mode", Type: tftypes.Bool, AllowNullValue: true},
				},
				Return: &tfprotov6.FunctionReturn{Type: tftypes.Object{AttributeTypes: map[string]tftypes.Type{
					"thing_name": tftypes.String,
					"parts":      tftypes.List{ElementType: tftypes.Object{AttributeTypes: map[string]tftypes.Type{"part_no": tftypes.Number}}},
				}}},
			},
			"join_all": {
				Description:        "Joins.",
				Parameters:         []*tfprotov6.FunctionParameter{{Name: "separator", Type: tftypes.String}},
				VariadicParameter:  &tfprotov6.FunctionParameter{Name: "values", Type: tftypes.DynamicPseudoType, Description: "What to join."},
				Return:             &tfprotov6.FunctionReturn{Type: tftypes.String},
				DeprecationMessage: "Use join.",
			},
		},
	}
}

func TestCoverage(t *testing.T) {
	resp := coverage()
	p := mustBuild(t, resp, Options{Name: "cov", Prefix: "cov", Version: "1.2.3"})
	golden(t, "coverage.json", p.JSON)

	if !maps.Equal(p.Resources, map[string]string{"cov:index:Thing": "cov_thing", "cov:index:ObjectResource": "cov_object", "cov:index:ThingRule": "cov_thing_rule"}) {
		t.Errorf("Resources = %v", p.Resources)
	}
	if !maps.Equal(p.DataSources, map[string]string{"cov:index:getLookup": "cov_lookup"}) {
		t.Errorf("DataSources = %v", p.DataSources)
	}
	wantFns := map[string]Function{
		"cov:index:parseThing": {Name: "parse_thing", Parameters: []string{"input", "strictMode"}, Flat: true},
		"cov:index:joinAll":    {Name: "join_all", Parameters: []string{"separator"}, Variadic: "values"},
	}
	for tok, w := range wantFns {
		g := p.Functions[tok]
		if g.Name != w.Name || !slices.Equal(g.Parameters, w.Parameters) || g.Variadic != w.Variadic || g.Flat != w.Flat {
			t.Errorf("%s = %+v, want %+v", tok, g, w)
		}
	}

	s := p.Schema
	thing := s.Resources["cov:index:Thing"]
	sorted := func(m map[string]schema.Property) []string { return slices.Sorted(maps.Keys(m)) }
	if got := sorted(thing.InputProperties); !slices.Equal(got, []string{"anything", "enabled", "groupBlock", "labels", "listNested", "mapBlock",
		"mapNested", "name", "oldFlag", "pair", "passwordWo", "ports", "rule", "setBlock", "settings", "singleBlock", "singleNested", "sizeGb", "tags"}) {
		t.Errorf("inputs %v", got)
	}
	if got := sorted(thing.Properties); !slices.Equal(got, []string{"anything", "arn", "enabled", "groupBlock", "labels", "listNested", "mapBlock",
		"mapNested", "name", "oldFlag", "pair", "ports", "rule", "setBlock", "setNested", "settings", "singleBlock", "singleNested", "sizeGb", "tags", "urn_"}) {
		t.Errorf("outputs %v", got)
	}
	if got := thing.RequiredInputs; !slices.Equal(got, []string{"mapNested", "name", "rule"}) {
		t.Errorf("requiredInputs %v", got)
	}
	if got := thing.Required; !slices.Equal(got, []string{"groupBlock", "mapBlock", "mapNested", "name", "rule", "setBlock"}) {
		t.Errorf("required %v", got)
	}
	if !thing.InputProperties["passwordWo"].Secret {
		t.Errorf("passwordWo is not secret")
	}
	if d := thing.Properties["enabled"].DeprecationMessage; d != "Use state." {
		t.Errorf("enabled deprecation %q", d)
	}
	if d := thing.Properties["oldFlag"].DeprecationMessage; d == "" {
		t.Errorf("oldFlag has no deprecation")
	}
	if d := s.Resources["cov:index:ThingRule"].DeprecationMessage; d == "" {
		t.Errorf("ThingRule has no deprecation")
	}
	if thing.Description != "A **thing**." {
		t.Errorf("description %q", thing.Description)
	}
	for prop, want := range map[string]string{
		"anything":     `{"$ref":"pulumi.json#/Any"}`,
		"pair":         `array of {"$ref":"pulumi.json#/Any"}`,
		"settings":     `{"$ref":"#/types/cov:index:ThingSettings"}`,
		"singleNested": `{"$ref":"#/types/cov:index:ThingSingleNested"}`,
		"listNested":   `array of {"$ref":"#/types/cov:index:ThingListNested"}`,
		"mapNested":    `map of {"$ref":"#/types/cov:index:ThingMapNested"}`,
		"singleBlock":  `{"$ref":"#/types/cov:index:ThingSingleBlock"}`,
		"rule":         `array of {"$ref":"#/types/cov:index:ThingRule2"}`,
		"mapBlock":     `map of {"$ref":"#/types/cov:index:ThingMapBlock"}`,
		"groupBlock":   `{"$ref":"#/types/cov:index:ThingGroupBlock"}`,
		"ports":        `array of number`,
		"labels":       `map of string`,
	} {
		if got := describe(thing.Properties[prop]); got != want {
			t.Errorf("%s: %s, want %s", prop, got, want)
		}
	}
	subRule := s.Types["cov:index:ThingRule2"].Properties["subRule"]
	if got := describe(subRule); got != `array of {"$ref":"#/types/cov:index:ThingRule2SubRule"}` {
		t.Errorf("subRule: %s", got)
	}
	nestedT := s.Types["cov:index:ThingListNested"]
	if !nestedT.Properties["secretValue"].Secret || !slices.Equal(nestedT.Required, []string{"fooBar"}) {
		t.Errorf("ThingListNested = %+v", nestedT)
	}
	if got := describe(s.Types["cov:index:ThingSettings"].Properties["subItems"]); got != `array of {"$ref":"#/types/cov:index:ThingSettingsSubItems"}` {
		t.Errorf("settings.subItems: %s", got)
	}

	// The provider: config and inputs alike; string outputs.
	if got := sorted(s.Config.Variables); !slices.Equal(got, []string{"apiToken", "assumeRole", "endpoint", "retryCount"}) {
		t.Errorf("config %v", got)
	}
	if !slices.Equal(s.Config.Required, []string{"apiToken"}) || !slices.Equal(s.Provider.RequiredInputs, []string{"apiToken"}) {
		t.Errorf("required config %v, %v", s.Config.Required, s.Provider.RequiredInputs)
	}
	if got := sorted(s.Provider.Properties); !slices.Equal(got, []string{"apiToken", "endpoint"}) {
		t.Errorf("provider outputs %v", got)
	}
	if !s.Config.Variables["apiToken"].Secret {
		t.Errorf("apiToken is not secret")
	}

	lookup := s.Functions["cov:index:getLookup"]
	if got := sorted(lookup.Inputs.Properties); !slices.Equal(got, []string{"filter", "id", "nameRegex"}) {
		t.Errorf("getLookup inputs %v", got)
	}
	if got := sorted(lookup.Outputs.Properties); !slices.Equal(got, []string{"filter", "id", "items", "nameRegex", "resultCount"}) {
		t.Errorf("getLookup outputs %v", got)
	}
	if got := describe(lookup.Outputs.Properties["items"]); got != `array of {"$ref":"#/types/cov:index:GetLookupItems"}` {
		t.Errorf("getLookup items: %s", got)
	}
	parse := s.Functions["cov:index:parseThing"]
	if !slices.Equal(parse.Inputs.Required, []string{"input"}) || parse.Description != "Parses a thing." {
		t.Errorf("parseThing = %+v", parse)
	}
	if got := sorted(parse.Outputs.Properties); !slices.Equal(got, []string{"parts", "thingName"}) {
		t.Errorf("parseThing outputs %v", got)
	}
	join := s.Functions["cov:index:joinAll"]
	if got := describe(join.Inputs.Properties["values"]); got != `array of {"$ref":"pulumi.json#/Any"}` || join.DeprecationMessage != "Use join." {
		t.Errorf("joinAll = %+v", join)
	}
	if got := describe(join.Outputs.Properties["result"]); got != "string" || !slices.Equal(join.Outputs.Required, []string{"result"}) {
		t.Errorf("joinAll result %s, %v", got, join.Outputs.Required)
	}

	// The schema's names are the values': the top-level properties of each
	// resource are tfvalue's names of its attributes and blocks.
	for tok, tf := range p.Resources {
		blk := resp.ResourceSchemas[tf].Block
		var names []string
		for _, a := range blk.Attributes {
			names = append(names, a.Name)
		}
		for _, b := range blk.BlockTypes {
			names = append(names, b.TypeName)
		}
		want := map[string]bool{}
		for tfName, prop := range tfvalue.PropertyNames(names) {
			if tfName != "id" {
				want[prop] = true
			}
		}
		r := s.Resources[tok]
		got := map[string]bool{}
		for k := range r.Properties {
			got[k] = true
		}
		for k := range r.InputProperties {
			got[k] = true
		}
		if !maps.Equal(got, want) {
			t.Errorf("%s: properties %v, tfvalue's names %v", tok, slices.Sorted(maps.Keys(got)), slices.Sorted(maps.Keys(want)))
		}
	}
}

// describe renders a property's type compactly.
func describe(p schema.Property) string {
	switch {
	case p.Ref != "":
		return `{"$ref":"` + p.Ref + `"}`
	case p.Type == "array" && p.Items != nil:
		return "array of " + describe(*p.Items)
	case p.Type == "object" && p.AdditionalProperties != nil:
		return "map of " + describe(*p.AdditionalProperties)
	}
	return p.Type
}

func TestDeterministic(t *testing.T) {
	a, err := Build(coverage(), Options{Name: "cov", Prefix: "cov"})
	if err != nil {
		t.Fatal(err)
	}
	for range 5 {
		b, err := Build(coverage(), Options{Name: "cov", Prefix: "cov"})
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(a.JSON, b.JSON) {
			t.Fatal("two builds differ")
		}
	}
}

func TestNamingProblems(t *testing.T) {
	resp := &tfprotov6.GetProviderSchemaResponse{
		ResourceSchemas: map[string]*tfprotov6.Schema{
			// Both keep their Terraform names; Python names both foo_bar.
			"x_clash": {Block: &tfprotov6.SchemaBlock{Attributes: []*tfprotov6.SchemaAttribute{
				{Name: "foo_bar", Type: tftypes.String, Optional: true},
				{Name: "fooBar", Type: tftypes.String, Optional: true},
			}}},
			// Tokens that collide get numbers.
			"x_a_b":  {Block: &tfprotov6.SchemaBlock{}},
			"x_a__b": {Block: &tfprotov6.SchemaBlock{}},
			// A Python file the generator writes itself; a Go file too.
			"x_outputs": {Block: &tfprotov6.SchemaBlock{Attributes: []*tfprotov6.SchemaAttribute{
				{Name: "o", Type: tftypes.Object{AttributeTypes: map[string]tftypes.Type{"a": tftypes.String}}, Computed: true},
			}}},
			"x_init": {Block: &tfprotov6.SchemaBlock{}},
			"x":      {Block: &tfprotov6.SchemaBlock{}},
			"2fa":    {Block: &tfprotov6.SchemaBlock{}},
		},
		Functions: map[string]*tfprotov6.Function{
			"delete": {Return: &tfprotov6.FunctionReturn{Type: tftypes.String}},
		},
	}
	p, err := Build(resp, Options{Name: "x", Prefix: "x"})
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]string{
		"x:index:Clash": "x_clash", "x:index:AB": "x_a__b", "x:index:AB2": "x_a_b",
		"x:index:OutputsResource": "x_outputs", "x:index:InitResource": "x_init", "x:index:X": "x", "x:index:_2fa": "2fa",
	}
	if !maps.Equal(p.Resources, want) {
		t.Errorf("Resources = %v, want %v", p.Resources, want)
	}
	if _, ok := p.Functions["x:index:deleteFn"]; !ok {
		t.Errorf("Functions = %v", p.Functions)
	}
	if len(p.Problems) != 1 || p.Problems[0].Token != "x:index:Clash" || p.Problems[0].Language != schema.Python {
		t.Errorf("Problems = %v", p.Problems)
	}
}

func TestBuildErrors(t *testing.T) {
	cases := []struct {
		resp *tfprotov6.GetProviderSchemaResponse
		opts Options
		want string
	}{
		{nil, Options{Name: "x"}, "no provider schema"},
		{&tfprotov6.GetProviderSchemaResponse{}, Options{}, "no package name"},
		{&tfprotov6.GetProviderSchemaResponse{Diagnostics: []*tfprotov6.Diagnostic{{Severity: tfprotov6.DiagnosticSeverityError, Summary: "broken"}}},
			Options{Name: "x"}, "broken"},
		{&tfprotov6.GetProviderSchemaResponse{Functions: map[string]*tfprotov6.Function{"f": {Parameters: []*tfprotov6.FunctionParameter{
			{Name: "a", Type: tftypes.String}, {Name: "a", Type: tftypes.String}}}}}, Options{Name: "x"}, "function f (x:index:f): two parameters"},
		{&tfprotov6.GetProviderSchemaResponse{Functions: map[string]*tfprotov6.Function{"f": nil}}, Options{Name: "x"}, "function f (x:index:f): no definition"},
	}
	for _, c := range cases {
		_, err := Build(c.resp, c.opts)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("Build: %v, want %q", err, c.want)
		}
	}
}
