package binder

import (
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	pschema "github.com/pulumi/pulumi/pkg/v3/codegen/schema"
)

var update = flag.Bool("update", false, "rewrite compat/testdata/binder.facts from what the binder reads")

// TestCompatPairsBind binds both schemas of every pair of the compat
// check's table (compat/testdata/pairs) with Pulumi's binder: no error
// diagnostics. What the binder reads of each is compat/testdata/
// binder.facts, which the check's own reading must match (compat's
// TestReadsAsBinder); -update rewrites it.
func TestCompatPairsBind(t *testing.T) {
	t.Parallel()
	dir := filepath.Join("..", "..", "..", "..", "compat", "testdata")
	files, err := filepath.Glob(filepath.Join(dir, "pairs", "*.txtar"))
	if err != nil || len(files) == 0 {
		t.Fatalf("no pairs in %s (%v)", dir, err)
	}
	var out strings.Builder
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		for _, file := range txtarFiles(string(data)) {
			name := strings.TrimSuffix(filepath.Base(f), ".txtar") + "/" + file[0]
			bound, diags := bind(t, toJSON(t, file[1]))
			if bound == nil || diags != "" {
				t.Errorf("%s: the binder refuses it: %s", name, diags)
				continue
			}
			fmt.Fprintf(&out, "== %s\n", name)
			for _, l := range compatFacts(bound) {
				fmt.Fprintln(&out, l)
			}
		}
	}
	golden := filepath.Join(dir, "binder.facts")
	if *update {
		if err := os.WriteFile(golden, []byte(out.String()), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(golden)
	if err != nil {
		t.Fatal(err)
	}
	if string(want) != out.String() {
		t.Errorf("%s is not what the binder reads of the pairs (go test -update rewrites it)", golden)
	}
}

// txtarFiles returns the files of a txtar archive as name and content.
func txtarFiles(s string) [][2]string {
	var files [][2]string
	for _, l := range strings.SplitAfter(s, "\n") {
		if name, ok := strings.CutPrefix(strings.TrimSpace(l), "-- "); ok && strings.HasSuffix(name, " --") {
			files = append(files, [2]string{strings.TrimSuffix(name, " --"), ""})
			continue
		}
		if len(files) > 0 {
			files[len(files)-1][1] += l
		}
	}
	return files
}

// compatFacts is what the binder reads of a package, one sorted line per
// thing declared, as compat's TestReadsAsBinder writes the check's reading.
func compatFacts(p *pschema.Package) []string {
	var out []string
	add := func(format string, args ...any) { out = append(out, fmt.Sprintf(format, args...)) }
	props := func(where string, ps []*pschema.Property) {
		for _, prop := range ps {
			if prop.Name == "__self__" {
				continue
			}
			s := propFact(prop, compatType)
			if prop.DefaultValue != nil && prop.DefaultValue.Value != nil {
				s += fmt.Sprintf(" default=%v", prop.DefaultValue.Value)
			}
			add("%s.%s: %s", where, prop.Name, s)
		}
	}
	fn := func(f *pschema.Function) {
		add("function %s", f.Token)
		if f.Inputs != nil {
			props(f.Token+" inputs", f.Inputs.Properties)
			if f.MultiArgumentInputs {
				var names []string
				for _, p := range f.Inputs.Properties {
					names = append(names, p.Name)
				}
				add("%s arguments: %s", f.Token, strings.Join(names, ","))
			}
		}
		switch ret := f.ReturnType.(type) {
		case nil:
		case *pschema.ObjectType:
			props(f.Token+" outputs", ret.Properties)
		default:
			add("%s result: %s", f.Token, compatType(ret))
		}
	}
	props("config", p.Config)
	for _, r := range append([]*pschema.Resource{p.Provider}, p.Resources...) {
		kind := "custom"
		if r.IsComponent {
			kind = "component"
		}
		add("resource %s %s", r.Token, kind)
		props(r.Token+" inputs", r.InputProperties)
		props(r.Token+" outputs", r.Properties)
		var aliases []string
		for _, a := range r.Aliases {
			aliases = append(aliases, a.Type)
		}
		if len(aliases) > 0 {
			add("%s aliases: %s", r.Token, strings.Join(aliases, ","))
		}
		for _, m := range r.Methods {
			add("%s method %s: %s", r.Token, m.Name, m.Function.Token)
			fn(m.Function)
		}
	}
	for _, f := range p.Functions {
		if !f.IsMethod {
			fn(f)
		}
	}
	for _, typ := range p.Types {
		switch typ := typ.(type) {
		case *pschema.ObjectType:
			if !typ.IsInputShape() {
				add("type %s object", typ.Token)
				props(typ.Token, typ.Properties)
			}
		case *pschema.EnumType:
			var vals []string
			for _, e := range typ.Elements {
				name := e.Name
				if name == "" {
					name = fmt.Sprint(e.Value)
				}
				vals = append(vals, fmt.Sprintf("%s=%v", name, e.Value))
			}
			add("type %s enum of %s: %s", typ.Token, typ.ElementType, strings.Join(vals, ","))
		}
	}
	slices.Sort(out)
	return out
}

func compatType(typ pschema.Type) string {
	switch typ := typ.(type) {
	case *pschema.OptionalType:
		return compatType(typ.ElementType)
	case *pschema.InputType:
		return compatType(typ.ElementType)
	case *pschema.ArrayType:
		return "array<" + compatType(typ.ElementType) + ">"
	case *pschema.MapType:
		return "map<" + compatType(typ.ElementType) + ">"
	case *pschema.UnionType:
		s := make([]string, len(typ.ElementTypes))
		for i, e := range typ.ElementTypes {
			s[i] = compatType(e)
		}
		return strings.Join(s, "|")
	case *pschema.ObjectType:
		return "object " + typ.Token
	case *pschema.EnumType:
		return "enum " + typ.Token
	case *pschema.ResourceType:
		return "resource " + typ.Token
	}
	switch typ {
	case pschema.AnyType:
		return "any"
	case pschema.JSONType:
		return "json"
	}
	return typ.String()
}
