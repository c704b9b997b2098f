package compat

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"unicode"
)

// A consumer is a program written against the SDKs of a schema, as a
// package's user writes one: it creates every resource twice (once with
// every input, passing outputs where the SDK takes them, once with the
// required inputs only, as literals), reads every output with the type the
// SDK gives it, down through object types, calls every function (both
// forms) and method and reads their results, and names every enum value.
// The corpus test (corpus_test.go) writes one in TypeScript, Go and Python
// from the old schema and builds or runs it against the new one's SDKs.
type consumer struct {
	p     *pkg
	enums enumNames // each enum value's name in each language's SDK
	// pyInputs are the classes of each module's _inputs.py in the Python
	// SDK: an object type a resource takes is XArgs, one only functions
	// take is X.
	pyInputs map[string]map[string]bool
	tag      string // makes resource names unique across pairs
	n        int    // counter for local names
	// lean, while set, makes values take the first alternative of a union
	// (a string for any) and give object types their required properties
	// only: the third construct of each resource.
	lean bool
}

// enumNames maps a language, an enum type's token and a value (as JSON) to
// the name the generated SDK gives it.
type enumNames map[Audience]map[string]map[string]string

func (c *consumer) fresh(prefix string) string {
	c.n++
	return fmt.Sprintf("%s%d", prefix, c.n)
}

// split gives a token's module ("" for index) and name; the provider is
// the root module's Provider.
func split(tok string) (mod, name string) {
	if strings.HasPrefix(tok, "pulumi:providers:") {
		return "", "Provider"
	}
	parts := strings.Split(tok, ":")
	if len(parts) != 3 {
		return "", tok
	}
	mod, name = parts[1], parts[2]
	if i := strings.Index(mod, "/"); i >= 0 && strings.EqualFold(mod[i+1:], name) {
		mod = mod[:i] // pkg:mod/resource:Resource
	}
	if mod == "index" {
		mod = ""
	}
	return mod, name
}

func title(s string) string {
	if s == "" {
		return s
	}
	return strings.ToUpper(s[:1]) + s[1:]
}

// snake is Python's name for a property: camelCase to snake_case.
func snake(s string) string {
	var b strings.Builder
	rs := []rune(s)
	for i, r := range rs {
		if unicode.IsUpper(r) {
			if i > 0 && (unicode.IsLower(rs[i-1]) || unicode.IsDigit(rs[i-1]) ||
				(i+1 < len(rs) && unicode.IsLower(rs[i+1]) && unicode.IsUpper(rs[i-1]))) {
				b.WriteByte('_')
			}
			b.WriteRune(unicode.ToLower(r))
			continue
		}
		b.WriteRune(r)
	}
	return b.String()
}

func enumKey(v any) string {
	js, _ := json.Marshal(v)
	return string(js)
}

func (c *consumer) enumMember(lang Audience, tok string, v any) string {
	name := c.enums[lang][tok][enumKey(v)]
	if name == "" {
		panic(fmt.Sprintf("%s: no name for value %v of %s in the old SDK", lang, v, tok))
	}
	return name
}

// sortedProps lists an object's properties, all of them or the required
// ones.
func sortedProps(o object, all bool) []string {
	var out []string
	for _, name := range sortedKeys(o) {
		if all || o[name].required {
			out = append(out, name)
		}
	}
	return out
}

// firstAlt is the alternative of a union a program reads as given.
func firstAlt(e *expr) *expr {
	for e.kind == kindUnion {
		e = e.alts[0]
	}
	return e
}

// pick is the type of the value a consumer passes where e is taken: of a
// union, the last alternative when full, else the first; for any, a
// number when full, else a string. A program may pass any value a type
// admits: the two constructs pass two of them.
func (c *consumer) pick(e *expr, full bool) *expr {
	if c.lean {
		full = false
	}
	for e.kind == kindUnion {
		if full {
			e = e.alts[len(e.alts)-1]
		} else {
			e = e.alts[0]
		}
	}
	if isAny(e) && full {
		return &expr{kind: "integer"}
	}
	return e
}

// --- TypeScript ---

func tsMod(mod string) string {
	if mod == "" {
		return ""
	}
	return strings.ReplaceAll(mod, "/", ".") + "."
}

func (c *consumer) tsNamed(tok, section, suffix string) string {
	mod, name := split(tok)
	return "pkg.types." + section + "." + tsMod(mod) + name + suffix
}

// tsType is the TypeScript type of values a program reads.
func (c *consumer) tsType(e *expr) string {
	switch e.kind {
	case "string":
		return "string"
	case "integer", "number":
		return "number"
	case "boolean":
		return "boolean"
	case kindArray:
		return "(" + c.tsType(e.elem) + ")[]"
	case kindMap:
		return "{[key: string]: " + c.tsType(e.elem) + "}"
	case kindUnion:
		s := make([]string, len(e.alts))
		for i, a := range e.alts {
			s[i] = c.tsType(a)
		}
		return strings.Join(s, " | ")
	case kindObject:
		return c.tsNamed(e.token, "output", "")
	case kindEnum:
		return c.tsNamed(e.token, "enums", "")
	case kindResource:
		mod, name := split(e.token)
		return "pkg." + tsMod(mod) + name
	case "asset":
		return "pulumi.asset.Asset | pulumi.asset.Archive"
	case "archive":
		return "pulumi.asset.Archive"
	}
	return "any"
}

