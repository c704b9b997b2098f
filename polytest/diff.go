package polytest

import (
	"cmp"
	"encoding/json"
	"fmt"
	"maps"
	"slices"
	"strconv"
	"strings"

	"github.com/pulumi/pulumi/sdk/v3/go/common/apitype"
	"github.com/pulumi/pulumi/sdk/v3/go/common/resource/urn"
	"github.com/pulumi/pulumi/sdk/v3/go/common/tokens"
	"github.com/pulumi/pulumi/sdk/v3/go/property"
	"github.com/rogpeppe/go-internal/testscript"

	"github.com/polyhost/polyhost/internal/show"
	"github.com/polyhost/polyhost/polyup"
)

const stackdiffUsage = `usage: stackdiff EMBEDDED-STATE REAL-EXPORT [TYPE.KEY...]`

// cmdStackdiff compares the stack the embedded engine wrote with a `pulumi
// stack export --show-secrets` of the real CLI, after normalising what
// differs between any two deployments (IDs, and so the random names and
// provider IDs built from them). TYPE.KEY names a property whose value is
// random per create, compared only for being secret.
func cmdStackdiff(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) < 2 {
		ts.Fatalf("%s", stackdiffUsage)
	}
	load := func(file string) map[string]string {
		s, err := loadStack(ts.MkAbs(file))
		if err != nil {
			ts.Fatalf("stackdiff: %s: %v", file, err)
		}
		if len(s.resources) == 0 {
			ts.Fatalf("stackdiff: %s holds no resources", file)
		}
		return facts(s.resources, true, args[2:])
	}
	ours, real := load(args[0]), load(args[1])
	if diffs := compare(ours, real, "the embedded engine", "the real engine"); len(diffs) > 0 {
		ts.Fatalf("the engines built different stacks (%d differences):\n  %s", len(diffs), strings.Join(diffs, "\n  "))
	}
	ts.Logf("stackdiff: %d facts agree", len(ours))
}

// compare lists the facts that differ between a and b, named by where
// they come from.
func compare(a, b map[string]string, aName, bName string) []string {
	var diffs []string
	for _, k := range slices.Sorted(maps.Keys(union(a, b))) {
		x, inA := a[k]
		y, inB := b[k]
		switch {
		case !inA:
			diffs = append(diffs, fmt.Sprintf("%s: only %s has %s", k, bName, y))
		case !inB:
			diffs = append(diffs, fmt.Sprintf("%s: only %s has %s", k, aName, x))
		case x != y:
			diffs = append(diffs, fmt.Sprintf("%s:\n    %s: %s\n    %s: %s", k, aName, x, bName, y))
		}
	}
	return diffs
}

func union(a, b map[string]string) map[string]bool {
	out := map[string]bool{}
	for k := range a {
		out[k] = true
	}
	for k := range b {
		out[k] = true
	}
	return out
}

