package schema

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/pulumi/pulumi/sdk/v3/go/property"
)

const src = `
name: pkg
types:
  pkg:index:Colour:
    type: string
    enum: [{value: red}, {value: blue}]
  pkg:index:Point:
    type: object
    properties:
      x: {type: integer}
    required: [x]
resources:
  pkg:index:Thing:
    inputProperties:
      name: {type: string}
      count: {type: integer, minimum: 1, maximum: 10}
      ratio: {type: number}
      on: {type: boolean}
      tags: {type: array, items: {type: string}}
      labels: {type: object, additionalProperties: {type: string}}
      colour: {$ref: "#/types/pkg:index:Colour"}
      at: {$ref: "#/types/pkg:index:Point"}
      other: {$ref: "#/resources/pkg:index:Thing"}
      any: {$ref: "pulumi.json#/Any"}
    requiredInputs: [name]
`

func TestLoad(t *testing.T) {
	t.Parallel()
	p, err := Load([]byte(src))
	if err != nil {
		t.Fatal(err)
	}
	var doc map[string]any
	if err := json.Unmarshal(p.JSON(), &doc); err != nil || doc["name"] != "pkg" {
		t.Fatalf("JSON() = %s (%v)", p.JSON(), err)
	}
	if _, ok := p.Resource("pkg:index:Thing"); !ok {
		t.Fatal("resource missing")
	}
}

func TestLoadErrors(t *testing.T) {
	t.Parallel()
	cases := map[string]string{
		"not yaml":     "name: [",
		"no name":      "resources: {}",
		"dangling ref": "name: p\nresources:\n  p:index:R:\n    inputProperties:\n      a: {$ref: '#/types/p:index:Nope'}\n",
		"bad method":   "name: p\nresources:\n  p:index:R:\n    isComponent: true\n    methods: {m: 'p:index:R/m'}\n",
	}
	for name, s := range cases {
		if _, err := Load([]byte(s)); err == nil {
			t.Errorf("%s: Load succeeded", name)
		}
	}
}

// Mistakes the CLI's schema binder refuses are refused at Load, naming
// where they are.
func TestLoadNamesSchemaMistakes(t *testing.T) {
	t.Parallel()
	cases := []struct{ schema, want string }{
		{"resources:\n  p:index:R:\n    inputProperties:\n      a: {type: strng}\n",
			`p:index:R.a: unknown type "strng"`},
		{"resources:\n  p:index:R:\n    properties:\n      a: {type: array, items: {type: int}}\n",
			`p:index:R.a: unknown type "int"`},
		{"resources:\n  p:index:R:\n    inputProperties:\n      name: {type: string}\n    requiredInputs: [nmae]\n",
			`p:index:R: requiredInputs names "nmae", which is not among its properties`},
		{"resources:\n  p:index:R:\n    properties:\n      url: {type: string}\n    required: [uri]\n",
			`p:index:R: required names "uri", which is not among its properties`},
		{"config:\n  variables:\n    region: {type: string}\n  required: [regoin]\n",
			`config: required names "regoin"`},
		{"types:\n  p:index:T:\n    type: strin\n    enum: [{value: a}]\n",
			`p:index:T: unknown type "strin"`},
		{"functions:\n  p:index:f:\n    inputs:\n      properties:\n        a: {type: string}\n      required: [b]\n",
			`p:index:f inputs: required names "b"`},
	}
	for _, tc := range cases {
		_, err := Load([]byte("name: p\n" + tc.schema))
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("Load(%q) = %v, want an error containing %q", tc.schema, err, tc.want)
		}
	}
}

func TestCheck(t *testing.T) {
	t.Parallel()
	p, err := Load([]byte(src))
	if err != nil {
		t.Fatal(err)
	}
	obj := p.Resources["pkg:index:Thing"].Inputs()
	ok := func(kv map[string]property.Value) property.Map {
		kv["name"] = property.New("n")
		return property.NewMap(kv)
	}
	ref := property.New(property.ResourceReference{URN: "urn:pulumi:s::p::pkg:index:Thing::t"})
	cases := []struct {
		name string
		in   property.Map
		want string // "" = valid
	}{
		{"valid", ok(map[string]property.Value{"count": property.New(2.0), "colour": property.New("red"), "other": ref}), ""},
		{"unknowns are not checked", ok(map[string]property.Value{"count": property.New(property.Computed)}), ""},
		{"null outputs are ignored", ok(map[string]property.Value{"output": property.New(property.Null)}), ""},
		{"missing required", property.NewMap(map[string]property.Value{}), `name: missing required property "name"`},
		{"wrong type", ok(map[string]property.Value{"on": property.New("yes")}), `on: expected a boolean, got "yes"`},
		{"not an integer", ok(map[string]property.Value{"count": property.New(1.5)}), "count: expected an integer, got 1.5"},
		{"below minimum", ok(map[string]property.Value{"count": property.New(0.0)}), "count: 0 is below the minimum 1"},
		{"above maximum", ok(map[string]property.Value{"count": property.New(11.0)}), "count: 11 is above the maximum 10"},
		{"array element", ok(map[string]property.Value{"tags": property.New([]property.Value{property.New(1.0)})}), "tags[0]: expected a string"},
		{"map value", ok(map[string]property.Value{"labels": property.New(map[string]property.Value{"k": property.New(true)})}), `labels["k"]: expected a string`},
		{"enum", ok(map[string]property.Value{"colour": property.New("green")}), `colour: "green" is not a valid pkg:index:Colour; allowed: ["blue" "red"]`},
		{"nested object", ok(map[string]property.Value{"at": property.New(map[string]property.Value{})}), `at.x: missing required property "x"`},
		{"unknown property", ok(map[string]property.Value{"colr": property.New("red")}), `colr: unknown property "colr"`},
		{"wrong resource type", ok(map[string]property.Value{"other": property.New(property.ResourceReference{URN: "urn:pulumi:s::p::pkg:index:Other::o"})}), "other: expected a reference to a pkg:index:Thing resource"},
		{"large numbers print in full", ok(map[string]property.Value{"count": property.New(31536001.0)}), "count: 31536001 is above the maximum 10"},
		{"secret number is not printed", ok(map[string]property.Value{"count": property.New(987654321.0).WithSecret(true)}), "count: the secret value is above the maximum 10"},
		{"secret is not printed", ok(map[string]property.Value{"count": property.New("hunter2").WithSecret(true)}), "count: expected an integer, got a secret string"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			fs := p.Check(obj, tc.in)
			var got []string
			for _, f := range fs {
				got = append(got, f.String())
			}
			joined := strings.Join(got, "; ")
			if tc.want == "" {
				if len(fs) != 0 {
					t.Fatalf("failures: %s", joined)
				}
				return
			}
			if !strings.Contains(joined, tc.want) {
				t.Errorf("failures %q, want %q", joined, tc.want)
			}
		})
	}
}