// tsValue is a value a program passes: every property of objects when
// full, else the required ones.
func (c *consumer) tsValue(e *expr, full bool) string {
	e = c.pick(e, full)
	switch e.kind {
	case "string":
		return `"s"`
	case "integer":
		return "1"
	case "number":
		return "1.5"
	case "boolean":
		return "true"
	case kindArray:
		return "[" + c.tsValue(e.elem, full) + "]"
	case kindMap:
		return `{"k": ` + c.tsValue(e.elem, full) + "}"
	case kindObject:
		return c.tsObject(c.p.types[e.token].props, full && !c.lean, false)
	case kindEnum:
		t := c.p.types[e.token]
		return c.tsNamed(e.token, "enums", "") + "." + c.enumMember(TypeScript, e.token, t.values[0].value)
	case kindResource:
		return "(undefined as unknown as " + c.tsType(e) + ")"
	case "asset":
		return `new pulumi.asset.StringAsset("s")`
	case "archive":
		return "new pulumi.asset.AssetArchive({})"
	}
	return `"s"`
}

// tsObject is an object literal of properties; outputs passes non-plain
// ones as outputs.
func (c *consumer) tsObject(o object, full, outputs bool) string {
	var parts []string
	for _, name := range sortedProps(o, full) {
		v := c.tsValue(o[name].expr, full)
		if outputs && !o[name].plain {
			v = "pulumi.output(" + v + ")"
		}
		parts = append(parts, fmt.Sprintf("%q: %s", name, v))
	}
	return "{" + strings.Join(parts, ", ") + "}"
}

// tsRead writes statements that read v, of type e, with the type the old
// SDK gives it, and what it holds.
func (c *consumer) tsRead(w *strings.Builder, v string, e *expr, required bool, depth int) {
	t := c.tsType(e)
	if !required {
		t += " | undefined"
	}
	x := c.fresh("x")
	fmt.Fprintf(w, "    const %s: %s = %s;\n", x, t, v)
	if depth > 3 {
		return
	}
	inner := func(v string, e *expr) {
		if !required {
			fmt.Fprintf(w, "    if (%s !== undefined) {\n", x)
			defer w.WriteString("    }\n")
		}
		c.tsDeep(w, v, e, depth)
	}
	switch e.kind {
	case kindObject, kindArray, kindMap:
		inner(x, e)
	}
}

func (c *consumer) tsDeep(w *strings.Builder, v string, e *expr, depth int) {
	switch e.kind {
	case kindObject:
		props := c.p.types[e.token].props
		for _, name := range sortedKeys(props) {
			c.tsRead(w, v+"."+name, props[name].expr, props[name].required, depth+1)
		}
	case kindArray, kindMap:
		if k := firstAlt(e.elem).kind; k != kindObject && k != kindArray && k != kindMap {
			return
		}
		el := c.fresh("e")
		src := v
		if e.kind == kindMap {
			src = "Object.values(" + v + ")"
		}
		fmt.Fprintf(w, "    for (const %s of %s) {\n", el, src)
		c.tsRead(w, el, e.elem, true, depth+1)
		w.WriteString("    }\n")
	}
}

func (c *consumer) tsReadObject(w *strings.Builder, v string, o object) {
	for _, name := range sortedKeys(o) {
		c.tsRead(w, v+"."+name, o[name].expr, o[name].required, 0)
	}
}

func (c *consumer) typescript() string {
	var w strings.Builder
	w.WriteString("import * as pulumi from \"@pulumi/pulumi\";\n")
	fmt.Fprintf(&w, "import * as pkg from %q;\n\n", c.p.sdks[TypeScript].name)
	w.WriteString("export function run(): void {\n")
	for _, tok := range sortedKeys(c.p.resources) {
		r := c.p.resources[tok]
		mod, name := split(tok)
		class := "pkg." + tsMod(mod) + name
		full := c.fresh("r")
		fmt.Fprintf(&w, "    const %s = new %s(%q, %s);\n", full, class, c.tag+full, c.tsObject(r.inputs, true, true))
		if min := sortedProps(r.inputs, false); len(min) > 0 {
			fmt.Fprintf(&w, "    new %s(%q, %s);\n", class, c.tag+c.fresh("r"), c.tsObject(r.inputs, false, false))
		} else {
			fmt.Fprintf(&w, "    new %s(%q);\n", class, c.tag+c.fresh("r"))
		}
		c.lean = true
		fmt.Fprintf(&w, "    new %s(%q, %s);\n", class, c.tag+c.fresh("r"), c.tsObject(r.inputs, true, false))
		c.lean = false
		for _, out := range sortedKeys(r.outputs) {
			p := r.outputs[out]
			t := c.tsType(p.expr)
			if !p.required {
				t += " | undefined"
			}
			fmt.Fprintf(&w, "    const %s: pulumi.Output<%s> = %s.%s;\n", c.fresh("o"), t, full, out)
			v := c.fresh("v")
			fmt.Fprintf(&w, "    %s.%s.apply(%s => {\n", full, out, v)
			c.tsRead(&w, v, p.expr, p.required, 0)
			w.WriteString("    });\n")
		}
		for _, m := range sortedKeys(r.methods) {
			c.tsCall(&w, full+"."+m, r.methods[m], true)
			c.tsCallLean(&w, full+"."+m, r.methods[m])
		}
	}
	for _, tok := range sortedKeys(c.p.functions) {
		mod, name := split(tok)
		fn := "pkg." + tsMod(mod) + name
		c.tsCall(&w, fn, c.p.functions[tok], false)
		c.tsCall(&w, fn+"Output", c.p.functions[tok], true)
		c.tsCallLean(&w, fn, c.p.functions[tok])
	}
	for _, name := range sortedProps(c.p.config, true) {
		if !c.p.config[name].required {
			fmt.Fprintf(&w, "    const %s: %s | undefined = pkg.config.%s;\n", c.fresh("c"), c.tsType(c.p.config[name].expr), name)
		}
	}
	c.enumsUsed(func(tok string, t *namedType) {
		for _, v := range t.values {
			fmt.Fprintf(&w, "    const %s: %s = %s.%s;\n", c.fresh("n"), c.tsNamed(tok, "enums", ""), c.tsNamed(tok, "enums", ""), c.enumMember(TypeScript, tok, v.value))
		}
	})
	w.WriteString("}\n")
	return w.String()
}

