package schema

import (
	"encoding/json"
	"fmt"
	"maps"
	"path"
	"regexp"
	"slices"
	"strings"
)

// SDK languages, as [Problem.Language] names them.
const (
	TypeScript = "TypeScript"
	Python     = "Python"
	Go         = "Go"
)

// Problem is a name in the schema for which one of Pulumi's SDK generators
// writes code that does not compile or import (or cannot generate at all).
type Problem struct {
	Token    string // the resource, type or function token; for config, the key (pkg:name)
	Language string // TypeScript, Python or Go
	Reason   string // what the SDK would declare, why that breaks, and what to rename
}

func (p Problem) String() string { return p.Token + ": " + p.Reason }

// LanguageProblems finds the names in the schema that Pulumi's SDK
// generators (pkg/v3 v3.260.0 codegen/nodejs, codegen/python, codegen/go)
// turn into code that does not compile or import: a resource named Object is
// a TypeScript class Object, which tsc refuses; a function named delete is a
// TypeScript function named delete. The schema binder accepts all of them,
// so nothing else would say so before a consumer generates an SDK. Names the
// generators escape (a property named class is class_ in Python, a module
// named class is _class in TypeScript) are fine and not reported.
//
// Each rule below says where in the generator the name goes unescaped. The
// tests hold a case for each, and each case was checked against the
// generators: every refused name made its language fail on an SDK generated
// from a schema holding little else (the generator refusing, tsc building
// under the generated tsconfig, node loading every export, Python importing
// every module, or go vet), and every accepted one built and loaded. Not
// covered: two tokens whose names clash in a language (a resource Foo and a
// type FooArgs), and module renames through
// language.python.moduleNameOverrides. The result is sorted.
func (p *Package) LanguageProblems() []Problem {
	c := newNameChecker(p)
	c.run()
	slices.SortFunc(c.problems, func(a, b Problem) int {
		return strings.Compare(a.Token+"\x00"+a.Language+"\x00"+a.Reason, b.Token+"\x00"+b.Language+"\x00"+b.Reason)
	})
	return slices.Compact(c.problems)
}

type nameChecker struct {
	p        *Package
	problems []Problem

	moduleFormat *regexp.Regexp
	modules      map[string]*moduleInfo       // by module ("" is index)
	methods      map[string]bool              // function tokens that are methods
	outputTypes  map[string]bool              // object types in an output (resource property, function result)
	inputTypes   map[string]bool              // object types in an input (Python's _inputs.py)
	plainTypes   map[string]bool              // object types in a function's inputs (plain: no Args class)
	overrides    map[string]map[string]string // language -> moduleToPackage
}

type moduleInfo struct {
	tokens             []string // sorted
	resources          int
	objectTypes, enums int
}

func newNameChecker(p *Package) *nameChecker {
	c := &nameChecker{p: p, modules: map[string]*moduleInfo{}, methods: map[string]bool{},
		outputTypes: map[string]bool{}, plainTypes: map[string]bool{}, overrides: map[string]map[string]string{}}
	c.moduleFormat = regexp.MustCompile("(.*)")
	if re, err := regexp.Compile(p.Meta.ModuleFormat); err == nil && p.Meta.ModuleFormat != "" {
		c.moduleFormat = re
	}
	for _, lang := range []string{"nodejs", "go"} {
		var info struct {
			ModuleToPackage map[string]string `json:"moduleToPackage"`
		}
		_ = json.Unmarshal(p.Language[lang], &info)
		c.overrides[lang] = info.ModuleToPackage
	}
	mod := func(tok string) *moduleInfo {
		m := c.module(tok)
		if c.modules[m] == nil {
			c.modules[m] = &moduleInfo{}
		}
		c.modules[m].tokens = append(c.modules[m].tokens, tok)
		return c.modules[m]
	}
	for tok, r := range p.withProvider() {
		if tok != p.providerToken() {
			mod(tok).resources++
		}
		for _, fn := range r.Methods {
			c.methods[fn] = true
		}
	}
	for tok, t := range p.Types {
		if t.Type == "object" {
			mod(tok).objectTypes++
		} else {
			mod(tok).enums++
		}
	}
	for tok := range p.Functions {
		if !c.methods[tok] {
			mod(tok)
		}
	}
	for _, m := range c.modules {
		slices.Sort(m.tokens)
	}

	// Which object types the Python SDK declares under their own name: those
	// in outputs (outputs.py) and in function inputs (_inputs.py, plain);
	// one only in resource inputs is only ever <Name>Args.
	mark := func(set map[string]bool, props map[string]Property) { c.markTypes(set, props) }
	mark(c.outputTypes, p.Config.Variables)
	for _, r := range p.Resources {
		mark(c.outputTypes, r.Properties)
	}
	for tok, f := range p.Functions {
		if f.Outputs != nil {
			mark(c.outputTypes, f.Outputs.Properties)
		}
		if f.Inputs != nil && !c.methods[tok] {
			mark(c.plainTypes, f.Inputs.Properties)
		}
	}
	// Python writes to _inputs.py every object type in an input: resource
	// inputs as <Name>Args, function inputs plain.
	c.inputTypes = maps.Clone(c.plainTypes)
	mark(c.inputTypes, p.Provider.InputProperties)
	for _, r := range p.Resources {
		mark(c.inputTypes, r.InputProperties)
	}
	for tok, f := range p.Functions {
		if c.methods[tok] && f.Inputs != nil {
			mark(c.inputTypes, f.Inputs.Properties)
		}
	}
	return c
}

