package compat

import (
	"encoding/json"
	"fmt"
	"reflect"
	"slices"
	"strings"
)

// Compare compares two package schemas (YAML or JSON), the last release's
// and the current one, and reports each change with its level and whom it
// hits. It fails only on a document that is not a package schema, naming
// the mistake.
func Compare(old, new []byte) (*Report, error) {
	return CompareNamed("old schema", old, "new schema", new)
}

// CompareNamed is [Compare] with names for the schemas in its errors,
// such as "OLD schema.json at v1.2.0". A name ending in .json reads its
// schema as JSON, in .yaml or .yml as YAML; else the schema says which.
func CompareNamed(oldName string, old []byte, newName string, new []byte) (*Report, error) {
	o, err := load(oldName, old)
	if err != nil {
		return nil, err
	}
	n, err := load(newName, new)
	if err != nil {
		return nil, err
	}
	return compare(o, n), nil
}

func compare(o, n *pkg) *Report {
	c := &comparer{old: o, new: n, moved: map[string]string{}}
	c.uses = uses(o)
	c.packageName()
	c.findMoves()
	c.languages()
	c.object(site{token: "config", path: "config", what: "variable", use: useInput | useYAML, owner: ownerConfig}, o.config, n.config)
	c.resources()
	c.functions()
	c.types()
	sortChanges(c.changes)
	return &Report{Package: n.name, OldVersion: o.version, NewVersion: n.version, Changes: c.changes}
}

type comparer struct {
	old, new *pkg
	// moved maps the old token of a resource, function or type whose token
	// changed to its new one.
	moved   map[string]string
	uses    map[string]use
	changes []Change
}

func (c *comparer) add(ch Change) { c.changes = append(c.changes, ch) }

// target is the token the new schema gives what the old calls tok.
func (c *comparer) target(tok string) string {
	if t, ok := c.moved[tok]; ok {
		return t
	}
	return c.renamePackage(tok)
}

// renamePackage carries a token over a change of the package's name.
func (c *comparer) renamePackage(tok string) string {
	o, n := c.old.name, c.new.name
	switch {
	case o == n:
		return tok
	case tok == "pulumi:providers:"+o:
		return "pulumi:providers:" + n
	case strings.HasPrefix(tok, o+":"):
		return n + tok[len(o):]
	}
	return tok
}

func (c *comparer) packageName() {
	if c.old.name == c.new.name {
		return
	}
	c.add(Change{Level: Breaking, Kind: PackageRenamed, Token: c.old.name,
		Message: fmt.Sprintf("package renamed to %s: every type token changes, and with it every resource's URN", c.new.name),
		Hits:    []Audience{TypeScript, Python, Go, YAML, Stacks}})
}

// findMoves pairs what the old schema has and the new lacks with what the
// new adds: a resource whose aliases name the old token, else the one
// thing of the same kind and name in another module.
func (c *comparer) findMoves() {
	lastPart := func(tok string) string { return tok[strings.LastIndex(tok, ":")+1:] }
	pair := func(oldToks, newToks []string, match func(o, n string) bool) {
		claimed := map[string]bool{}
		for _, n := range newToks {
			if slices.ContainsFunc(oldToks, func(o string) bool { return c.target(o) == n }) {
				claimed[n] = true
			}
		}
		for _, o := range oldToks {
			if slices.Contains(newToks, c.target(o)) {
				continue
			}
			var found []string
			for _, n := range newToks {
				if !claimed[n] && match(o, n) {
					found = append(found, n)
				}
			}
			if len(found) == 1 {
				c.moved[o], claimed[found[0]] = found[0], true
			}
		}
	}
	oldRes, newRes := sortedKeys(c.old.resources), sortedKeys(c.new.resources)
	pair(oldRes, newRes, func(o, n string) bool { return slices.Contains(c.new.resources[n].aliases, o) })
	pair(oldRes, newRes, func(o, n string) bool {
		return lastPart(o) == lastPart(n) && c.old.resources[o].component == c.new.resources[n].component
	})
	pair(sortedKeys(c.old.functions), sortedKeys(c.new.functions), func(o, n string) bool { return lastPart(o) == lastPart(n) })
	pair(sortedKeys(c.old.types), sortedKeys(c.new.types), func(o, n string) bool {
		return lastPart(o) == lastPart(n) && c.old.types[o].enum == c.new.types[n].enum
	})
}

