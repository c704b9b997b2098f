package compat

import (
	"cmp"
	"encoding/json"
	"fmt"
	"io"
	"slices"
	"strings"

	"github.com/blang/semver"
)

// Level says how a change can affect the package's consumers, in
// graphql-inspector's terms.
type Level string

const (
	// Breaking: programs written for the old schema stop compiling or
	// running, or existing stacks replace resources.
	Breaking Level = "breaking"
	// Dangerous: nothing fails, but programs or stacks may behave
	// differently (a default, a secret, a replacement on the next change).
	Dangerous Level = "dangerous"
	// Safe: programs and stacks written for the old schema keep working.
	Safe Level = "safe"
)

func (l Level) rank() int { return map[Level]int{Breaking: 0, Dangerous: 1, Safe: 2}[l] }

// Audience is who a change hits.
type Audience string

const (
	TypeScript Audience = "typescript" // programs fail to compile (tsc)
	Python     Audience = "python"     // programs fail at run time
	Go         Audience = "go"         // programs fail to build, or at run time
	YAML       Audience = "yaml"       // programs fail preview
	Stacks     Audience = "stacks"     // existing stacks change at the next up
)

// audiences in the order reports list them, with their short names.
var audiences = []struct {
	a     Audience
	short string
}{{TypeScript, "TS"}, {Python, "Py"}, {Go, "Go"}, {YAML, "YAML"}, {Stacks, "stacks"}}

// Kind is what changed.
type Kind string

const (
	ResourceRemoved  Kind = "resource-removed"   // a custom resource
	ComponentRemoved Kind = "component-removed"  // a component resource
	FunctionRemoved  Kind = "function-removed"   // a function (invoke)
	MethodRemoved    Kind = "method-removed"     // a component's or resource's method
	TypeRemoved      Kind = "type-removed"       // an object or enum type
	EnumValueRemoved Kind = "enum-value-removed" // a value of an enum type
	InputRemoved     Kind = "input-removed"      // an input, argument or config variable
	OutputRemoved    Kind = "output-removed"     // an output or a function's or method's result
	PropertyRemoved  Kind = "property-removed"   // a property of an object type used both ways
	InputRequired    Kind = "input-required"     // an input made required, or a required one added
	OutputOptional   Kind = "output-optional"    // an output no longer always set
	TypeChanged      Kind = "type-changed"       // a property's type (safe when it only widens an input)
	SignatureChanged Kind = "signature-changed"  // how a function is called
	TokenChanged     Kind = "token-changed"      // a resource, function or type moved (module, name or package)
	ResourceKind     Kind = "resource-kind"      // a custom resource became a component, or back
	PackageMoved     Kind = "package-moved"      // an SDK's package name or import path
	PackageRenamed   Kind = "package-renamed"    // the Pulumi package's name

	ReplaceOnChanges Kind = "replace-on-changes" // an input now replaces its resource when it changes
	SecretChanged    Kind = "secret-changed"     // a property became secret, or no longer is
	DefaultChanged   Kind = "default-changed"    // an input's default value
	PlainChanged     Kind = "plain-changed"      // an input takes plain values only, or no longer
	AliasRemoved     Kind = "alias-removed"      // an alias the resource recorded
	EnumValueAdded   Kind = "enum-value-added"   // dangerous where programs read values of the enum
	OutputRequired   Kind = "output-required"    // an output now always set (its Go type changes)
	InputOptional    Kind = "input-optional"     // safe, but a function's argument changes its Go type

	Added Kind = "added" // a resource, function, method, type, property, enum value or alias
)

// Change is one difference between the schemas.
type Change struct {
	Level Level `json:"level"`
	Kind  Kind  `json:"kind"`
	// Token is the resource, function or type changed, as the old schema
	// names it (the new one's for an addition); for a language section,
	// language.<name>; for provider configuration, config.
	Token string `json:"token"`
	// Path is where within it: inputs.size, outputs.tags[], methods.open,
	// methods.resize.inputs.factor, properties.note, enum.neon, ...
	Path string `json:"path,omitempty"`
	// Message says what changed and, for a dangerous change, what may
	// happen.
	Message string `json:"message"`
	// Hits lists who the change breaks (or, if dangerous, may affect).
	Hits []Audience `json:"hits,omitempty"`
	// Fix, when there is one, is how to ship the change without what it
	// breaks: the alias that carries existing resources over to a new
	// type token.
	Fix string `json:"fix,omitempty"`
	// Alias, for a resource whose type token changed, is the type the
	// alias names: the old token.
	Alias string `json:"alias,omitempty"`
	// Acknowledged is the reason of the allow-list entry that acknowledges
	// the change ([Report.Acknowledge]); an acknowledged breaking change
	// does not fail the release.
	Acknowledged string `json:"acknowledged,omitempty"`
}

