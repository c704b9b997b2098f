package binder

import (
	"context"
	"encoding/json"
	"fmt"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/blang/semver"
	"gopkg.in/yaml.v3"

	pschema "github.com/pulumi/pulumi/pkg/v3/codegen/schema"
	pulumirpc "github.com/pulumi/pulumi/sdk/v3/proto/go"

	"github.com/polyhost/polyhost"
	"github.com/polyhost/polyhost/docs/authoring"
	"github.com/polyhost/polyhost/host"
	"github.com/polyhost/polyhost/host/hosttest"
	"github.com/polyhost/polyhost/host/schema"
	"github.com/polyhost/polyhost/tests/internal/secretbox"
	"github.com/polyhost/polyhost/tests/internal/shelf"
)

// TestServedSchemasBind binds every schema the host serves, as GetSchema
// serves it, with Pulumi's binder: no error diagnostics, and the binder
// reads every property as the host does.
func TestServedSchemasBind(t *testing.T) {
	t.Parallel()
	// tests/portal is a module of its own (on the generated sitekit SDK):
	// its schema is read from the file.
	portal, err := os.ReadFile(filepath.Join("..", "..", "..", "portal", "schema.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	served := map[string][]byte{"sitekit": polyhost.Schema, "secretbox": secretbox.Schema, "portal": portal}
	// Go-first packages: the authoring guide's and the parameterized shelf.
	for name, opts := range map[string][]host.Option{"guide": guide.Registrations(), "shelf": shelf.Options()} {
		if served[name], err = host.SchemaFromTypes(name, nil, opts...); err != nil {
			t.Fatalf("%s: %v", name, err)
		}
	}
	// shelf parameterized with a kind serves that kind's package, as
	// `pulumi package add shelf books fiction` asks for it.
	if served["books"], err = parameterizedSchema(shelf.Name, shelf.Options(), "books", "fiction"); err != nil {
		t.Fatalf("books: %v", err)
	}
	for name, src := range served {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			bound := bindServed(t, src)
			if bound.Name != name {
				t.Errorf("the binder reads package %q", bound.Name)
			}
		})
	}
	// shelf's Hook refers to portal's Gate, a token with a module, as %2F.
	bound, diags := bind(t, toJSON(t, string(served["shelf"])))
	if bound == nil {
		t.Fatalf("shelf: %s", diags)
	}
	facts := binderFacts(bound)
	for _, k := range []string{"shelf:index:Hook inputs.gate", "shelf:index:Hook.gate", "shelf:index:Hook/switch inputs.gate",
		"shelf:index:Hook/switch outputs.gate", "shelf:index:Hook/switch outputs.previous"} {
		if facts[k] != "resource portal:index/gate:Gate" {
			t.Errorf("%s: the binder reads %q, want a reference to portal:index/gate:Gate", k, facts[k])
		}
	}
	// books records the plugin that serves it and its parameter.
	if bound, diags = bind(t, served["books"]); bound == nil {
		t.Fatalf("books: %s", diags)
	}
	if pz := bound.Parameterization; pz == nil || pz.BasePlugin.Name != shelf.Name || string(pz.Parameter) != `{"kind":"books","section":"fiction"}` {
		t.Errorf("books: parameterization %+v", pz)
	}
	if _, ok := bound.GetResource("books:index:Item"); !ok {
		t.Errorf("books: no books:index:Item")
	}
}

// parameterizedSchema is the schema GetSchema serves once plugin name of
// opts is parameterized with args.
func parameterizedSchema(name string, opts []host.Option, args ...string) ([]byte, error) {
	p, err := host.New(name, opts...)
	if err != nil {
		return nil, err
	}
	defer func() { _ = p.Close() }()
	srv := hosttest.NewServer(p)
	ctx := context.Background()
	if _, err := srv.Parameterize(ctx, &pulumirpc.ParameterizeRequest{Parameters: &pulumirpc.ParameterizeRequest_Args{
		Args: &pulumirpc.ParameterizeRequest_ParametersArgs{Args: args}}}); err != nil {
		return nil, err
	}
	resp, err := srv.GetSchema(ctx, &pulumirpc.GetSchemaRequest{})
	if err != nil {
		return nil, err
	}
	return []byte(resp.GetSchema()), nil
}