func (c *comparer) languages() {
	for _, lang := range []Audience{TypeScript, Python, Go} {
		o, n := c.old.sdks[lang], c.new.sdks[lang]
		what := map[Audience]string{TypeScript: "npm package", Python: "Python package", Go: "Go import path"}[lang]
		section := map[Audience]string{TypeScript: "nodejs", Python: "python", Go: "go"}[lang]
		if o.name != n.name {
			c.add(Change{Level: Breaking, Kind: PackageMoved, Token: "language." + section, Path: "package",
				Message: fmt.Sprintf("the %s moves from %s to %s: programs import the old one", what, o.name, n.name),
				Hits:    []Audience{lang}})
		}
		if o.modules != n.modules && c.modulesUsedMoved(o.modules, n.modules) {
			c.add(Change{Level: Breaking, Kind: PackageMoved, Token: "language." + section, Path: "modules",
				Message: fmt.Sprintf("the %s's modules move (module renames %s → %s): programs import them from where they were", what, modulesString(o.modules), modulesString(n.modules)),
				Hits:    []Audience{lang}})
		}
	}
}

// modulesUsedMoved reports whether a module the old schema puts a
// resource, function or type in maps to another package: a rename of a
// module nothing lives in moves nothing.
func (c *comparer) modulesUsedMoved(oldJS, newJS string) bool {
	var om, nm map[string]any
	_ = json.Unmarshal([]byte(oldJS), &om)
	_ = json.Unmarshal([]byte(newJS), &nm)
	used := map[string]bool{}
	for _, toks := range [][]string{sortedKeys(c.old.resources), sortedKeys(c.old.functions), sortedKeys(c.old.types)} {
		for _, tok := range toks {
			if parts := strings.Split(tok, ":"); len(parts) == 3 {
				mod, _, _ := strings.Cut(parts[1], "/")
				used[mod] = true
			}
		}
	}
	for mod := range used {
		if fmt.Sprint(om[mod]) != fmt.Sprint(nm[mod]) {
			return true
		}
	}
	return false
}

// modulesString writes a language section's module renames, canonical
// JSON, as {module: package, ...}.
func modulesString(js string) string {
	var m map[string]any
	if js == "" || json.Unmarshal([]byte(js), &m) != nil || len(m) == 0 {
		return "none"
	}
	var pairs []string
	for _, k := range sortedKeys(m) {
		pairs = append(pairs, fmt.Sprintf("%s: %v", k, m[k]))
	}
	return "{" + strings.Join(pairs, ", ") + "}"
}

// kindOf names a resource for messages.
func kindOf(r *resource) string {
	switch {
	case strings.HasPrefix(r.token, "pulumi:providers:"):
		return "provider"
	case r.component:
		return "component"
	}
	return "custom resource"
}

func (c *comparer) resources() {
	matched := map[string]bool{}
	for _, tok := range sortedKeys(c.old.resources) {
		o := c.old.resources[tok]
		n, ok := c.new.resources[c.target(tok)]
		if !ok {
			kind := ResourceRemoved
			if o.component {
				kind = ComponentRemoved
			}
			c.add(Change{Level: Breaking, Kind: kind, Token: tok, Message: kindOf(o) + " removed",
				Hits: []Audience{TypeScript, Python, Go, YAML}})
			continue
		}
		matched[n.token] = true
		if n.token != c.renamePackage(tok) {
			c.resourceMoved(o, n)
		}
		if o.component != n.component {
			c.add(Change{Level: Breaking, Kind: ResourceKind, Token: tok,
				Message: fmt.Sprintf("was a %s, is a %s: existing stacks hold it as the old kind", kindOf(o), kindOf(n)),
				Hits:    []Audience{Stacks}})
		}
		owner := ownerCustom
		if o.component {
			owner = ownerComponent
		}
		c.object(site{token: tok, path: "inputs", what: "input", use: useInput | useYAML, owner: owner}, o.inputs, n.inputs)
		c.object(site{token: tok, path: "outputs", what: "output", use: useOutput | useYAML, owner: owner}, o.outputs, n.outputs)
		for _, name := range sortedKeys(o.methods) {
			m, ok := n.methods[name]
			if !ok {
				c.add(Change{Level: Breaking, Kind: MethodRemoved, Token: tok, Path: "methods." + name,
					Message: fmt.Sprintf("method %s removed", name), Hits: []Audience{TypeScript, Python, Go}})
				continue
			}
			c.function(tok, "methods."+name+".", "method "+name+": ", o.methods[name], m, true)
		}
		for _, name := range sortedKeys(n.methods) {
			if _, ok := o.methods[name]; !ok {
				c.add(Change{Level: Safe, Kind: Added, Token: tok, Path: "methods." + name, Message: fmt.Sprintf("method %s added", name)})
			}
		}
		for _, a := range o.aliases {
			if !slices.Contains(n.aliases, c.target(a)) && !slices.Contains(n.aliases, a) {
				c.add(Change{Level: Dangerous, Kind: AliasRemoved, Token: tok, Path: "aliases",
					Message: fmt.Sprintf("alias %s removed: stacks that still hold resources of that type replace them", a),
					Hits:    []Audience{Stacks}})
			}
		}
		for _, a := range n.aliases {
			if !slices.Contains(o.aliases, a) && a != tok {
				c.add(Change{Level: Safe, Kind: Added, Token: tok, Path: "aliases", Message: fmt.Sprintf("alias %s added", a)})
			}
		}
	}
	for _, tok := range sortedKeys(c.new.resources) {
		if !matched[tok] {
			c.add(Change{Level: Safe, Kind: Added, Token: tok, Message: kindOf(c.new.resources[tok]) + " added"})
		}
	}
}

