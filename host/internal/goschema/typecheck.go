package goschema

import (
	"errors"
	"fmt"
	"maps"
	"reflect"
	"slices"
	"strings"

	"github.com/polyhost/polyhost/host/internal/typed"
	"github.com/polyhost/polyhost/host/schema"
)

// Signature is the Go argument and result types an author serves a token
// with, and what serves it (a function, or a custom.Resource), whose doc
// comment describes the token in a schema built from the types.
type Signature struct {
	Args, Result reflect.Type
	Fn           any
}

// SignatureOf is the signature of fn, which takes A and returns R.
func SignatureOf[A, R any](fn any) Signature {
	return Signature{Args: reflect.TypeFor[A](), Result: reflect.TypeFor[R](), Fn: fn}
}

// Check compares the Go types of every component, method, function,
// typed resource and the configuration with the schema: struct tags, field
// types down through arrays, maps, named object types and enums' values,
// and the secret and replaceOnChanges options. A misspelt tag, a missing
// ",optional" or a field of the wrong type stops the provider at start-up
// rather than failing the user's program with an error about inputs they
// passed correctly. Every difference is named.
//
// s is the schema, config its configuration's variables (nil if none).
func (p *Package) Check(s *schema.Package, config *schema.Object) error {
	c := &typeChecker{p: p, schema: s, seen: map[seenType]bool{}}
	for _, tok := range slices.Sorted(maps.Keys(p.Signatures)) {
		c.check(tok, p.Signatures[tok])
	}
	if p.Config != nil && config != nil {
		c.fields("configuration", "variable %q", *config, p.Config.Args, true)
	}
	switch len(c.diffs) {
	case 0:
		return nil
	case 1:
		return errors.New(c.diffs[0] + staleSchemaHint)
	}
	return fmt.Errorf("the Go types and the schema disagree in %d places:\n\t%s%s", len(c.diffs), strings.Join(c.diffs, "\n\t"), staleSchemaHint)
}

// staleSchemaHint ends a disagreement of the Go types and the schema: most
// often the types changed since go generate wrote the schema.
const staleSchemaHint = "\n(if the schema is generated from these Go types, it is stale: run go generate)"

type typeChecker struct {
	p      *Package
	schema *schema.Package
	diffs  []string
	seen   map[seenType]bool // named Go types compared with schema types
}

type seenType struct {
	t   reflect.Type
	tok string
}

func (c *typeChecker) diff(tok, format string, args ...any) {
	c.diffs = append(c.diffs, tok+": "+fmt.Sprintf(format, args...))
}

func (c *typeChecker) check(tok string, sh Signature) {
	var ins, outs *schema.Object
	if r, ok := c.schema.Resource(tok); ok {
		in := r.Inputs()
		ins, outs = &in, &r.Object
	} else if fn, ok := c.schema.Function(tok); ok {
		ins, outs = fn.Inputs, fn.Outputs
	} else {
		c.diff(tok, "the schema does not declare it")
		return
	}
	if _, isStruct, err := typed.Fields(sh.Args); err == nil && !isStruct && sh.Args != mapType {
		c.diff(tok, "the arguments must be a struct or property.Map, not %s", sh.Args)
		return
	}
	c.fields(tok, "input %q", deref(ins), sh.Args, true)
	if _, isFn := c.schema.Function(tok); isFn && !c.p.isStructType(sh.Result) {
		return // a single result, under "res"
	}
	c.fields(tok, "output %q", deref(outs), sh.Result, false)
}

func deref(o *schema.Object) schema.Object {
	if o == nil {
		return schema.Object{}
	}
	return *o
}