// tsCall calls a function or method and reads its result; output says the
// call returns an Output and takes outputs.
func (c *consumer) tsCall(w *strings.Builder, fn string, f *function, output bool) {
	var args string
	switch {
	case len(f.multiArg) > 0:
		var s []string
		for _, a := range f.multiArg {
			v := c.tsValue((*f.inputs)[a].expr, true)
			if output {
				v = "pulumi.output(" + v + ")"
			}
			s = append(s, v)
		}
		args = strings.Join(s, ", ")
	case f.inputs != nil && len(*f.inputs) > 0:
		args = c.tsObject(*f.inputs, true, output)
	}
	then := "then"
	if output {
		then = "apply"
	}
	v := c.fresh("v")
	fmt.Fprintf(w, "    %s(%s).%s(%s => {\n", fn, args, then, v)
	switch {
	case f.outputs != nil:
		c.tsReadObject(w, v, *f.outputs)
	case f.result != nil:
		c.tsRead(w, v, f.result, true, 0)
	}
	w.WriteString("    });\n")
}

// tsCallLean calls a function or method with its required arguments
// only, as literals.
func (c *consumer) tsCallLean(w *strings.Builder, fn string, f *function) {
	if len(f.multiArg) > 0 || f.inputs == nil || len(*f.inputs) == 0 {
		return
	}
	arg := ""
	if len(sortedProps(*f.inputs, false)) > 0 {
		arg = c.tsObject(*f.inputs, false, false)
	}
	fmt.Fprintf(w, "    %s(%s);\n", fn, arg)
}

// enumsUsed visits every enum type.
func (c *consumer) enumsUsed(visit func(tok string, t *namedType)) {
	for _, tok := range sortedKeys(c.p.types) {
		if t := c.p.types[tok]; t.enum {
			visit(tok, t)
		}
	}
}

// --- Go ---

// goPkg is the Go package alias of a module.
func goPkg(mod string) string {
	if mod == "" {
		return "m"
	}
	return "m_" + strings.NewReplacer("/", "_", "-", "_").Replace(mod)
}

func (c *consumer) goNamed(tok string) string {
	mod, name := split(tok)
	return goPkg(mod) + "." + title(name)
}

// goBase is the generator's name of a type in Input and Output types:
// pulumi.String, pulumi.IntArray, m.Spec, pulumi. (any).
func (c *consumer) goBase(e *expr) string {
	switch e.kind {
	case "string":
		return "pulumi.String"
	case "integer":
		return "pulumi.Int"
	case "number":
		return "pulumi.Float64"
	case "boolean":
		return "pulumi.Bool"
	case "asset":
		return "pulumi.AssetOrArchive"
	case "archive":
		return "pulumi.Archive"
	case kindArray:
		return c.goBase(e.elem) + "Array"
	case kindMap:
		return c.goBase(e.elem) + "Map"
	case kindUnion:
		for _, a := range e.alts {
			if a.kind == kindEnum {
				return c.goBase(&expr{kind: c.p.types[a.token].underlying})
			}
		}
	case kindObject, kindEnum, kindResource:
		return c.goNamed(e.token)
	}
	return "pulumi."
}

// goOutput is the Output type a program reads a value of e as; ptr when
// it may be unset.
func (c *consumer) goOutput(e *expr, ptr bool) string {
	b := c.goBase(e)
	switch {
	case b == "pulumi.":
		return "pulumi.AnyOutput"
	case e.kind == kindArray, e.kind == kindMap, e.kind == kindResource, e.kind == "asset", e.kind == "archive":
		return b + "Output"
	case ptr:
		return b + "PtrOutput"
	}
	return b + "Output"
}