// markTypes adds to set the object types props refer to, and those their
// properties refer to, and so on.
func (c *nameChecker) markTypes(set map[string]bool, props map[string]Property) {
	for _, prop := range props {
		walk(prop, func(q Property) {
			if q.Ref == "" {
				return
			}
			kind, tok, err := c.p.resolve(q.Ref)
			if err != nil || kind != refType || set[tok] {
				return
			}
			if t, ok := c.p.Types[tok]; ok && t.Type == "object" {
				set[tok] = true
				c.markTypes(set, t.Properties)
			}
		})
	}
}

// module is schema.Package.TokenToModule: the moduleFormat's first group of
// the token's module part, "" for index.
func (c *nameChecker) module(tok string) string {
	parts := strings.Split(tok, ":")
	if len(parts) != 3 {
		return ""
	}
	m := c.moduleFormat.FindStringSubmatch(parts[1])
	if len(m) < 2 || m[1] == "index" {
		return ""
	}
	return m[1]
}

func member(tok string) string { return tok[strings.LastIndex(tok, ":")+1:] }

func (c *nameChecker) add(tok, lang, format string, args ...any) {
	c.problems = append(c.problems, Problem{Token: tok, Language: lang, Reason: fmt.Sprintf(format, args...)})
}

func (c *nameChecker) run() {
	for _, tok := range slices.Sorted(maps.Keys(c.p.Resources)) {
		c.resource(tok, c.p.Resources[tok])
	}
	c.resourceProperties("pulumi:providers:"+c.p.Name, c.p.Provider)
	for _, tok := range slices.Sorted(maps.Keys(c.p.Types)) {
		c.typ(tok, c.p.Types[tok])
	}
	for _, tok := range slices.Sorted(maps.Keys(c.p.Functions)) {
		if !c.methods[tok] {
			c.function(tok, c.p.Functions[tok])
		}
	}
	for _, m := range slices.Sorted(maps.Keys(c.modules)) {
		if m != "" {
			c.moduleName(m, c.modules[m])
		}
	}
	c.config()
}

// identifier refuses a member name holding "." or "/": every generator
// writes it into a class or function name as it is (nodejs and python
// tokenToName, go Title), which no language parses. Method functions
// ("Res/method") are named by their method instead.
func (c *nameChecker) identifier(tok, what string) bool {
	name := member(tok)
	i := strings.IndexAny(name, "./")
	if i < 0 {
		return true
	}
	for _, lang := range []string{TypeScript, Python, Go} {
		c.add(tok, lang, "the %s SDK would declare a %s named %s, which is not an identifier (%q cannot be part of one); rename the %s",
			lang, what, tokenName(name), name[i:i+1], what)
	}
	return false
}

// --- Resources -----------------------------------------------------------