// fields compares the fields of struct t with obj's properties; whatf
// names a property: `input %q`, `property %q of type pkg:index:Point`.
func (c *typeChecker) fields(tok, whatf string, obj schema.Object, t reflect.Type, isInput bool) {
	fields, isStruct, err := typed.Fields(t)
	if err != nil {
		c.diff(tok, "%v", err)
		return
	}
	if !isStruct || Elem(t) == mapType {
		return
	}
	st := Elem(t) // for messages: no pointer's *
	verb, has := "sets", map[string]bool{}
	if isInput {
		verb = "reads"
	}
	for _, f := range fields {
		has[f.Name] = true
		what := fmt.Sprintf(whatf, f.Name)
		sp, ok := obj.Properties[f.Name]
		if !ok {
			c.diff(tok, "field %s.%s %s %s, which the schema does not declare", st, f.GoName, verb, what)
			continue
		}
		required := slices.Contains(obj.Required, f.Name)
		switch {
		case isInput && !c.p.optional(f) && !required:
			c.diff(tok, "%s is optional in the schema, so field %s.%s needs the tag `pulumi:\"%s,optional\"`",
				what, st, f.GoName, f.Name)
		case !isInput && f.Tag.Optional && required:
			c.diff(tok, "%s is required in the schema, but field %s.%s is tagged optional", what, st, f.GoName)
		}
		if f.Tag.Secret && !sp.Secret {
			c.diff(tok, "field %s.%s is tagged secret, but %s is not secret in the schema", st, f.GoName, what)
		}
		if f.Tag.ReplaceOnChanges && !sp.ReplaceOnChanges {
			c.diff(tok, "field %s.%s is tagged replaceOnChanges, but %s is not in the schema", st, f.GoName, what)
		}
		if f.Tag.SchemaType != "" {
			gp, err := typeExpr(f.Tag.SchemaType, c.resolve)
			if err != nil {
				c.diff(tok, "field %s.%s: %v", st, f.GoName, err)
			} else if !c.same(gp, sp) {
				c.diff(tok, "field %s.%s has type=%s, but %s is %s in the schema", st, f.GoName, f.Tag.SchemaType, what, c.describe(sp))
			}
			continue
		}
		if !c.match(tok, f.Type, sp) {
			c.diff(tok, "field %s.%s is %s, but %s is %s in the schema", st, f.GoName, goTypeName(f.Type), what, c.describe(sp))
		}
	}
	if isInput {
		return // the author may read an input through Component.Inputs
	}
	for _, name := range obj.Required {
		if !has[name] {
			c.diff(tok, "%s is required in the schema, but %s has no field for it", fmt.Sprintf(whatf, name), st)
		}
	}
}

// resolve looks a tag's token up in the schema.
func (c *typeChecker) resolve(tok string) string {
	if _, ok := c.schema.Resources[tok]; ok {
		return "resource"
	}
	if _, ok := c.schema.Types[tok]; ok {
		return "type"
	}
	return ""
}

// target is what a $ref names ("type", "resource", "any", ...), or "".
func (c *typeChecker) target(sp schema.Property) schema.RefTarget {
	if sp.Ref == "" {
		return schema.RefTarget{}
	}
	t, _ := c.schema.RefTarget(sp.Ref) // Load has checked every $ref
	return t
}

// match reports whether a field of Go type t holds what sp says, through
// arrays, maps and named types. A named struct is compared with the object
// type sp names, an enum with its values; those differences are reported
// on their own.
func (c *typeChecker) match(tok string, t reflect.Type, sp schema.Property) bool {
	target := c.target(sp)
	if st, ok := c.p.sdkOf(t); ok {
		switch {
		case st.Resource != nil:
			return c.sameResource(st.Resource, target)
		case st.Builtin == "any":
			return true
		case st.Builtin != "":
			return target.Kind == st.Builtin || target.Kind == "any"
		}
		return c.match(tok, st.Elem, sp)
	}
	if rt, ok := typed.RefTarget(t); ok {
		return c.sameResource(rt, target)
	}
	t = Elem(t)
	switch {
	case t == valueType || t.Kind() == reflect.Interface || target.Kind == "any":
		return true
	case target.Kind == "resource":
		return t == refType || t.Kind() == reflect.String // a reference decodes to its ID
	case t == refType:
		return target.Kind == "" && sp.Type == ""
	case t == mapType:
		return c.schema.TypeOf(sp) == "object"
	}
	ty, isType := c.schema.Types[target.Token]
	isType = isType && target.Kind == "type"
	if vals, ok := enumValues(t); ok {
		if !isType || len(ty.Enum) == 0 {
			return false
		}
		c.enum(tok, t, vals, target.Token, ty)
		return true
	}
	switch t.Kind() {
	case reflect.Slice:
		return sp.Type == "array" && (sp.Items == nil || c.match(tok, t.Elem(), *sp.Items))
	case reflect.Map:
		return sp.Type == "object" && c.match(tok, t.Elem(), orString(sp.AdditionalProperties))
	case reflect.Struct:
		if isType && len(ty.Enum) == 0 {
			if key := (seenType{t, target.Token}); !c.seen[key] {
				c.seen[key] = true
				c.fields(tok, "property %q of type "+target.Token, ty.Object, t, true)
			}
			return true
		}
		return sp.Type == "object" && target.Kind == ""
	}
	return fits(c.schema.TypeOf(sp), t)
}