// Hit reports whether the change hits a.
func (c Change) Hit(a Audience) bool { return slices.Contains(c.Hits, a) }

// Report is the result of comparing two schemas.
type Report struct {
	Package    string   `json:"package"`
	OldVersion string   `json:"oldVersion"`
	NewVersion string   `json:"newVersion"`
	Changes    []Change `json:"changes"`
	// Unused are the allow-list entries that match no change.
	Unused []Allow `json:"unusedAllows,omitempty"`
}

// Count returns the number of changes at level l.
func (r *Report) Count(l Level) int {
	n := 0
	for _, c := range r.Changes {
		if c.Level == l {
			n++
		}
	}
	return n
}

// unacknowledged is the number of breaking changes no allow-list entry
// acknowledges.
func (r *Report) unacknowledged() int {
	n := 0
	for _, c := range r.Changes {
		if c.Level == Breaking && c.Acknowledged == "" {
			n++
		}
	}
	return n
}

// acknowledged is the number of changes an allow-list entry acknowledges.
func (r *Report) acknowledged() int {
	n := 0
	for _, c := range r.Changes {
		if c.Acknowledged != "" {
			n++
		}
	}
	return n
}

// MajorBumped reports whether the new version is a new major version of
// the old: a greater first number, or before 1.0.0 a greater second one
// (0.1.x to 0.2.0), as npm's caret ranges and Cargo read 0.x versions.
func (r *Report) MajorBumped() bool {
	o, err1 := semver.ParseTolerant(r.OldVersion)
	n, err2 := semver.ParseTolerant(r.NewVersion)
	if err1 != nil || err2 != nil {
		return false
	}
	if n.Major != o.Major || o.Major > 0 {
		return n.Major > o.Major
	}
	return n.Minor > o.Minor
}

// nextMajor is the least version MajorBumped accepts after old.
func nextMajor(old string) string {
	v, err := semver.ParseTolerant(old)
	switch {
	case err != nil:
		return "a new major version"
	case v.Major == 0:
		return fmt.Sprintf("0.%d.0 or 1.0.0", v.Minor+1)
	}
	return fmt.Sprintf("%d.0.0", v.Major+1)
}

// Err is nil when the new schema may ship under its version: it breaks
// nothing but what an allow list acknowledges, or its version is a new
// major one. Otherwise it says why not, and where a version is missing,
// how to give it.
func (r *Report) Err() error {
	n := r.unacknowledged()
	if n == 0 || r.MajorBumped() {
		return nil
	}
	changes, need := "a breaking change", "needs"
	if n > 1 {
		changes, need = fmt.Sprintf("%d breaking changes", n), "need"
	}
	switch {
	case r.NewVersion == "" && r.OldVersion == "":
		return fmt.Errorf("%s, and neither schema has a version to judge the release by: give them "+
			"(polyup compat -old-version and -new-version), or acknowledge each change in an allow list (-allow)", changes)
	case r.NewVersion == "":
		return fmt.Errorf("%s, and the new schema has no version: give it %s, in the schema or with polyup compat -new-version", changes, nextMajor(r.OldVersion))
	case r.OldVersion == "":
		return fmt.Errorf("%s, and the old schema has no version to compare %s with: give it with polyup compat -old-version, "+
			"or name OLD by its release tag (v1.2.3)", changes, r.NewVersion)
	}
	return fmt.Errorf("%s %s a new major version: %s, not %s", changes, need, nextMajor(r.OldVersion), r.NewVersion)
}

// Counts are a report's changes by level, and how many an allow list
// acknowledges.
type Counts struct {
	Breaking     int `json:"breaking"`
	Dangerous    int `json:"dangerous"`
	Safe         int `json:"safe"`
	Acknowledged int `json:"acknowledged"`
}

// Counts counts the report's changes.
func (r *Report) Counts() Counts {
	return Counts{Breaking: r.Count(Breaking), Dangerous: r.Count(Dangerous), Safe: r.Count(Safe), Acknowledged: r.acknowledged()}
}

// JSON is the report for tools: the report's fields, its counts, and
// whether it may ship (allowed) with the reason when not.
func (r *Report) JSON() []byte {
	out := struct {
		*Report
		Counts  Counts `json:"counts"`
		Allowed bool   `json:"allowed"`
		Reason  string `json:"reason,omitempty"`
	}{Report: r, Counts: r.Counts(), Allowed: true}
	if err := r.Err(); err != nil {
		out.Allowed, out.Reason = false, err.Error()
	}
	if out.Changes == nil {
		out.Changes = []Change{}
	}
	js, _ := json.MarshalIndent(out, "", "  ")
	return append(js, '\n')
}

