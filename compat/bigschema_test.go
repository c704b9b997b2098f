package compat

import (
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

var writeBig = flag.String("write-big-schema", "",
	"write the big schema pair (old.json, new.json) of TestBigSchema into this folder, to time another checker on it")

// bigResources is how many resources the big schema has: about 12 MB, the
// size issue 39 timed, and the size of a large bridged provider's schema.
const bigResources = 1000

// bigSchema is a package schema shaped as large providers' are: per
// resource a long markdown description, 24 inputs and 28 outputs with
// descriptions, an object type, a getter function. changed gives the new
// release of the pair: every 50th resource loses an output and gains a
// required input, every 100th changes an input's type, and 10 resources
// are added.
func bigSchema(n int, changed bool) []byte {
	desc := func(what string, size int) string {
		var b strings.Builder
		b.WriteString("Manages " + what + ".\n\n## Example Usage\n\n")
		for b.Len() < size {
			b.WriteString("The value is read from the cloud API on every refresh, and changes to it update the resource in place unless noted. ")
		}
		return b.String()[:size]
	}
	prop := func(typ, what string) map[string]any {
		return map[string]any{"type": typ, "description": desc(what, 100)}
	}
	resources := map[string]any{}
	functions := map[string]any{}
	types := map[string]any{}
	total := n
	if changed {
		total += 10
	}
	for i := range total {
		mod := fmt.Sprintf("mod%d", i%20)
		name := fmt.Sprintf("Widget%d", i)
		tok := "big:" + mod + ":" + name
		settings := "big:" + mod + ":" + name + "Settings"
		inputs := map[string]any{}
		outputs := map[string]any{}
		for j := range 24 {
			p := fmt.Sprintf("field%d", j)
			typ := []string{"string", "integer", "boolean", "number"}[j%4]
			if changed && i%100 == 0 && j == 1 {
				typ = "string" // was integer
			}
			inputs[p] = prop(typ, p)
			outputs[p] = prop(typ, p)
		}
		inputs["settings"] = map[string]any{"$ref": "#/types/" + settings, "description": desc("settings", 200)}
		inputs["tags"] = map[string]any{"type": "object", "additionalProperties": map[string]any{"type": "string"}}
		for j := range 4 {
			p := fmt.Sprintf("computed%d", j)
			outputs[p] = prop("string", p)
		}
		required := []string{"field0"}
		if changed && i%50 == 0 {
			delete(outputs, "computed3")
			inputs["extra"] = prop("string", "extra")
			required = append(required, "extra")
		}
		resources[tok] = map[string]any{
			"description":     desc(name, 2000),
			"inputProperties": inputs,
			"requiredInputs":  required,
			"properties":      outputs,
			"required":        []string{"field0", "computed0"},
		}
		types[settings] = map[string]any{
			"type":        "object",
			"description": desc("settings", 300),
			"properties": map[string]any{
				"mode": prop("string", "mode"), "size": prop("integer", "size"),
				"enabled": prop("boolean", "enabled"), "items": map[string]any{"type": "array", "items": map[string]any{"type": "string"}},
			},
		}
		functions["big:"+mod+":get"+name] = map[string]any{
			"description": desc("a lookup", 600),
			"inputs":      map[string]any{"properties": map[string]any{"id": prop("string", "id")}, "required": []string{"id"}},
			"outputs":     map[string]any{"properties": map[string]any{"field0": prop("string", "field0"), "arn": prop("string", "arn")}, "required": []string{"arn"}},
		}
	}
	version := "1.0.0"
	if changed {
		version = "2.0.0"
	}
	doc, err := json.Marshal(map[string]any{
		"name": "big", "version": version, "description": "A big package.",
		"config":    map[string]any{"variables": map[string]any{"region": prop("string", "region")}},
		"provider":  map[string]any{"inputProperties": map[string]any{"region": prop("string", "region")}},
		"resources": resources, "functions": functions, "types": types,
		"language": map[string]any{"nodejs": map[string]any{"packageName": "@acme/big"}},
	})
	if err != nil {
		panic(err)
	}
	return doc
}

// TestBigSchema checks the big pair reads and is judged as built: its
// size, and the changes the generator made, by kind. With
// -write-big-schema=DIR it writes the pair for timing another checker
// (docs/performance.md).
func TestBigSchema(t *testing.T) {
	old, new := bigSchema(bigResources, false), bigSchema(bigResources, true)
	if mb := float64(len(old)) / 1e6; mb < 11 || mb > 14 {
		t.Errorf("the big schema is %.1f MB, want about 12", mb)
	}
	if *writeBig != "" {
		for name, b := range map[string][]byte{"old.json": old, "new.json": new} {
			if err := os.WriteFile(filepath.Join(*writeBig, name), b, 0o644); err != nil {
				t.Fatal(err)
			}
		}
	}
	r, err := Compare(old, new)
	if err != nil {
		t.Fatal(err)
	}
	counts := map[Kind]int{}
	for _, c := range r.Changes {
		counts[c.Kind]++
	}
	// 20 resources lose an output and gain a required input; 10 change
	// an input's type, an integer both ways: as an input it narrows
	// nothing a string takes, as an output it changes what readers get.
	want := map[Kind]int{OutputRemoved: 20, InputRequired: 20, TypeChanged: 20}
	for k, n := range want {
		if counts[k] != n {
			t.Errorf("%d changes of kind %s, want %d (all: %v)", counts[k], k, n, counts)
		}
	}
	if counts[Added] < 10 {
		t.Errorf("%d additions, want at least the 10 new resources (all: %v)", counts[Added], counts)
	}
}

// BenchmarkCompareBigSchema is the check on the 12 MB pair, reading
// included: what `polyup compat old.json new.json` does but for the
// printing. docs/performance.md compares it with pulumi/schema-tools.
func BenchmarkCompareBigSchema(b *testing.B) {
	old, new := bigSchema(bigResources, false), bigSchema(bigResources, true)
	b.SetBytes(int64(len(old) + len(new)))
	b.ResetTimer()
	for b.Loop() {
		if _, err := Compare(old, new); err != nil {
			b.Fatal(err)
		}
	}
}