// bindServed reads src with the host's reader and binds what the host
// would serve with Pulumi's binder: no error diagnostics, and every
// property read the same.
func bindServed(t *testing.T, src []byte) *pschema.Package {
	t.Helper()
	ours, err := schema.Load(src)
	if err != nil {
		t.Fatal(err)
	}
	bound, diags := bind(t, ours.JSON())
	if diags != "" {
		t.Fatalf("the binder refuses the schema:\n%s\n%s", diags, src)
	}
	compare(t, ours, bound)
	return bound
}

// random is another package for cross-package refs, with a module token.
const random = `
name: random
version: 4.16.0
meta: {moduleFormat: "(.*)(?:/[^/]*)"}
resources:
  random:index/randomPet:RandomPet:
    properties: {id: {type: string}}
types:
  random:index/keepers:Keepers:
    type: object
    properties: {seed: {type: string}}
`

// aws is another package with a module token, for host/schema's tests.
const aws = `
name: aws
version: 6.0.0
meta: {moduleFormat: "(.*)(?:/[^/]*)"}
types:
  aws:s3/BucketWebsite:BucketWebsite:
    type: object
    properties: {indexDocument: {type: string}}
`

// TestReaderAgreesWithBinder runs the host's reader and the binder over the
// same schemas: both accept or both refuse, and where both accept, every
// property reads the same (type, referenced token, secret,
// replaceOnChanges, plain, required).
func TestReaderAgreesWithBinder(t *testing.T) {
	t.Parallel()
	cases := []struct {
		name   string
		schema string
		refuse bool // both refuse
	}{
		{name: "module tokens written with %2F, local", schema: `
resources:
  pkg:mod/sub:Thing:
    inputProperties:
      shape: {$ref: "#/types/pkg:mod%2Fsub:Shape"}
      peer: {$ref: "#/resources/pkg:mod%2Fsub:Thing"}
    properties:
      shape: {$ref: "#/types/pkg:mod%2Fsub:Shape"}
types:
  pkg:mod/sub:Shape:
    type: object
    properties: {sides: {type: integer}}
    required: [sides]
`},
		{name: "module tokens written with /, local", schema: `
resources:
  pkg:mod/sub:Thing:
    inputProperties:
      peer: {$ref: "#/resources/pkg:mod/sub:Thing"}
`},
		{name: "cross-package refs with a version", schema: `
resources:
  pkg:index:Thing:
    isComponent: true
    inputProperties:
      pet: {$ref: "/random/v4.16.0/schema.json#/resources/random:index%2FrandomPet:RandomPet"}
      keepers: {$ref: "/random/v4.16.0/schema.json#/types/random:index%2Fkeepers:Keepers"}
    properties:
      pets:
        type: array
        items: {$ref: "/random/v4.16.0/schema.json#/resources/random:index%2FrandomPet:RandomPet"}
`},
		{name: "builtins", schema: `
resources:
  pkg:index:Thing:
    inputProperties:
      any: {$ref: "pulumi.json#/Any"}
      json: {$ref: "pulumi.json#/Json"}
      asset: {$ref: "pulumi.json#/Asset"}
      archive: {$ref: "pulumi.json#/Archive"}
`},
		{name: "enums", schema: `
resources:
  pkg:index:Thing:
    inputProperties:
      colour: {$ref: "#/types/pkg:index:Colour"}
      size: {$ref: "#/types/pkg:index:Size"}
types:
  pkg:index:Colour:
    type: string
    enum: [{name: Red, value: red}, {value: blue}]
  pkg:index:Size:
    type: integer
    enum: [{name: Small, value: 1}, {name: Large, value: 2}]
`},
		{name: "maps and arrays of refs", schema: `
resources:
  pkg:index:Thing:
    inputProperties:
      byName:
        type: object
        additionalProperties: {$ref: "#/types/pkg:index:Shape"}
      list:
        type: array
        items: {type: array, items: {$ref: "#/resources/pkg:index:Thing"}}
      labels: {type: object, additionalProperties: {type: string}}
types:
  pkg:index:Shape:
    type: object
    properties: {sides: {type: number}}
`},
		{name: "recursive types", schema: `
types:
  pkg:index:Node:
    type: object
    properties:
      children: {type: array, items: {$ref: "#/types/pkg:index:Node"}}
      next: {$ref: "#/types/pkg:index:Node"}
resources:
  pkg:index:Tree:
    isComponent: true
    inputProperties:
      root: {$ref: "#/types/pkg:index:Node"}
`},
		{name: "plain, secret and replaceOnChanges", schema: `
resources:
  pkg:index:Thing:
    inputProperties:
      name: {type: string, plain: true}
      password: {type: string, secret: true}
      zone: {type: string, replaceOnChanges: true}
    requiredInputs: [name]
    properties:
      password: {type: string, secret: true}
      zone: {type: string, replaceOnChanges: true}
    required: [zone]
  pkg:index:Comp:
    isComponent: true
    inputProperties:
      tags: {type: array, items: {type: string}, plain: true}
      shape: {$ref: "#/types/pkg:index:Shape", plain: true}
    methods:
      grow: pkg:index:Comp/grow
types:
  pkg:index:Shape:
    type: object
    properties: {sides: {type: integer, plain: true}}
functions:
  pkg:index:Comp/grow:
    inputs:
      properties:
        __self__: {$ref: "#/resources/pkg:index:Comp"}
        by: {type: integer, plain: true}
`},
		{name: "language sections", schema: `
language:
  nodejs: {packageName: "@acme/pkg", respectSchemaVersion: true}
  python: {packageName: acme_pkg, respectSchemaVersion: true}
  go: {importBasePath: github.com/acme/pkg/sdk/go/pkg, respectSchemaVersion: true}
resources:
  pkg:index:Thing:
    inputProperties: {name: {type: string}}
`},
		{name: "methods and functions with outputs", schema: `
resources:
  pkg:index:Thing:
    isComponent: true
    inputProperties: {name: {type: string}}
    methods:
      describe: pkg:index:Thing/describe
functions:
  pkg:index:Thing/describe:
    inputs:
      properties:
        __self__: {$ref: "#/resources/pkg:index:Thing"}
        verbose: {type: boolean}
      required: [__self__]
    outputs:
      properties: {text: {type: string}}
      required: [text]
  pkg:index:lookup:
    inputs:
      properties: {key: {type: string}}
      required: [key]
    outputs:
      properties: {value: {type: string, secret: true}, found: {type: boolean}}
      required: [found]
`},
		{name: "config and provider inputs", schema: `
config:
  variables:
    region: {type: string, default: us-east-1}
    token: {type: string, secret: true}
  defaults: [token]
provider:
  inputProperties:
    region: {type: string}
    token: {type: string, secret: true}
`},
		{name: "a $ref to nothing", refuse: true, schema: `
resources:
  pkg:index:Thing:
    inputProperties: {shape: {$ref: "#/types/pkg:index:Nope"}}
`},
		{name: "an unknown type", refuse: true, schema: `
resources:
  pkg:index:Thing:
    inputProperties: {name: {type: strin}}
`},
		{name: "a required input that is not declared", refuse: true, schema: `
resources:
  pkg:index:Thing:
    inputProperties: {name: {type: string}}
    requiredInputs: [nmae]
`},
		{name: "a method naming no function", refuse: true, schema: `
resources:
  pkg:index:Thing:
    isComponent: true
    methods: {describe: pkg:index:Thing/nope}
`},
		{name: "a method named like a property", refuse: true, schema: `
resources:
  pkg:index:Thing:
    isComponent: true
    properties: {describe: {type: string}}
    methods: {describe: pkg:index:Thing/describe}
functions:
  pkg:index:Thing/describe:
    inputs: {properties: {__self__: {$ref: "#/resources/pkg:index:Thing"}}, required: [__self__]}
`},
		{name: "an array without items", refuse: true, schema: `
resources:
  pkg:index:Thing:
    inputProperties: {names: {type: array}}
`},
		{name: "an enum value of the wrong type", refuse: true, schema: `
types:
  pkg:index:Size:
    type: integer
    enum: [{value: small}]
`},
		{name: "a resource token without a module", refuse: true, schema: `
resources:
  pkg:Thing:
    inputProperties: {name: {type: string}}
`},
		{name: "a module under index without a moduleFormat for it", refuse: true, schema: `
resources:
  pkg:index/thing:Thing:
    inputProperties: {name: {type: string}}
`},
		{name: "a resource of another package", refuse: true, schema: `
resources:
  other:index:Thing:
    inputProperties: {name: {type: string}}
`},
		{name: "a $ref to this package at another version", refuse: true, schema: `
resources:
  pkg:index:Thing:
    inputProperties: {peer: {$ref: "/pkg/v2.0.0/schema.json#/resources/pkg:index:Thing"}}
`},
		{name: "a method function without __self__", refuse: true, schema: `
resources:
  pkg:index:Thing:
    isComponent: true
    methods: {describe: pkg:index:Thing/describe}
functions:
  pkg:index:Thing/describe:
    inputs:
      properties: {verbose: {type: boolean}}
`},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			src := "name: pkg\nversion: 1.0.0\n" + strings.TrimPrefix(tc.schema, "\n")
			ours, ourErr := schema.Load([]byte(src))
			_, diags := bind(t, toJSON(t, src))
			switch {
			case ourErr != nil && diags != "":
				if !tc.refuse {
					t.Fatalf("both refuse a schema the case expects to pass:\nours: %v\nbinder: %s", ourErr, diags)
				}
			case ourErr != nil:
				t.Fatalf("the reader refuses what the binder accepts: %v", ourErr)
			case diags != "":
				t.Fatalf("the reader accepts what the binder refuses:\n%s", diags)
			case tc.refuse:
				t.Fatal("both accept a schema the case expects them to refuse")
			default:
				bound, _ := bind(t, ours.JSON())
				compare(t, ours, bound)
			}
		})
	}
}