// resourceMoved reports a resource whose type token changed: programs name
// it anew, and existing stacks replace every one of them, and their
// children, unless the new resource records the old token as an alias.
func (c *comparer) resourceMoved(o, n *resource) {
	ch := Change{Level: Breaking, Kind: TokenChanged, Token: o.token,
		Message: fmt.Sprintf("type token changed to %s: programs must use the new one", n.token),
		Hits:    []Audience{TypeScript, Python, Go, YAML}}
	if slices.Contains(n.aliases, o.token) {
		ch.Message += "; its alias carries existing stacks over"
	} else {
		ch.Message += "; existing stacks replace each one, with its children"
		ch.Hits = append(ch.Hits, Stacks)
		ch.Alias = o.token
		ch.Fix = fmt.Sprintf("record the old type as an alias in the schema (a Go-first package: in schema.overlay.yaml):\n"+
			"  resources: {%q: {aliases: [{type: %q}]}}\n"+
			"SDKs generated from it, and YAML programs, register the alias", n.token, o.token)
		if !n.component {
			ch.Fix += fmt.Sprintf("; a component that registers it as a child adds, in Go,\n"+
				"  Aliases: []monitorclient.Alias{{Spec: &monitorclient.AliasSpec{Type: %q}}}", o.token)
		}
	}
	c.add(ch)
}

func (c *comparer) functions() {
	matched := map[string]bool{}
	for _, tok := range sortedKeys(c.old.functions) {
		o := c.old.functions[tok]
		n, ok := c.new.functions[c.target(tok)]
		if !ok {
			c.add(Change{Level: Breaking, Kind: FunctionRemoved, Token: tok, Message: "function removed",
				Hits: []Audience{TypeScript, Python, Go, YAML}})
			continue
		}
		matched[n.token] = true
		if n.token != c.renamePackage(tok) {
			c.add(Change{Level: Breaking, Kind: TokenChanged, Token: tok,
				Message: fmt.Sprintf("function token changed to %s: programs must call the new one", n.token),
				Hits:    []Audience{TypeScript, Python, Go, YAML}})
		}
		c.function(tok, "", "", o, n, false)
	}
	for _, tok := range sortedKeys(c.new.functions) {
		if !matched[tok] {
			c.add(Change{Level: Safe, Kind: Added, Token: tok, Message: "function added"})
		}
	}
}

// function compares a function or method's arguments and result; path and
// prefix place a method within its resource.
func (c *comparer) function(tok, path, prefix string, o, n *function, method bool) {
	owner, use := ownerFunction, useYAML
	if method {
		owner, use = ownerMethod, 0
	}
	// Go's SDK function (or method) gains an Args parameter; TypeScript's
	// takes it optionally unless an argument is required, which is
	// reported as such.
	if (o.inputs == nil || len(*o.inputs) == 0) && n.inputs != nil && len(*n.inputs) > 0 {
		c.add(Change{Level: Breaking, Kind: SignatureChanged, Token: tok, Path: path + "inputs",
			Message: prefix + "now takes arguments: in Go, its SDK function takes an Args parameter it did not", Hits: []Audience{Go}})
	}
	if len(o.multiArg) > 0 && !slices.Equal(o.multiArg, n.multiArg) {
		c.add(Change{Level: Breaking, Kind: SignatureChanged, Token: tok, Path: path + "inputs",
			Message: fmt.Sprintf("%sarguments (%s) are now (%s): positional calls pass the wrong ones", prefix,
				strings.Join(o.multiArg, ", "), strings.Join(n.multiArg, ", ")), Hits: []Audience{TypeScript, Python, Go}})
	}
	in := func(f *function) object {
		if f.inputs == nil {
			return object{}
		}
		return *f.inputs
	}
	c.object(site{token: tok, path: path + "inputs", what: "argument", prefix: prefix, use: useInput | use, owner: owner}, in(o), in(n))
	out := site{token: tok, path: path + "outputs", what: "result", prefix: prefix, use: useOutput | use, owner: owner}
	switch {
	case o.outputs != nil && n.outputs != nil:
		c.object(out, *o.outputs, *n.outputs)
	case o.result != nil && n.result != nil:
		c.expr(out, "", &property{expr: o.result, required: true}, &property{expr: n.result, required: true})
	case o.outputs != nil || o.result != nil:
		c.add(Change{Level: Breaking, Kind: TypeChanged, Token: tok, Path: out.path,
			Message: fmt.Sprintf("%sresult changed from %s to %s", prefix, resultString(o), resultString(n)), Hits: out.outputHits()})
	}
}

