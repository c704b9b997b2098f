package goschema

import (
	"bytes"
	"cmp"
	"encoding/json"
	"fmt"
	"maps"
	"reflect"
	"runtime"
	"slices"
	"strconv"
	"strings"

	"github.com/pulumi/pulumi/sdk/v3/go/property"
	"gopkg.in/yaml.v3"

	"github.com/polyhost/polyhost/host/internal/typed"
	"github.com/polyhost/polyhost/host/schema"
)

// Go-first: the package schema built from the Go types of the
// registrations. A struct field is a property (its tag says the name and
// options, its Go type the schema type), a named struct is an object type
// and a named scalar with a Values method an enum, both of token
// <package>:index:<Go name>.

// Docs supplies the descriptions of a schema built from Go types
// (host.Docs): doc comments, which reflection cannot see. Package schemagen reads them from
// the Go source. Each method returns "" for what it does not know.
type Docs interface {
	// Type is the doc comment of a named type.
	Type(t reflect.Type) string
	// Field is the doc comment of a field of struct t.
	Field(t reflect.Type, field string) string
	// Func is the doc comment of a function, by its name as
	// runtime.FuncForPC gives it: "example.com/pkg.Build",
	// "example.com/pkg.(*T).method-fm".
	Func(name string) string
}

// YAML is the schema built from the Go types of p's registrations, in
// YAML; docs, which may be nil, supplies descriptions.
func (p *Package) YAML(docs Docs) ([]byte, error) {
	doc, err := p.Build(docs)
	if err != nil {
		return nil, err
	}
	var buf bytes.Buffer
	enc := yaml.NewEncoder(&buf)
	enc.SetIndent(2)
	if err := enc.Encode(doc); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}

// JSON is the schema built from the Go types of p's registrations, in
// JSON, for schema.LoadJSON.
func (p *Package) JSON() ([]byte, error) {
	doc, err := p.Build(nil)
	if err != nil {
		return nil, err
	}
	var buf bytes.Buffer
	writeJSON(&buf, doc)
	return buf.Bytes(), nil
}

type generator struct {
	p     *Package
	docs  Docs
	byTok map[string]reflect.Type // named types' tokens
	named map[reflect.Type]string
	types map[string]*yaml.Node
	refs  map[string]string // token -> where a tag's type= names it as a type
	errs  []string
}

func (g *generator) fail(format string, args ...any) {
	g.errs = append(g.errs, fmt.Sprintf(format, args...))
}

// ValueDocs is a [Docs] that also reads the doc comments of constants: an
// enum value without an [EnumValue].Description gets that of the constant
// declaring it.
type ValueDocs interface {
	// Value is the doc comment of the constant of named type t whose
	// value is v.
	Value(t reflect.Type, v any) string
}

type noDocs struct{}

func (noDocs) Type(reflect.Type) string          { return "" }
func (noDocs) Field(reflect.Type, string) string { return "" }
func (noDocs) Func(string) string                { return "" }

