package schema

import (
	"encoding/json"
	"fmt"
	"iter"
	"net/url"
	"path"
	"regexp"
	"slices"
	"strings"

	"github.com/blang/semver"
	"gopkg.in/yaml.v3"
)

// Package is the part of a Pulumi package schema the host acts on. The whole
// document is kept as JSON for GetSchema.
type Package struct {
	Name      string              `json:"name"`
	Version   string              `json:"version,omitempty"`
	Config    Config              `json:"config"`
	Provider  Resource            `json:"provider"`
	Resources map[string]Resource `json:"resources,omitempty"`
	Types     map[string]Type     `json:"types,omitempty"`
	Functions map[string]Function `json:"functions,omitempty"`
	Meta      Meta                `json:"meta"`
	// Language holds each SDK language's settings (nodejs packageName,
	// go importBasePath, ...), for the generators; kept as they are.
	Language map[string]json.RawMessage `json:"language,omitempty"`

	json []byte
	// refs are the $refs validate resolved, as resolve found them, so that
	// checking a value does not parse its refs again: filled in loading
	// while loading, read-only after.
	refs, loading map[string]resolvedRef
}

type resolvedRef struct {
	kind refKind
	tok  string
	err  error
}

// Meta is the package's metadata section.
type Meta struct {
	// ModuleFormat is a regexp whose first group is a token's module, from
	// the token's middle part; "(.*)" when empty.
	ModuleFormat string `json:"moduleFormat,omitempty"`
}

// Config is the package's provider configuration section.
type Config struct {
	Variables map[string]Property `json:"variables,omitempty"`
	// Required lists the variables a program must set. Pulumi's schema
	// spells it "defaults" (ConfigSpec.Required in pkg/v3 codegen/schema).
	Required []string `json:"defaults,omitempty"`
}

// Property describes one property: a primitive type, an array, a map, or a
// reference to a named type or resource.
type Property struct {
	Type                 string    `json:"type,omitempty"`
	Ref                  string    `json:"$ref,omitempty"`
	Items                *Property `json:"items,omitempty"`
	AdditionalProperties *Property `json:"additionalProperties,omitempty"`
	Description          string    `json:"description,omitempty"`
	Secret               bool      `json:"secret,omitempty"`
	Default              any       `json:"default,omitempty"`
	// DefaultInfo names environment variables whose value, the first one
	// set, is the default: it wins over Default.
	DefaultInfo      *DefaultInfo `json:"defaultInfo,omitempty"`
	ReplaceOnChanges bool         `json:"replaceOnChanges,omitempty"`
	// Plain says an input takes no eventual (output) values: SDKs type it
	// as a plain value. The host reads it for the binder's sake only.
	Plain                bool     `json:"plain,omitempty"`
	WillReplaceOnChanges bool     `json:"willReplaceOnChanges,omitempty"`
	Minimum              *float64 `json:"minimum,omitempty"`
	Maximum              *float64 `json:"maximum,omitempty"`
	// DeprecationMessage, when set, says the property is deprecated.
	DeprecationMessage string `json:"deprecationMessage,omitempty"`
}

// DefaultInfo is a property's default taken from the environment.
type DefaultInfo struct {
	Environment []string `json:"environment,omitempty"`
}

// Object is a set of properties, some of them required.
type Object struct {
	Properties map[string]Property `json:"properties,omitempty"`
	Required   []string            `json:"required,omitempty"`
}

// Resource is a custom or component resource (or the provider itself).
type Resource struct {
	Object
	Description        string              `json:"description,omitempty"`
	DeprecationMessage string              `json:"deprecationMessage,omitempty"`
	InputProperties    map[string]Property `json:"inputProperties,omitempty"`
	RequiredInputs     []string            `json:"requiredInputs,omitempty"`
	IsComponent        bool                `json:"isComponent,omitempty"`
	Methods            map[string]string   `json:"methods,omitempty"`
}

// Inputs returns the resource's input properties as an Object.
func (r Resource) Inputs() Object {
	return Object{Properties: r.InputProperties, Required: r.RequiredInputs}
}

// Type is a named object or enum type under #/types.
type Type struct {
	Object
	Description string      `json:"description,omitempty"`
	Type        string      `json:"type"`
	Enum        []EnumValue `json:"enum,omitempty"`
}

// EnumValue is one allowed value of an enum type.
type EnumValue struct {
	Name  string `json:"name"`
	Value any    `json:"value"`
}