func resultString(f *function) string {
	switch {
	case f.outputs != nil:
		return "an object"
	case f.result != nil:
		return f.result.String()
	}
	return "nothing"
}

func (c *comparer) types() {
	matched := map[string]bool{}
	for _, tok := range sortedKeys(c.old.types) {
		o := c.old.types[tok]
		u := c.uses[tok]
		if u&(useInput|useOutput) == 0 {
			u |= useInput | useOutput // unused here: programs may still name it
		}
		what := "type"
		if o.enum {
			what = "enum"
		}
		n, ok := c.new.types[c.target(tok)]
		if !ok {
			c.add(Change{Level: Breaking, Kind: TypeRemoved, Token: tok, Message: what + " removed", Hits: []Audience{TypeScript, Python, Go}})
			continue
		}
		matched[n.token] = true
		if n.token != c.renamePackage(tok) {
			c.add(Change{Level: Breaking, Kind: TokenChanged, Token: tok,
				Message: fmt.Sprintf("%s token changed to %s: its name in SDKs changes", what, n.token), Hits: []Audience{TypeScript, Python, Go}})
		}
		s := site{token: tok, path: "properties", what: "property", use: u, owner: ownerType}
		if o.enum || n.enum {
			c.enum(s, o, n)
			continue
		}
		c.object(s, o.props, n.props)
	}
	for _, tok := range sortedKeys(c.new.types) {
		if !matched[tok] {
			c.add(Change{Level: Safe, Kind: Added, Token: tok, Message: "type added"})
		}
	}
}

func (c *comparer) enum(s site, o, n *namedType) {
	if o.enum != n.enum || o.underlying != n.underlying {
		var hits []Audience
		if s.use&useInput != 0 {
			hits = s.inputHits()
		}
		if s.use&useOutput != 0 {
			hits = union(hits, s.outputHits())
		}
		c.add(Change{Level: Breaking, Kind: TypeChanged, Token: s.token,
			Message: fmt.Sprintf("changed from %s to %s", enumString(o), enumString(n)), Hits: hits})
		return
	}
	for _, ov := range o.values {
		i := slices.IndexFunc(n.values, func(nv enumValue) bool { return reflect.DeepEqual(nv.value, ov.value) })
		switch {
		case i < 0:
			hits := []Audience{TypeScript, Python, Go}
			if s.use&useInput != 0 && s.use&useYAML != 0 {
				hits = append(hits, YAML)
			}
			c.add(Change{Level: Breaking, Kind: EnumValueRemoved, Token: s.token, Path: "enum." + ov.name,
				Message: fmt.Sprintf("value %s removed", ov), Hits: hits})
		case n.values[i].name != ov.name:
			c.add(Change{Level: Breaking, Kind: EnumValueRemoved, Token: s.token, Path: "enum." + ov.name,
				Message: fmt.Sprintf("value %s renamed %s in SDKs", ov, n.values[i].name),
				Hits:    []Audience{TypeScript, Python, Go}})
		}
	}
	for _, nv := range n.values {
		if slices.ContainsFunc(o.values, func(ov enumValue) bool { return reflect.DeepEqual(nv.value, ov.value) }) {
			continue
		}
		ch := Change{Level: Safe, Kind: EnumValueAdded, Token: s.token, Path: "enum." + nv.name, Message: fmt.Sprintf("value %s added", nv)}
		if s.use&useOutput != 0 {
			ch.Level, ch.Hits = Dangerous, []Audience{TypeScript, Python, Go}
			ch.Message += ": programs that read values of it and handle each one meet one they do not know"
		}
		c.add(ch)
	}
}

