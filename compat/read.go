package compat

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"net/url"
	"path"
	"regexp"
	"slices"
	"strings"

	"github.com/blang/semver"
	"gopkg.in/yaml.v3"
)

// The schema document as written: the parts of Pulumi's package schema
// (pkg/v3 codegen/schema's PackageSpec) that decide what an SDK, a YAML
// program or a stack sees. Descriptions are not read.
type (
	packageSpec struct {
		Name       string                     `json:"name"`
		Namespace  string                     `json:"namespace"`
		Version    string                     `json:"version"`
		Repository string                     `json:"repository"`
		Meta       struct{ SupportPack bool } `json:"meta"`
		Config     struct {
			Variables map[string]propertySpec `json:"variables"`
			Required  []string                `json:"defaults"` // Pulumi spells the required variables "defaults"
		} `json:"config"`
		Provider  *resourceSpec              `json:"provider"`
		Resources map[string]resourceSpec    `json:"resources"`
		Functions map[string]functionSpec    `json:"functions"`
		Types     map[string]typeDefSpec     `json:"types"`
		Language  map[string]json.RawMessage `json:"language"`
	}
	typeSpec struct {
		Type                 string     `json:"type"`
		Ref                  string     `json:"$ref"`
		Items                *typeSpec  `json:"items"`
		AdditionalProperties *typeSpec  `json:"additionalProperties"`
		OneOf                []typeSpec `json:"oneOf"`
		Plain                bool       `json:"plain"`
	}
	propertySpec struct {
		typeSpec
		Secret           bool `json:"secret"`
		ReplaceOnChanges bool `json:"replaceOnChanges"`
		Default          any  `json:"default"`
		Const            any  `json:"const"`
	}
	objectSpec struct {
		Properties map[string]propertySpec `json:"properties"`
		Required   []string                `json:"required"`
	}
	typeDefSpec struct {
		objectSpec
		Type string          `json:"type"`
		Enum []enumValueSpec `json:"enum"`
	}
	enumValueSpec struct {
		Name  string `json:"name"`
		Value any    `json:"value"`
	}
	resourceSpec struct {
		objectSpec
		InputProperties map[string]propertySpec `json:"inputProperties"`
		RequiredInputs  []string                `json:"requiredInputs"`
		IsComponent     bool                    `json:"isComponent"`
		Methods         map[string]string       `json:"methods"`
		Aliases         []aliasSpec             `json:"aliases"`
	}
	aliasSpec    struct{ Type string }
	functionSpec struct {
		Inputs              *objectSpec     `json:"inputs"`
		MultiArgumentInputs []string        `json:"multiArgumentInputs"`
		Outputs             json.RawMessage `json:"outputs"`
	}
)

// UnmarshalJSON reads an alias written as a type token or as {type: token},
// as the binder does.
func (a *aliasSpec) UnmarshalJSON(data []byte) error {
	if err := json.Unmarshal(data, &a.Type); err == nil {
		return nil
	}
	var o struct{ Type string }
	err := json.Unmarshal(data, &o)
	a.Type = o.Type
	return err
}

// The schema as the check compares it: every type expression resolved, the
// methods attached to their resources, required lists folded into the
// properties.
type (
	pkg struct {
		name, version string
		resources     map[string]*resource // the provider too, as pulumi:providers:<name>
		functions     map[string]*function // functions that are no method
		types         map[string]*namedType
		config        object
		sdks          map[Audience]sdkName // where each language's SDK package lives
	}
	resource struct {
		token     string
		component bool
		inputs    object
		outputs   object
		methods   map[string]*function // by method name
		aliases   []string
	}
	function struct {
		token    string
		inputs   *object // nil: the function takes no arguments
		multiArg []string
		outputs  *object // an object result
		result   *expr   // a result of another type
	}
	namedType struct {
		token      string
		enum       bool
		underlying string // an enum's
		values     []enumValue
		props      object
	}
	enumValue struct {
		name  string // the SDK's name for it: the schema's, or the value's
		value any
	}
	object   map[string]*property
	property struct {
		expr             *expr
		required         bool
		secret           bool
		replaceOnChanges bool
		plain            bool
		def, constant    any
	}
	// expr is a type: a primitive (string, integer, number, boolean), array
	// or map of elem, a union of alts, or a named thing: an object or enum
	// type, a resource (token), a builtin (any, json, asset, archive).
	expr struct {
		kind  string
		elem  *expr
		alts  []*expr
		token string
	}
	// sdkName is where a language's generated package lives, with what
	// decides it when the schema leaves it to the generator.
	sdkName struct {
		name    string
		modules string // module renames (moduleToPackage, moduleNameOverrides), canonical JSON
	}
)

