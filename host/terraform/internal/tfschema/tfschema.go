// Package tfschema builds the Pulumi package schema of a Terraform provider
// from its GetProviderSchema response, in the types of package host/schema.
//
// Tokens: a managed resource time_offset is time:index:Offset (the provider
// prefix time_ stripped, the rest UpperCamelCase), a data source time_x the
// function time:index:getX, a provider-defined function rfc3339_parse the
// function time:index:rfc3339Parse. Object types (nested blocks, nested
// attributes, object-typed attributes) are time:index:<Owner><Path>: the
// owner's name (Offset, GetX, Provider, Rfc3339Parse) followed by each
// property name on the way, UpperCamelCase (OffsetRuleSubRule). A name
// whose SDK identifiers (Foo, FooArgs, FooOutput, FooPtr...) another token
// already declares gets a number (OffsetRule2); a resource or function the
// SDK generators cannot take (schema.Package.LanguageProblems: Object, a
// Python file name, a reserved word) gets "Resource" or "Fn" appended.
// Property names are tfvalue.PropertyNames', so values convert by the same
// names.
//
// Properties: Required attributes are required inputs, Optional ones
// inputs, Computed-only ones outputs only, write-only ones inputs only;
// every other attribute is an output. A resource's id attribute is left out
// (it is the resource's ID). Nested blocks are inputs and outputs, required
// inputs when MinItems > 0, required outputs unless Single (Terraform never
// leaves the others null). Sensitive is secret, deprecated a
// deprecationMessage. Types: string, number, bool as such; list and set an
// array; map an object's additionalProperties; tuple an array of Any;
// DynamicPseudoType Any. The provider block is the config variables and the
// provider's inputs; its outputs are its string inputs (the engine keeps a
// provider's other outputs as JSON text).
//
// Functions: a data source's inputs are its configurable attributes and
// blocks, its outputs all of them. A provider-defined function's inputs are
// its parameters (required unless they allow null, the variadic one an
// optional array); its outputs are the attributes of the object it returns
// (Function.Flat), or a single required "result".
package tfschema

import (
	"encoding/json"
	"fmt"
	"maps"
	"slices"
	"strconv"
	"strings"

	"github.com/hashicorp/terraform-plugin-go/tfprotov6"
	"github.com/hashicorp/terraform-plugin-go/tftypes"

	"github.com/polyhost/polyhost/host/schema"
	"github.com/polyhost/polyhost/host/terraform/internal/tfvalue"
)

// Options name the package.
type Options struct {
	Name    string // the Pulumi package name: time
	Prefix  string // the Terraform type name prefix, without "_": time
	Version string // the package version; "" for none
	Module  string // the tokens' module: time:<Module>:Offset; "" is index
}

// Package is a provider's Pulumi schema and what maps its tokens back to
// Terraform.
type Package struct {
	JSON   []byte          // the schema, as GetSchema serves it
	Schema *schema.Package // JSON, loaded

	Resources   map[string]string   // resource token -> managed resource type name
	DataSources map[string]string   // function token -> data source type name
	Functions   map[string]Function // function token -> provider-defined function

	// Problems are the LanguageProblems left after renaming tokens: names
	// of properties some SDK cannot take (foo_bar beside fooBar, both
	// foo_bar in Python). The caller decides whether to refuse them.
	Problems []schema.Problem
}

// Function is a provider-defined function as the schema presents it.
type Function struct {
	Name       string   // the Terraform function name
	Parameters []string // the input property of each parameter, in order
	Variadic   string   // the input property of the variadic parameter (an array); "" if none
	// Flat says the function returns an object whose attributes are the
	// outputs; otherwise its one output is "result".
	Flat bool
}

// Build makes the schema of a provider.
func Build(resp *tfprotov6.GetProviderSchemaResponse, opts Options) (*Package, error) {
	if resp == nil {
		return nil, fmt.Errorf("tfschema: no provider schema")
	}
	for _, d := range resp.Diagnostics {
		if d != nil && d.Severity == tfprotov6.DiagnosticSeverityError {
			return nil, fmt.Errorf("tfschema: provider schema: %s: %s", d.Summary, d.Detail)
		}
	}
	if opts.Name == "" {
		return nil, fmt.Errorf("tfschema: no package name")
	}
	renamed := map[string]bool{}
	for {
		p, err := build(resp, opts, renamed)
		if err != nil {
			return nil, err
		}
		more := false
		p.Problems = nil
		for _, pr := range p.Schema.LanguageProblems() {
			if (strings.HasSuffix(pr.Reason, "rename the resource") || strings.HasSuffix(pr.Reason, "rename the function") ||
				strings.HasSuffix(pr.Reason, "rename the type")) && !renamed[pr.Token] {
				renamed[pr.Token], more = true, true
				continue
			}
			p.Problems = append(p.Problems, pr)
		}
		if !more {
			return p, nil
		}
	}
}