// Build builds the schema document, naming every Go type, field or
// registration it cannot describe.
func (p *Package) Build(docs Docs) (*yaml.Node, error) {
	if docs == nil {
		docs = noDocs{}
	}
	docs = annotatedDocs{docs}
	g := &generator{p: p, docs: docs, byTok: map[string]reflect.Type{}, named: map[reflect.Type]string{},
		types: map[string]*yaml.Node{}, refs: map[string]string{}}
	doc := mapping()
	add(doc, "name", scalar(p.Name))
	if p.Version != "" {
		add(doc, "version", scalar(p.Version))
	}
	prov := mapping()
	addText(prov, "description", p.Descriptions[p.providerToken()])
	if sh := p.Config; sh != nil {
		props, required := g.object("configuration", sh.Args)
		config := mapping()
		add(config, "variables", props)
		if len(required) > 0 {
			add(config, "defaults", stringList(required))
		}
		add(doc, "config", config)
		// The provider resource takes its configuration as inputs and,
		// as Pulumi's providers do, has it as outputs.
		for _, section := range [][2]string{{"inputProperties", "requiredInputs"}, {"properties", "required"}} {
			props, required = g.object("configuration", sh.Args)
			if section[0] == "properties" {
				withoutDefaults(props) // an output has no default
			}
			add(prov, section[0], props)
			if len(required) > 0 {
				add(prov, section[1], stringList(required))
			}
		}
	}
	if methods := g.methods(p.providerToken()); methods != nil {
		add(prov, "methods", methods)
	}
	if len(prov.Content) > 0 {
		add(doc, "provider", prov)
	}

	declared := p.Declared // a part describes these
	resources := mapping()
	for _, tok := range slices.Sorted(func(yield func(string) bool) {
		for tok := range p.Components {
			if !yield(tok) {
				return
			}
		}
		for tok := range p.Resources {
			if !yield(tok) {
				return
			}
		}
	}) {
		if !declared["resources"][tok] {
			add(resources, tok, g.resource(tok))
		}
	}
	functions := mapping()
	for _, tok := range slices.Sorted(func(yield func(string) bool) {
		for tok := range p.Functions {
			if !yield(tok) {
				return
			}
		}
		for _, tok := range p.Methods {
			if !yield(tok) {
				return
			}
		}
	}) {
		if !declared["functions"][tok] {
			add(functions, tok, g.function(tok))
		}
	}
	for _, tok := range slices.Sorted(maps.Keys(p.Descriptions)) {
		_, r := p.Resources[tok]
		if !p.Functions[tok] && !r && !p.Components[tok] && !slices.Contains(p.Methods, tok) && tok != p.providerToken() {
			g.fail("WithDescription(%q): no component, resource, method or function of package %s has that token", tok, p.Name)
		}
	}
	for _, tok := range slices.Sorted(maps.Keys(g.refs)) {
		if _, ok := g.types[tok]; !ok {
			g.fail("%s: type=%s names no type of package %s (its types are the named structs and enums of its Go fields)", g.refs[tok], tok, p.Name)
		}
	}
	if len(g.types) > 0 {
		types := mapping()
		for _, tok := range slices.Sorted(maps.Keys(g.types)) {
			add(types, tok, g.types[tok])
		}
		add(doc, "types", types)
	}
	if len(resources.Content) > 0 {
		add(doc, "resources", resources)
	}
	if len(functions.Content) > 0 {
		add(doc, "functions", functions)
	}
	if len(g.errs) > 0 {
		slices.Sort(g.errs)
		g.errs = slices.Compact(g.errs)
		return nil, fmt.Errorf("cannot build the schema from the Go types:\n\t%s", strings.Join(g.errs, "\n\t"))
	}
	return doc, nil
}

// described is what WithDescription says of tok, else doc.
func (g *generator) described(tok, doc string) string {
	if d, ok := g.p.Descriptions[tok]; ok {
		return d
	}
	return doc
}

// resource describes a component or custom resource.
func (g *generator) resource(tok string) *yaml.Node {
	r := mapping()
	sh, typed := g.p.Signatures[tok]
	isComponent := g.p.Components[tok]
	if isComponent {
		add(r, "isComponent", scalar(true))
	}
	switch {
	case isComponent:
		addText(r, "description", g.described(tok, g.docs.Func(funcName(sh.Fn))))
	case !typed:
		g.fail("%s: registered with WithResource, which says nothing of its Go types; write it as a custom.TypedResource and register it with WithTypedResource, or give its types with WithRawResource[Inputs, State]", tok)
		return r
	case reflect.TypeOf(sh.Fn) != nil: // the author's backend
		addText(r, "description", g.described(tok, g.docs.Type(Elem(reflect.TypeOf(sh.Fn)))))
	default:
		addText(r, "description", g.p.Descriptions[tok])
	}
	props, required := g.object(tok+" inputs", sh.Args)
	if len(props.Content) > 0 {
		add(r, "inputProperties", props)
	}
	if len(required) > 0 {
		add(r, "requiredInputs", stringList(required))
	}
	props, required = g.object(tok+" outputs", sh.Result)
	if len(props.Content) > 0 {
		add(r, "properties", props)
	}
	if len(required) > 0 {
		add(r, "required", stringList(required))
	}
	if methods := g.methods(tok); isComponent && methods != nil {
		add(r, "methods", methods)
	}
	return r
}

// methods lists the methods of resource tok, a component or the provider;
// nil if it has none.
func (g *generator) methods(tok string) *yaml.Node {
	methods := mapping()
	for _, m := range g.p.Methods {
		if comp, name, _ := strings.Cut(m, "/"); comp == tok {
			add(methods, name, scalar(m))
		}
	}
	if len(methods.Content) == 0 {
		return nil
	}
	return methods
}