// Function is a provider function (Invoke) or a component method.
type Function struct {
	Description        string  `json:"description,omitempty"`
	DeprecationMessage string  `json:"deprecationMessage,omitempty"`
	Inputs             *Object `json:"inputs,omitempty"`
	Outputs            *Object `json:"outputs,omitempty"`
}

// Load parses a schema written in YAML (or JSON, which is YAML).
func Load(src []byte) (*Package, error) {
	var doc any
	if err := yaml.Unmarshal(src, &doc); err != nil {
		return nil, fmt.Errorf("schema: %w", err)
	}
	js, err := json.Marshal(doc)
	if err != nil {
		return nil, fmt.Errorf("schema: %w", err)
	}
	return LoadJSON(js)
}

// LoadJSON parses a schema written in JSON. It is what [Load] does after
// reading YAML, and what the host uses for the schema it builds.
func LoadJSON(js []byte) (*Package, error) {
	var p Package
	if err := json.Unmarshal(js, &p); err != nil {
		return nil, fmt.Errorf("schema: %w", err)
	}
	if p.Name == "" {
		return nil, fmt.Errorf("schema: missing package name")
	}
	p.json = js
	// validate resolves every $ref of the package's properties.
	p.loading = map[string]resolvedRef{}
	if err := p.validate(); err != nil {
		return nil, err
	}
	p.refs, p.loading = p.loading, nil
	return &p, nil
}

// JSON returns the whole schema as JSON, as GetSchema serves it.
func (p *Package) JSON() []byte { return p.json }

// TypeOf is the type of the values prop allows: its type, or for a $ref to
// one of this package's types, that type's ("object", or an enum's
// underlying type); "" for anything else.
func (p *Package) TypeOf(prop Property) string {
	if prop.Type != "" || prop.Ref == "" {
		return prop.Type
	}
	if kind, tok, err := p.resolve(prop.Ref); err == nil && kind == refType {
		return p.Types[tok].Type
	}
	return ""
}

// Resource returns the schema of a resource or component by type token.
func (p *Package) Resource(token string) (Resource, bool) {
	r, ok := p.Resources[token]
	return r, ok
}

// Function returns the schema of a function or method by token.
func (p *Package) Function(token string) (Function, bool) {
	f, ok := p.Functions[token]
	return f, ok
}

// validate finds mistakes the schema binder of the Pulumi CLI would refuse,
// so a typo in schema.yaml fails at start-up rather than on first use: a
// $ref to nothing, a type that is not one of the schema's, a required
// property that is not declared, a method naming no function.
func (p *Package) validate() error {
	var errs []string
	fail := func(format string, args ...any) { errs = append(errs, fmt.Sprintf(format, args...)) }
	checkProps := func(where string, props map[string]Property) {
		for k, v := range props {
			walk(v, func(q Property) {
				if q.Ref != "" {
					if _, _, err := p.resolve(q.Ref); err != nil {
						fail("%s.%s: %v", where, k, err)
					}
				} else if !propertyTypes[q.Type] {
					fail("%s.%s: unknown type %q (want string, integer, number, boolean, array, object or a $ref)", where, k, q.Type)
				} else if q.Type == "array" && q.Items == nil {
					fail("%s.%s: an array needs items", where, k)
				}
			})
		}
	}
	checkRequired := func(where, list string, required []string, props map[string]Property) {
		for _, name := range required {
			if _, ok := props[name]; !ok {
				fail("%s: %s names %q, which is not among its properties", where, list, name)
			}
		}
	}
	checkObj := func(where, list string, o Object) {
		checkProps(where, o.Properties)
		checkRequired(where, list, o.Required, o.Properties)
	}
	checkResource := func(tok string, r Resource) {
		checkProps(tok, r.InputProperties)
		checkRequired(tok, "requiredInputs", r.RequiredInputs, r.InputProperties)
		checkObj(tok, "required", r.Object)
	}

	moduleFormat, err := regexp.Compile(p.Meta.ModuleFormat)
	if err != nil {
		fail("meta.moduleFormat: %v", err)
	}
	checkToken := func(section, tok string) {
		if msg := p.tokenProblem(moduleFormat, tok); msg != "" {
			fail("%s %s: %s", section, tok, msg)
		}
	}
	checkProps("config", p.Config.Variables)
	checkRequired("config", "defaults (its required variables)", p.Config.Required, p.Config.Variables)
	checkResource("provider", p.Provider)
	methodOf := map[string]string{}
	for tok, r := range p.withProvider() {
		if tok != p.providerToken() {
			checkToken("resource", tok)
			checkResource(tok, r)
		}
		for name, fn := range r.Methods {
			f, ok := p.Functions[fn]
			switch {
			case !ok:
				fail("%s: method %q names unknown function %q", tok, name, fn)
			case !strings.HasPrefix(fn, tok+"/"):
				fail("%s: method %q names function %q, which is not of the form %s/<method name>", tok, name, fn, tok)
			case f.Inputs == nil || !hasProperty(f.Inputs.Properties, "__self__"):
				fail("%s: method %q: function %q has no __self__ input", tok, name, fn)
			case methodOf[fn] != "":
				fail("%s: method %q: function %q is already a method of %s", tok, name, fn, methodOf[fn])
			case hasProperty(r.Properties, name):
				fail("%s: method %q has the name of one of its properties (an SDK's class would have both)", tok, name)
			}
			methodOf[fn] = tok
		}
	}
	for tok, t := range p.Types {
		checkToken("type", tok)
		if !namedTypes[t.Type] {
			fail("%s: unknown type %q (want object, or string, integer, number or boolean for an enum)", tok, t.Type)
		}
		for i, e := range t.Enum {
			if !enumValueFits(t.Type, e.Value) {
				fail("%s: enum value %d (%v) is not of type %s", tok, i, e.Value, t.Type)
			}
		}
		checkObj(tok, "required", t.Object)
	}
	for tok, f := range p.Functions {
		if !strings.HasPrefix(tok, p.providerToken()+"/") { // a method of the provider
			checkToken("function", tok)
		}
		if f.Inputs != nil {
			checkObj(tok+" inputs", "required", *f.Inputs)
		}
		if f.Outputs != nil {
			checkObj(tok+" outputs", "required", *f.Outputs)
		}
	}
	if len(errs) > 0 {
		slices.Sort(errs) // maps above: the same schema, the same message
		return fmt.Errorf("schema: %s", strings.Join(errs, "; "))
	}
	return nil
}