func (c *nameChecker) resource(tok string, r Resource) {
	if !c.identifier(tok, "resource") {
		return
	}
	name := member(tok)
	cls := tokenName(name) // nodejs gen.go resourceName: no escaping at all

	// nodejs gen.go genResource: `export class <Name> extends pulumi.CustomResource`.
	// tsc refuses a class Object in a CommonJS module (the generated
	// tsconfig's module nodenext, package.json without "type": "module").
	if cls == "Object" {
		c.add(tok, TypeScript, "the TypeScript SDK would declare a class named Object, which TypeScript refuses (TS2725: Class name cannot be 'Object' when targeting ES5 and above with module NodeNext); rename the resource")
	}
	// nodejs gen.go genResource and genIndex: the resource's file and the
	// module's index.ts `throw new Error(...)` (missing required property,
	// unknown resource or provider type), which then means the resource.
	if cls == "Error" {
		c.add(tok, TypeScript, "the TypeScript SDK would declare a class named Error, hiding the global Error its generated code throws (\"Missing required property\", \"unknown resource type\"): tsc refuses the calls (TS2554) or they construct the resource instead of throwing; rename the resource")
	}
	c.pythonModuleFile(tok, "resource")
	c.goFile(tok, "resource")

	kind := "custom resource"
	if r.IsComponent {
		kind = "component"
	}
	// nodejs gen.go genResource declares each output property as a class
	// member (`declare public readonly <name>`, propertyName only quotes
	// non-identifiers), next to pulumi.Resource's members.
	for _, prop := range slices.Sorted(maps.Keys(r.Properties)) {
		switch {
		case prop == "constructor":
			c.add(tok, TypeScript, "output property %q: the TypeScript SDK would declare a class property named constructor, which TypeScript refuses (TS1005); rename the property", prop)
		case prop == "getProvider" || r.IsComponent && (prop == "getData" || prop == "initialize" || prop == "registerOutputs"):
			c.add(tok, TypeScript, "output property %q: the TypeScript SDK would declare a property %s on the %s class, which clashes with the method %s of pulumi's base class (TS2416); rename the property", prop, prop, kind, prop)
		case (prop == "urn" || prop == "id" && !r.IsComponent) && !(r.Properties[prop].Type == "string" && slices.Contains(r.Required, prop)):
			// The base class's urn and id are Output<string>; only a
			// required string output matches them.
			c.add(tok, TypeScript, "output property %q: the TypeScript SDK would declare %s on the %s class as other than the Output<string> pulumi's base class has (TS2416, TS2322); rename the property, or make it a required string", prop, prop, kind)
		}
		// go gen.go genResource: a field PulumiResourceName hides the
		// method pulumi.Resource needs (isReservedResourceField does not
		// list it, so fieldName keeps it).
		if f := goTitle(prop); f == "PulumiResourceName" || f == "PulumiResourceType" {
			c.add(tok, Go, "output property %q: the Go SDK would declare a field %s on the resource struct, hiding the method pulumi.Resource requires (*%s.%s is a field, not a method); rename the property", prop, f, goTitle(name), f)
		}
	}
	c.resourceProperties(tok, r)

	for _, m := range slices.Sorted(maps.Keys(r.Methods)) {
		c.method(tok, r, m, c.p.Functions[r.Methods[m]])
	}
}

// resourceProperties checks what every resource (and the provider) shares:
// the Python constructor's and get()'s parameters, and Go struct fields.
func (c *nameChecker) resourceProperties(tok string, r Resource) {
	goName := ""
	if !strings.HasPrefix(tok, "pulumi:providers:") {
		goName = goTitle(member(tok))
	} else {
		goName = "Provider"
	}
	// python gen.go genResource: `def _internal_init(__self__,
	// resource_name, opts, <InitParamName(input)>...)`; InitParamName
	// escapes only resource_name and opts. (Outputs are only getters there,
	// where a second one of a name is legal.)
	c.pythonSelf(tok, "input", r.InputProperties)
	c.collisions(tok, Python, "input", r.InputProperties, pyInitParamName, "parameter", "SyntaxError: duplicate argument")
	// go gen.go genResource: the Args and State structs, and the resource
	// struct with a field per output.
	for _, set := range []struct {
		what  string
		props map[string]Property
	}{{"input", r.InputProperties}, {"output", r.Properties}} {
		c.collisions(tok, Go, set.what, set.props, func(s string) string { return goFieldName(goName, s) }, "field", "duplicate field")
	}
}