// build makes the schema, giving each token in renamed another name.
func build(resp *tfprotov6.GetProviderSchemaResponse, opts Options, renamed map[string]bool) (*Package, error) {
	mod := opts.Module
	if mod == "" {
		mod = "index"
	}
	b := &builder{pkg: opts.Name + ":" + mod + ":", types: map[string]schema.Type{}, taken: map[string]bool{}, renamed: renamed}
	out := &Package{Resources: map[string]string{}, DataSources: map[string]string{}, Functions: map[string]Function{}}
	doc := schema.Package{
		Name:      opts.Name,
		Version:   opts.Version,
		Meta:      schema.Meta{ModuleFormat: "(.*)"},
		Resources: map[string]schema.Resource{},
		Functions: map[string]schema.Function{},
		Types:     b.types,
	}

	// Tokens first: every SDK identifier they declare is taken before
	// types are named.
	resTok := b.tokens(slices.Sorted(maps.Keys(resp.ResourceSchemas)), func(n string) string {
		return upperCamel(b.strip(n, opts.Prefix))
	}, "Resource")
	fnTok := map[string]string{}
	var fnNames []string
	for _, n := range slices.Sorted(maps.Keys(resp.DataSourceSchemas)) {
		fnNames = append(fnNames, "d\x00"+n)
	}
	for _, n := range slices.Sorted(maps.Keys(resp.Functions)) {
		fnNames = append(fnNames, "f\x00"+n)
	}
	for k, v := range b.tokens(fnNames, func(n string) string {
		kind, name, _ := strings.Cut(n, "\x00")
		if kind == "d" {
			return "get" + upperCamel(b.strip(name, opts.Prefix))
		}
		return lowerCamel(name)
	}, "Fn") {
		fnTok[k] = v
	}
	b.take("Provider")

	provider := resp.Provider
	if provider == nil {
		provider = &tfprotov6.Schema{Block: &tfprotov6.SchemaBlock{}}
	}
	{
		fs := b.fields("Provider", block(provider))
		doc.Config.Variables = map[string]schema.Property{}
		doc.Provider = schema.Resource{Description: block(provider).Description, InputProperties: map[string]schema.Property{},
			Object: schema.Object{Properties: map[string]schema.Property{}}}
		for _, f := range fs {
			if !f.input {
				continue
			}
			doc.Config.Variables[f.prop] = f.spec
			doc.Provider.InputProperties[f.prop] = f.spec
			if f.spec.Type == "string" {
				doc.Provider.Properties[f.prop] = f.spec
			}
			if f.required {
				doc.Config.Required = append(doc.Config.Required, f.prop)
				doc.Provider.RequiredInputs = append(doc.Provider.RequiredInputs, f.prop)
			}
		}
	}

	for _, n := range slices.Sorted(maps.Keys(resp.ResourceSchemas)) {
		tok := resTok[n]
		out.Resources[tok] = n
		blk := block(resp.ResourceSchemas[n])
		r := schema.Resource{Description: blk.Description, DeprecationMessage: deprecation(blk.Deprecated, blk.DeprecationMessage),
			InputProperties: map[string]schema.Property{}, Object: schema.Object{Properties: map[string]schema.Property{}}}
		for _, f := range b.fields(member(tok), withoutTimeouts(blk)) { // customTimeouts fill timeouts
			if f.tf == "id" {
				continue // the resource's ID
			}
			if f.input {
				r.InputProperties[f.prop] = f.spec
				if f.required {
					r.RequiredInputs = append(r.RequiredInputs, f.prop)
				}
			}
			if f.output {
				r.Properties[f.prop] = f.spec
				if f.outRequired {
					r.Required = append(r.Required, f.prop)
				}
			}
		}
		doc.Resources[tok] = r
	}

	for _, n := range slices.Sorted(maps.Keys(resp.DataSourceSchemas)) {
		tok := fnTok["d\x00"+n]
		out.DataSources[tok] = n
		blk := block(resp.DataSourceSchemas[n])
		in, outs := &schema.Object{Properties: map[string]schema.Property{}}, &schema.Object{Properties: map[string]schema.Property{}}
		for _, f := range b.fields(upperFirst(member(tok)), blk) {
			if f.input {
				in.Properties[f.prop] = f.spec
				if f.required {
					in.Required = append(in.Required, f.prop)
				}
			}
			if f.output {
				outs.Properties[f.prop] = f.spec
				if f.outRequired {
					outs.Required = append(outs.Required, f.prop)
				}
			}
		}
		doc.Functions[tok] = schema.Function{Description: blk.Description, DeprecationMessage: deprecation(blk.Deprecated, blk.DeprecationMessage),
			Inputs: in, Outputs: outs}
	}

	for _, n := range slices.Sorted(maps.Keys(resp.Functions)) {
		tok := fnTok["f\x00"+n]
		fn, f, err := b.function(upperFirst(member(tok)), n, resp.Functions[n])
		if err != nil {
			return nil, fmt.Errorf("tfschema: function %s (%s): %w", n, tok, err)
		}
		out.Functions[tok] = fn
		doc.Functions[tok] = f
	}

	js, err := json.MarshalIndent(&doc, "", "  ")
	if err != nil {
		return nil, fmt.Errorf("tfschema: %w", err)
	}
	out.JSON = append(js, '\n')
	if out.Schema, err = schema.LoadJSON(out.JSON); err != nil {
		return nil, fmt.Errorf("tfschema: the schema built: %w", err)
	}
	return out, nil
}