// tokenPattern is the binder's metaschema pattern for a token.
var tokenPattern = regexp.MustCompile(`^[a-zA-Z][-a-zA-Z0-9_]*:([^0-9][a-zA-Z0-9._/-]*)?:[^0-9][a-zA-Z0-9._/-]*$`)

// tokenProblem says what the binder refuses in a resource, type or function
// token of this package; "" when nothing.
func (p *Package) tokenProblem(moduleFormat *regexp.Regexp, tok string) string {
	parts := strings.Split(tok, ":")
	if len(parts) != 3 || !tokenPattern.MatchString(tok) {
		return "not a token of the form pkg:module:Name"
	}
	if parts[0] != p.Name {
		return fmt.Sprintf("the token's package is %q, not %q", parts[0], p.Name)
	}
	module := parts[1]
	if moduleFormat != nil {
		if m := moduleFormat.FindStringSubmatch(module); len(m) > 1 {
			module = m[1]
		}
	}
	if strings.HasPrefix(module, "index/") {
		return "modules cannot nest under index (meta.moduleFormat decides a token's module)"
	}
	return ""
}

// providerToken is the type token of the package's provider resource.
func (p *Package) providerToken() string { return "pulumi:providers:" + p.Name }

// withProvider are the package's resources and, under its token, its
// provider resource.
func (p *Package) withProvider() iter.Seq2[string, Resource] {
	return func(yield func(string, Resource) bool) {
		if !yield(p.providerToken(), p.Provider) {
			return
		}
		for tok, r := range p.Resources {
			if !yield(tok, r) {
				return
			}
		}
	}
}

func hasProperty(props map[string]Property, name string) bool {
	_, ok := props[name]
	return ok
}

// enumValueFits reports whether an enum value (as JSON decodes it) is of the
// enum's type.
func enumValueFits(typ string, v any) bool {
	switch v := v.(type) {
	case string:
		return typ == "string"
	case bool:
		return typ == "boolean"
	case float64:
		return typ == "number" || typ == "integer" && v == float64(int64(v))
	}
	return false
}

// The types a property may have (none: with a $ref), and a named type.
var (
	propertyTypes = map[string]bool{"": true, "string": true, "integer": true, "number": true,
		"boolean": true, "array": true, "object": true}
	namedTypes = map[string]bool{"object": true, "string": true, "integer": true, "number": true, "boolean": true}
)

func walk(p Property, f func(Property)) {
	f(p)
	if p.Items != nil {
		walk(*p.Items, f)
	}
	if p.AdditionalProperties != nil {
		walk(*p.AdditionalProperties, f)
	}
}

