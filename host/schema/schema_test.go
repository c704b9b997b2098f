package schema

import (
	_ "embed"
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"github.com/pulumi/pulumi/sdk/v3/go/common/resource/archive"
	"github.com/pulumi/pulumi/sdk/v3/go/common/resource/asset"
	"github.com/pulumi/pulumi/sdk/v3/go/common/resource/urn"
	"github.com/pulumi/pulumi/sdk/v3/go/property"
)

// src is a package of each kind of property.
//
//go:embed testdata/pkg.yaml
var src string

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
		{"config:\n  variables:\n    region: {type: string}\n  defaults: [regoin]\n",
			`config: defaults (its required variables) names "regoin"`},
		{"resources:\n  p:Thing: {}\n", "resource p:Thing: not a token of the form pkg:module:Name"},
		{"resources:\n  other:index:Thing: {}\n", `resource other:index:Thing: the token's package is "other", not "p"`},
		{"resources:\n  p:index/x:Thing: {}\n", "resource p:index/x:Thing: modules cannot nest under index"},
		{"resources:\n  p:index:Thing:\n    inputProperties: {names: {type: array}}\n", "p:index:Thing.names: an array needs items"},
		{"types:\n  p:index:Size: {type: integer, enum: [{value: small}]}\n", "p:index:Size: enum value 0 (small) is not of type integer"},
		{"resources:\n  p:index:Thing: {isComponent: true, methods: {m: p:index:other}}\nfunctions:\n  p:index:other: {inputs: {properties: {__self__: {type: string}}}}\n",
			`method "m" names function "p:index:other", which is not of the form p:index:Thing/<method name>`},
		{"resources:\n  p:index:Thing: {isComponent: true, methods: {m: p:index:Thing/m}}\nfunctions:\n  p:index:Thing/m: {inputs: {properties: {x: {type: string}}}}\n",
			`method "m": function "p:index:Thing/m" has no __self__ input`},
		{"types:\n  p:index:T:\n    type: strin\n    enum: [{value: a}]\n",
			`p:index:T: unknown type "strin"`},
		{"functions:\n  p:index:f:\n    inputs:\n      properties:\n        a: {type: string}\n      required: [b]\n",
			`p:index:f inputs: required names "b"`},
		{"resources:\n  p:index:R:\n    inputProperties:\n      a: {$ref: '#/resources/p:mod%2Fsub:Nope'}\n",
			`p:index:R.a: $ref "#/resources/p:mod%2Fsub:Nope": no such resource`},
		{"types:\n  p:mod/sub:T: {type: object}\nfunctions:\n  p:index:f:\n    outputs:\n      properties:\n        a: {$ref: '#/types/p:mod%2Fsub:U'}\n",
			`p:index:f outputs.a: $ref "#/types/p:mod%2Fsub:U": no such type`},
		{"meta: {moduleFormat: '(.*'}\n", "meta.moduleFormat: error parsing regexp"},
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
		{"an asset is an asset or an archive", ok(map[string]property.Value{"code": property.New(&archive.Archive{Path: "dir"})}), ""},
		{"not an asset", ok(map[string]property.Value{"code": property.New("x")}), `code: expected an asset or an archive, got "x"`},
		{"an archive is not an asset", ok(map[string]property.Value{"bundle": property.New(&asset.Asset{Text: "x"})}), "bundle: expected an archive, got an asset"},
		{"unknowns are not checked", ok(map[string]property.Value{"count": property.New(property.Computed)}), ""},
		{"null outputs are ignored", ok(map[string]property.Value{"output": property.New(property.Null)}), ""},
		{"missing required", property.NewMap(map[string]property.Value{}), `name: missing required property "name"`},
		{"wrong type", ok(map[string]property.Value{"on": property.New("yes")}), `on: expected a boolean, got "yes"`},
		{"not an integer", ok(map[string]property.Value{"count": property.New(1.5)}), "count: expected an integer, got 1.5"},
		{"below minimum", ok(map[string]property.Value{"count": property.New(0.0)}), "count: 0 is below the minimum 1"},
		{"above maximum", ok(map[string]property.Value{"count": property.New(11.0)}), "count: 11 is above the maximum 10"},
		{"at the minimum", ok(map[string]property.Value{"count": property.New(1.0)}), ""},
		{"at the maximum", ok(map[string]property.Value{"count": property.New(10.0)}), ""},
		{"just below the minimum", ok(map[string]property.Value{"count": property.New(0.999)}), "count: expected an integer, got 0.999"},
		{"a fraction above the maximum", ok(map[string]property.Value{"count": property.New(10.5)}), "count: expected an integer, got 10.5"},
		{"a long string is quoted by its start", ok(map[string]property.Value{"on": property.New(strings.Repeat("y", 1000))}), `on: expected a boolean, got a string of 1000 bytes, "yyyy`},
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