// sameResource reports whether target is a reference to the resource of
// Go type t, or to any resource when t is of no resource the provider
// knows.
func (c *typeChecker) sameResource(t reflect.Type, target schema.RefTarget) bool {
	if target.Kind != "resource" {
		return false
	}
	ref, err := c.p.resourceOfType(t)
	if err != nil {
		return true
	}
	rt, err := c.schema.RefTarget(ref)
	return err == nil && rt.Token == target.Token
}

// enum compares the values Go enum t declares with schema enum typ's.
func (c *typeChecker) enum(tok string, t reflect.Type, vals []anyEnumValue, typTok string, typ schema.Type) {
	if key := (seenType{t, typTok}); c.seen[key] {
		return
	} else {
		c.seen[key] = true
	}
	var goVals, schemaVals []string
	for _, v := range vals {
		_, val, _ := v.enumValue()
		goVals = append(goVals, fmt.Sprint(plainValue(reflect.ValueOf(val))))
	}
	for _, e := range typ.Enum {
		schemaVals = append(schemaVals, fmt.Sprint(e.Value))
	}
	slices.Sort(goVals)
	slices.Sort(schemaVals)
	if !slices.Equal(goVals, schemaVals) {
		c.diff(tok, "enum %s lists the values %q, but enum %s in the schema %q", t, goVals, typTok, schemaVals)
	}
}

// same reports whether two properties have the same type.
func (c *typeChecker) same(a, b schema.Property) bool {
	if a.Ref != "" || b.Ref != "" {
		return c.target(a) == c.target(b)
	}
	switch {
	case a.Type != b.Type:
		return false
	case a.Type == "array":
		return a.Items != nil && b.Items != nil && c.same(*a.Items, *b.Items)
	case a.Type == "object":
		return c.same(orString(a.AdditionalProperties), orString(b.AdditionalProperties))
	}
	return true
}

// orString is a map's element type: a string unless said otherwise.
func orString(p *schema.Property) schema.Property {
	if p == nil {
		return schema.Property{Type: "string"}
	}
	return *p
}

// describe names the type of sp for a message: "a string", "an array of
// integer", "an object of type pkg:index:Point".
func (c *typeChecker) describe(sp schema.Property) string {
	switch t := c.target(sp); t.Kind {
	case "":
	case "type":
		if ty := c.schema.Types[t.Token]; len(ty.Enum) > 0 {
			return typed.Article(ty.Type) + " " + ty.Type // of an enum: what a plain field needs
		}
		return "an object of type " + t.Token
	case "resource":
		return "a reference to a " + t.Token
	default:
		return typed.Article(t.Kind) + " " + t.Kind
	}
	switch sp.Type {
	case "array":
		if sp.Items != nil {
			return "an array of " + strings.TrimPrefix(strings.TrimPrefix(c.describe(*sp.Items), "a "), "an ")
		}
	case "object":
		return "a map of " + strings.TrimPrefix(strings.TrimPrefix(c.describe(orString(sp.AdditionalProperties)), "a "), "an ")
	}
	return typed.Article(sp.Type) + " " + sp.Type
}

// fits reports whether a field of Go type t can hold values of the schema
// type typ. Only the outer type is compared; a property.Value or an
// interface field holds anything, and so does any field for a $ref that is
// not to one of the package's own types (typ ""): a resource, an asset.
func fits(typ string, t reflect.Type) bool {
	t = Elem(t)
	if t == valueType || t.Kind() == reflect.Interface {
		return true
	}
	switch k := t.Kind(); typ {
	case "string":
		return k == reflect.String
	case "integer":
		return reflect.Int <= k && k <= reflect.Uint64 || k == reflect.Float32 || k == reflect.Float64
	case "number":
		return k == reflect.Float32 || k == reflect.Float64
	case "boolean":
		return k == reflect.Bool
	case "array":
		return k == reflect.Slice
	case "object":
		return k == reflect.Map || k == reflect.Struct // property.Map too
	}
	return true
}

// goTypeName is t as its author writes it: host.Ref[T] rather than the
// internal type it aliases.
func goTypeName(t reflect.Type) string {
	if target, ok := typed.RefTarget(t); ok {
		return "host.Ref[" + target.String() + "]"
	}
	return t.String()
}

// Elem is t without pointers.
func Elem(t reflect.Type) reflect.Type {
	for t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	return t
}