// facts turns a stack into "URN field" → value facts. With normalize,
// every resource ID is replaced by a placeholder naming its resource, and
// the properties named TYPE.KEY in random by a placeholder that keeps
// only their secret marker.
func facts(rs []polyup.Resource, normalize bool, random []string) map[string]string {
	// Longest first, so an ID that contains another (bucket/key) is replaced whole.
	ids := map[string]string{}
	for _, r := range rs {
		if r.ID != "" && normalize {
			ids[string(r.ID)] = "<id of " + show.ShortURN(r.URN) + ">"
		}
	}
	order := slices.SortedFunc(maps.Keys(ids), func(a, b string) int {
		return cmp.Or(cmp.Compare(len(b), len(a)), strings.Compare(a, b))
	})
	var pairs []string
	for _, id := range order {
		pairs = append(pairs, id, ids[id])
	}
	norm := strings.NewReplacer(pairs...).Replace
	skip := map[string]bool{}
	for _, k := range random {
		skip[k] = true
	}

	out := map[string]string{}
	for _, r := range rs {
		key := show.ShortURN(r.URN) + " "
		set := func(field, v string) {
			if v != "" && v != "[]" && v != "false" {
				out[key+field] = norm(v)
			}
		}
		set("custom", strconv.FormatBool(r.Custom))
		if r.ID != "" && normalize {
			set("id", "<id>")
		} else {
			set("id", string(r.ID))
		}
		set("parent", string(r.Parent))
		if r.Provider.URN() != "" {
			set("provider", r.Provider.String())
		}
		set("protect", strconv.FormatBool(r.Protect))
		set("retainOnDelete", strconv.FormatBool(r.RetainOnDelete))
		set("deletedWith", string(r.DeletedWith))
		set("importID", string(r.ImportID))
		set("external", strconv.FormatBool(r.External))
		set("pendingReplacement", strconv.FormatBool(r.PendingReplacement))
		set("initErrors", fmt.Sprintf("%q", r.InitErrors))
		set("hideDiff", fmt.Sprint(r.HideDiff))
		set("dependencies", fmt.Sprint(slices.Sorted(slices.Values(r.Dependencies))))
		for k, deps := range r.PropertyDependencies {
			set("propertyDependencies."+k, fmt.Sprint(slices.Sorted(slices.Values(deps))))
		}
		if t := r.CustomTimeouts; t.Create != 0 || t.Update != 0 || t.Delete != 0 {
			set("customTimeouts", fmt.Sprintf("%+v", t))
		}
		for field, m := range map[string]property.Map{"inputs": r.Inputs, "outputs": r.Outputs} {
			for k, v := range m.All {
				if skip[string(r.Type)+"."+k] && normalize {
					v = property.New("<random>").WithSecret(v.Secret())
				}
				set(field+"."+k, show.Value(v, show.Options{}))
			}
		}
	}
	return out
}

func urnNames(us []urn.URN) []string {
	var out []string
	for _, u := range us {
		out = append(out, u.Name())
	}
	return out
}

const opsdiffUsage = `usage: opsdiff EMBEDDED-OUTPUT REAL-EVENT-LOG`

// cmdOpsdiff compares the steps two engines reported for one operation:
// polyup's output (`  create  TYPE  NAME` lines, saved with `cp stdout
// FILE`) and the real engine's event log (`pulumi up --event-log FILE`),
// which is what the CLI draws its display from. A saved CLI display is
// read too, but the event log is the one to give: under load the display
// may show a step only as finished, or only its last op. Same steps are
// not compared (the CLI does not print them), nor default providers (the
// CLI hides them).
func cmdOpsdiff(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) != 2 {
		ts.Fatalf("%s", opsdiffUsage)
	}
	ours := embeddedSteps(ts.ReadFile(args[0]))
	real, err := realSteps(ts.ReadFile(args[1]))
	if err != nil {
		ts.Fatalf("opsdiff: %s: %v", args[1], err)
	}
	if len(real) == 0 {
		ts.Fatalf("opsdiff: %s reports no steps", args[1])
	}
	if !slices.Equal(ours, real) {
		ts.Fatalf("the engines reported different steps:\n  embedded: %s\n  real:     %s",
			strings.Join(ours, "\n            "), strings.Join(real, "\n            "))
	}
	ts.Logf("opsdiff: %d steps agree", len(ours))
}

// embeddedSteps reads polyup's step lines as sorted "op TYPE NAME".
func embeddedSteps(out string) []string {
	var steps []string
	for _, line := range strings.Split(out, "\n") {
		f := strings.Fields(line)
		if len(f) != 3 || !strings.HasPrefix(line, "  ") || strings.Count(f[1], ":") < 2 {
			continue
		}
		if f[0] == "same" || hiddenProvider(f[1], f[2]) {
			continue
		}
		steps = append(steps, step(f[0], f[1], f[2]))
	}
	slices.Sort(steps)
	return steps
}

// step names one step as opsdiff compares it, the type by its display
// name, as the CLI shows it: portal:index/gate:Gate as portal:index:Gate.
func step(op, typ, name string) string {
	return op + " " + string(tokens.Type(typ).DisplayName()) + " " + name
}

// hiddenProvider reports a default provider, which the CLI does not show.
func hiddenProvider(typ, name string) bool {
	return strings.HasPrefix(typ, "pulumi:providers:") && strings.HasPrefix(name, "default")
}