// A failure inside a secret (an array's element, a map's value, an
// object's field, a reference) describes the value as secret, never by its
// plaintext.
func TestCheckNeverShowsSecrets(t *testing.T) {
	t.Parallel()
	p, err := Load([]byte(src))
	if err != nil {
		t.Fatal(err)
	}
	obj := p.Resources["pkg:index:Thing"].Inputs()
	secret := func(key string, v any) property.Map {
		pv, err := property.Any(v)
		if err != nil {
			t.Fatal(err)
		}
		return property.NewMap(map[string]property.Value{"name": property.New("n"), key: pv.WithSecret(true)})
	}
	num := property.New(4242.5)
	cases := []struct {
		name   string
		in     property.Map
		want   string
		hidden string // the secret's plaintext
	}{
		{"scalar", secret("count", "hunter2"), "count: expected an integer, got a secret string", "hunter2"},
		{"array element", secret("tags", []property.Value{num}), "tags[0]: expected a string, got a secret number", "4242"},
		{"map value", secret("labels", map[string]property.Value{"k": num}), `labels["k"]: expected a string, got a secret number`, "4242"},
		{"object field", secret("at", map[string]property.Value{"x": num}), "at.x: expected an integer, got the secret value", "4242"},
		{"enum in an array", secret("tags", []property.Value{property.New(map[string]property.Value{"c": property.New("hunter2")})}), "tags[0]: expected a string, got a secret object", "hunter2"},
		{"reference to another type", secret("other", property.ResourceReference{URN: "urn:pulumi:s::p::pkg:index:Hidden::o"}), "other: expected a reference to a pkg:index:Thing resource, got a secret reference", "Hidden"},
		{"malformed reference", secret("other", property.ResourceReference{URN: "hunter2"}), "other: malformed resource reference: the secret value is not a URN", "hunter2"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			var got []string
			for _, f := range p.Check(obj, tc.in) {
				got = append(got, f.String())
			}
			joined := strings.Join(got, "; ")
			if !strings.Contains(joined, tc.want) {
				t.Errorf("failures %q, want %q", joined, tc.want)
			}
			if strings.Contains(joined, tc.hidden) {
				t.Errorf("failures %q show the secret %q", joined, tc.hidden)
			}
		})
	}
}

// modSrc is a package whose tokens have modules, with every $ref written
// as Pulumi's tools write them: a module's "/" as "%2F".
//
//go:embed testdata/modules.yaml
var modSrc string

// A $ref's token is unescaped as the CLI's binder does, in local and
// cross-package refs to types, resources and providers.
func TestResolveUnescapesTokens(t *testing.T) {
	t.Parallel()
	p, err := Load([]byte(modSrc))
	if err != nil {
		t.Fatal(err)
	}
	cases := []struct {
		ref  string
		kind refKind
		tok  string // "" = an error containing err
		err  string
	}{
		{ref: "#/types/pkg:mod%2Fsub:Point", kind: refType, tok: "pkg:mod/sub:Point"},
		{ref: "#/types/pkg:mod/sub:Point", kind: refType, tok: "pkg:mod/sub:Point"},
		{ref: "#/resources/pkg:mod%2Fsub:Thing", kind: refResource, tok: "pkg:mod/sub:Thing"},
		{ref: "#/resources/pkg:mod%2fsub:Thing", kind: refResource, tok: "pkg:mod/sub:Thing"},
		{ref: "/pkg/v1.0.0/schema.json#/types/pkg:mod%2Fsub:Kind", kind: refType, tok: "pkg:mod/sub:Kind"},
		{ref: "/random/v4.16.0/schema.json#/resources/random:index%2FrandomPet:RandomPet", kind: refResource, tok: "random:index/randomPet:RandomPet"},
		{ref: "random/v4.16.0/schema.json#/resources/random:index%2FrandomPet:RandomPet", kind: refResource, tok: "random:index/randomPet:RandomPet"},
		{ref: "/aws/v6.0.0/schema.json#/types/aws:s3%2FBucketWebsite:BucketWebsite", kind: refType, tok: "aws:s3/BucketWebsite:BucketWebsite"},
		{ref: "#/provider", kind: refResource, tok: "pulumi:providers:pkg"},
		{ref: "#/resources/pulumi:providers:pkg", kind: refResource, tok: "pulumi:providers:pkg"},
		{ref: "/random/v4.16.0/schema.json#/provider", kind: refResource, tok: "pulumi:providers:random"},
		{ref: "#/resources/pkg:mod%2Fsub:Nope", err: `$ref "#/resources/pkg:mod%2Fsub:Nope": no such resource`},
		{ref: "#/types/pkg:mod%2Fsub:Nope", err: `$ref "#/types/pkg:mod%2Fsub:Nope": no such type`},
		{ref: "/pkg/v1.0.0/schema.json#/types/pkg:mod%2Fsub:Nope", err: "no such type"},
		{ref: "#/types/pkg:mod%zzsub:Point", err: "malformed $ref"},
		{ref: "foo.json#/types/pkg:mod%2Fsub:Point", err: "malformed $ref"},
		{ref: "/other/vbanana/schema.json#/types/other:index:T", err: "malformed $ref"},
		{ref: "/other/v1.0.0/schema.json", err: "malformed $ref"},
		{ref: "/pkg/v2.0.0/schema.json#/types/pkg:mod%2Fsub:Kind", err: "names package pkg at version 2.0.0, but this schema is pkg version 1.0.0"},
		{ref: "#/providerx", err: "unsupported $ref"},
		{ref: "#/provider/x", err: "unsupported $ref"},
	}
	for _, tc := range cases {
		kind, tok, err := p.resolve(tc.ref)
		switch {
		case tc.tok == "" && (err == nil || !strings.Contains(err.Error(), tc.err)):
			t.Errorf("resolve(%q) = %v, %q, %v; want an error containing %q", tc.ref, kind, tok, err, tc.err)
		case tc.tok != "" && (err != nil || kind != tc.kind || tok != tc.tok):
			t.Errorf("resolve(%q) = %v, %q, %v; want %v, %q", tc.ref, kind, tok, err, tc.kind, tc.tok)
		}
	}
	// The refs loading resolved are kept, and resolve as they did.
	if len(p.refs) == 0 {
		t.Fatal("loading kept no resolved $refs")
	}
	for ref, r := range p.refs {
		kind, tok, err := p.resolveRef(ref)
		if kind != r.kind || tok != r.tok || fmt.Sprint(err) != fmt.Sprint(r.err) {
			t.Errorf("kept %q as %v, %q, %v; it resolves to %v, %q, %v", ref, r.kind, r.tok, r.err, kind, tok, err)
		}
	}
}