// String writes an enum value as reports show it: its value, and its name
// in SDKs where that is not the value.
func (v enumValue) String() string {
	val := valueString(v.value)
	if v.name == fmt.Sprint(v.value) {
		return val
	}
	return v.name + " (" + val + ")"
}

func enumString(t *namedType) string {
	if !t.enum {
		return "an object type"
	}
	return "an enum of " + t.underlying
}

// use says where values of a named type flow: into the provider, out of
// it, and whether YAML programs reach it (anywhere but in a method).
type use uint8

const (
	useInput use = 1 << iota
	useOutput
	useYAML
)

// uses finds the use of every named type of p, through properties, arrays,
// maps, unions and the properties of other types.
func uses(p *pkg) map[string]use {
	out := map[string]use{}
	var mark func(e *expr, u use)
	markObject := func(o object, u use) {
		for _, name := range sortedKeys(o) {
			mark(o[name].expr, u)
		}
	}
	mark = func(e *expr, u use) {
		switch e.kind {
		case kindArray, kindMap:
			mark(e.elem, u)
		case kindUnion:
			for _, a := range e.alts {
				mark(a, u)
			}
		case kindObject, kindEnum:
			if out[e.token]|u == out[e.token] {
				return
			}
			out[e.token] |= u
			if t, ok := p.types[e.token]; ok && !t.enum {
				markObject(t.props, u)
			}
		}
	}
	markFunction := func(f *function, yaml use) {
		if f.inputs != nil {
			markObject(*f.inputs, useInput|yaml)
		}
		if f.outputs != nil {
			markObject(*f.outputs, useOutput|yaml)
		}
		if f.result != nil {
			mark(f.result, useOutput|yaml)
		}
	}
	markObject(p.config, useInput|useYAML)
	for _, tok := range sortedKeys(p.resources) {
		r := p.resources[tok]
		markObject(r.inputs, useInput|useYAML)
		markObject(r.outputs, useOutput|useYAML)
		for _, name := range sortedKeys(r.methods) {
			markFunction(r.methods[name], 0)
		}
	}
	for _, tok := range sortedKeys(p.functions) {
		markFunction(p.functions[tok], useYAML)
	}
	return out
}

// owner is what holds an object of properties.
type owner int

const (
	ownerCustom owner = iota
	ownerComponent
	ownerFunction
	ownerMethod
	ownerType
	ownerConfig
)

// site is an object of properties: whose, where, and how its values flow.
type site struct {
	token  string
	path   string // inputs, outputs, methods.open.inputs, properties, config
	what   string // input, output, argument, result, property, variable
	prefix string // "method open: "
	use    use
	owner  owner
}

func (s site) at(name string) string { return s.path + "." + name }

// inputHits are who a change to what programs pass in breaks.
func (s site) inputHits() []Audience {
	hits := []Audience{TypeScript, Python, Go}
	if s.use&useYAML != 0 && s.owner != ownerConfig {
		hits = append(hits, YAML)
	}
	return hits
}

// outputHits are who a change to what programs read breaks: TypeScript and
// Go type what they read; Python and YAML take what comes.
func (s site) outputHits() []Audience { return []Audience{TypeScript, Go} }

// readHits are who a removal of what programs read breaks.
func (s site) readHits() []Audience {
	hits := []Audience{TypeScript, Python, Go}
	if s.use&useYAML != 0 {
		hits = append(hits, YAML)
	}
	return hits
}

func union(a, b []Audience) []Audience {
	out := slices.Clone(a)
	for _, x := range b {
		if !slices.Contains(out, x) {
			out = append(out, x)
		}
	}
	return out
}