func block(s *tfprotov6.Schema) *tfprotov6.SchemaBlock {
	if s == nil || s.Block == nil {
		return &tfprotov6.SchemaBlock{}
	}
	return s.Block
}

func member(tok string) string { return tok[strings.LastIndex(tok, ":")+1:] }

func deprecation(deprecated bool, msg string) string {
	if msg != "" {
		return msg
	}
	if deprecated {
		return "Deprecated."
	}
	return ""
}

type builder struct {
	pkg     string // the package and module of every token: "time:index:"
	types   map[string]schema.Type
	taken   map[string]bool // identifiers the SDKs declare
	renamed map[string]bool // tokens to name otherwise
}

// sdkSuffixes are what the SDK generators append to a resource's,
// function's or type's name for the identifiers they declare beside it.
var sdkSuffixes = []string{"", "Args", "ArgsDict", "State", "Input", "Output", "Ptr", "PtrInput", "PtrOutput",
	"Array", "ArrayInput", "ArrayOutput", "Map", "MapInput", "MapOutput", "ArrayMap", "MapArray",
	"Result", "ResultOutput", "OutputArgs"}

func (b *builder) take(name string) {
	for _, s := range sdkSuffixes {
		b.taken[name+s] = true
	}
}

func (b *builder) free(name string) bool {
	for _, s := range sdkSuffixes {
		if b.taken[name+s] {
			return false
		}
	}
	return true
}

// unique is name, or name with a number, whose identifiers are free; it
// takes them.
func (b *builder) unique(name string) string {
	n := name
	for i := 2; !b.free(upperFirst(n)); i++ {
		n = name + strconv.Itoa(i)
	}
	b.take(upperFirst(n))
	return n
}

// tokens names each of names (sorted) by name(n), uniquely, with suffix
// appended to the ones renamed.
func (b *builder) tokens(names []string, name func(string) string, suffix string) map[string]string {
	out := map[string]string{}
	for _, n := range names {
		m := name(n)
		if b.renamed[b.pkg+m] {
			m += suffix
		}
		out[n] = b.pkg + b.unique(m)
	}
	return out
}

// strip is a type name without the provider's prefix.
func (b *builder) strip(name, prefix string) string {
	if rest, ok := strings.CutPrefix(name, prefix+"_"); ok && rest != "" && prefix != "" {
		return rest
	}
	return name
}

// words splits a name at what cannot be in a token's member.
func words(s string) []string {
	return strings.FieldsFunc(s, func(r rune) bool {
		return !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9')
	})
}

func upperFirst(s string) string {
	if s == "" || s[0] < 'a' || s[0] > 'z' {
		return s
	}
	return string(s[0]-'a'+'A') + s[1:]
}

// upperCamel: offset_days -> OffsetDays, fooBar -> FooBar; "_" before a
// leading digit.
func upperCamel(s string) string {
	var b strings.Builder
	for _, w := range words(s) {
		b.WriteString(upperFirst(w))
	}
	out := b.String()
	if out == "" || out[0] >= '0' && out[0] <= '9' {
		out = "_" + out
	}
	return out
}