// function describes a function or a method.
func (g *generator) function(tok string) *yaml.Node {
	sh := g.p.Signatures[tok]
	f := mapping()
	addText(f, "description", g.described(tok, g.docs.Func(funcName(sh.Fn))))
	props, required := g.object(tok+" arguments", sh.Args)
	isMethod := slices.Contains(g.p.Methods, tok)
	if isMethod {
		comp, _, _ := strings.Cut(tok, "/")
		if !g.p.Components[comp] && comp != g.p.providerToken() {
			g.fail("%s: a method of %s, which is neither a registered component nor the provider (%s)", tok, comp, g.p.providerToken())
		}
		ref := localRef("resources", comp)
		if comp == g.p.providerToken() {
			ref = "#/provider" // the binder's name for it
		}
		self := propNode(schema.Property{Ref: ref})
		props.Content = append([]*yaml.Node{scalar("__self__"), self}, props.Content...)
		required = append([]string{"__self__"}, required...)
	}
	if len(props.Content) > 0 {
		in := mapping()
		add(in, "properties", props)
		if len(required) > 0 {
			add(in, "required", stringList(required))
		}
		add(f, "inputs", in)
	}
	out := mapping()
	if isMethod && !g.p.isStructType(sh.Result) {
		// A method's single value travels under "res" (encodeResult).
		p, ok := g.goType(fmt.Sprintf("%s result %s", tok, sh.Result), sh.Result)
		if !ok {
			return f
		}
		props := mapping()
		add(props, SingleResultKey, propNode(p))
		add(out, "properties", props)
		add(out, "required", stringList([]string{SingleResultKey}))
	} else {
		props, required := g.object(tok+" result", sh.Result)
		add(out, "properties", props)
		if len(required) > 0 {
			add(out, "required", stringList(required))
		}
	}
	add(f, "outputs", out)
	return f
}

// SingleResultKey is where a method that returns a single value (not a
// struct) has it among its outputs.
const SingleResultKey = "res"

// isStructType reports whether a result of type t is returned field by
// field: a struct with `pulumi` tags, not a property.Map or a type of the
// Go SDK (pulumi.StringOutput, a resource).
func (p *Package) isStructType(t reflect.Type) bool {
	if _, ok := p.sdkOf(t); ok {
		return false
	}
	if _, ok := typed.RefTarget(t); ok {
		return false
	}
	_, ok, _ := typed.Fields(t)
	return ok && Elem(t) != mapType
}

// sdkOf says what a Go SDK type stands for (p.SDK tells); ok is false for
// other types, and for every type when p has no Go SDK registrations.
func (p *Package) sdkOf(t reflect.Type) (SDKType, bool) {
	if p.SDK == nil {
		return SDKType{}, false
	}
	return p.SDK(t)
}

// optional reports whether field f is optional: tagged so, a pointer, or
// a Go SDK type whose value is a pointer (pulumi.StringPtrInput). A Go SDK
// resource is always a pointer: it is optional only when tagged so.
func (p *Package) optional(f typed.Field) bool {
	st, ok := p.sdkOf(f.Type)
	switch {
	case ok && st.Resource != nil:
		return f.Tag.Optional
	case ok && st.Elem != nil && st.Elem.Kind() == reflect.Pointer:
		return true
	}
	return f.Optional
}

// localRef is the $ref of a resource or type of this package: a module's
// "/" is written %2F, as Pulumi's tools write it.
func localRef(section, tok string) string {
	return "#/" + section + "/" + strings.ReplaceAll(tok, "/", "%2F")
}

// object describes the fields of struct t: its properties and the names of
// the required ones.
func (g *generator) object(where string, t reflect.Type) (*yaml.Node, []string) {
	props := mapping()
	if Elem(t) == mapType {
		g.fail("%s: %s carries no schema; use a struct with `pulumi` tags", where, t)
		return props, nil
	}
	fields, isStruct, err := typed.Fields(t)
	switch {
	case err != nil:
		g.fail("%s: %v", where, err)
		return props, nil
	case !isStruct:
		g.fail("%s: %s is not a struct with `pulumi` tags", where, t)
		return props, nil
	}
	var required []string
	for _, f := range fields {
		fw := fmt.Sprintf("field %s.%s", Elem(t), f.GoName)
		p, ok := g.property(fw, f)
		if !ok {
			continue
		}
		p.Description = g.docs.Field(f.Owner, f.GoName)
		if !g.setDefault(fw, f, &p) {
			continue
		}
		add(props, f.Name, propNode(p))
		if !g.p.optional(f) {
			required = append(required, f.Name)
		}
	}
	return props, required
}