// WriteText writes the report for a person: a verdict line, then each
// change under its level, with whom it hits and its fix.
func (r *Report) WriteText(w io.Writer) error {
	var b strings.Builder
	fmt.Fprintf(&b, "%s: %s\n", r.title(), r.countLine())
	fmt.Fprintln(&b, r.verdict())
	width := 0
	for _, c := range r.Changes {
		width = max(width, len(c.Token))
	}
	for _, l := range []Level{Breaking, Dangerous, Safe} {
		if r.Count(l) == 0 {
			continue
		}
		fmt.Fprintf(&b, "\n%s\n", strings.ToUpper(string(l)))
		for _, c := range r.Changes {
			if c.Level != l {
				continue
			}
			line := fmt.Sprintf("  %-*s  %s", width, c.Token, c.Message)
			if hits := shortHits(c.Hits); hits != "" {
				line += "  [" + hits + "]"
			}
			b.WriteString(line + "\n")
			if c.Fix != "" {
				fmt.Fprintf(&b, "  %-*s  fix: %s\n", width, "", strings.ReplaceAll(c.Fix, "\n", "\n"+strings.Repeat(" ", width+9)))
			}
			if c.Acknowledged != "" {
				fmt.Fprintf(&b, "  %-*s  acknowledged: %s\n", width, "", c.Acknowledged)
			}
		}
	}
	if len(r.Unused) > 0 {
		b.WriteString("\nUNUSED ALLOW ENTRIES (they match no change)\n")
		for _, a := range r.Unused {
			fmt.Fprintf(&b, "  %s\n", a)
		}
	}
	if r.Count(Breaking)+r.Count(Dangerous) > 0 {
		b.WriteString("\n[who]: TS fails tsc, Py fails at run time, Go fails to build or run, YAML fails preview, stacks change at the next up\n")
	}
	_, err := io.WriteString(w, b.String())
	return err
}

// Text is WriteText's text.
func (r *Report) Text() string {
	var b strings.Builder
	_ = r.WriteText(&b)
	return b.String()
}

func orNone(v string) string {
	if v == "" {
		return "(no version)"
	}
	return v
}

// title is the package and its versions: greet 0.1.0 → 0.2.0.
func (r *Report) title() string {
	return fmt.Sprintf("%s %s → %s", r.Package, orNone(r.OldVersion), orNone(r.NewVersion))
}

// countLine counts the changes: 2 breaking (1 acknowledged), 0 dangerous, 1 safe.
func (r *Report) countLine() string {
	ack := ""
	if n := r.acknowledged(); n > 0 {
		ack = fmt.Sprintf(" (%d acknowledged)", n)
	}
	return fmt.Sprintf("%d breaking%s, %d dangerous, %d safe", r.Count(Breaking), ack, r.Count(Dangerous), r.Count(Safe))
}

// verdict says whether the release may ship, and why.
func (r *Report) verdict() string {
	switch err := r.Err(); {
	case err != nil:
		return "NOT COMPATIBLE: " + err.Error()
	case r.Count(Breaking) > 0 && r.MajorBumped():
		return fmt.Sprintf("OK as a new major version: programs written for %s must change as below", orNone(r.OldVersion))
	case r.Count(Breaking) > 0:
		return fmt.Sprintf("OK, each breaking change acknowledged in the allow list: programs written for %s must change as below", orNone(r.OldVersion))
	case r.Count(Dangerous) > 0:
		return fmt.Sprintf("OK: programs of %s keep working; read the dangerous changes", orNone(r.OldVersion))
	}
	return fmt.Sprintf("OK: programs and stacks of %s keep working", orNone(r.OldVersion))
}

func shortHits(hits []Audience) string {
	var s []string
	for _, a := range audiences {
		if slices.Contains(hits, a.a) {
			s = append(s, a.short)
		}
	}
	return strings.Join(s, " ")
}

// sortChanges orders changes by level, token, path and kind.
func sortChanges(cs []Change) {
	slices.SortStableFunc(cs, func(a, b Change) int {
		return cmp.Or(cmp.Compare(a.Level.rank(), b.Level.rank()), cmp.Compare(a.Token, b.Token),
			cmp.Compare(a.Path, b.Path), cmp.Compare(a.Kind, b.Kind))
	})
}