// lowerCamel: rfc3339_parse -> rfc3339Parse.
func lowerCamel(s string) string {
	ws := words(s)
	if len(ws) == 0 {
		return "_"
	}
	var b strings.Builder
	b.WriteString(ws[0])
	for _, w := range ws[1:] {
		b.WriteString(upperFirst(w))
	}
	out := b.String()
	if out[0] >= '0' && out[0] <= '9' {
		out = "_" + out
	}
	return out
}

// A field is one attribute or nested block as a property.
type field struct {
	tf, prop      string
	spec          schema.Property
	input, output bool
	required      bool // a required input
	outRequired   bool // never null in an output
	attr          *tfprotov6.SchemaAttribute
	nestedBlock   *tfprotov6.SchemaNestedBlock
}

// fields are a block's attributes and nested blocks as properties, object
// types named owner<Path>.
func (b *builder) fields(owner string, blk *tfprotov6.SchemaBlock) []field {
	var fs []field
	var names []string
	for _, a := range blk.Attributes {
		if a != nil && a.ValueType() != nil {
			fs = append(fs, field{tf: a.Name, attr: a})
			names = append(names, a.Name)
		}
	}
	for _, nb := range blk.BlockTypes {
		if nb != nil && nb.ValueType() != nil {
			fs = append(fs, field{tf: nb.TypeName, nestedBlock: nb})
			names = append(names, nb.TypeName)
		}
	}
	props := tfvalue.PropertyNames(names)
	slices.SortFunc(fs, func(x, y field) int { return strings.Compare(props[x.tf], props[y.tf]) })
	for i := range fs {
		f := &fs[i]
		f.prop = props[f.tf]
		where := owner + upperCamel(f.prop)
		if a := f.attr; a != nil {
			f.spec = b.attribute(where, a)
			f.input = a.Required || a.Optional
			f.output = !a.WriteOnly
			f.required = a.Required
			f.outRequired = a.Required && !a.WriteOnly
			continue
		}
		nb := f.nestedBlock
		inner := nb.Block
		if inner == nil {
			inner = &tfprotov6.SchemaBlock{}
		}
		name := b.typeName(where)
		ref := schema.Property{Ref: b.objectType(name, inner.Description, b.fields(name, inner))}
		switch nb.Nesting {
		case tfprotov6.SchemaNestedBlockNestingModeList, tfprotov6.SchemaNestedBlockNestingModeSet:
			f.spec = schema.Property{Type: "array", Items: &ref}
		case tfprotov6.SchemaNestedBlockNestingModeMap:
			f.spec = schema.Property{Type: "object", AdditionalProperties: &ref}
		default:
			f.spec = ref
		}
		f.spec.Description = inner.Description
		f.spec.DeprecationMessage = deprecation(inner.Deprecated, inner.DeprecationMessage)
		f.input, f.output = true, true
		f.required = nb.MinItems > 0 && nb.Nesting != tfprotov6.SchemaNestedBlockNestingModeGroup
		f.outRequired = nb.Nesting != tfprotov6.SchemaNestedBlockNestingModeSingle
	}
	return fs
}

func (b *builder) attribute(where string, a *tfprotov6.SchemaAttribute) schema.Property {
	var p schema.Property
	if nt := a.NestedType; nt != nil {
		inner := &tfprotov6.SchemaBlock{Attributes: nt.Attributes}
		name := b.typeName(where)
		ref := schema.Property{Ref: b.objectType(name, "", b.fields(name, inner))}
		switch nt.Nesting {
		case tfprotov6.SchemaObjectNestingModeList, tfprotov6.SchemaObjectNestingModeSet:
			p = schema.Property{Type: "array", Items: &ref}
		case tfprotov6.SchemaObjectNestingModeMap:
			p = schema.Property{Type: "object", AdditionalProperties: &ref}
		default:
			p = ref
		}
	} else {
		p = b.typ(where, a.Type)
	}
	p.Description = a.Description
	p.Secret = a.Sensitive || a.WriteOnly // Terraform never stores a write-only value: a password_wo
	p.DeprecationMessage = deprecation(a.Deprecated, a.DeprecationMessage)
	return p
}

// typeName is the unique name of the object type at where, taken before
// the names of the types inside it, which it prefixes.
func (b *builder) typeName(where string) string {
	if b.renamed[b.pkg+where] {
		where += "Type"
	}
	return b.unique(where)
}