// setDefault sets the default of property p, of field f, that its
// struct's Annotate method says, failing for one p cannot take.
func (g *generator) setDefault(where string, f typed.Field, p *schema.Property) bool {
	a := annotationsOf(f.Owner)
	if a == nil {
		return true
	}
	for _, e := range a.errs {
		g.fail("%s", e)
	}
	fa := a.fields[f.GoName]
	if fa.dflt == nil && len(fa.env) == 0 {
		return true
	}
	typ := p.Type
	if t, ok := g.byTok[strings.TrimPrefix(p.Ref, "#/types/")]; ok && p.Ref != "" {
		typ = map[reflect.Kind]string{reflect.String: "string", reflect.Bool: "boolean", reflect.Float32: "number", reflect.Float64: "number"}[t.Kind()]
		if reflect.Int <= t.Kind() && t.Kind() <= reflect.Uint64 {
			typ = "integer"
		}
	}
	fits := map[string]bool{"string": isKind[string](fa.dflt), "boolean": isKind[bool](fa.dflt),
		"integer": isKind[int64](fa.dflt) || isKind[uint64](fa.dflt),
		"number":  isKind[int64](fa.dflt) || isKind[uint64](fa.dflt) || isKind[float64](fa.dflt)}
	switch {
	case !g.p.optional(f):
		g.fail("%s: has a default but is required; tag it optional", where)
		return false
	case typ == "" || (fa.dflt != nil && !fits[typ]):
		g.fail("%s: its default %v (%T) is not a %s", where, fa.dflt, fa.dflt, cmp.Or(typ, p.Ref))
		return false
	}
	p.Default = fa.dflt
	if len(fa.env) > 0 {
		p.DefaultInfo = &schema.DefaultInfo{Environment: fa.env}
	}
	return true
}

// withoutDefaults drops the default and defaultInfo of every property of
// props, a mapping of property nodes.
func withoutDefaults(props *yaml.Node) {
	for j := 1; j < len(props.Content); j += 2 {
		prop := props.Content[j]
		var kept []*yaml.Node
		for i := 0; i < len(prop.Content); i += 2 {
			if k := prop.Content[i].Value; k != "default" && k != "defaultInfo" {
				kept = append(kept, prop.Content[i], prop.Content[i+1])
			}
		}
		prop.Content = kept
	}
}

// isKind reports whether v is a T, or nil.
func isKind[T any](v any) bool {
	_, ok := v.(T)
	return ok || v == nil
}

// property is the schema of field f.
func (g *generator) property(where string, f typed.Field) (schema.Property, bool) {
	var p schema.Property
	ok := true
	if f.Tag.SchemaType != "" {
		var err error
		p, err = typeExpr(f.Tag.SchemaType, g.resolve(where))
		if err != nil {
			g.fail("%s: %v", where, err)
			return p, false
		}
		if !fitsProperty(p, f.Type) {
			g.fail("%s: its Go type %s cannot hold the type=%s its tag says", where, f.Type, f.Tag.SchemaType)
			return p, false
		}
	} else if p, ok = g.goType(where, f.Type); !ok {
		return p, false
	}
	p.Secret = f.Tag.Secret
	p.ReplaceOnChanges = f.Tag.ReplaceOnChanges
	return p, true
}

// resolve looks a tag's token up among this package's resources and types.
func (g *generator) resolve(where string) func(string) string {
	return func(tok string) string {
		_, res := g.p.Resources[tok]
		switch {
		case g.p.Components[tok] || res:
			return "resource"
		case strings.HasPrefix(tok, g.p.Name+":"):
			g.refs[tok] = where // checked once every type is known
			return "type"
		}
		return ""
	}
}