// goValue is a pulumi.Input of e.
func (c *consumer) goValue(e *expr, full bool) string {
	b := c.goBase(e)
	e = c.pick(e, full)
	switch e.kind {
	case "string":
		return `pulumi.String("s")`
	case "integer":
		return "pulumi.Int(1)"
	case "number":
		return "pulumi.Float64(1.5)"
	case "boolean":
		return "pulumi.Bool(true)"
	case "asset":
		return `pulumi.NewStringAsset("s")`
	case "archive":
		return "pulumi.NewAssetArchive(nil)"
	case kindArray:
		return strings.Replace(b, "pulumi.Array", "pulumi.Array", 1) + "{" + c.goValue(e.elem, full) + "}"
	case kindMap:
		return b + `{"k": ` + c.goValue(e.elem, full) + "}"
	case kindObject:
		return c.goNamed(e.token) + "Args" + c.goFields(c.p.types[e.token].props, full && !c.lean, false)
	case kindEnum:
		mod, _ := split(e.token)
		return goPkg(mod) + "." + c.enumMember(Go, e.token, c.p.types[e.token].values[0].value)
	case kindResource:
		return "(*" + c.goNamed(e.token) + ")(nil)"
	}
	return `pulumi.Any("s")`
}

// goPlainType is the Go type of a plain value of e.
func (c *consumer) goPlainType(e *expr, ptr bool) string {
	star := ""
	if ptr {
		star = "*"
	}
	switch e.kind {
	case "string":
		return star + "string"
	case "integer":
		return star + "int"
	case "number":
		return star + "float64"
	case "boolean":
		return star + "bool"
	case kindArray:
		return "[]" + c.goPlainType(e.elem, false)
	case kindMap:
		return "map[string]" + c.goPlainType(e.elem, false)
	case kindObject, kindEnum:
		return star + c.goNamed(e.token)
	case kindResource:
		return "*" + c.goNamed(e.token)
	case "asset":
		return "pulumi.AssetOrArchive"
	case "archive":
		return "pulumi.Archive"
	case kindUnion:
		for _, a := range e.alts {
			if a.kind == kindEnum {
				return c.goPlainType(&expr{kind: c.p.types[a.token].underlying}, ptr)
			}
		}
	}
	return "interface{}"
}

// goPlain is a plain value of e; args says objects are Args types (a
// resource's plain input), not result types (a function's arguments).
func (c *consumer) goPlain(e *expr, ptr, full, args bool) string {
	if c.goPlainType(e, false) == "interface{}" {
		// interface{} takes anything; ptr or not, the value is the same.
		ptr = false
	}
	e = c.pick(e, full)
	var v string
	switch e.kind {
	case "string":
		v = `"s"`
	case "integer":
		v = "1"
	case "number":
		v = "1.5"
	case "boolean":
		v = "true"
	case kindArray:
		return c.goPlainType(e, false) + "{" + c.goPlain(e.elem, false, full, args) + "}"
	case kindMap:
		return c.goPlainType(e, false) + `{"k": ` + c.goPlain(e.elem, false, full, args) + "}"
	case kindObject:
		suffix := ""
		if args {
			suffix = "Args"
		}
		v = c.goNamed(e.token) + suffix + c.goFields(c.p.types[e.token].props, full, !args)
		if ptr {
			return "&" + v
		}
		return v
	case kindEnum:
		mod, _ := split(e.token)
		v = goPkg(mod) + "." + c.enumMember(Go, e.token, c.p.types[e.token].values[0].value)
	case kindResource:
		return "(*" + c.goNamed(e.token) + ")(nil)"
	case "asset":
		return `pulumi.NewStringAsset("s")`
	case "archive":
		return "pulumi.NewAssetArchive(nil)"
	default:
		return `"s"`
	}
	if ptr {
		return "ref(" + c.goPlainType(e, false) + "(" + v + "))"
	}
	return v
}

// goFields is a struct literal's fields; plain says every field is plain
// (a function's arguments, a plain object type).
func (c *consumer) goFields(o object, full, plain bool) string {
	var parts []string
	for _, name := range sortedProps(o, full) {
		p := o[name]
		var v string
		if plain || p.plain {
			v = c.goPlain(p.expr, !p.required, full, !plain)
		} else {
			v = c.goValue(p.expr, full)
		}
		parts = append(parts, title(name)+": "+v)
	}
	return "{" + strings.Join(parts, ", ") + "}"
}

// goOutputFields is a function's Output form's arguments: Inputs.
func (c *consumer) goOutputFields(o object) string {
	var parts []string
	for _, name := range sortedKeys(o) {
		parts = append(parts, title(name)+": "+c.goValue(o[name].expr, true))
	}
	return "{" + strings.Join(parts, ", ") + "}"
}

// goReadOutput reads an Output v of e, and what it holds through accessors.
func (c *consumer) goReadOutput(w *strings.Builder, v string, e *expr, ptr bool, depth int) {
	x := c.fresh("x")
	fmt.Fprintf(w, "\tvar %s %s = %s\n\t_ = %s\n", x, c.goOutput(e, ptr), v, x)
	if depth > 3 {
		return
	}
	switch e.kind {
	case kindObject:
		props := c.p.types[e.token].props
		for _, name := range sortedKeys(props) {
			c.goReadOutput(w, x+"."+title(name)+"()", props[name].expr, ptr || !props[name].required, depth+1)
		}
	case kindArray:
		if c.goBase(e.elem) != "pulumi." {
			c.goReadOutput(w, x+".Index(pulumi.Int(0))", e.elem, false, depth+1)
		}
	case kindMap:
		if c.goBase(e.elem) != "pulumi." {
			c.goReadOutput(w, x+`.MapIndex(pulumi.String("k"))`, e.elem, false, depth+1)
		}
	}
}

