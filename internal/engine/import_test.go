package engine_test

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/polyhost/polyhost/internal/engine"
	pulumirpc "github.com/pulumi/pulumi/sdk/v3/proto/go"
)

func importID(id string) regOpt {
	return func(r *pulumirpc.RegisterResourceRequest) { r.ImportId = id }
}

// putThing creates a thing in the fake cloud behind the engine's back.
func (f *fixture) putThing(id string, inputs map[string]any) {
	f.t.Helper()
	outputs := map[string]any{"computed": "computed-" + inputs["value"].(string), "providerId": "elsewhere"}
	for k, v := range inputs {
		outputs[k] = v
	}
	data, err := json.Marshal(map[string]any{"inputs": inputs, "outputs": outputs})
	if err != nil {
		f.t.Fatal(err)
	}
	dir := filepath.Join(f.cloud, "things")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		f.t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, id+".json"), data, 0o644); err != nil {
		f.t.Fatal(err)
	}
}

// importProgram registers thing name with value, importing id.
func importProgram(name, value, id string, got *regResult) program {
	return func(ctx context.Context, c *client) error {
		r, err := c.thing(ctx, name, map[string]any{"value": value}, importID(id))
		if err == nil && got != nil {
			*got = *r
		}
		return err
	}
}

// A provider may answer an import with its own ID for the resource. The
// state keeps the import ID beside it, so later runs of the same program are
// sames, not imports that would replace (and delete) the resource.
func TestImportUnderAnotherID(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	f.putThing("ext-3", map[string]any{"name": "imp", "value": "v1"})
	urn := thingURN("imp")
	want := [][]engine.Op{{engine.OpImport}, {engine.OpSame}, {engine.OpSame}}
	for run, ops := range want {
		res := f.up(importProgram("imp", "v1", "by-name/ext-3", nil))
		if !slices.Equal(res.OpsFor(urn), ops) {
			t.Fatalf("run %d: steps %+v, want %v", run+1, res.Steps, ops)
		}
		if r := f.resources()[urn]; r.ID != "ext-3" || r.ImportID != "by-name/ext-3" {
			t.Fatalf("run %d: row %+v", run+1, r)
		}
	}
	if len(f.ops()) != 0 {
		t.Fatalf("the cloud was changed: %v", f.ops())
	}

	// A change that replaces it contradicts the import option still given:
	// a preview warns, an update fails and changes nothing.
	renamed := program(func(ctx context.Context, c *client) error {
		_, err := c.thing(ctx, "imp", map[string]any{"value": "v1", "name": "renamed"}, importID("by-name/ext-3"))
		return err
	})
	const msg = "previously-imported resources that still specify an ID may not be replaced"
	res, err := f.eng.Preview(context.Background(), renamed)
	if err != nil || !hasDiag(res, "warning", msg) {
		t.Errorf("preview: %v, diagnostics %+v", err, res.Diagnostics)
	}
	if _, err := f.eng.Up(context.Background(), renamed); err == nil || !strings.Contains(err.Error(), msg) {
		t.Errorf("up: error %v, want %q", err, msg)
	}
	if len(f.ops()) != 0 || f.resources()[urn].ID != "ext-3" {
		t.Errorf("the refused replacement changed something: ops %v, row %+v", f.ops(), f.resources()[urn])
	}
}

