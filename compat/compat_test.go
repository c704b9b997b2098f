package compat_test

import (
	"encoding/json"
	"fmt"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/rogpeppe/go-internal/txtar"

	"github.com/polyhost/polyhost/compat"
)

// pair is one labelled case of testdata/pairs: two schemas and every
// change the check must report between them, nothing more.
type pair struct {
	name     string
	label    string // breaking, dangerous or safe: the pair's worst change
	old, new []byte
	want     []string
}

// readPairs reads testdata/pairs/*.txtar. Each starts with comment lines
// (#) saying what it holds, then one line per expected change:
//
//	LEVEL KIND TOKEN PATH HITS
//
// with - for no path or no hits, and hits comma-separated; then the files
// old.yaml and new.yaml.
func readPairs(t *testing.T) []pair {
	files, err := filepath.Glob(filepath.Join("testdata", "pairs", "*.txtar"))
	if err != nil || len(files) == 0 {
		t.Fatalf("no pairs: %v", err)
	}
	var pairs []pair
	for _, f := range files {
		a, err := txtar.ParseFile(f)
		if err != nil {
			t.Fatal(err)
		}
		name := strings.TrimSuffix(filepath.Base(f), ".txtar")
		p := pair{name: name, label: strings.SplitN(name, "-", 2)[0]}
		for _, l := range strings.Split(string(a.Comment), "\n") {
			if l = strings.TrimSpace(l); l != "" && !strings.HasPrefix(l, "#") {
				p.want = append(p.want, strings.Join(strings.Fields(l), " "))
			}
		}
		for _, file := range a.Files {
			switch file.Name {
			case "old.yaml", "old.json":
				p.old = file.Data
			case "new.yaml", "new.json":
				p.new = file.Data
			default:
				t.Fatalf("%s: unexpected file %s", f, file.Name)
			}
		}
		if p.old == nil || p.new == nil || !slices.Contains([]string{"breaking", "dangerous", "safe"}, p.label) {
			t.Fatalf("%s: want old.yaml, new.yaml and a name starting breaking-, dangerous- or safe-", f)
		}
		pairs = append(pairs, p)
	}
	return pairs
}

// line is a change as pairs list it.
func line(c compat.Change) string {
	path, hits := c.Path, "-"
	if path == "" {
		path = "-"
	}
	if len(c.Hits) > 0 {
		s := make([]string, len(c.Hits))
		for i, h := range c.Hits {
			s[i] = string(h)
		}
		slices.Sort(s)
		hits = strings.Join(s, ",")
	}
	return fmt.Sprintf("%s %s %s %s %s", c.Level, c.Kind, c.Token, path, hits)
}

// TestPairs: the check reports exactly each pair's expected changes; in
// every breaking pair at least one breaking change, in every dangerous pair
// a dangerous one and no breaking, in every safe pair neither.
func TestPairs(t *testing.T) {
	pairs := readPairs(t)
	count := map[string]int{}
	for _, p := range pairs {
		count[p.label]++
		t.Run(p.name, func(t *testing.T) {
			r, err := compat.Compare(p.old, p.new)
			if err != nil {
				t.Fatal(err)
			}
			var got []string
			for _, c := range r.Changes {
				got = append(got, line(c))
			}
			want := slices.Clone(p.want)
			slices.Sort(got)
			slices.Sort(want)
			if !slices.Equal(got, want) {
				t.Errorf("changes:\n  %s\nwant:\n  %s\nreport:\n%s", strings.Join(got, "\n  "), strings.Join(want, "\n  "), r.Text())
			}
			b, d := r.Count(compat.Breaking), r.Count(compat.Dangerous)
			switch {
			case p.label == "breaking" && b == 0:
				t.Errorf("a breaking pair with no breaking change")
			case p.label == "dangerous" && (b > 0 || d == 0):
				t.Errorf("a dangerous pair with %d breaking and %d dangerous changes", b, d)
			case p.label == "safe" && b+d > 0:
				t.Errorf("a safe pair with %d breaking and %d dangerous changes", b, d)
			}
			// Breaking changes fail the release unless its major is bumped.
			if (r.Err() != nil) != (b > 0 && !r.MajorBumped()) {
				t.Errorf("Err() = %v with %d breaking changes, major bumped %v", r.Err(), b, r.MajorBumped())
			}
		})
	}
	if len(pairs) < 30 || count["breaking"] == 0 || count["dangerous"] == 0 || count["safe"] == 0 {
		t.Errorf("%d pairs (%v): want at least 30, of each level", len(pairs), count)
	}
}