// goReadPlain reads a plain value v of e.
func (c *consumer) goReadPlain(w *strings.Builder, v string, e *expr, ptr bool, depth int) {
	x := c.fresh("x")
	fmt.Fprintf(w, "\tvar %s %s = %s\n\t_ = %s\n", x, c.goPlainType(e, ptr), v, x)
	if depth > 3 {
		return
	}
	switch e.kind {
	case kindObject:
		if ptr {
			fmt.Fprintf(w, "\tif %s != nil {\n", x)
			defer w.WriteString("\t}\n")
		}
		props := c.p.types[e.token].props
		for _, name := range sortedKeys(props) {
			c.goReadPlain(w, x+"."+title(name), props[name].expr, !props[name].required, depth+1)
		}
	case kindArray, kindMap:
		if k := e.elem.kind; k != kindObject && k != kindArray && k != kindMap {
			return
		}
		el := c.fresh("e")
		fmt.Fprintf(w, "\tfor _, %s := range %s {\n", el, x)
		c.goReadPlain(w, el, e.elem, false, depth+1)
		w.WriteString("\t}\n")
	}
}

// golang writes the Go consumer: package consumer, func Run; imports maps
// each module's alias to its import path.
func (c *consumer) golang() string {
	var body strings.Builder
	w := &body
	mods := map[string]bool{"": true}
	use := func(tok string) {
		mod, _ := split(tok)
		mods[mod] = true
	}
	for _, tok := range sortedKeys(c.p.resources) {
		r := c.p.resources[tok]
		use(tok)
		mod, name := split(tok)
		pk := goPkg(mod)
		full := c.fresh("r")
		fmt.Fprintf(w, "\t%s, err := %s.New%s(ctx, %q, &%s.%sArgs%s)\n\tif err != nil {\n\t\treturn err\n\t}\n\t_ = %[1]s\n",
			full, pk, name, c.tag+full, pk, name, c.goFields(r.inputs, true, false))
		fmt.Fprintf(w, "\tif _, err := %s.New%s(ctx, %q, &%s.%sArgs%s); err != nil {\n\t\treturn err\n\t}\n",
			pk, name, c.tag+c.fresh("r"), pk, name, c.goFields(r.inputs, false, false))
		c.lean = true
		fmt.Fprintf(w, "\tif _, err := %s.New%s(ctx, %q, &%s.%sArgs%s); err != nil {\n\t\treturn err\n\t}\n",
			pk, name, c.tag+c.fresh("r"), pk, name, c.goFields(r.inputs, true, false))
		c.lean = false
		for _, out := range sortedKeys(r.outputs) {
			p := r.outputs[out]
			c.goReadOutput(w, full+"."+title(out), p.expr, !p.required, 0)
		}
		for _, m := range sortedKeys(r.methods) {
			f := r.methods[m]
			args := ""
			if f.inputs != nil && len(*f.inputs) > 0 {
				args = fmt.Sprintf(", &%s.%s%sArgs%s", pk, name, title(m), c.goOutputFields(*f.inputs))
			}
			res := c.fresh("res")
			fmt.Fprintf(w, "\t%s, err := %s.%s(ctx%s)\n\tif err != nil {\n\t\treturn err\n\t}\n", res, full, title(m), args)
			c.goReadResult(w, res, f)
		}
	}
	for _, tok := range sortedKeys(c.p.functions) {
		f := c.p.functions[tok]
		use(tok)
		mod, name := split(tok)
		fn := goPkg(mod) + "." + title(name)
		var plain, outs string
		switch {
		case len(f.multiArg) > 0:
			for _, a := range f.multiArg {
				p := (*f.inputs)[a]
				plain += ", " + c.goPlain(p.expr, !p.required, true, false)
				outs += ", " + c.goValue(p.expr, true)
			}
		case f.inputs != nil && len(*f.inputs) > 0:
			plain = fmt.Sprintf(", &%sArgs%s", fn, c.goFields(*f.inputs, true, true))
			outs = fmt.Sprintf(", %sOutputArgs%s", fn, c.goOutputFields(*f.inputs))
		}
		res := c.fresh("res")
		fmt.Fprintf(w, "\t%s, err := %s(ctx%s)\n\tif err != nil {\n\t\treturn err\n\t}\n", res, fn, plain)
		switch {
		case f.outputs != nil:
			for _, name := range sortedKeys(*f.outputs) {
				p := (*f.outputs)[name]
				c.goReadPlain(w, res+"."+title(name), p.expr, !p.required, 0)
			}
		case f.result != nil:
			c.goReadPlain(w, res, f.result, false, 0)
		}
		out := c.fresh("res")
		fmt.Fprintf(w, "\t%s := %sOutput(ctx%s)\n", out, fn, outs)
		c.goReadResult(w, out, f)
		if len(f.multiArg) == 0 && f.inputs != nil && len(*f.inputs) > 0 {
			fmt.Fprintf(w, "\tif _, err := %s(ctx, &%sArgs%s); err != nil {\n\t\treturn err\n\t}\n", fn, fn, c.goFields(*f.inputs, false, true))
		}
	}
	var configs []string
	for _, name := range sortedProps(c.p.config, true) {
		if !c.p.config[name].required {
			configs = append(configs, name)
			fmt.Fprintf(w, "\t_ = config.Get%s(ctx)\n", title(name))
		}
	}
	c.enumsUsed(func(tok string, t *namedType) {
		use(tok)
		mod, _ := split(tok)
		for _, v := range t.values {
			fmt.Fprintf(w, "\tvar %s %s = %s.%s\n\t_ = %[1]s\n", c.fresh("n"), c.goNamed(tok), goPkg(mod), c.enumMember(Go, tok, v.value))
		}
	})
	var head strings.Builder
	head.WriteString("package consumer\n\nimport (\n\t\"github.com/pulumi/pulumi/sdk/v3/go/pulumi\"\n\n")
	if len(configs) > 0 {
		fmt.Fprintf(&head, "\t%q\n", c.p.sdks[Go].name+"/config")
	}
	for _, mod := range sortedKeys(mods) {
		path := c.p.sdks[Go].name
		if mod != "" {
			path += "/" + mod
		}
		fmt.Fprintf(&head, "\t%s %q\n", goPkg(mod), path)
	}
	head.WriteString(")\n\nfunc ref[T any](v T) *T { return &v }\n\nvar _ = ref[int]\n\n")
	head.WriteString("func Run(ctx *pulumi.Context) error {\n\tvar err error\n\t_ = err\n")
	return head.String() + body.String() + "\treturn nil\n}\n"
}