func toJSON(t *testing.T, src string) []byte {
	t.Helper()
	var doc any
	if err := yaml.Unmarshal([]byte(src), &doc); err != nil {
		t.Fatal(err)
	}
	js, err := json.Marshal(doc)
	if err != nil {
		t.Fatal(err)
	}
	return js
}

// bind binds a JSON schema with the binder, refs to the random package
// served by a loader; it returns the error diagnostics, "" for none.
func bind(t *testing.T, js []byte) (*pschema.Package, string) {
	t.Helper()
	var spec pschema.PackageSpec
	if err := json.Unmarshal(js, &spec); err != nil {
		return nil, "decoding: " + err.Error()
	}
	pkg, diags, err := pschema.BindSpec(spec, loader(t), pschema.ValidationOptions{})
	if err != nil {
		return nil, "binding: " + err.Error()
	}
	var errs []string
	for _, d := range diags {
		if d.Severity == 1 { // hcl.DiagError
			errs = append(errs, d.Error())
		}
	}
	return pkg, strings.Join(errs, "\n")
}

// fixedLoader serves the random, aws, sitekit and portal packages and
// nothing else.
type fixedLoader struct{ pkgs map[string]*pschema.Package }

func loader(t *testing.T) *fixedLoader {
	t.Helper()
	l := &fixedLoader{pkgs: map[string]*pschema.Package{}}
	for name, src := range map[string]string{"random": random, "aws": aws} {
		var spec pschema.PackageSpec
		if err := json.Unmarshal(toJSON(t, src), &spec); err != nil {
			t.Fatal(err)
		}
		pkg, diags, err := pschema.BindSpec(spec, &fixedLoader{}, pschema.ValidationOptions{})
		if err != nil || diags.HasErrors() {
			t.Fatalf("binding the %s fixture: %v %v", name, err, diags)
		}
		l.pkgs[name] = pkg
	}
	ours, err := schema.Load(polyhost.Schema)
	if err != nil {
		t.Fatal(err)
	}
	var spec pschema.PackageSpec
	if err := json.Unmarshal(ours.JSON(), &spec); err != nil {
		t.Fatal(err)
	}
	sitekit, diags, err := pschema.BindSpec(spec, &fixedLoader{}, pschema.ValidationOptions{})
	if err != nil || diags.HasErrors() {
		t.Fatalf("binding sitekit: %v %v", err, diags)
	}
	l.pkgs["sitekit"] = sitekit
	// portal (tests/portal, its own module: read from the file) refers to
	// sitekit; shelf's Hook refers to portal's Gate.
	src, err := os.ReadFile(filepath.Join("..", "..", "..", "portal", "schema.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	var portalSpec pschema.PackageSpec
	if err := json.Unmarshal(toJSON(t, string(src)), &portalSpec); err != nil {
		t.Fatal(err)
	}
	portal, diags, err := pschema.BindSpec(portalSpec, &fixedLoader{pkgs: map[string]*pschema.Package{"sitekit": sitekit}}, pschema.ValidationOptions{})
	if err != nil || diags.HasErrors() {
		t.Fatalf("binding portal: %v %v", err, diags)
	}
	l.pkgs["portal"] = portal
	return l
}

func (l *fixedLoader) LoadPackage(name string, _ *semver.Version) (*pschema.Package, error) {
	if p, ok := l.pkgs[name]; ok {
		return p, nil
	}
	return nil, fmt.Errorf("no package %q", name)
}

func (l *fixedLoader) LoadPackageV2(_ context.Context, d *pschema.PackageDescriptor) (*pschema.Package, error) {
	return l.LoadPackage(d.Name, d.Version)
}

func (l *fixedLoader) LoadPackageReference(name string, v *semver.Version) (pschema.PackageReference, error) {
	p, err := l.LoadPackage(name, v)
	if err != nil {
		return nil, err
	}
	return p.Reference(), nil
}

func (l *fixedLoader) LoadPackageReferenceV2(ctx context.Context, d *pschema.PackageDescriptor) (pschema.PackageReference, error) {
	return l.LoadPackageReference(d.Name, d.Version)
}

// compare reads every property of the package both ways and reports each
// difference, naming the property.
func compare(t *testing.T, ours *schema.Package, bound *pschema.Package) {
	t.Helper()
	want := binderFacts(bound)
	got := readerFacts(t, ours)
	for _, k := range slices.Sorted(maps.Keys(want)) {
		if got[k] != want[k] {
			t.Errorf("%s: the reader reads %q, the binder %q", k, got[k], want[k])
		}
	}
	for _, k := range slices.Sorted(maps.Keys(got)) {
		if _, ok := want[k]; !ok {
			t.Errorf("%s: the reader has %q, the binder nothing", k, got[k])
		}
	}
}

func readerFacts(t *testing.T, p *schema.Package) map[string]string {
	out := map[string]string{}
	add := func(where string, props map[string]schema.Property, required []string) {
		for name, prop := range props {
			out[where+"."+name] = readerProp(t, p, prop, slices.Contains(required, name))
		}
	}
	add("config", p.Config.Variables, p.Config.Required)
	add("provider inputs", p.Provider.InputProperties, p.Provider.RequiredInputs)
	for tok, r := range p.Resources {
		add(tok+" inputs", r.InputProperties, r.RequiredInputs)
		add(tok, r.Properties, r.Required)
		for name, fn := range r.Methods {
			out[tok+" method "+name] = fn
		}
	}
	for tok, ty := range p.Types {
		if len(ty.Enum) > 0 {
			var vals []string
			for _, e := range ty.Enum {
				vals = append(vals, fmt.Sprint(e.Value))
			}
			out[tok] = "enum of " + ty.Type + " " + strings.Join(vals, ",")
			continue
		}
		add(tok, ty.Properties, ty.Required)
	}
	for tok, f := range p.Functions {
		if f.Inputs != nil {
			add(tok+" inputs", f.Inputs.Properties, f.Inputs.Required)
		}
		if f.Outputs != nil {
			add(tok+" outputs", f.Outputs.Properties, f.Outputs.Required)
		}
	}
	return out
}

func readerProp(t *testing.T, p *schema.Package, prop schema.Property, required bool) string {
	s := readerType(t, p, prop)
	if !required {
		s += "?"
	}
	if prop.Secret {
		s += " secret"
	}
	if prop.ReplaceOnChanges {
		s += " replaceOnChanges"
	}
	if prop.Plain {
		s += " plain"
	}
	return s
}

func readerType(t *testing.T, p *schema.Package, prop schema.Property) string {
	if prop.Ref != "" {
		target, err := p.RefTarget(prop.Ref)
		if err != nil {
			t.Errorf("%s: %v", prop.Ref, err)
			return "?"
		}
		if target.Kind == "type" {
			if ty, ok := p.Types[target.Token]; ok && len(ty.Enum) > 0 {
				return "enum " + target.Token
			}
		}
		return strings.TrimSpace(target.Kind + " " + target.Token)
	}
	switch prop.Type {
	case "array":
		if prop.Items == nil {
			return "array of ?"
		}
		return "array of " + readerType(t, p, *prop.Items)
	case "object":
		if prop.AdditionalProperties == nil {
			return "map of string"
		}
		return "map of " + readerType(t, p, *prop.AdditionalProperties)
	}
	return prop.Type
}

func binderFacts(p *pschema.Package) map[string]string {
	out := map[string]string{}
	add := func(where string, props []*pschema.Property) {
		for _, prop := range props {
			out[where+"."+prop.Name] = binderProp(prop)
		}
	}
	add("config", p.Config)
	if p.Provider != nil {
		add("provider inputs", p.Provider.InputProperties)
	}
	for _, r := range p.Resources {
		add(r.Token+" inputs", r.InputProperties)
		add(r.Token, r.Properties)
		for _, m := range r.Methods {
			out[r.Token+" method "+m.Name] = m.Function.Token
		}
	}
	for _, ty := range p.Types {
		switch ty := ty.(type) {
		case *pschema.ObjectType:
			if !ty.IsInputShape() {
				add(ty.Token, ty.Properties)
			}
		case *pschema.EnumType:
			var vals []string
			for _, e := range ty.Elements {
				vals = append(vals, fmt.Sprint(e.Value))
			}
			out[ty.Token] = "enum of " + ty.ElementType.String() + " " + strings.Join(vals, ",")
		}
	}
	for _, f := range p.Functions {
		if f.Inputs != nil {
			add(f.Token+" inputs", f.Inputs.Properties)
		}
		if f.Outputs != nil {
			add(f.Token+" outputs", f.Outputs.Properties)
		}
	}
	return out
}

func binderProp(prop *pschema.Property) string { return propFact(prop, binderType) }

// propFact writes a property as the facts do: its type, written by
// typeString, then ? if optional and its flags.
func propFact(prop *pschema.Property, typeString func(pschema.Type) string) string {
	typ, required := prop.Type, true
	if opt, ok := typ.(*pschema.OptionalType); ok {
		typ, required = opt.ElementType, false
	}
	s := typeString(typ)
	if !required {
		s += "?"
	}
	if prop.Secret {
		s += " secret"
	}
	if prop.ReplaceOnChanges {
		s += " replaceOnChanges"
	}
	if prop.Plain {
		s += " plain"
	}
	return s
}

func binderType(typ pschema.Type) string {
	switch typ := typ.(type) {
	case *pschema.OptionalType:
		return binderType(typ.ElementType)
	case *pschema.InputType:
		return binderType(typ.ElementType)
	case *pschema.ArrayType:
		return "array of " + binderType(typ.ElementType)
	case *pschema.MapType:
		return "map of " + binderType(typ.ElementType)
	case *pschema.ObjectType:
		return "type " + typ.Token
	case *pschema.EnumType:
		return "enum " + typ.Token
	case *pschema.ResourceType:
		return "resource " + typ.Token
	}
	switch typ {
	case pschema.AnyType, pschema.JSONType:
		return "any"
	case pschema.AssetType:
		return "asset"
	case pschema.ArchiveType:
		return "archive"
	}
	return typ.String()
}