// object compares two sets of properties at s.
func (c *comparer) object(s site, o, n object) {
	in, out := s.use&useInput != 0, s.use&useOutput != 0
	for _, name := range sortedKeys(o) {
		op, np := o[name], n[name]
		if np == nil {
			ch := Change{Level: Breaking, Token: s.token, Path: s.at(name), Message: fmt.Sprintf("%s%s %q removed", s.prefix, s.what, name)}
			switch {
			case in && out:
				ch.Kind, ch.Hits = PropertyRemoved, union(s.inputHits(), s.readHits())
			case in:
				ch.Kind, ch.Hits = InputRemoved, s.inputHits()
				if len(n) == 0 && (s.owner == ownerCustom || s.owner == ownerComponent) {
					// Its Args are now an empty interface, which
					// TypeScript lets any object literal fill.
					ch.Hits = slices.DeleteFunc(ch.Hits, func(a Audience) bool { return a == TypeScript })
				}
			default:
				ch.Kind, ch.Hits = OutputRemoved, s.readHits()
				if name == "id" && s.owner == ownerCustom && s.path == "outputs" {
					// Every custom resource has an id in TypeScript,
					// Python and YAML; only Go's field Id goes.
					ch.Hits = []Audience{Go}
				}
			}
			c.add(ch)
			continue
		}
		c.expr(s, name, op, np)
		c.property(s, name, op, np)
	}
	for _, name := range sortedKeys(n) {
		if o[name] != nil {
			continue
		}
		if in && n[name].required {
			msg := fmt.Sprintf("%srequired %s %q added", s.prefix, s.what, name)
			if s.owner == ownerConfig {
				msg += ": every stack must set it"
			}
			c.add(Change{Level: Breaking, Kind: InputRequired, Token: s.token, Path: s.at(name), Message: msg,
				Hits: s.requiredHits(false), Fix: requiredFix(s)})
			continue
		}
		what := s.what
		if in && s.owner != ownerType {
			what = "optional " + what
		}
		c.add(Change{Level: Safe, Kind: Added, Token: s.token, Path: s.at(name), Message: fmt.Sprintf("%s%s %q added", s.prefix, what, name)})
	}
}

// requiredHits are who a required input breaks, as compiled consumers
// show: programs that do not pass it, and for configuration, stacks that
// do not set it. existed says it was there, optional: Go's plain field of
// a function's argument changes from a pointer to a value. Python refuses
// a missing required argument of a resource, a method or an object type,
// not of a function; Go checks a resource's at run time, not a method's,
// a function's or an object type's.
func (s site) requiredHits(existed bool) []Audience {
	var hits []Audience
	switch s.owner {
	case ownerConfig:
		return []Audience{Stacks}
	case ownerCustom, ownerComponent:
		hits = []Audience{TypeScript, Python, Go}
	case ownerMethod:
		hits = []Audience{TypeScript, Python}
	case ownerFunction:
		hits = []Audience{TypeScript}
		if existed {
			hits = append(hits, Go)
		}
	default: // an object type's property
		hits = []Audience{TypeScript, Python}
	}
	if s.use&useYAML != 0 {
		hits = append(hits, YAML)
	}
	return hits
}

func requiredFix(s site) string {
	if s.owner == ownerConfig {
		return ""
	}
	return "keep it optional with a default (default: in the schema) until a major version"
}

// property compares what is declared of a property besides its type.
func (c *comparer) property(s site, name string, o, n *property) {
	in, out := s.use&useInput != 0, s.use&useOutput != 0
	path, label := s.at(name), fmt.Sprintf("%s%s %q", s.prefix, s.what, name)
	add := func(level Level, kind Kind, msg string, hits ...Audience) {
		c.add(Change{Level: level, Kind: kind, Token: s.token, Path: path, Message: label + msg, Hits: hits})
	}
	switch {
	case in && !o.required && n.required:
		c.add(Change{Level: Breaking, Kind: InputRequired, Token: s.token, Path: path, Message: label + " is now required",
			Hits: s.requiredHits(true), Fix: requiredFix(s)})
	case in && o.required && !n.required && s.owner == ownerFunction:
		add(Breaking, InputOptional, " is now optional: in Go, its field of the function's Args changes from a value to a pointer", Go)
	case in && o.required && !n.required && !out:
		add(Safe, InputOptional, " is now optional")
	}
	switch {
	case out && o.required && !n.required:
		add(Breaking, OutputOptional, " is no longer always set: TypeScript reads it as possibly undefined, Go as a pointer", TypeScript, Go)
	case out && !o.required && n.required && !in:
		add(Breaking, OutputRequired, " is now always set: in Go its type changes from a pointer to a value, and programs that read it as a pointer (Elem(), *) no longer build", Go)
	}
	if o.secret != n.secret {
		if n.secret {
			add(Dangerous, SecretChanged, " is now secret: the SDKs mark its values secret, and so are stack outputs and state built from them", Stacks)
		} else {
			add(Dangerous, SecretChanged, " is no longer secret: unless the provider marks its values secret itself, state and stack outputs hold them in plaintext", Stacks)
		}
	}
	if !in {
		return
	}
	if !o.replaceOnChanges && n.replaceOnChanges && (s.owner == ownerCustom || s.owner == ownerComponent) {
		add(Dangerous, ReplaceOnChanges, " now has replaceOnChanges: the next change to it replaces the resource instead of updating it", Stacks)
	}
	if !reflect.DeepEqual(o.def, n.def) {
		add(Dangerous, DefaultChanged, fmt.Sprintf(": default changed from %s to %s: programs that leave it unset send the new value at the next up, which updates (or replaces) their resources",
			valueString(o.def), valueString(n.def)), Stacks)
	}
	if o.plain != n.plain {
		if n.plain {
			add(Breaking, PlainChanged, " now takes plain values only: programs that pass another resource's output no longer compile in TypeScript or build in Go, and Go programs pass a plain value, not a pulumi.Input", TypeScript, Go)
		} else {
			add(Breaking, PlainChanged, " now takes outputs too: Go programs pass a pulumi.Input, not a plain value, and the provider may receive unknown values in a preview", Go)
		}
	}
}

