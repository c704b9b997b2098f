package tests

import (
	"fmt"
	"os"
	"regexp"
	"slices"
	"sort"
	"strings"
	"testing"

	"gopkg.in/yaml.v3"

	"github.com/polyhost/polyhost"
	"github.com/polyhost/polyhost/host/schema"
)

func loadSchema(t *testing.T) *schema.Package {
	t.Helper()
	pkg, err := schema.Load(polyhost.Schema)
	if err != nil {
		t.Fatalf("loading schema.yaml: %v", err)
	}
	return pkg
}

// yamlResource is one entry of a YAML program's resources section.
type yamlResource struct {
	Type       string         `yaml:"type"`
	Properties map[string]any `yaml:"properties"`
}

// yamlProgram is the part of a Pulumi YAML program the check reads.
type yamlProgram struct {
	Name      string                  `yaml:"name"`
	Runtime   string                  `yaml:"runtime"`
	Config    map[string]any          `yaml:"config"`
	Resources map[string]yamlResource `yaml:"resources"`
	Variables map[string]any          `yaml:"variables"`
	Outputs   map[string]any          `yaml:"outputs"`
}

// TestYAMLExample checks examples/yaml, which only the real pulumi CLI runs:
// every resource type, input property, function, argument and output it
// names must exist in schema.yaml, with required inputs given.
func TestYAMLExample(t *testing.T) {
	t.Parallel()
	data, err := os.ReadFile("../examples/yaml/Pulumi.yaml")
	if err != nil {
		t.Fatal(err)
	}
	var prog yamlProgram
	if err := yaml.Unmarshal(data, &prog); err != nil {
		t.Fatalf("examples/yaml/Pulumi.yaml: %v", err)
	}
	if prog.Runtime != "yaml" || prog.Name == "" {
		t.Fatalf("want a named project with runtime yaml, got name %q runtime %q", prog.Name, prog.Runtime)
	}
	for _, f := range checkYAMLProgram(loadSchema(t), prog) {
		t.Error(f)
	}
	used := map[string]bool{}
	for _, r := range prog.Resources {
		used[r.Type] = true
	}
	for _, tok := range []string{"sitekit:index:Site", "sitekit:index:Mirror"} {
		if !used[tok] {
			t.Errorf("the YAML example does not use %s", tok)
		}
	}
	if len(prog.Outputs) == 0 {
		t.Error("the YAML example exports nothing")
	}
}

// TestCheckYAMLProgram makes sure the YAML check catches each kind of
// mistake it is meant to catch.
func TestCheckYAMLProgram(t *testing.T) {
	t.Parallel()
	pkg := loadSchema(t)
	cases := map[string]struct {
		src  string
		want string
	}{
		"unknown type": {
			src:  "resources: {s: {type: sitekit:index:Nope}}",
			want: `resource s: type sitekit:index:Nope is not in the schema`,
		},
		"unknown input": {
			src:  "resources: {s: {type: sitekit:index:Site, properties: {indexContent: x, colour: red}}}",
			want: `resource s: sitekit:index:Site has no input colour`,
		},
		"missing required input": {
			src:  "resources: {s: {type: sitekit:index:Site, properties: {errorContent: x}}}",
			want: `resource s: required input indexContent of sitekit:index:Site is missing`,
		},
		"unknown output": {
			src:  "resources: {s: {type: sitekit:index:Site, properties: {indexContent: x}}}\noutputs: {u: '${s.address}'}",
			want: `${s.address}: sitekit:index:Site has no output address`,
		},
		"unknown name": {
			src:  "outputs: {u: '${nowhere.url}'}",
			want: `${nowhere.url}: no resource, variable or config named nowhere`,
		},
		"unknown function": {
			src:  "variables: {v: {fn::invoke: {function: sitekit:index:getNope, arguments: {}}}}",
			want: `variable v: function sitekit:index:getNope is not in the schema`,
		},
		"unknown return": {
			src:  "variables: {v: {fn::invoke: {function: sitekit:index:getObject, arguments: {bucket: b, key: k}, return: size}}}",
			want: `variable v: sitekit:index:getObject has no output size`,
		},
		"method": {
			src:  "variables: {v: {fn::invoke: {function: sitekit:index:Site/pageUrl, arguments: {page: p}}}}",
			want: `variable v: function sitekit:index:Site/pageUrl is not in the schema`,
		},
		"unknown argument": {
			src:  "variables: {v: {fn::invoke: {function: sitekit:index:getObject, arguments: {bucket: b, key: k, etag: e}}}}",
			want: `variable v: sitekit:index:getObject has no argument etag`,
		},
		"missing argument": {
			src:  "variables: {v: {fn::invoke: {function: sitekit:index:getObject, arguments: {bucket: b}}}}",
			want: `variable v: required argument key of sitekit:index:getObject is missing`,
		},
		"unknown function output": {
			src:  "variables: {v: {fn::invoke: {function: sitekit:index:getObject, arguments: {bucket: b, key: k}}}}\noutputs: {o: '${v.size}'}",
			want: `${v.size}: the result of v has no field size`,
		},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			var prog yamlProgram
			if err := yaml.Unmarshal([]byte(tc.src), &prog); err != nil {
				t.Fatal(err)
			}
			got := checkYAMLProgram(pkg, prog)
			if !slices.Contains(got, tc.want) {
				t.Errorf("failures %q, want one %q", got, tc.want)
			}
		})
	}
}

