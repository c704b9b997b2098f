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
			js.Allowed != (reason == "") || js.Reason != reason || !reflect.DeepEqual(js.Changes, nonNil(r.Changes)) {
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
		{[]byte("name: [unclosed"), good, "old schema: yaml: line 1: did not find expected ',' or ']'"},
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
}