// objectType declares the type of fs named name (from typeName),
// returning its $ref.
func (b *builder) objectType(name, description string, fs []field) string {
	t := schema.Type{Type: "object", Description: description, Object: schema.Object{Properties: map[string]schema.Property{}}}
	for _, f := range fs {
		t.Properties[f.prop] = f.spec
		if f.required {
			t.Required = append(t.Required, f.prop)
		}
	}
	tok := b.pkg + name
	b.types[tok] = t
	return "#/types/" + tok
}

// typ is the property of a Terraform type.
func (b *builder) typ(where string, t tftypes.Type) schema.Property {
	switch t := t.(type) {
	case tftypes.List:
		e := b.typ(where, t.ElementType)
		return schema.Property{Type: "array", Items: &e}
	case tftypes.Set:
		e := b.typ(where, t.ElementType)
		return schema.Property{Type: "array", Items: &e}
	case tftypes.Map:
		e := b.typ(where, t.ElementType)
		return schema.Property{Type: "object", AdditionalProperties: &e}
	case tftypes.Tuple:
		return schema.Property{Type: "array", Items: &schema.Property{Ref: "pulumi.json#/Any"}}
	case tftypes.Object:
		name := b.typeName(where)
		var fs []field
		names := slices.Sorted(maps.Keys(t.AttributeTypes))
		props := tfvalue.PropertyNames(names)
		for _, n := range names {
			fs = append(fs, field{tf: n, prop: props[n], spec: b.typ(name+upperCamel(props[n]), t.AttributeTypes[n])})
		}
		return schema.Property{Ref: b.objectType(name, "", fs)}
	case nil:
	default:
		switch {
		case t.Is(tftypes.String):
			return schema.Property{Type: "string"}
		case t.Is(tftypes.Number):
			return schema.Property{Type: "number"}
		case t.Is(tftypes.Bool):
			return schema.Property{Type: "boolean"}
		}
	}
	return schema.Property{Ref: "pulumi.json#/Any"}
}

// function is a provider-defined function's schema; owner names its types.
func (b *builder) function(owner, name string, fn *tfprotov6.Function) (Function, schema.Function, error) {
	out := Function{Name: name}
	if fn == nil {
		return out, schema.Function{}, fmt.Errorf("no definition")
	}
	var names []string
	for i, p := range fn.Parameters {
		if p == nil {
			return out, schema.Function{}, fmt.Errorf("parameter %d: no definition", i)
		}
		names = append(names, p.Name)
	}
	if fn.VariadicParameter != nil {
		names = append(names, fn.VariadicParameter.Name)
	}
	if len(slices.Compact(slices.Sorted(slices.Values(names)))) != len(names) {
		return out, schema.Function{}, fmt.Errorf("two parameters have the same name")
	}
	props := tfvalue.PropertyNames(names)
	in := &schema.Object{Properties: map[string]schema.Property{}}
	param := func(p *tfprotov6.FunctionParameter) schema.Property {
		s := b.typ(owner+upperCamel(props[p.Name]), p.Type)
		s.Description = p.Description
		return s
	}
	for _, p := range fn.Parameters {
		prop := props[p.Name]
		out.Parameters = append(out.Parameters, prop)
		in.Properties[prop] = param(p)
		if !p.AllowNullValue {
			in.Required = append(in.Required, prop)
		}
	}
	if v := fn.VariadicParameter; v != nil {
		out.Variadic = props[v.Name]
		e := param(v)
		items := e
		items.Description = ""
		in.Properties[out.Variadic] = schema.Property{Type: "array", Items: &items, Description: e.Description}
	}
	outs := &schema.Object{Properties: map[string]schema.Property{}}
	var ret tftypes.Type
	if fn.Return != nil {
		ret = fn.Return.Type
	}
	if o, ok := ret.(tftypes.Object); ok {
		out.Flat = true
		names := slices.Sorted(maps.Keys(o.AttributeTypes))
		props := tfvalue.PropertyNames(names)
		for _, n := range names {
			outs.Properties[props[n]] = b.typ(owner+upperCamel(props[n]), o.AttributeTypes[n])
		}
	} else {
		outs.Properties["result"] = b.typ(owner+"Result", ret)
		outs.Required = []string{"result"}
	}
	desc := fn.Description
	if desc == "" {
		desc = fn.Summary
	}
	if len(in.Properties) == 0 {
		in = nil
	}
	return out, schema.Function{Description: desc, DeprecationMessage: fn.DeprecationMessage, Inputs: in, Outputs: outs}, nil
}