// valueString writes a value as JSON does: "text", 3, true, [1,2],
// {"a":1}.
func valueString(v any) string {
	if v == nil {
		return "none"
	}
	js, err := json.Marshal(v)
	if err != nil {
		return fmt.Sprint(v)
	}
	return string(js)
}

// expr compares a property's type: a change is breaking where programs
// pass values the new type refuses (an input narrowed) or read values the
// old type did not have (an output widened).
func (c *comparer) expr(s site, name string, o, n *property) {
	rel, at, oe, ne := c.relate(o.expr, n.expr)
	if rel == same {
		return
	}
	in, out := s.use&useInput != 0, s.use&useOutput != 0
	var hits []Audience
	if in && (rel == narrower || rel == changed) {
		// Python's SDK does not check the types of what programs pass; the
		// provider's Check does, in preview (tests/breakage).
		hits = s.inputHits()
		if oe.kind == kindEnum && ne.kind == kindEnum && c.enumValuesKept(oe.token, ne.token) {
			// TypeScript's enums are their values' literal types: the
			// old enum's values are all the new one's.
			hits = slices.DeleteFunc(hits, func(a Audience) bool { return a == TypeScript })
		}
	}
	if out && (rel == wider || rel == changed) {
		readers := s.outputHits()
		if isAny(ne) {
			// TypeScript reads any as whatever the program typed.
			readers = slices.DeleteFunc(readers, func(a Audience) bool { return a == TypeScript })
		}
		hits = union(hits, readers)
	}
	// Go names an array or map by its element type (pulumi.StringMap,
	// pulumi.Map): a new element type there breaks Go either way; and a
	// program holds an output in a variable of its Go type
	// (pulumi.AnyOutput for a union, pulumi.StringPtrOutput), which any
	// other type breaks.
	goOld, goNew := c.goName(o.expr, true), c.goName(n.expr, false)
	goBreaks := (at != "" || out) && goOld != goNew
	if goBreaks {
		hits = union(hits, []Audience{Go})
	}
	path, label := s.path, s.prefix+s.what
	if name != "" {
		path, label = s.at(name), fmt.Sprintf("%s%s %q", s.prefix, s.what, name)
	}
	msg := fmt.Sprintf("%s: type changed from %s to %s", label, o.expr, n.expr)
	// What takes (or, as an output, holds) values: the property, or its
	// items or values.
	subject, verb := "it ", "takes"
	switch {
	case strings.HasSuffix(at, "[]"):
		subject, verb = "its items ", "take"
	case strings.HasSuffix(at, "{}"):
		subject, verb = "its values ", "take"
	}
	if !in {
		verb = strings.Replace(verb, "take", "hold", 1)
	}
	switch rel {
	case narrower:
		msg += fmt.Sprintf(": %sno longer %s %s", subject, verb, exprList(minus(alts(oe), alts(ne), c)))
	case wider:
		msg += fmt.Sprintf(": %snow also %s %s", subject, verb, exprList(minus(alts(ne), alts(oe), c)))
	}
	if goBreaks {
		suffix := "Input"
		if !in {
			suffix = "Output"
		}
		goType := func(name string) string {
			if name == "pulumi." { // any
				return map[string]string{"Input": "pulumi.Input", "Output": "pulumi.AnyOutput"}[suffix]
			}
			return name + suffix
		}
		msg += fmt.Sprintf("; in Go, its type %s becomes %s", goType(goOld), goType(goNew))
	}
	level := Breaking
	if len(hits) == 0 {
		level = Safe
	}
	c.add(Change{Level: level, Kind: TypeChanged, Token: s.token, Path: path + at, Message: msg, Hits: hits})
}