// method checks a method's name and arguments. Its function token is
// "<Resource>/<method>"; the generators name it after the method.
func (c *nameChecker) method(tok string, r Resource, name string, fn Function) {
	ts := camel(name) // nodejs gen.go genMethod: cgstrings.Camel(method.Name)
	switch {
	case ts == "constructor":
		c.add(tok, TypeScript, "method %q: the TypeScript SDK would declare a method named constructor, a second constructor of the resource class (TS2392); rename the method", name)
	case ts == "getProvider" || ts == "urn" || !r.IsComponent && ts == "id" || r.IsComponent && (ts == "getData" || ts == "initialize"):
		c.add(tok, TypeScript, "method %q: the TypeScript SDK would declare a method named %s, which clashes with the member %s of pulumi's base class (TS2416, TS2322); rename the method", name, ts, ts)
	}
	// go gen.go genResource: `func (r *<Res>) <Title(method)>(...)` next to
	// the methods every resource has (ResourceState, genInputInterface...).
	res := goTitle(member(tok))
	switch g := goTitle(name); g {
	case "URN", "PulumiResourceName", "PulumiResourceType", "ElementType", "To" + res + "Output", "To" + res + "OutputWithContext":
		c.add(tok, Go, "method %q: the Go SDK would declare a method %s on %s, which clashes with the generated or embedded method of that name; rename the method", name, g, res)
	case "ID":
		if !r.IsComponent {
			c.add(tok, Go, "method %q: the Go SDK would declare a method ID on %s, which clashes with pulumi.CustomResourceState's ID; rename the method", name, res)
		}
	}
	if fn.Inputs != nil {
		args := maps.Clone(fn.Inputs.Properties)
		delete(args, "__self__")
		// nodejs gen.go genMethod: `args = args || {}` when no argument is required.
		if _, ok := args["constructor"]; ok && !requiresAny(fn.Inputs.Required, "__self__") {
			c.add(tok, TypeScript, "method %q argument \"constructor\": the TypeScript SDK's method defaults its optional arguments to {}, which is not assignable to an interface with a property constructor (TS2322); rename the argument or make one argument required", name)
		}
		c.collisions(tok, Python, "method "+name+" argument", args, pyName, "parameter", "SyntaxError: duplicate argument")
		c.collisions(tok, Go, "method "+name+" argument", args, func(s string) string { return goFieldName("", s) }, "field", "duplicate field")
	}
	if fn.Outputs != nil {
		c.collisions(tok, Python, "method "+name+" result", fn.Outputs.Properties, pyName, "parameter", "SyntaxError: duplicate argument")
		c.collisions(tok, Go, "method "+name+" result", fn.Outputs.Properties, func(s string) string { return goFieldName("", s) }, "field", "duplicate field")
	}
}

func requiresAny(required []string, except string) bool {
	for _, r := range required {
		if r != except {
			return true
		}
	}
	return false
}

// --- Types ---------------------------------------------------------------

func (c *nameChecker) typ(tok string, t Type) {
	if !c.identifier(tok, "type") {
		return
	}
	name := member(tok)
	cls := tokenName(name) // python gen.go tokenToName: no keyword escaping (pyClassName is only for resources)
	if pyKeywords[cls] {
		switch {
		case t.Type != "object":
			// python gen.go genEnum: `class <tokenToName>(str, Enum)`.
			c.add(tok, Python, "the Python SDK would declare an enum class named %s, a Python keyword (SyntaxError); rename the type", cls)
		case c.outputTypes[tok] || c.plainTypes[tok]:
			// python gen.go unqualifiedObjectTypeName: the output shape and a
			// plain (function input) shape are named tokenToName, unescaped.
			c.add(tok, Python, "the Python SDK would declare a class named %s, a Python keyword (SyntaxError), because the type is used in an output or a function's inputs; rename the type", cls)
		}
	}
	if t.Type == "boolean" && len(t.Enum) > 0 {
		// python gen.go genEnum: only string, integer and number enums.
		c.add(tok, Python, "the Python generator does not implement enums of type boolean (generation fails: \"enums of type boolean are not yet implemented for this language\"); make the type a string enum or use a plain boolean")
	}
	if t.Type != "object" {
		// go gen.go genEnum and genEnumOutputTypes: an enum X over string
		// gets ToStringOutput and ToStringPtrOutput next to ToXOutput and
		// ToXPtrOutput, so X cannot be String or StringPtr.
		base := map[string]string{"string": "String", "integer": "Int", "number": "Float64", "boolean": "Bool"}[t.Type]
		if g := goTitle(name); base != "" && (g == base || g == base+"Ptr") {
			c.add(tok, Go, "the Go SDK would declare an enum type %s, whose method To%sOutput clashes with the one every %s enum gets (method already declared); rename the type", g, g, t.Type)
		}
	}
	c.pythonSelf(tok, "", t.Properties)
	c.collisions(tok, Python, "", t.Properties, pyName, "parameter", "SyntaxError: duplicate argument")
	c.collisions(tok, Go, "", t.Properties, func(s string) string { return goFieldName("", s) }, "field", "duplicate field")
}