// fitsProperty reports whether a field of Go type t can hold what p says.
func fitsProperty(p schema.Property, t reflect.Type) bool {
	typ := p.Type
	if p.Ref != "" {
		typ = "" // a resource, a type or a builtin: what a tag says is trusted
	}
	if t = Elem(t); t == refType && typ == "" {
		return true
	}
	return fits(typ, t)
}

// goType is the schema type of Go type t.
func (g *generator) goType(where string, t reflect.Type) (schema.Property, bool) {
	if st, ok := g.p.sdkOf(t); ok {
		switch {
		case st.Resource != nil:
			return g.resourceRef(where, st.Resource)
		case st.Builtin != "":
			return schema.Property{Ref: builtinRefs[st.Builtin]}, true
		}
		return g.goType(where, st.Elem)
	}
	if target, ok := typed.RefTarget(t); ok {
		return g.resourceRef(where, target)
	}
	t = Elem(t)
	switch {
	case t == valueType:
		g.fail("%s: a property.Value carries no schema type: say it with the tag option type=T (`pulumi:\"name,type=string\"`; T may be integer, []string, map[string]number, any, a token...)", where)
		return schema.Property{}, false
	case t == refType:
		g.fail("%s: a property.ResourceReference: say which resource with the tag option type=<token>", where)
		return schema.Property{}, false
	case t == mapType:
		return schema.Property{Type: "object", AdditionalProperties: &schema.Property{Ref: builtinRefs["any"]}}, true
	case t.Kind() == reflect.Interface && t.NumMethod() == 0:
		return schema.Property{Ref: builtinRefs["any"]}, true
	}
	if vals, ok := enumValues(t); ok {
		tok, ok := g.enum(where, t, vals)
		return schema.Property{Ref: localRef("types", tok)}, ok
	}
	switch k := t.Kind(); {
	case k == reflect.String:
		return schema.Property{Type: "string"}, true
	case k == reflect.Bool:
		return schema.Property{Type: "boolean"}, true
	case reflect.Int <= k && k <= reflect.Uint64:
		return schema.Property{Type: "integer"}, true
	case k == reflect.Float32 || k == reflect.Float64:
		return schema.Property{Type: "number"}, true
	case k == reflect.Slice:
		items, ok := g.goType(where, t.Elem())
		return schema.Property{Type: "array", Items: &items}, ok
	case k == reflect.Map && t.Key().Kind() == reflect.String:
		elem, ok := g.goType(where, t.Elem())
		return schema.Property{Type: "object", AdditionalProperties: &elem}, ok
	case k == reflect.Struct && t.Name() != "":
		tok, ok := g.objectType(where, t)
		return schema.Property{Ref: localRef("types", tok)}, ok
	case k == reflect.Struct:
		g.fail("%s: an anonymous struct has no name for its schema type; declare it as a named type", where)
	default:
		g.fail("%s: %s has no schema type", where, t)
	}
	return schema.Property{}, false
}

// typeToken is the token of named Go type t, refusing two Go types of the
// same name.
func (g *generator) typeToken(where string, t reflect.Type) (string, bool) {
	if tok, ok := g.named[t]; ok {
		return tok, true
	}
	tok := g.p.Name + ":index:" + t.Name()
	if declared, ok, err := declaredToken(t); err != nil {
		g.fail("%s: %v", where, err)
		return tok, false
	} else if ok {
		if err := checkTypeToken(g.p.Name, declared); err != nil {
			g.fail("%s: %s.PulumiType() says %q: %v", where, t, declared, err)
			return tok, false
		}
		tok = declared
	}
	if other, ok := g.byTok[tok]; ok {
		g.fail("%s: Go types %s.%s and %s.%s would both be the schema type %s; rename one", where,
			other.PkgPath(), other.Name(), t.PkgPath(), t.Name(), tok)
		return tok, false
	}
	g.byTok[tok], g.named[t] = t, tok
	return tok, true
}