// goReadResult reads the result of a method or a function's Output form.
func (c *consumer) goReadResult(w *strings.Builder, res string, f *function) {
	switch {
	case f.outputs != nil:
		fmt.Fprintf(w, "\t_ = %s\n", res)
		for _, name := range sortedKeys(*f.outputs) {
			p := (*f.outputs)[name]
			c.goReadOutput(w, res+"."+title(name)+"()", p.expr, !p.required, 0)
		}
	case f.result != nil:
		c.goReadOutput(w, res, f.result, false, 0)
	default:
		fmt.Fprintf(w, "\t_ = %s\n", res)
	}
}

// --- Python ---

func pyMod(mod string) string {
	if mod == "" {
		return ""
	}
	return strings.ReplaceAll(mod, "/", ".") + "."
}

func (c *consumer) pyNamed(tok, suffix string) string {
	mod, name := split(tok)
	return "pkg." + pyMod(mod) + name + suffix
}

func (c *consumer) pyValue(e *expr, full, fn bool) string {
	e = c.pick(e, full)
	switch e.kind {
	case "string":
		return `"s"`
	case "integer":
		return "1"
	case "number":
		return "1.5"
	case "boolean":
		return "True"
	case kindArray:
		return "[" + c.pyValue(e.elem, full, fn) + "]"
	case kindMap:
		return `{"k": ` + c.pyValue(e.elem, full, fn) + "}"
	case kindObject:
		mod, name := split(e.token)
		class := name + "Args"
		if in := c.pyInputs[mod]; (fn && in[name]) || !in[class] {
			class = name
		}
		return "pkg." + pyMod(mod) + class + "(" + c.pyKwargs(c.p.types[e.token].props, full && !c.lean, fn) + ")"
	case kindEnum:
		return c.pyNamed(e.token, "") + "." + c.enumMember(Python, e.token, c.p.types[e.token].values[0].value)
	case kindResource:
		return "None"
	case "asset":
		return `pulumi.StringAsset("s")`
	case "archive":
		return "pulumi.AssetArchive({})"
	}
	return `"s"`
}

func (c *consumer) pyKwargs(o object, full, fn bool) string {
	var parts []string
	for _, name := range sortedProps(o, full) {
		parts = append(parts, snake(name)+"="+c.pyValue(o[name].expr, full, fn))
	}
	return strings.Join(parts, ", ")
}

// pyRead writes a function that reads a value of e, and what it holds.
func (c *consumer) pyRead(w *strings.Builder, e *expr, depth int) string {
	fn := c.fresh("read")
	var body []string
	switch e.kind {
	case kindObject:
		if depth > 3 {
			break
		}
		props := c.p.types[e.token].props
		for _, name := range sortedKeys(props) {
			inner := c.pyRead(w, props[name].expr, depth+1)
			body = append(body, fmt.Sprintf("%s(v.%s)", inner, snake(name)))
		}
	case kindArray:
		if depth <= 3 {
			body = append(body, fmt.Sprintf("[%s(x) for x in v]", c.pyRead(w, e.elem, depth+1)))
		}
	case kindMap:
		if depth <= 3 {
			body = append(body, fmt.Sprintf("[%s(x) for x in v.values()]", c.pyRead(w, e.elem, depth+1)))
		}
	}
	fmt.Fprintf(w, "def %s(v):\n    if v is None:\n        return\n", fn)
	for _, b := range body {
		fmt.Fprintf(w, "    %s\n", b)
	}
	w.WriteString("    return v\n\n")
	return fn
}

func (c *consumer) pyReadObject(w *strings.Builder, o object) string {
	fn := c.fresh("read")
	var body []string
	for _, name := range sortedKeys(o) {
		body = append(body, fmt.Sprintf("%s(v.%s)", c.pyRead(w, o[name].expr, 0), snake(name)))
	}
	fmt.Fprintf(w, "def %s(v):\n", fn)
	for _, b := range body {
		fmt.Fprintf(w, "    %s\n", b)
	}
	w.WriteString("    return v\n\n")
	return fn
}