// Expression kinds beyond the primitives.
const (
	kindArray    = "array"
	kindMap      = "map"
	kindUnion    = "union"
	kindObject   = "object"
	kindEnum     = "enum"
	kindResource = "resource"
	kindAny      = "any"
)

// load reads a schema document, YAML or JSON; what names it in errors,
// and ends with its file name when it has one.
func load(what string, src []byte) (*pkg, error) {
	spec, err := readSpec(what, src)
	if err != nil {
		return nil, err
	}
	if spec.Name == "" {
		return nil, fmt.Errorf("%s: not a package schema: no name", what)
	}
	r := reader{spec: spec}
	p := r.read()
	if len(r.errs) > 0 {
		slices.Sort(r.errs)
		return nil, fmt.Errorf("%s: %s", what, strings.Join(r.errs, "; "))
	}
	return p, nil
}

// readSpec reads the parts of a document the check compares. A JSON
// document is read straight into them, which skips what the check does
// not read (descriptions are most of a large schema); YAML, and JSON that
// does not read so, go through parse, whose errors name the syntax.
func readSpec(what string, src []byte) (*packageSpec, error) {
	var spec packageSpec
	trimmed := bytes.TrimLeft(src, " \t\r\n\ufeff")
	yamlName := strings.HasSuffix(what, ".yaml") || strings.HasSuffix(what, ".yml")
	if !yamlName && len(trimmed) > 0 && trimmed[0] == '{' && json.Unmarshal(src, &spec) == nil {
		return &spec, nil
	}
	doc, err := parse(what, src)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", what, err)
	}
	js, err := json.Marshal(doc)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", what, err)
	}
	spec = packageSpec{}
	if err := json.Unmarshal(js, &spec); err != nil {
		return nil, fmt.Errorf("%s: not a package schema: %w", what, err)
	}
	return &spec, nil
}

// parse reads a document as JSON or YAML and names the syntax it fails
// in: a file named *.json is JSON; *.yaml and *.yml are YAML; else a
// document that starts with {" is JSON, and one that starts with { is
// JSON if it reads as JSON, else YAML (a flow mapping).
func parse(name string, src []byte) (any, error) {
	var doc any
	trimmed := bytes.TrimLeft(src, " \t\r\n\ufeff")
	asJSON := strings.HasSuffix(name, ".json")
	if !asJSON && !strings.HasSuffix(name, ".yaml") && !strings.HasSuffix(name, ".yml") && len(trimmed) > 0 && trimmed[0] == '{' {
		err := json.Unmarshal(src, &doc)
		if err == nil {
			return doc, nil
		}
		asJSON = len(bytes.TrimLeft(trimmed[1:], " \t\r\n")) == 0 || bytes.TrimLeft(trimmed[1:], " \t\r\n")[0] == '"'
	}
	if !asJSON {
		if err := yaml.Unmarshal(src, &doc); err != nil {
			return nil, fmt.Errorf("invalid YAML: %s", strings.TrimPrefix(err.Error(), "yaml: "))
		}
		return doc, nil
	}
	err := json.Unmarshal(src, &doc)
	var syn *json.SyntaxError
	switch {
	case err == nil:
		return doc, nil
	case errors.As(err, &syn):
		line, col := position(src, syn.Offset)
		return nil, fmt.Errorf("invalid JSON at line %d, column %d: %v", line, col, syn)
	}
	return nil, fmt.Errorf("invalid JSON: %v", err)
}

// position is the line and column (from 1) of the byte before offset, where
// encoding/json stopped.
func position(src []byte, offset int64) (line, col int) {
	at := src[:max(0, min(int(offset)-1, len(src)))]
	line = bytes.Count(at, []byte("\n")) + 1
	return line, len(at) - bytes.LastIndexByte(at, '\n')
}

type reader struct {
	spec *packageSpec
	errs []string
}

func (r *reader) fail(format string, args ...any) {
	r.errs = append(r.errs, fmt.Sprintf(format, args...))
}

func (r *reader) read() *pkg {
	s := r.spec
	p := &pkg{name: s.Name, version: s.Version, resources: map[string]*resource{}, functions: map[string]*function{},
		types: map[string]*namedType{}, sdks: r.sdks()}
	p.config = r.object("config", s.Config.Variables, s.Config.Required)
	provider := resourceSpec{}
	if s.Provider != nil {
		provider = *s.Provider
	}
	// A method's function is the method's alone, the provider's too.
	methodOf := map[string]bool{}
	for _, fn := range provider.Methods {
		methodOf[fn] = true
	}
	for tok, rs := range s.Resources {
		for _, fn := range rs.Methods {
			methodOf[fn] = true
		}
		p.resources[tok] = r.resource(tok, rs)
	}
	p.resources["pulumi:providers:"+s.Name] = r.resource("pulumi:providers:"+s.Name, provider)
	for tok, fs := range s.Functions {
		if !methodOf[tok] {
			p.functions[tok] = r.function(tok, fs)
		}
	}
	for tok, ts := range s.Types {
		t := &namedType{token: tok}
		if len(ts.Enum) > 0 {
			t.enum, t.underlying = true, ts.Type
			for _, v := range ts.Enum {
				name := v.Name
				if name == "" {
					name = fmt.Sprint(v.Value)
				}
				t.values = append(t.values, enumValue{name: name, value: v.Value})
			}
		} else {
			t.props = r.object(tok, ts.Properties, ts.Required)
		}
		p.types[tok] = t
	}
	return p
}