func TestImport(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	f.putThing("ext-1", map[string]any{"name": "imp", "value": "v1"})
	f.putThing("ext-2", map[string]any{"name": "other", "value": "v1"})
	urn := thingURN("imp")

	// A preview reads the resource but records nothing.
	res, err := f.eng.Preview(context.Background(), importProgram("imp", "v1", "ext-1", nil))
	if err != nil {
		t.Fatalf("preview: %v", err)
	}
	if !slices.Equal(res.OpsFor(urn), []engine.Op{engine.OpImport}) {
		t.Fatalf("preview steps: %+v", res.Steps)
	}
	if _, err := os.Stat(f.state); err == nil {
		t.Fatal("preview wrote state")
	}

	// The import: Read by ID, then Check and Diff against what was read;
	// no provider mutation when they agree.
	var got regResult
	res = f.up(importProgram("imp", "v1", "ext-1", &got))
	if !slices.Equal(res.OpsFor(urn), []engine.Op{engine.OpImport}) {
		t.Fatalf("import steps: %+v", res.Steps)
	}
	if len(f.ops()) != 0 {
		t.Fatalf("import changed the cloud: %v", f.ops())
	}
	r := f.resources()[urn]
	if r.ID != "ext-1" || r.ImportID != "ext-1" || !r.Custom || r.External {
		t.Fatalf("imported row: %+v", r)
	}
	if r.Inputs.Get("name").AsString() != "imp" || r.Outputs.Get("computed").AsString() != "computed-v1" {
		t.Fatalf("imported inputs %v outputs %v", r.Inputs, r.Outputs)
	}
	if got.ID != "ext-1" || strOut(got.Outputs, "providerId") != "elsewhere" {
		t.Fatalf("program got id %q outputs %v", got.ID, got.Outputs)
	}

	// The same program again is a same, and the row keeps the import ID
	// the program still asks for.
	res = f.up(importProgram("imp", "v1", "ext-1", nil))
	if !slices.Equal(res.OpsFor(urn), []engine.Op{engine.OpSame}) {
		t.Fatalf("second up: %+v", res.Steps)
	}
	if r := f.resources()[urn]; r.ID != "ext-1" || r.ImportID != "ext-1" {
		t.Fatalf("row after same: %+v", r)
	}
	// Dropping the import option keeps managing it, and drops the ID.
	res = f.up(program(func(ctx context.Context, c *client) error {
		_, err := c.thing(ctx, "imp", map[string]any{"value": "v1"})
		return err
	}))
	if !slices.Equal(res.OpsFor(urn), []engine.Op{engine.OpSame}) {
		t.Fatalf("up without import: %+v", res.Steps)
	}
	if r := f.resources()[urn]; r.ImportID != "" {
		t.Fatalf("row after dropping the import option: %+v", r)
	}

	// Importing something that does not exist fails and records nothing.
	res, err = f.eng.Up(context.Background(), program(func(ctx context.Context, c *client) error {
		if _, err := c.thing(ctx, "imp", map[string]any{"value": "v1"}); err != nil {
			return err
		}
		_, err := c.thing(ctx, "gone", map[string]any{"value": "v1"}, importID("nope"))
		return err
	}))
	if err == nil || !strings.Contains(err.Error(), "resource 'nope' does not exist") {
		t.Errorf("import of a missing resource: error %v", err)
	}
	if res == nil || !slices.Equal(res.OpsFor(thingURN("gone")), []engine.Op{engine.OpImport}) ||
		!res.Steps[slices.IndexFunc(res.Steps, func(s engine.Step) bool { return s.URN == thingURN("gone") })].Failed {
		t.Errorf("the failed import is reported as a failed import step, as the real engine does: %+v", res)
	}
	if _, ok := f.resources()[thingURN("gone")]; ok {
		t.Errorf("failed import of nope recorded")
	}
	if _, ok := f.resources()[urn]; !ok {
		t.Errorf("failed import of nope dropped imp")
	}
}

// As in the real engine (step_generator.go continueStepsFromImport), an
// import whose inputs differ from the resource's goes on like any
// registration with the imported state as its old state: a preview shows
// the import and an update, an up imports and then updates the resource
// to the program's inputs.
func TestImportThenUpdate(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	f.putThing("ext-2", map[string]any{"name": "other", "value": "v1"})
	urn := thingURN("other")
	want := []engine.Op{engine.OpImport, engine.OpUpdate}

	res, err := f.eng.Preview(context.Background(), importProgram("other", "v2", "ext-2", nil))
	if err != nil || !slices.Equal(res.OpsFor(urn), want) || len(res.Diagnostics) != 0 {
		t.Fatalf("preview: %v, steps %+v, diagnostics %+v", err, res.Steps, res.Diagnostics)
	}
	if len(f.ops()) != 0 {
		t.Fatalf("preview changed the cloud: %v", f.ops())
	}

	var got regResult
	res = f.up(importProgram("other", "v2", "ext-2", &got))
	if !slices.Equal(res.OpsFor(urn), want) {
		t.Fatalf("up steps: %+v", res.Steps)
	}
	if ops := f.ops(); len(ops) != 1 || !strings.HasPrefix(ops[0], "update "+urn+" ext-2") {
		t.Fatalf("cloud ops: %v", ops)
	}
	r := f.resources()[urn]
	if r.ID != "ext-2" || r.ImportID != "ext-2" || r.Inputs.Get("value").AsString() != "v2" ||
		r.Outputs.Get("computed").AsString() != "computed-v2" {
		t.Fatalf("row: %+v", r)
	}
	if got.ID != "ext-2" || strOut(got.Outputs, "computed") != "computed-v2" {
		t.Fatalf("program got id %q outputs %v", got.ID, got.Outputs)
	}
	// Now it is managed: the same program again is a same.
	res = f.up(importProgram("other", "v2", "ext-2", nil))
	if !slices.Equal(res.OpsFor(urn), []engine.Op{engine.OpSame}) {
		t.Fatalf("second up: %+v", res.Steps)
	}
}