func (c *consumer) python() string {
	var defs, w strings.Builder
	fmt.Fprintf(&defs, "import pulumi\nimport %s as pkg\n\n\n", c.p.sdks[Python].name)
	w.WriteString("def run():\n    outs = []\n")
	for _, tok := range sortedKeys(c.p.resources) {
		r := c.p.resources[tok]
		mod, name := split(tok)
		class := "pkg." + pyMod(mod) + name
		full := c.fresh("r")
		sep := func(kw string) string {
			if kw == "" {
				return ""
			}
			return ", " + kw
		}
		fmt.Fprintf(&w, "    %s = %s(%q%s)\n", full, class, c.tag+full, sep(c.pyKwargs(r.inputs, true, false)))
		fmt.Fprintf(&w, "    %s(%q%s)\n", class, c.tag+c.fresh("r"), sep(c.pyKwargs(r.inputs, false, false)))
		c.lean = true
		fmt.Fprintf(&w, "    %s(%q%s)\n", class, c.tag+c.fresh("r"), sep(c.pyKwargs(r.inputs, true, false)))
		c.lean = false
		for _, out := range sortedKeys(r.outputs) {
			fmt.Fprintf(&w, "    outs.append(%s.%s.apply(%s))\n", full, snake(out), c.pyRead(&defs, r.outputs[out].expr, 0))
		}
		for _, m := range sortedKeys(r.methods) {
			f := r.methods[m]
			args := ""
			if f.inputs != nil {
				args = c.pyKwargs(*f.inputs, true, true)
			}
			fmt.Fprintf(&w, "    outs.append(%s.%s(%s).apply(%s))\n", full, snake(m), args, c.pyResult(&defs, f))
			if f.inputs != nil && len(*f.inputs) > 0 {
				fmt.Fprintf(&w, "    outs.append(%s.%s(%s))\n", full, snake(m), c.pyKwargs(*f.inputs, false, true))
			}
		}
	}
	for _, tok := range sortedKeys(c.p.functions) {
		f := c.p.functions[tok]
		mod, name := split(tok)
		fn := "pkg." + pyMod(mod) + snake(name)
		var args string
		switch {
		case len(f.multiArg) > 0:
			var s []string
			for _, a := range f.multiArg {
				s = append(s, c.pyValue((*f.inputs)[a].expr, true, true))
			}
			args = strings.Join(s, ", ")
		case f.inputs != nil:
			args = c.pyKwargs(*f.inputs, true, true)
		}
		read := c.pyResult(&defs, f)
		fmt.Fprintf(&w, "    %s(%s(%s))\n", read, fn, args)
		fmt.Fprintf(&w, "    outs.append(%s_output(%s).apply(%s))\n", fn, args, read)
		if len(f.multiArg) == 0 && f.inputs != nil && len(*f.inputs) > 0 {
			fmt.Fprintf(&w, "    %s(%s)\n", fn, c.pyKwargs(*f.inputs, false, true))
		}
	}
	for _, name := range sortedProps(c.p.config, true) {
		if !c.p.config[name].required {
			fmt.Fprintf(&w, "    pkg.config.%s\n", snake(name))
		}
	}
	c.enumsUsed(func(tok string, t *namedType) {
		for _, v := range t.values {
			fmt.Fprintf(&w, "    %s.%s\n", c.pyNamed(tok, ""), c.enumMember(Python, tok, v.value))
		}
	})
	w.WriteString("    return outs\n")
	return defs.String() + w.String()
}

func (c *consumer) pyResult(w *strings.Builder, f *function) string {
	switch {
	case f.outputs != nil:
		return c.pyReadObject(w, *f.outputs)
	case f.result != nil:
		return c.pyRead(w, f.result, 0)
	}
	return "(lambda v: v)"
}

// --- What a provider of the schema returns, for mocks ---

// sample is a value of e.
func (p *pkg) sample(e *expr, depth int) any {
	e = firstAlt(e)
	switch e.kind {
	case "string":
		return "s"
	case kindAny, "json":
		// An object: Python's SDK takes a result of any type for a dict.
		return map[string]any{"k": "s"}
	case "integer":
		return 1
	case "number":
		return 1.5
	case "boolean":
		return true
	case kindArray:
		if depth > 3 {
			return []any{}
		}
		return []any{p.sample(e.elem, depth+1)}
	case kindMap:
		if depth > 3 {
			return map[string]any{}
		}
		return map[string]any{"k": p.sample(e.elem, depth+1)}
	case kindObject:
		if depth > 3 {
			return map[string]any{}
		}
		return p.sampleObject(p.types[e.token].props, depth+1)
	case kindEnum:
		return p.types[e.token].values[0].value
	}
	return nil
}

func (p *pkg) sampleObject(o object, depth int) map[string]any {
	out := map[string]any{}
	for name, prop := range o {
		if v := p.sample(prop.expr, depth); v != nil {
			out[name] = v
		}
	}
	return out
}