// Values are checked against the unescaped token: a reference to a
// random:index/randomPet:RandomPet matches "random:index%2FrandomPet:RandomPet".
func TestCheckModuleTokens(t *testing.T) {
	t.Parallel()
	p, err := Load([]byte(modSrc))
	if err != nil {
		t.Fatal(err)
	}
	ref := func(typ string) property.Value {
		return property.New(property.ResourceReference{URN: urn.URN("urn:pulumi:s::p::" + typ + "::r")})
	}
	point := property.New(map[string]property.Value{"x": property.New(1.0)})
	comp, thing := p.Resources["pkg:index:Comp"], p.Resources["pkg:mod/sub:Thing"]
	move := p.Functions["pkg:index:Comp/move"]
	cases := []struct {
		name string
		obj  Object
		in   map[string]property.Value
		want string // "" = valid
	}{
		{"local resource", comp.Inputs(), map[string]property.Value{"thing": ref("pkg:mod/sub:Thing")}, ""},
		{"other package's resource", comp.Inputs(), map[string]property.Value{"pet": ref("random:index/randomPet:RandomPet")}, ""},
		{"own package by path", comp.Inputs(), map[string]property.Value{"kind": property.New("a")}, ""},
		{"other package's type", comp.Inputs(), map[string]property.Value{"site": property.New(map[string]property.Value{})}, ""},
		{"array of local type", comp.Inputs(), map[string]property.Value{"points": property.New([]property.Value{point})}, ""},
		{"output", comp.Object, map[string]property.Value{"thing": ref("pkg:mod/sub:Thing")}, ""},
		{"type in a resource", thing.Inputs(), map[string]property.Value{"kind": property.New("b")}, ""},
		{"method argument", *move.Inputs, map[string]property.Value{"to": point}, ""},
		{"method result", *move.Outputs, map[string]property.Value{"thing": ref("pkg:mod/sub:Thing")}, ""},
		{"wrong local resource", comp.Inputs(), map[string]property.Value{"thing": ref("pkg:index:Comp")},
			"thing: expected a reference to a pkg:mod/sub:Thing resource, got a pkg:index:Comp"},
		{"wrong resource of another package", comp.Inputs(), map[string]property.Value{"pet": ref("random:index/randomString:RandomString")},
			"pet: expected a reference to a random:index/randomPet:RandomPet resource"},
		{"wrong enum by path", comp.Inputs(), map[string]property.Value{"kind": property.New("z")}, `kind: "z" is not a valid pkg:mod/sub:Kind`},
		{"wrong method argument", *move.Inputs, map[string]property.Value{"to": property.New("here")}, "to: expected an object of type pkg:mod/sub:Point"},
		{"wrong array element", comp.Inputs(), map[string]property.Value{"points": property.New([]property.Value{property.New(map[string]property.Value{})})},
			`points[0].x: missing required property "x"`},
	}
	for _, tc := range cases {
		var got []string
		for _, f := range p.Check(tc.obj, property.NewMap(tc.in)) {
			got = append(got, f.String())
		}
		joined := strings.Join(got, "; ")
		if tc.want == "" && joined != "" || !strings.Contains(joined, tc.want) {
			t.Errorf("%s: failures %q, want %q", tc.name, joined, tc.want)
		}
	}
	for ref, want := range map[string]string{
		"#/types/pkg:mod%2Fsub:Kind":                        "string",
		"#/types/pkg:mod%2Fsub:Point":                       "object",
		"/pkg/v1.0.0/schema.json#/types/pkg:mod%2Fsub:Kind": "string",
		"#/resources/pkg:mod%2Fsub:Thing":                   "",
	} {
		if got := p.TypeOf(Property{Ref: ref}); got != want {
			t.Errorf("TypeOf(%q) = %q, want %q", ref, got, want)
		}
	}
}