// --- Functions -----------------------------------------------------------

// tsFunctionReasons are function names codegen/nodejs writes unescaped
// (gen.go tokenToFunctionName is cgstrings.Camel(tokenToName(tok)), never
// makeValidIdentifier) as `export function <name>` in the function's file
// and `export const <name>` in the module's index.ts; besides jsReserved.
var tsFunctionReasons = map[string]string{
	"let":       "a reserved word in strict mode, which modules are (TS1214)",
	"static":    "a reserved word in strict mode, which modules are (TS1214)",
	"arguments": "a name strict mode forbids declaring (TS1215)",
	"eval":      "a name strict mode forbids declaring (TS1215)",
	// index.ts: utilities.lazyLoad(exports, [...], () => require("./<file>"))
	"exports":   "a name tsc reserves in a CommonJS module, where index.ts lazily loads into exports (TS2441)",
	"require":   "a name tsc reserves in a CommonJS module, where index.ts lazily loads with require (TS2441)",
	"utilities": "it clashes with index.ts's import of ./utilities (TS2440)",
}

func (c *nameChecker) function(tok string, f Function) {
	if !c.identifier(tok, "function") {
		return
	}
	name := member(tok)
	mod := c.module(tok)
	ts := camel(tokenName(name))
	switch {
	case jsReserved[ts]:
		c.add(tok, TypeScript, "the TypeScript SDK would declare a function named %s: a reserved word in JavaScript (TS1359); rename the function", ts)
	case tsFunctionReasons[ts] != "":
		c.add(tok, TypeScript, "the TypeScript SDK would declare a function named %s: %s; rename the function", ts, tsFunctionReasons[ts])
	case mod == "" && ts == "config" && len(c.p.Config.Variables) > 0:
		// nodejs gen.go genIndex: the root index.ts exports the config
		// submodule (`import * as config from "./config"`).
		c.add(tok, TypeScript, "the TypeScript SDK's index.ts would declare a function named config next to the config submodule it exports (TS2323); rename the function")
	case mod == "" && ts == "types" && len(c.p.Types) > 0:
		c.add(tok, TypeScript, "the TypeScript SDK's index.ts would declare a function named types next to the types submodule it exports (TS2323); rename the function")
	}
	c.pythonModuleFile(tok, "function")
	c.goFile(tok, "function")

	if f.Inputs != nil {
		// nodejs gen.go genFunction: `args = args || {}` when no input is required.
		if _, ok := f.Inputs.Properties["constructor"]; ok && len(f.Inputs.Required) == 0 {
			c.add(tok, TypeScript, "input \"constructor\": the TypeScript SDK's function defaults its optional arguments to {}, which is not assignable to an interface with a property constructor (TS2322); rename the input or make one input required")
		}
		// python gen.go genFunDef: `def <fn>(<PyName(input)>=None, ..., opts=None)`.
		for _, in := range slices.Sorted(maps.Keys(f.Inputs.Properties)) {
			if pyName(in) == "opts" {
				c.add(tok, Python, "input %q: the Python SDK would declare a second parameter named opts next to the invoke options (SyntaxError: duplicate argument); rename the input", in)
			}
		}
		c.pythonSelf(tok, "input", f.Inputs.Properties)
		c.collisions(tok, Python, "input", f.Inputs.Properties, pyName, "parameter", "SyntaxError: duplicate argument")
		c.collisions(tok, Go, "input", f.Inputs.Properties, func(s string) string { return goFieldName("", s) }, "field", "duplicate field")
	}
	if f.Outputs != nil {
		c.pythonSelf(tok, "output", f.Outputs.Properties)
		c.collisions(tok, Python, "output", f.Outputs.Properties, pyName, "parameter", "SyntaxError: duplicate argument")
		c.collisions(tok, Go, "output", f.Outputs.Properties, func(s string) string { return goFieldName("", s) }, "field", "duplicate field")
	}
}

// --- Shared: files and properties ---------------------------------------