// TestReportJSON: the JSON report carries the changes and the verdict.
func TestReportJSON(t *testing.T) {
	for _, p := range readPairs(t) {
		r, err := compat.Compare(p.old, p.new)
		if err != nil {
			t.Fatal(err)
		}
		var js struct {
			Package    string
			OldVersion string
			NewVersion string
			Counts     compat.Counts
			Allowed    bool
			Reason     string
			Changes    []compat.Change
		}
		if err := json.Unmarshal(r.JSON(), &js); err != nil {
			t.Fatalf("%s: %v", p.name, err)
		}
		reason := ""
		if err := r.Err(); err != nil {
			reason = err.Error()
		}
		if js.Package != r.Package || js.OldVersion != r.OldVersion || js.NewVersion != r.NewVersion ||
			js.Allowed != (reason == "") || js.Reason != reason || !reflect.DeepEqual(js.Changes, nonNil(r.Changes)) ||
			js.Counts != (compat.Counts{Breaking: r.Count(compat.Breaking), Dangerous: r.Count(compat.Dangerous), Safe: r.Count(compat.Safe)}) {
			t.Errorf("%s: JSON %s\nreport %+v", p.name, r.JSON(), r)
		}
	}
}

func nonNil(cs []compat.Change) []compat.Change {
	if cs == nil {
		return []compat.Change{}
	}
	return cs
}

func TestMajorBumped(t *testing.T) {
	cases := []struct {
		old, new string
		want     bool
	}{
		{"1.2.3", "2.0.0", true},
		{"1.2.3", "1.3.0", false},
		{"1.2.3", "1.2.3", false},
		{"0.1.0", "0.2.0", true},
		{"0.1.0", "0.1.1", false},
		{"0.1.0", "1.0.0", true},
		{"2.0.0", "1.9.0", false},
		{"", "1.0.0", false},
		{"0.1.0", "", false},
		{"v1.0.0", "v2.0.0", true},
	}
	for _, c := range cases {
		r := compat.Report{OldVersion: c.old, NewVersion: c.new}
		if got := r.MajorBumped(); got != c.want {
			t.Errorf("%q → %q: MajorBumped = %v, want %v", c.old, c.new, got, c.want)
		}
	}
}