// mocks is what the mocks of a side answer: each resource's outputs, each
// function's and method's result, as the schema describes them.
func (p *pkg) mocks() map[string]map[string]map[string]any {
	out := map[string]map[string]map[string]any{"resources": {}, "calls": {}}
	call := func(f *function) {
		switch {
		case f.outputs != nil:
			out["calls"][f.token] = p.sampleObject(*f.outputs, 0)
		case f.result != nil:
			out["calls"][f.token] = map[string]any{"result": p.sample(f.result, 0)}
		}
	}
	for tok, r := range p.resources {
		out["resources"][tok] = p.sampleObject(r.outputs, 0)
		// A custom resource's id is its ID, which the mocks give.
		delete(out["resources"][tok], "id")
		for _, m := range r.methods {
			call(m)
		}
	}
	for _, f := range p.functions {
		call(f)
	}
	return out
}

// readPyInputs reads the classes of each module's _inputs.py.
func readPyInputs(dir string) (map[string]map[string]bool, error) {
	out := map[string]map[string]bool{}
	class := regexp.MustCompile(`(?m)^class (\w+)\b`)
	err := filepath.WalkDir(dir, func(path string, d os.DirEntry, err error) error {
		if err != nil || d.IsDir() || d.Name() != "_inputs.py" {
			return err
		}
		src, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(dir, filepath.Dir(path))
		if rel = filepath.ToSlash(rel); rel == "." {
			rel = ""
		}
		out[rel] = map[string]bool{}
		for _, m := range class.FindAllStringSubmatch(string(src), -1) {
			out[rel][m[1]] = true
		}
		return nil
	})
	return out, err
}

// --- Enum names, read from an SDK ---

var (
	goEnumConst = regexp.MustCompile(`(?m)^\t(\w+)\s*=\s*(\w+)\((.*)\)$`)
	tsEnumConst = regexp.MustCompile(`(?ms)^export const (\w+) = \{\n(.*?)\n\} as const;`)
	tsEnumValue = regexp.MustCompile(`(?m)^\s+(\w+): (.+),$`)
	pyEnumClass = regexp.MustCompile(`(?m)^class (\w+)\(.*Enum\):\n((?:(?:    .*)?\n)*)`)
	pyEnumValue = regexp.MustCompile(`(?m)^    ([A-Za-z_][A-Za-z_0-9]*) = (.+)$`)
)

// literalKey turns a literal of the SDK's source (a quoted string or a
// number) into the JSON key enumNames uses.
func literalKey(lit string) string {
	lit = strings.TrimSpace(lit)
	if s, err := strconv.Unquote(lit); err == nil {
		return enumKey(s)
	}
	if f, err := strconv.ParseFloat(lit, 64); err == nil {
		return enumKey(f)
	}
	return lit
}

// readEnumNames reads the name each SDK gives each enum value of p: Go's
// constants, TypeScript's members, Python's attributes. dirs are the
// generated SDKs' roots by language.
func readEnumNames(p *pkg, dirs map[Audience]string) (enumNames, error) {
	out := enumNames{}
	byName := map[Audience]map[string]map[string]string{} // lang, module/Name, literal → member
	add := func(lang Audience, mod, name, lit, member string) {
		if byName[lang] == nil {
			byName[lang] = map[string]map[string]string{}
		}
		k := mod + "/" + strings.ToLower(name)
		if byName[lang][k] == nil {
			byName[lang][k] = map[string]string{}
		}
		byName[lang][k][literalKey(lit)] = member
	}
	walk := func(lang Audience, file string, read func(mod string, src string)) error {
		return filepath.WalkDir(dirs[lang], func(path string, d os.DirEntry, err error) error {
			if err != nil || d.IsDir() || d.Name() != file {
				return err
			}
			src, err := os.ReadFile(path)
			if err != nil {
				return err
			}
			rel, _ := filepath.Rel(dirs[lang], filepath.Dir(path))
			if rel = filepath.ToSlash(rel); rel == "." {
				rel = ""
			}
			read(rel, string(src))
			return nil
		})
	}
	if err := walk(Go, "pulumiEnums.go", func(mod, src string) {
		for _, m := range goEnumConst.FindAllStringSubmatch(src, -1) {
			add(Go, mod, m[2], m[3], m[1])
		}
	}); err != nil {
		return nil, err
	}
	if err := walk(TypeScript, "index.ts", func(mod, src string) {
		mod, ok := strings.CutPrefix(mod, "types/enums")
		if !ok {
			return
		}
		for _, m := range tsEnumConst.FindAllStringSubmatch(src, -1) {
			for _, v := range tsEnumValue.FindAllStringSubmatch(m[2], -1) {
				add(TypeScript, strings.TrimPrefix(mod, "/"), m[1], v[2], v[1])
			}
		}
	}); err != nil {
		return nil, err
	}
	if err := walk(Python, "_enums.py", func(mod, src string) {
		for _, m := range pyEnumClass.FindAllStringSubmatch(src, -1) {
			for _, v := range pyEnumValue.FindAllStringSubmatch(m[2], -1) {
				add(Python, mod, m[1], v[2], v[1])
			}
		}
	}); err != nil {
		return nil, err
	}
	for _, lang := range []Audience{TypeScript, Python, Go} {
		out[lang] = map[string]map[string]string{}
		for tok, t := range p.types {
			if !t.enum {
				continue
			}
			mod, name := split(tok)
			out[lang][tok] = byName[lang][mod+"/"+strings.ToLower(name)]
		}
	}
	return out, nil
}