// pythonModuleFile checks the Python module a resource or function is
// written to, <PyName(name)>.py in its module's directory.
func (c *nameChecker) pythonModuleFile(tok, what string) {
	mod := c.module(tok)
	info := c.modules[mod]
	file := pyName(tokenName(member(tok)))
	// python gen.go genInit: the module's __init__.py does `import typing`,
	// then `from .<file> import *` for each member, which binds the
	// submodule typing over it, then `if typing.TYPE_CHECKING:` when the
	// module has subpackages.
	if file == "typing" && c.pythonSubpackages(mod) {
		c.add(tok, Python, "the Python SDK would write the %s to typing.py, which its package's __init__.py imports over the typing module it then uses (AttributeError: typing.TYPE_CHECKING); rename the %s", what, what)
	}
	// python gen.go: files every module (or the root) may already have;
	// codegen.Fs.Add asserts on a duplicate and generation fails.
	other := map[string]bool{
		"__init__":   true,
		"_utilities": mod == "",
		"_enums":     info.enums > 0,
		"_inputs":    c.typesIn(mod, c.inputTypes),
		"outputs":    c.typesIn(mod, c.outputTypes),
	}
	if other[file] {
		c.add(tok, Python, "the Python SDK would write the %s to %s.py, a file the generator writes itself (generation fails: duplicate file); rename the %s", what, file, what)
	}
}

func (c *nameChecker) typesIn(mod string, set map[string]bool) bool {
	for tok := range set {
		if c.module(tok) == mod {
			return true
		}
	}
	return false
}

// pythonSubpackages says whether a module's Python package has subpackages:
// config for the root, and any module below it.
func (c *nameChecker) pythonSubpackages(mod string) bool {
	if mod == "" && len(c.p.Config.Variables) > 0 {
		return true
	}
	for m := range c.modules {
		if m != "" && (mod == "" || strings.HasPrefix(strings.ToLower(m), strings.ToLower(mod)+"/")) {
			return true
		}
	}
	return false
}

// goFile checks the Go file a resource or function is written to,
// <Camel(Title(name))>.go (go gen.go GeneratePackage), against the ones the
// generator writes to the same package; setFile fails on a duplicate.
func (c *nameChecker) goFile(tok, what string) {
	mod := c.module(tok)
	info := c.modules[mod]
	file := camel(goTitle(member(tok))) + ".go"
	other := map[string]string{
		"doc.go": map[bool]string{true: "the root package's documentation"}[mod == ""],
		// the root's registers the provider, so it is always there
		"init.go":        map[bool]string{true: "the package's resource registration"}[mod == "" || info.resources > 0],
		"pulumiTypes.go": map[bool]string{true: "the package's types"}[info.objectTypes+info.enums > 0],
		"pulumiEnums.go": map[bool]string{true: "the package's enums"}[info.enums > 0],
	}
	if why := other[file]; why != "" {
		c.add(tok, Go, "the Go SDK would write the %s to %s, the file that holds %s (generation fails: duplicate file); rename the %s", what, file, why, what)
	}
}

// pythonSelf refuses a property named __self__: every Python class and
// function the generator writes takes __self__ as its first parameter
// (python gen.go genResource, genType: `def __init__(__self__, *, <props>)`),
// and PyName keeps the name.
func (c *nameChecker) pythonSelf(tok, what string, props map[string]Property) {
	if _, ok := props["__self__"]; ok {
		c.add(tok, Python, "%s: the Python SDK would declare a second parameter named __self__ (SyntaxError: duplicate argument); rename the property", where(what, "__self__"))
	}
}

// collisions reports properties the language names alike (fooBar and
// foo_bar are both foo_bar in Python, fooBar and FooBar both FooBar in Go).
func (c *nameChecker) collisions(tok, lang, what string, props map[string]Property, name func(string) string, as, breaks string) {
	by := map[string][]string{}
	for _, prop := range slices.Sorted(maps.Keys(props)) {
		n := name(prop)
		by[n] = append(by[n], prop)
	}
	for _, n := range slices.Sorted(maps.Keys(by)) {
		if same := by[n]; len(same) > 1 {
			c.add(tok, lang, "%s: the %s SDK would name them all %s, a %s declared twice (%s); rename all but one",
				where(what, same...), lang, n, as, breaks)
		}
	}
}