func (r *reader) resource(tok string, rs resourceSpec) *resource {
	res := &resource{token: tok, component: rs.IsComponent, methods: map[string]*function{},
		inputs:  r.object(tok+" inputs", rs.InputProperties, rs.RequiredInputs),
		outputs: r.object(tok+" outputs", rs.Properties, rs.Required)}
	for _, a := range rs.Aliases {
		res.aliases = append(res.aliases, a.Type)
	}
	for name, fn := range rs.Methods {
		fs, ok := r.spec.Functions[fn]
		if !ok {
			r.fail("%s: method %s names no function %q", tok, name, fn)
			continue
		}
		m := r.function(fn, fs)
		if m.inputs != nil {
			delete(*m.inputs, "__self__")
		}
		res.methods[name] = m
	}
	return res
}

func (r *reader) function(tok string, fs functionSpec) *function {
	f := &function{token: tok, multiArg: fs.MultiArgumentInputs}
	if fs.Inputs != nil {
		in := r.object(tok+" inputs", fs.Inputs.Properties, fs.Inputs.Required)
		f.inputs = &in
	}
	if len(fs.Outputs) > 0 && string(fs.Outputs) != "null" {
		// An object has properties; anything else is the type of the result.
		var shape struct {
			Properties map[string]json.RawMessage `json:"properties"`
		}
		_ = json.Unmarshal(fs.Outputs, &shape)
		if shape.Properties != nil {
			var os objectSpec
			if err := json.Unmarshal(fs.Outputs, &os); err != nil {
				r.fail("%s outputs: %v", tok, err)
			}
			out := r.object(tok+" outputs", os.Properties, os.Required)
			f.outputs = &out
		} else {
			var ts typeSpec
			if err := json.Unmarshal(fs.Outputs, &ts); err != nil {
				r.fail("%s outputs: %v", tok, err)
			}
			f.result = r.expr(tok+" outputs", ts)
		}
	}
	return f
}

func (r *reader) object(where string, props map[string]propertySpec, required []string) object {
	o := object{}
	for name, ps := range props {
		o[name] = &property{expr: r.expr(where+"."+name, ps.typeSpec), secret: ps.Secret,
			replaceOnChanges: ps.ReplaceOnChanges, plain: ps.Plain, def: ps.Default, constant: ps.Const}
	}
	for _, name := range required {
		if p, ok := o[name]; ok {
			p.required = true
		} else {
			r.fail("%s: %q is required but not among its properties", where, name)
		}
	}
	return o
}

// refPath is the path of a $ref to another package's schema.
var refPath = regexp.MustCompile(`^/?([-\w]+)/(v[^/]*)/schema\.json$`)

// expr resolves a type as the binder does: a $ref first, then oneOf, then
// type; an "object" without additionalProperties is a map of strings.
func (r *reader) expr(where string, ts typeSpec) *expr {
	switch {
	case ts.Ref != "":
		return r.ref(where, ts.Ref)
	case ts.OneOf != nil:
		u := &expr{kind: kindUnion}
		for _, alt := range ts.OneOf {
			u.alts = append(u.alts, r.expr(where, alt))
		}
		return u
	}
	switch ts.Type {
	case "string", "integer", "number", "boolean":
		return &expr{kind: ts.Type}
	case "array":
		if ts.Items == nil {
			r.fail("%s: an array without items", where)
			return &expr{kind: kindArray, elem: &expr{kind: kindAny}}
		}
		return &expr{kind: kindArray, elem: r.expr(where, *ts.Items)}
	case "object":
		elem := &expr{kind: "string"}
		if ts.AdditionalProperties != nil {
			elem = r.expr(where, *ts.AdditionalProperties)
		}
		return &expr{kind: kindMap, elem: elem}
	}
	r.fail("%s: unknown type %q", where, ts.Type)
	return &expr{kind: kindAny}
}