var interpolation = regexp.MustCompile(`\$\{([^}]*)\}`)

// checkYAMLProgram returns one line per name the program uses that the
// schema does not have.
func checkYAMLProgram(pkg *schema.Package, prog yamlProgram) []string {
	var out []string
	fail := func(format string, a ...any) { out = append(out, fmt.Sprintf(format, a...)) }

	for name, r := range prog.Resources {
		res, ok := pkg.Resource(r.Type)
		if !ok {
			fail("resource %s: type %s is not in the schema", name, r.Type)
			continue
		}
		for prop := range r.Properties {
			if _, ok := res.InputProperties[prop]; !ok {
				fail("resource %s: %s has no input %s", name, r.Type, prop)
			}
		}
		for _, req := range res.RequiredInputs {
			if _, ok := r.Properties[req]; !ok {
				fail("resource %s: required input %s of %s is missing", name, req, r.Type)
			}
		}
	}

	// Function results by variable name, for ${var.field}.
	functions := map[string]schema.Object{}
	for name, v := range prog.Variables {
		expr, _ := v.(map[string]any)
		call, ok := expr["fn::invoke"].(map[string]any)
		if !ok {
			continue
		}
		tok, _ := call["function"].(string)
		fn, ok := pkg.Function(tok)
		if !ok || strings.Contains(tok, "/") { // a/b is a method, not callable from YAML
			fail("variable %s: function %s is not in the schema", name, tok)
			continue
		}
		var inputs, outputs schema.Object
		if fn.Inputs != nil {
			inputs = *fn.Inputs
		}
		if fn.Outputs != nil {
			outputs = *fn.Outputs
		}
		args, _ := call["arguments"].(map[string]any)
		for arg := range args {
			if _, ok := inputs.Properties[arg]; !ok {
				fail("variable %s: %s has no argument %s", name, tok, arg)
			}
		}
		for _, req := range inputs.Required {
			if _, ok := args[req]; !ok {
				fail("variable %s: required argument %s of %s is missing", name, req, tok)
			}
		}
		if ret, ok := call["return"].(string); ok {
			if _, ok := outputs.Properties[ret]; !ok {
				fail("variable %s: %s has no output %s", name, tok, ret)
			}
			continue // the variable is that one value
		}
		functions[name] = outputs
	}

	// Every ${name.field} anywhere in the program.
	var refs []string
	walkStrings(prog.Resources, func(s string) { refs = append(refs, s) })
	walkStrings(prog.Variables, func(s string) { refs = append(refs, s) })
	walkStrings(prog.Outputs, func(s string) { refs = append(refs, s) })
	for _, s := range refs {
		for _, m := range interpolation.FindAllStringSubmatch(s, -1) {
			head, field, _ := strings.Cut(m[1], ".")
			field, _, _ = strings.Cut(field, ".")
			switch {
			case hasKey(prog.Resources, head):
				typ := prog.Resources[head].Type
				res, ok := pkg.Resource(typ)
				if ok && field != "" && field != "urn" && !(field == "id" && !res.IsComponent) {
					if _, ok := res.Properties[field]; !ok {
						fail("%s: %s has no output %s", m[0], typ, field)
					}
				}
			case hasKey(functions, head):
				if _, ok := functions[head].Properties[field]; !ok && field != "" {
					fail("%s: the result of %s has no field %s", m[0], head, field)
				}
			case hasKey(prog.Variables, head), hasKey(prog.Config, head):
			default:
				fail("%s: no resource, variable or config named %s", m[0], head)
			}
		}
	}
	sort.Strings(out)
	return out
}

// walkStrings calls f for every string inside v: nested maps and slices,
// and the properties of a resources section.
func walkStrings(v any, f func(string)) {
	switch v := v.(type) {
	case string:
		f(v)
	case map[string]any:
		for _, e := range v {
			walkStrings(e, f)
		}
	case []any:
		for _, e := range v {
			walkStrings(e, f)
		}
	case map[string]yamlResource:
		for _, r := range v {
			walkStrings(r.Properties, f)
		}
	}
}

func hasKey[V any](m map[string]V, k string) bool {
	_, ok := m[k]
	return ok
}