// Bad input names the schema and what is wrong with it.
func TestCompareRefuses(t *testing.T) {
	good := []byte("name: echo\nversion: 0.1.0\n")
	cases := []struct {
		old, new []byte
		want     string
	}{
		{[]byte("name: [unclosed"), good, "old schema: invalid YAML: line 1: did not find expected ',' or ']'"},
		// JSON is judged as JSON, not as YAML.
		{good, []byte("{\n  \"name\": \"echo\",\n  \"version\": \"0.1.0\",\n}\n"),
			"new schema: invalid JSON at line 4, column 1: invalid character '}' looking for beginning of object key string"},
		{[]byte(`{"name": "echo"`), good, "old schema: invalid JSON at line 1, column 15: unexpected end of JSON input"},
		// A YAML flow mapping is YAML.
		{[]byte("{name: echo, version: 0.1.0, resources: {}}"), []byte("{name: [}"), "new schema: invalid YAML: did not find expected node content"},
		{good, []byte("version: 1.0.0\n"), "new schema: not a package schema: no name"},
		{good, []byte("name: echo\nresources: {echo:index:A: {inputProperties: {x: {$ref: '#/types/echo:index:Missing'}}}}\n"),
			`new schema: echo:index:A inputs.x: $ref "#/types/echo:index:Missing" names no type`},
		{good, []byte("name: echo\ntypes: {echo:index:T: {type: object, properties: {x: {type: strng}}}}\n"),
			`new schema: echo:index:T.x: unknown type "strng"`},
		{[]byte("name: echo\nresources: {echo:index:A: {requiredInputs: [x]}}\n"), good,
			`old schema: echo:index:A inputs: "x" is required but not among its properties`},
		{[]byte("name: echo\nresources: {echo:index:A: {methods: {m: 'echo:index:A/m'}}}\n"), good,
			`old schema: echo:index:A: method m names no function "echo:index:A/m"`},
	}
	for _, c := range cases {
		_, err := compat.Compare(c.old, c.new)
		if err == nil || err.Error() != c.want {
			t.Errorf("Compare(%q, %q) = %v, want %q", c.old, c.new, err, c.want)
		}
	}
	// A file's name says its syntax: JSON with a trailing comma is bad JSON,
	// though YAML would read it.
	_, err := compat.CompareNamed("OLD old.yaml", good, "NEW new.json", []byte(`{"name": "echo",}`))
	if want := `NEW new.json: invalid JSON at line 1, column 17: invalid character '}' looking for beginning of object key string`; err == nil || err.Error() != want {
		t.Errorf("CompareNamed: %v, want %q", err, want)
	}
	if _, err := compat.CompareNamed("OLD old.yaml", good, "NEW new.yaml", []byte(`{"name": "echo",}`)); err != nil {
		t.Errorf("CompareNamed of YAML: %v", err)
	}
}

// Messages are words: no Go values (map[...], &{...}, %!v), and the Go
// import path the generator derives is written out.
func TestMessagesInWords(t *testing.T) {
	for _, p := range readPairs(t) {
		r, err := compat.Compare(p.old, p.new)
		if err != nil {
			t.Fatal(err)
		}
		for _, c := range r.Changes {
			for _, bad := range []string{"map[", "&{", "%!", "supportPack", "<nil>"} {
				if strings.Contains(c.Message+c.Fix, bad) {
					t.Errorf("%s: %s: %q", p.name, bad, c.Message)
				}
			}
		}
	}
	old := []byte("name: random\nrepository: https://github.com/pulumi/pulumi-random\n")
	cases := []struct{ new, want string }{
		{"name: random\nrepository: https://github.com/acme/pulumi-random\n",
			"the Go import path moves from github.com/pulumi/pulumi-random/sdk/go/random to github.com/acme/pulumi-random/sdk/go/random: programs import the old one"},
		{"name: random\nrepository: https://github.com/pulumi/pulumi-random\nmeta: {supportPack: true}\nversion: 4.0.0\n",
			"the Go import path moves from github.com/pulumi/pulumi-random/sdk/go/random to github.com/pulumi/pulumi-random/sdk/go/v4/random: programs import the old one"},
	}
	for _, c := range cases {
		r, err := compat.Compare(old, []byte(c.new))
		if err != nil {
			t.Fatal(err)
		}
		if len(r.Changes) != 1 || r.Changes[0].Message != c.want {
			t.Errorf("%q: %+v, want one change: %s", c.new, r.Changes, c.want)
		}
	}
}

