package compat

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/rogpeppe/go-internal/txtar"
)

// TestReadsAsBinder: the check reads every schema of testdata/pairs as
// Pulumi's binder does. testdata/binder.facts holds what the binder reads,
// written and checked by tests/tools/langhost/binder (compat_test.go,
// -update rewrites it); here the check's own reading must match it, fact
// for fact.
func TestReadsAsBinder(t *testing.T) {
	golden, err := os.ReadFile(filepath.Join("testdata", "binder.facts"))
	if err != nil {
		t.Fatal(err)
	}
	want := map[string][]string{}
	var cur string
	for _, l := range strings.Split(strings.TrimSuffix(string(golden), "\n"), "\n") {
		if name, ok := strings.CutPrefix(l, "== "); ok {
			cur = name
			want[cur] = []string{}
			continue
		}
		want[cur] = append(want[cur], l)
	}
	files, _ := filepath.Glob(filepath.Join("testdata", "pairs", "*.txtar"))
	seen := 0
	for _, f := range files {
		a, err := txtar.ParseFile(f)
		if err != nil {
			t.Fatal(err)
		}
		for _, file := range a.Files {
			name := strings.TrimSuffix(filepath.Base(f), ".txtar") + "/" + file.Name
			p, err := load(name, file.Data)
			if err != nil {
				t.Errorf("%v", err)
				continue
			}
			w, ok := want[name]
			if !ok {
				t.Errorf("%s: not in testdata/binder.facts (go test -update in tests/tools/langhost/binder)", name)
				continue
			}
			seen++
			if got := facts(p); !slices.Equal(got, w) {
				t.Errorf("%s: the check reads\n  %s\nthe binder\n  %s", name, strings.Join(got, "\n  "), strings.Join(w, "\n  "))
			}
		}
	}
	if seen != len(want) {
		t.Errorf("testdata/binder.facts has %d schemas, the pairs %d", len(want), seen)
	}
}

// facts is what the check reads of a schema, one sorted line per thing
// declared, in the form binder.facts uses.
func facts(p *pkg) []string {
	var out []string
	add := func(format string, args ...any) { out = append(out, fmt.Sprintf(format, args...)) }
	obj := func(where string, o object) {
		for _, name := range sortedKeys(o) {
			if name == "__self__" {
				continue
			}
			prop := o[name]
			s := prop.expr.format(true)
			if !prop.required {
				s += "?"
			}
			if prop.secret {
				s += " secret"
			}
			if prop.replaceOnChanges {
				s += " replaceOnChanges"
			}
			if prop.plain {
				s += " plain"
			}
			if prop.def != nil {
				s += fmt.Sprintf(" default=%v", prop.def)
			}
			add("%s.%s: %s", where, name, s)
		}
	}
	fn := func(tok string, f *function) {
		add("function %s", tok)
		if f.inputs != nil {
			obj(tok+" inputs", *f.inputs)
		}
		if len(f.multiArg) > 0 {
			add("%s arguments: %s", tok, strings.Join(f.multiArg, ","))
		}
		if f.outputs != nil {
			obj(tok+" outputs", *f.outputs)
		}
		if f.result != nil {
			add("%s result: %s", tok, f.result.format(true))
		}
	}
	obj("config", p.config)
	for _, tok := range sortedKeys(p.resources) {
		r := p.resources[tok]
		kind := "custom"
		if r.component {
			kind = "component"
		}
		add("resource %s %s", tok, kind)
		obj(tok+" inputs", r.inputs)
		obj(tok+" outputs", r.outputs)
		if len(r.aliases) > 0 {
			add("%s aliases: %s", tok, strings.Join(r.aliases, ","))
		}
		for _, name := range sortedKeys(r.methods) {
			add("%s method %s: %s", tok, name, r.methods[name].token)
			fn(r.methods[name].token, r.methods[name])
		}
	}
	for _, tok := range sortedKeys(p.functions) {
		fn(tok, p.functions[tok])
	}
	for _, tok := range sortedKeys(p.types) {
		t := p.types[tok]
		if !t.enum {
			add("type %s object", tok)
			obj(tok, t.props)
			continue
		}
		var vals []string
		for _, v := range t.values {
			vals = append(vals, fmt.Sprintf("%s=%v", v.name, v.value))
		}
		add("type %s enum of %s: %s", tok, t.underlying, strings.Join(vals, ","))
	}
	slices.Sort(out)
	return out
}