// declaredToken is the token a named type declares with a method
//
//	func (T) PulumiType() string
//
// ok is false for a type that declares none.
func declaredToken(t reflect.Type) (tok string, ok bool, err error) {
	m, has := t.MethodByName("PulumiType")
	if !has {
		if _, onPtr := reflect.PointerTo(t).MethodByName("PulumiType"); onPtr {
			return "", false, fmt.Errorf("%s declares PulumiType on *%s: declare it on %s (a value receiver)", t, t.Name(), t.Name())
		}
		return "", false, nil
	}
	if m.Type.NumIn() != 1 || m.Type.NumOut() != 1 || m.Type.Out(0).Kind() != reflect.String {
		return "", false, fmt.Errorf("%s.PulumiType must be func() string, is %s", t, m.Type)
	}
	return reflect.Zero(t).Method(m.Index).Call(nil)[0].String(), true, nil
}

// checkTypeToken refuses a declared type token that is not of package pkg
// or not of the form pkg:module:Name.
func checkTypeToken(pkg, tok string) error {
	parts := strings.Split(tok, ":")
	switch {
	case len(parts) != 3 || !tokenLike.MatchString(tok) || parts[1] == "":
		return fmt.Errorf("want a token of the form %s:module:Name", pkg)
	case parts[0] != pkg:
		return fmt.Errorf("the token's package is %q, but the package is %q", parts[0], pkg)
	}
	return nil
}

// objectType describes named struct t under #/types.
func (g *generator) objectType(where string, t reflect.Type) (string, bool) {
	_, seen := g.named[t]
	tok, ok := g.typeToken(where, t)
	if !ok || seen {
		return tok, ok
	}
	n := mapping()
	g.types[tok] = n // before the fields, which may refer to it
	add(n, "type", scalar("object"))
	addText(n, "description", g.docs.Type(t))
	props, required := g.object(tok, t)
	add(n, "properties", props)
	if len(required) > 0 {
		add(n, "required", stringList(required))
	}
	return tok, true
}

// enum describes enum type t under #/types.
func (g *generator) enum(where string, t reflect.Type, vals []anyEnumValue) (string, bool) {
	_, seen := g.named[t]
	tok, ok := g.typeToken(where, t)
	if !ok || seen {
		return tok, ok
	}
	typ, ok := map[reflect.Kind]string{reflect.String: "string", reflect.Bool: "boolean",
		reflect.Float32: "number", reflect.Float64: "number"}[t.Kind()]
	if reflect.Int <= t.Kind() && t.Kind() <= reflect.Uint64 {
		typ, ok = "integer", true
	}
	if !ok {
		g.fail("%s: enum %s is a %s; an enum is a string, integer, number or boolean", where, t, t.Kind())
		return tok, false
	}
	n := mapping()
	g.types[tok] = n
	add(n, "type", scalar(typ))
	addText(n, "description", g.docs.Type(t))
	list := &yaml.Node{Kind: yaml.SequenceNode}
	for _, v := range vals {
		name, value, desc := v.enumValue()
		if reflect.TypeOf(value) != t {
			g.fail("%s: enum %s: value %v is a %T, not a %s", where, t, value, value, t)
			continue
		}
		e := flow(mapping())
		if name != "" {
			add(e, "name", scalar(name))
		}
		add(e, "value", scalar(plainValue(reflect.ValueOf(value))))
		if vd, ok := g.docs.(ValueDocs); ok && desc == "" {
			desc = vd.Value(t, plainValue(reflect.ValueOf(value)))
		}
		addText(e, "description", desc)
		list.Content = append(list.Content, e)
	}
	if len(list.Content) == 0 {
		g.fail("%s: enum %s declares no values", where, t)
	}
	add(n, "enum", list)
	return tok, true
}

// plainValue is an enum value as its underlying Go type, for YAML.
func plainValue(v reflect.Value) any {
	switch k := v.Kind(); {
	case k == reflect.String:
		return v.String()
	case k == reflect.Bool:
		return v.Bool()
	case reflect.Int <= k && k <= reflect.Int64:
		return v.Int()
	case reflect.Uint <= k && k <= reflect.Uint64:
		return v.Uint()
	}
	return v.Float()
}

// funcName is the runtime name of fn, a function; "" for anything else.
func funcName(fn any) string {
	v := reflect.ValueOf(fn)
	if v.Kind() != reflect.Func || v.IsNil() {
		return ""
	}
	if f := runtime.FuncForPC(v.Pointer()); f != nil {
		return f.Name()
	}
	return ""
}

// YAML nodes, built in the order they are written.

func mapping() *yaml.Node { return &yaml.Node{Kind: yaml.MappingNode} }