func (r *reader) ref(where, ref string) *expr {
	switch ref {
	case "pulumi.json#/Any":
		return &expr{kind: kindAny}
	case "pulumi.json#/Json":
		return &expr{kind: "json"}
	case "pulumi.json#/Asset":
		return &expr{kind: "asset"}
	case "pulumi.json#/Archive":
		return &expr{kind: "archive"}
	}
	u, err := url.Parse(ref)
	if err != nil || !strings.Contains(ref, "#") {
		r.fail("%s: malformed $ref %q", where, ref)
		return &expr{kind: kindAny}
	}
	pkgName, local := r.spec.Name, true
	if u.Path != "" {
		file, _ := url.PathUnescape(u.Path)
		m := refPath.FindStringSubmatch(file)
		if m == nil {
			r.fail("%s: malformed $ref %q: want /pkg/vX.Y.Z/schema.json#/...", where, ref)
			return &expr{kind: kindAny}
		}
		pkgName, local = m[1], m[1] == r.spec.Name
	}
	section, tok, _ := strings.Cut(strings.TrimPrefix(path.Clean(u.EscapedFragment()), "/"), "/")
	if tok, err = url.PathUnescape(tok); err != nil {
		r.fail("%s: malformed $ref %q", where, ref)
		return &expr{kind: kindAny}
	}
	switch section {
	case "provider":
		return &expr{kind: kindResource, token: "pulumi:providers:" + pkgName}
	case "resources":
		if _, ok := r.spec.Resources[tok]; local && !ok && tok != "pulumi:providers:"+pkgName {
			r.fail("%s: $ref %q names no resource", where, ref)
		}
		return &expr{kind: kindResource, token: tok}
	case "types":
		if !local {
			return &expr{kind: kindObject, token: tok}
		}
		t, ok := r.spec.Types[tok]
		switch {
		case !ok:
			r.fail("%s: $ref %q names no type", where, ref)
			return &expr{kind: kindAny}
		case len(t.Enum) > 0:
			return &expr{kind: kindEnum, token: tok}
		}
		return &expr{kind: kindObject, token: tok}
	}
	r.fail("%s: unsupported $ref %q", where, ref)
	return &expr{kind: kindAny}
}

// sdks reads where each language's generated package lives, with the
// generators' defaults (codegen/nodejs, python and go of pkg/v3).
func (r *reader) sdks() map[Audience]sdkName {
	s := r.spec
	section := func(lang string) map[string]any {
		var m map[string]any
		if raw, ok := s.Language[lang]; ok {
			if err := json.Unmarshal(raw, &m); err != nil {
				r.fail("language.%s: %v", lang, err)
			}
		}
		return m
	}
	str := func(m map[string]any, k string) string { v, _ := m[k].(string); return v }
	canon := func(m map[string]any, k string) string {
		if m[k] == nil {
			return ""
		}
		js, _ := json.Marshal(m[k]) // maps marshal with sorted keys
		return string(js)
	}
	out := map[Audience]sdkName{}
	node := section("nodejs")
	name := str(node, "packageName")
	if name == "" && s.Namespace != "" {
		name = "@" + s.Namespace + "/" + s.Name
	} else if name == "" {
		name = "@pulumi/" + s.Name
	}
	out[TypeScript] = sdkName{name: name, modules: canon(node, "moduleToPackage")}
	py := section("python")
	name = str(py, "packageName")
	if name == "" {
		ns := "pulumi"
		if s.Namespace != "" {
			ns = strings.ReplaceAll(s.Namespace, "-", "_")
		}
		name = ns + "_" + strings.ReplaceAll(s.Name, "-", "_")
	}
	out[Python] = sdkName{name: name, modules: canon(py, "moduleNameOverrides")}
	golang := section("go")
	name = str(golang, "importBasePath")
	if name == "" {
		name = r.goImportPath()
	}
	out[Go] = sdkName{name: name, modules: canon(golang, "moduleToPackage")}
	return out
}

// goImportPath is the Go SDK's import path where the schema sets none, as
// Go's generator derives it (ExtractImportBasePath): from the repository,
// else the namespace, the name, the major version and meta.supportPack.
func (r *reader) goImportPath() string {
	s := r.spec
	root := "example.com/pulumi-" + s.Name
	if s.Namespace != "" {
		root = "github.com/" + s.Namespace + "/pulumi-" + s.Name
	}
	if u, err := url.Parse(s.Repository); s.Repository != "" && err == nil {
		root = u.Host + u.Path
	}
	major := ""
	if v, err := semver.ParseTolerant(s.Version); err == nil && v.Major > 1 {
		major = fmt.Sprintf("/v%d", v.Major)
	}
	if s.Meta.SupportPack {
		return root + "/sdk/go" + major + "/" + strings.ReplaceAll(s.Name, "-", "")
	}
	return root + "/sdk" + major + "/go/" + s.Name
}

// sortedKeys returns m's keys in order.
func sortedKeys[V any](m map[string]V) []string { return slices.Sorted(maps.Keys(m)) }