// What follows an import can fail: invalid inputs, or a change that would
// replace the resource the program still imports. As in the real engine,
// the import itself stays recorded (with the inputs read), and nothing
// else is done; a preview of the replacement only warns.
func TestImportThenFailure(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	f.putThing("ext-1", map[string]any{"name": "bad", "value": "v1"})
	f.putThing("ext-2", map[string]any{"name": "moved", "value": "v1"})

	_, err := f.eng.Up(context.Background(), importProgram("bad", "invalid", "ext-1", nil))
	if err == nil || !strings.Contains(err.Error(), "is invalid") {
		t.Errorf("invalid inputs after an import: error %v", err)
	}
	if r, ok := f.resources()[thingURN("bad")]; !ok || r.ID != "ext-1" || r.Inputs.Get("value").AsString() != "v1" {
		t.Errorf("the import before the check failure: %+v (recorded: %v)", r, ok)
	}

	renamed := program(func(ctx context.Context, c *client) error {
		_, err := c.thing(ctx, "moved", map[string]any{"value": "v1", "name": "elsewhere"}, importID("ext-2"))
		return err
	})
	const msg = "previously-imported resources that still specify an ID may not be replaced; " +
		"please remove the `import` declaration from your program;\nname: {moved} => {elsewhere}"
	res, err := f.eng.Preview(context.Background(), renamed)
	if err != nil || !hasDiag(res, "warning", msg) {
		t.Errorf("preview: %v, diagnostics %+v", err, res.Diagnostics)
	}
	if ops := res.OpsFor(thingURN("moved")); len(ops) == 0 || ops[0] != engine.OpImport || !slices.Contains(ops, engine.OpReplace) {
		t.Errorf("preview steps: %+v", res.Steps)
	}
	if _, err := f.eng.Up(context.Background(), renamed); err == nil || !strings.Contains(err.Error(), msg) {
		t.Errorf("up: error %v, want %q", err, msg)
	}
	if r, ok := f.resources()[thingURN("moved")]; !ok || r.ID != "ext-2" || r.Inputs.Get("name").AsString() != "moved" {
		t.Errorf("the import before the refused replacement: %+v (recorded: %v)", r, ok)
	}
	if len(f.ops()) != 0 {
		t.Errorf("the cloud was changed: %v", f.ops())
	}
}

func hasDiag(res *engine.Result, severity, text string) bool {
	for _, d := range res.Diagnostics {
		if d.Severity == severity && strings.Contains(d.Message, text) {
			return true
		}
	}
	return false
}

// Importing onto a managed resource replaces it: the imported resource
// takes over the URN and the old one is deleted at the end.
func TestImportReplacement(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	a := thingURN("a")
	f.up(program(func(ctx context.Context, c *client) error {
		_, err := c.thing(ctx, "a", map[string]any{"value": "v1"})
		return err
	}))
	oldID := f.resources()[a].ID
	f.putThing("ext-a", map[string]any{"name": "a", "value": "v1"})
	nOps := len(f.ops())

	res := f.up(importProgram("a", "v1", "ext-a", nil))
	want := []engine.Op{engine.OpImportReplacement, engine.OpReplace, engine.OpDeleteReplaced}
	if !slices.Equal(res.OpsFor(a), want) {
		t.Fatalf("steps: %+v", res.Steps)
	}
	ops := f.ops()[nOps:]
	if len(ops) != 1 || !strings.HasPrefix(ops[0], "delete "+a+" "+oldID+" ") {
		t.Fatalf("cloud ops: %v", ops)
	}
	if r := f.resources()[a]; r.ID != "ext-a" {
		t.Fatalf("row: %+v", r)
	}
	if st, _ := engine.LoadState(f.state); len(st.Resources) != 3 {
		t.Fatalf("state has %d rows, want stack, provider and a", len(st.Resources))
	}
	if ids := f.things(); !slices.Equal(ids, []string{"ext-a"}) {
		t.Fatalf("cloud: %v", ids)
	}
}