// refKind says what a $ref points at.
type refKind int

const (
	refType refKind = iota
	refResource
	refAny
	refAsset
	refArchive
)

// RefTarget is what a $ref names, as [Package.RefTarget] resolves it.
type RefTarget struct {
	Kind  string // "type", "resource", "any" (Any and Json), "asset" or "archive"
	Token string // for a type or resource, its token, unescaped
}

// RefTarget resolves a $ref the way the host reads it when it checks values.
func (p *Package) RefTarget(ref string) (RefTarget, error) {
	kind, tok, err := p.resolve(ref)
	if err != nil {
		return RefTarget{}, err
	}
	return RefTarget{Kind: refKindNames[kind], Token: tok}, nil
}

var refKindNames = map[refKind]string{refType: "type", refResource: "resource", refAny: "any", refAsset: "asset", refArchive: "archive"}

// refPath is the path of a cross-package $ref, as the CLI's binder reads it.
var refPath = regexp.MustCompile(`^/?([-\w]+)/(v[^/]*)/schema\.json$`)

// resolve interprets a $ref as the CLI's binder does: a pulumi.json builtin,
// or a type, resource or provider of this package ("#/types/tok") or of
// another ("/pkg/v1.0.0/schema.json#/resources/tok"). The token is
// unescaped: tools write a module's "/" as "%2F". Refs to other packages
// are accepted without resolving; a ref to this package at another version
// is refused.
func (p *Package) resolve(ref string) (refKind, string, error) {
	if r, ok := p.refs[ref]; ok {
		return r.kind, r.tok, r.err
	}
	kind, tok, err := p.resolveRef(ref)
	if p.loading != nil {
		p.loading[ref] = resolvedRef{kind, tok, err}
	}
	return kind, tok, err
}

func (p *Package) resolveRef(ref string) (refKind, string, error) {
	switch ref {
	case "pulumi.json#/Any", "pulumi.json#/Json":
		return refAny, "", nil
	case "pulumi.json#/Asset":
		return refAsset, "", nil
	case "pulumi.json#/Archive":
		return refArchive, "", nil
	}
	u, err := url.Parse(ref)
	if err != nil || !strings.Contains(ref, "#") {
		return 0, "", fmt.Errorf("malformed $ref %q", ref)
	}
	pkg, local := p.Name, true
	if u.Path != "" {
		file, err := url.PathUnescape(u.Path)
		m := refPath.FindStringSubmatch(file)
		if err != nil || m == nil {
			return 0, "", fmt.Errorf("malformed $ref %q: want /pkg/vX.Y.Z/schema.json#/<section>/<token>", ref)
		}
		v, err := semver.ParseTolerant(m[2])
		if err != nil {
			return 0, "", fmt.Errorf("malformed $ref %q: version: %v", ref, err)
		}
		pkg, local = m[1], m[1] == p.Name
		// The binder takes a ref to this package's name and version as
		// local, and one at another version as another package's, which it
		// loads; the host cannot load another version of itself.
		if own, err := semver.ParseTolerant(p.Version); local && p.Version != "" && (err != nil || !own.Equals(v)) {
			return 0, "", fmt.Errorf("$ref %q names package %s at version %s, but this schema is %s version %s: "+
				"refer to this package's own types and resources as \"#/...\"", ref, pkg, v, p.Name, p.Version)
		}
	}
	kind, tok, _ := strings.Cut(strings.TrimPrefix(path.Clean(u.EscapedFragment()), "/"), "/")
	if kind == "provider" && tok == "" {
		return refResource, "pulumi:providers:" + pkg, nil
	}
	if kind != "types" && kind != "resources" {
		return 0, "", fmt.Errorf("unsupported $ref %q", ref)
	}
	if tok, err = url.PathUnescape(tok); err != nil {
		return 0, "", fmt.Errorf("malformed $ref %q: %v", ref, err)
	}
	if kind == "types" {
		if _, ok := p.Types[tok]; !ok && local {
			return 0, "", fmt.Errorf("$ref %q: no such type", ref)
		}
		return refType, tok, nil
	}
	// "#/resources/pulumi:providers:pkg" is the binder's deprecated "#/provider".
	if _, ok := p.Resources[tok]; !ok && local && tok != "pulumi:providers:"+pkg {
		return 0, "", fmt.Errorf("$ref %q: no such resource", ref)
	}
	return refResource, tok, nil
}