// An allow list acknowledges breaking changes, each with a reason; an entry
// matching nothing is listed; a missing reason is an error.
func TestAllowList(t *testing.T) {
	old := []byte("name: echo\nversion: 0.1.0\nresources:\n  echo:index:Box:\n    inputProperties:\n      a: {type: string}\n      b: {type: string}\n")
	cur := []byte("name: echo\nversion: 0.1.1\nresources:\n  echo:index:Box: {}\n")
	for _, c := range []struct{ src, want string }{
		{"- token: echo:index:Box\n", "entry 1 (echo:index:Box): no reason: say why the change is acknowledged"},
		{"- reason: why\n", "entry 1: no token"},
		{"- token: echo:index:Box\n  reason: r\n  because: x\n", "want a list of entries (token, path, kind, reason): line 3: unknown field because"},
		{"token: echo:index:Box\n", "want a list of entries (token, path, kind, reason): line 1: not a list of entries"},
	} {
		if _, err := compat.ReadAllowList([]byte(c.src)); err == nil || err.Error() != c.want {
			t.Errorf("ReadAllowList(%q) = %v, want %q", c.src, err, c.want)
		}
	}
	allow, err := compat.ReadAllowList([]byte("- token: echo:index:Box\n  path: inputs.a\n  reason: a was unused\n" +
		"- token: echo:index:Box\n  kind: input-required\n  reason: none are required\n"))
	if err != nil {
		t.Fatal(err)
	}
	r, err := compat.Compare(old, cur)
	if err != nil {
		t.Fatal(err)
	}
	r.Acknowledge(allow)
	if err := r.Err(); err == nil || err.Error() != "a breaking change needs a new major version: 0.2.0 or 1.0.0, not 0.1.1" {
		t.Errorf("one of two acknowledged: Err() = %v", err)
	}
	if len(r.Unused) != 1 || r.Unused[0].Reason != "none are required" {
		t.Errorf("Unused = %v, want the input-required entry", r.Unused)
	}
	if got := r.Counts(); got != (compat.Counts{Breaking: 2, Acknowledged: 1}) {
		t.Errorf("Counts() = %+v", got)
	}
	r.Acknowledge([]compat.Allow{{Token: "echo:index:Box", Reason: "Box is new"}})
	text := r.Text()
	if err := r.Err(); err != nil || !strings.Contains(text, "OK, each breaking change acknowledged in the allow list") ||
		!strings.Contains(text, "acknowledged: a was unused") || !strings.Contains(text, "acknowledged: Box is new") {
		t.Errorf("all acknowledged: Err() = %v\n%s", err, text)
	}
}

// The Markdown report: a verdict, counts, a table per level with Markdown
// and HTML escaped.
func TestMarkdown(t *testing.T) {
	old := []byte("name: echo\nversion: 0.1.0\nresources:\n  echo:index:Box:\n    inputProperties:\n      tags: {type: object}\n      a_b: {type: string}\n")
	cur := []byte("name: echo\nversion: 0.1.1\nresources:\n  echo:index:Box:\n    inputProperties:\n      tags: {type: object, additionalProperties: {$ref: 'pulumi.json#/Any'}}\n      c: {type: string}\n")
	r, err := compat.Compare(old, cur)
	if err != nil {
		t.Fatal(err)
	}
	var b strings.Builder
	if err := r.WriteMarkdown(&b); err != nil {
		t.Fatal(err)
	}
	want := "### polyup compat: echo 0.1.0 → 0.1.1\n\n" +
		"❌ NOT COMPATIBLE: 2 breaking changes need a new major version: 0.2.0 or 1.0.0, not 0.1.1\n\n" +
		"2 breaking, 0 dangerous, 1 safe.\n\n" +
		"#### Breaking (2)\n\n" +
		"| Token | Change | Hits |\n|---|---|---|\n" +
		"| `echo:index:Box` | input \"a\\_b\" removed | TS Py Go YAML |\n" +
		"| `echo:index:Box` | input \"tags\": type changed from map&lt;string&gt; to map&lt;any&gt;: its values now also take any; in Go, its type pulumi.StringMapInput becomes pulumi.MapInput | Go |\n\n" +
		"<details><summary>Safe (1)</summary>\n\n" +
		"| Token | Change | Hits |\n|---|---|---|\n" +
		"| `echo:index:Box` | optional input \"c\" added |  |\n\n" +
		"</details>\n\n" +
		"Hits: TS fails tsc, Py fails at run time, Go fails to build or run, YAML fails preview, stacks change at the next up.\n"
	if b.String() != want {
		t.Errorf("markdown:\n%s\nwant:\n%s", b.String(), want)
	}
}