// realSteps reads the real engine's steps as sorted "op TYPE NAME", each
// once: from its event log when out is one, else from the CLI's display.
func realSteps(out string) ([]string, error) {
	if strings.HasPrefix(strings.TrimSpace(out), "{") {
		return eventLogSteps(out)
	}
	return displaySteps(out), nil
}

// eventLogSteps reads the steps of an engine event log (one JSON event a
// line): every resourcePreEvent's op, type and name, same steps and
// default providers left out.
func eventLogSteps(log string) ([]string, error) {
	seen := map[string]bool{}
	var steps []string
	for i, line := range strings.Split(log, "\n") {
		if strings.TrimSpace(line) == "" {
			continue
		}
		var ev apitype.EngineEvent
		if err := json.Unmarshal([]byte(line), &ev); err != nil {
			return nil, fmt.Errorf("line %d is not an engine event: %w", i+1, err)
		}
		if ev.ResourcePreEvent == nil {
			continue
		}
		md := ev.ResourcePreEvent.Metadata
		u, err := urn.Parse(md.URN)
		if err != nil {
			return nil, fmt.Errorf("line %d: %w", i+1, err)
		}
		if md.Op == apitype.OpSame || hiddenProvider(md.Type, u.Name()) {
			continue
		}
		if s := step(string(md.Op), md.Type, u.Name()); !seen[s] {
			seen[s] = true
			steps = append(steps, s)
		}
	}
	slices.Sort(steps)
	return steps, nil
}

// realOps maps what the CLI's display prints for a step, in progress, in
// a preview or finished, to the engine's op name (pkg/v3 backend/display:
// getStepInProgressOpText, getStepOpLabel and the done texts).
var realOps = map[string]string{
	"creating": "create", "create": "create", "created": "create",
	"updating": "update", "update": "update", "updated": "update",
	"deleting": "delete", "delete": "delete", "deleted": "delete",
	"replacing": "replace", "replace": "replace", "replaced": "replace",
	"creating replacement": "create-replacement", "create replacement": "create-replacement", "created replacement": "create-replacement",
	"deleting original": "delete-replaced", "delete original": "delete-replaced", "deleted original": "delete-replaced",
	"reading": "read", "read": "read",
	"reading for replacement": "read-replacement", "read for replacement": "read-replacement",
	"refreshing": "refresh", "refresh": "refresh",
	"importing": "import", "import": "import", "imported": "import",
	"importing replacement": "import-replacement", "import replacement": "import-replacement", "imported replacement": "import-replacement",
	"discarding": "discard", "discard": "discard", "discarded": "discard",
	"discarding original": "discard-replaced", "discarded original": "discard-replaced",
}

// realOp maps the words after a step's name to its op: the longest label
// they start with, as the CLI may follow it with a summary of the step's
// diagnostics ("create 2 warnings", "creating (0s) error: ...") or mark
// it failed ("**creating failed**").
func realOp(words []string) (string, bool) {
	words = slices.Clone(words[:min(len(words), 3)])
	for i, w := range words {
		words[i] = strings.Trim(w, "*")
	}
	for n := len(words); n > 0; n-- {
		if op, ok := realOps[strings.Join(words[:n], " ")]; ok {
			return op, true
		}
	}
	return "", false
}

// displaySteps reads the CLI's step lines as sorted "op TYPE NAME", each
// step once, whether the line shows it in progress, finished or failed.
func displaySteps(out string) []string {
	seen := map[string]bool{}
	var steps []string
	for _, line := range strings.Split(out, "\n") {
		if i := strings.Index(line, " ("); i >= 0 {
			line = line[:i] // " (0s)" and what follows
		}
		if i := strings.Index(line, " ["); i >= 0 {
			line = line[:i] // " [diff: ...]"
		}
		f := strings.Fields(line)
		if len(f) < 4 || strings.Count(f[1], ":") < 2 {
			continue
		}
		op, ok := realOp(f[3:])
		if !ok {
			continue // a finished step, a diagnostic, or the stack's own line
		}
		if s := step(op, f[1], f[2]); !seen[s] {
			seen[s] = true
			steps = append(steps, s)
		}
	}
	slices.Sort(steps)
	return steps
}