// goName is the Go type the generator gives values of e, less its
// Input or Output suffix: pulumi.String, pulumi.IntMap, pulumi.Map (of any
// values), ColorArray (of a named type). old resolves e in the old schema.
func (c *comparer) goName(e *expr, old bool) string {
	p := c.new
	if old {
		p = c.old
	}
	switch e.kind {
	case "string":
		return "pulumi.String"
	case "integer":
		return "pulumi.Int"
	case "number":
		return "pulumi.Float64"
	case "boolean":
		return "pulumi.Bool"
	case "archive":
		return "pulumi.Archive"
	case "asset":
		return "pulumi.AssetOrArchive"
	case kindArray:
		return c.goName(e.elem, old) + "Array"
	case kindMap:
		return c.goName(e.elem, old) + "Map"
	case kindUnion:
		// A union with an enum is the enum's underlying type.
		for _, a := range e.alts {
			if t, ok := p.types[a.token]; ok && a.kind == kindEnum {
				return c.goName(&expr{kind: t.underlying}, old)
			}
		}
	case kindObject, kindEnum, kindResource:
		name := e.token[strings.LastIndex(e.token, ":")+1:]
		return strings.ToUpper(name[:min(1, len(name))]) + name[min(1, len(name)):]
	}
	return "pulumi." // any, json
}

// relation is how the values of a new type relate to those of the old.
type relation int

const (
	same relation = iota
	wider
	narrower
	changed
)

// relate compares two types through arrays and maps, and returns where
// they first differ (a path of [] and {}) and the types there.
func (c *comparer) relate(o, n *expr) (relation, string, *expr, *expr) {
	if c.sameExpr(o, n) {
		return same, "", o, n
	}
	if o.kind == n.kind && (o.kind == kindArray || o.kind == kindMap) {
		rel, at, oe, ne := c.relate(o.elem, n.elem)
		step := "[]"
		if o.kind == kindMap {
			step = "{}"
		}
		return rel, step + at, oe, ne
	}
	switch {
	case isAny(n) && !isAny(o):
		return wider, "", o, n
	case isAny(o) && !isAny(n):
		return narrower, "", o, n
	}
	lost, gained := minus(alts(o), alts(n), c), minus(alts(n), alts(o), c)
	switch {
	case len(lost) == 0:
		return wider, "", o, n
	case len(gained) == 0:
		return narrower, "", o, n
	}
	return changed, "", o, n
}

// enumValuesKept reports whether every value of old enum o is one of new
// enum n.
func (c *comparer) enumValuesKept(o, n string) bool {
	ot, nt := c.old.types[o], c.new.types[n]
	if ot == nil || nt == nil {
		return false
	}
	for _, ov := range ot.values {
		if !slices.ContainsFunc(nt.values, func(nv enumValue) bool { return reflect.DeepEqual(nv.value, ov.value) }) {
			return false
		}
	}
	return true
}

func isAny(e *expr) bool { return e.kind == kindAny || e.kind == "json" }

func alts(e *expr) []*expr {
	if e.kind == kindUnion {
		return e.alts
	}
	return []*expr{e}
}

// minus is the types of a that b lacks.
func minus(a, b []*expr, c *comparer) []*expr {
	var out []*expr
	for _, x := range a {
		if !slices.ContainsFunc(b, func(y *expr) bool { return c.sameExpr(x, y) }) {
			out = append(out, x)
		}
	}
	return out
}

func exprList(es []*expr) string {
	s := make([]string, len(es))
	for i, e := range es {
		s[i] = e.String()
	}
	return strings.Join(s, " or ")
}

// sameExpr reports whether old type o is new type n, named types compared
// by where they moved.
func (c *comparer) sameExpr(o, n *expr) bool {
	if o.kind != n.kind {
		return false
	}
	switch o.kind {
	case kindArray, kindMap:
		return c.sameExpr(o.elem, n.elem)
	case kindUnion:
		return len(minus(o.alts, n.alts, c)) == 0 && len(minus(n.alts, o.alts, c)) == 0
	case kindObject, kindEnum, kindResource:
		return c.target(o.token) == n.token
	}
	return true
}

// String writes a type as reports show it: array<string>, map<integer>,
// string|integer, the token of a named type.
func (e *expr) String() string { return e.format(false) }

// format writes a type; kinds names what a named type is (object, enum).
func (e *expr) format(kinds bool) string {
	switch e.kind {
	case kindArray, kindMap:
		return e.kind + "<" + e.elem.format(kinds) + ">"
	case kindUnion:
		s := make([]string, len(e.alts))
		for i, a := range e.alts {
			s[i] = a.format(kinds)
		}
		return strings.Join(s, "|")
	case kindObject, kindEnum:
		if kinds {
			return e.kind + " " + e.token
		}
		return e.token
	case kindResource:
		return "resource " + e.token
	}
	return e.kind
}