func flow(n *yaml.Node) *yaml.Node { n.Style = yaml.FlowStyle; return n }

// scalar is a string, boolean or number node. (yaml.Node.Encode would do,
// at the cost of an encoder and a parser per scalar: milliseconds at
// start-up.)
func scalar(v any) *yaml.Node {
	n := &yaml.Node{Kind: yaml.ScalarNode}
	switch v := v.(type) {
	case string:
		n.Tag, n.Value = "!!str", v // the encoder quotes what would read as another type
	case bool:
		n.Tag, n.Value = "!!bool", strconv.FormatBool(v)
	case int64:
		n.Tag, n.Value = "!!int", strconv.FormatInt(v, 10)
	case uint64:
		n.Tag, n.Value = "!!int", strconv.FormatUint(v, 10)
	case float64:
		n.Tag, n.Value = "!!float", strconv.FormatFloat(v, 'g', -1, 64)
	default:
		panic(fmt.Sprintf("scalar of %T", v))
	}
	return n
}

// writeJSON writes the document built from the types as JSON, for
// schema.LoadJSON: no YAML to write and parse again at start-up.
func writeJSON(buf *bytes.Buffer, n *yaml.Node) {
	switch n.Kind {
	case yaml.MappingNode:
		buf.WriteByte('{')
		for i := 0; i+1 < len(n.Content); i += 2 {
			if i > 0 {
				buf.WriteByte(',')
			}
			writeJSON(buf, n.Content[i])
			buf.WriteByte(':')
			writeJSON(buf, n.Content[i+1])
		}
		buf.WriteByte('}')
	case yaml.SequenceNode:
		buf.WriteByte('[')
		for i, e := range n.Content {
			if i > 0 {
				buf.WriteByte(',')
			}
			writeJSON(buf, e)
		}
		buf.WriteByte(']')
	default:
		if n.Tag == "!!str" {
			js, _ := json.Marshal(n.Value) // a string: never fails
			buf.Write(js)
		} else {
			buf.WriteString(n.Value) // true, 12, 1.5: JSON as written
		}
	}
}

func stringList(ss []string) *yaml.Node {
	n := flow(&yaml.Node{Kind: yaml.SequenceNode})
	for _, s := range ss {
		n.Content = append(n.Content, scalar(s))
	}
	return n
}

func add(m *yaml.Node, key string, v *yaml.Node) {
	m.Content = append(m.Content, scalar(key), v)
}

// addText adds a description, if there is one.
func addText(m *yaml.Node, key, text string) {
	if text != "" {
		add(m, key, scalar(text))
	}
}

// propNode writes a property: its type, then what describes it.
func propNode(p schema.Property) *yaml.Node {
	n := mapping()
	if p.Type != "" {
		add(n, "type", scalar(p.Type))
	}
	if p.Ref != "" {
		ref := scalar(p.Ref)
		ref.Style = yaml.DoubleQuotedStyle // as schemas are written: "#/types/..."
		add(n, "$ref", ref)
	}
	if p.Items != nil {
		add(n, "items", flow(propNode(*p.Items)))
	}
	if p.AdditionalProperties != nil {
		add(n, "additionalProperties", flow(propNode(*p.AdditionalProperties)))
	}
	addText(n, "description", p.Description)
	if p.Secret {
		add(n, "secret", scalar(true))
	}
	if p.ReplaceOnChanges {
		add(n, "replaceOnChanges", scalar(true))
	}
	if p.Default != nil {
		add(n, "default", scalar(p.Default))
	}
	if p.DefaultInfo != nil {
		info := flow(mapping())
		add(info, "environment", stringList(p.DefaultInfo.Environment))
		add(n, "defaultInfo", info)
	}
	if p.Description == "" {
		flow(n) // {type: string}
	}
	return n
}

var (
	valueType = reflect.TypeFor[property.Value]()
	mapType   = reflect.TypeFor[property.Map]()
	refType   = reflect.TypeFor[property.ResourceReference]()
)

// resourceRef is a reference to the resource whose Go type is t.
func (g *generator) resourceRef(where string, t reflect.Type) (schema.Property, bool) {
	ref, err := g.p.resourceOfType(t)
	if err != nil {
		g.fail("%s: %v", where, err)
		return schema.Property{}, false
	}
	return schema.Property{Ref: ref}, true
}