func where(what string, props ...string) string {
	quoted := make([]string, len(props))
	for i, p := range props {
		quoted[i] = fmt.Sprintf("%q", p)
	}
	noun := "property"
	if len(props) > 1 {
		noun = "properties"
	}
	s := noun + " " + strings.Join(quoted, ", ")
	if what != "" {
		s = what + " " + s
	}
	return s
}

// --- Modules and config --------------------------------------------------

// tsModuleReasons are module names codegen/nodejs imports unescaped in the
// parent's index.ts: `import * as <submoduleImportIdentifier(child)>`, which
// escapes jsReserved, module, exports and require, but not these.
var tsModuleReasons = map[string]string{
	"let":       "a reserved word in strict mode, which modules are (TS1214)",
	"static":    "a reserved word in strict mode, which modules are (TS1214)",
	"utilities": "it clashes with index.ts's import of ./utilities (TS2300: Duplicate identifier)",
}

func (c *nameChecker) moduleName(mod string, info *moduleInfo) {
	tok := info.tokens[0]
	ts := mod
	if o, ok := c.overrides["nodejs"][mod]; ok {
		ts = o
	}
	// nodejs gen.go generateModuleContextMap refuses a module named types.
	if ts == "types" {
		c.add(tok, TypeScript, "module %q: the TypeScript generator reserves the module types for input and output types and refuses the schema; rename the module", mod)
	}
	// nodejs gen.go genIndex: getChildMod lowers each child's name.
	for _, seg := range strings.Split(strings.ToLower(ts), "/") {
		if why := tsModuleReasons[seg]; why != "" {
			c.add(tok, TypeScript, "module %q: the TypeScript SDK would import it as %s: %s; rename the module", mod, seg, why)
		}
	}
	// go gen.go moduleToPackage lowers the module; genHeader writes
	// `package <goPackage(path.Base(mod))>` (goPackage only drops "-").
	g := strings.ToLower(mod)
	if o, ok := c.overrides["go"][mod]; ok {
		g = o
	}
	pkg := strings.ReplaceAll(path.Base(g), "-", "")
	switch {
	case goKeywords[pkg] || !goIdentifier(pkg):
		c.add(tok, Go, "module %q: the Go SDK would declare `package %s`, which is not a Go package name (%s); rename the module", mod, pkg,
			map[bool]string{true: "a keyword", false: "not an identifier"}[goKeywords[pkg]])
	case g == "internal":
		c.add(tok, Go, "module %q: the Go SDK would write it to the package internal, where its own internal package is (import cycle); rename the module", mod)
	}
}

// tsConfigReasons are configuration variable names codegen/nodejs writes
// unescaped in config/vars.ts (gen.go genConfig): `export declare const
// <name>` then `Object.defineProperty(exports, "<name>", {get() { return
// __config.get(...) }})`, besides jsReserved and non-identifiers.
var tsConfigReasons = map[string]string{
	"let":       "a name a const declaration cannot take (TS2480)",
	"arguments": "a name strict mode forbids declaring (TS1215)",
	"eval":      "a name strict mode forbids declaring (TS1215)",
	"exports":   "it clashes with the CommonJS exports vars.ts defines its getters on (TS2300)",
	"utilities": "it clashes with vars.ts's import of ../utilities (TS2440)",
	"__config":  "it clashes with vars.ts's own __config (TS2451)",
	"Object":    "it hides the global Object whose defineProperty vars.ts calls (TS18048)",
}

// tsDeclareAccepts are the jsReserved words tsc takes as the name of an
// `export declare const` (strict mode's reserved words, and await), so a
// configuration variable may have them.
var tsDeclareAccepts = setOf("await", "implements", "interface", "package", "private", "protected", "public", "yield")

func (c *nameChecker) config() {
	for _, name := range slices.Sorted(maps.Keys(c.p.Config.Variables)) {
		key := c.p.Name + ":" + name
		switch {
		case !jsIdentifierName(name):
			c.add(key, TypeScript, "configuration variable %q: the TypeScript SDK would declare `export declare const %s`, which is not an identifier; rename the variable", name, name)
		case jsReserved[name] && !tsDeclareAccepts[name]:
			c.add(key, TypeScript, "configuration variable %q: the TypeScript SDK would declare a constant named %s: a reserved word in JavaScript (TS1389); rename the variable", name, name)
		case tsConfigReasons[name] != "":
			c.add(key, TypeScript, "configuration variable %q: the TypeScript SDK would declare a constant named %s: %s; rename the variable", name, name, tsConfigReasons[name])
		}
	}
}
