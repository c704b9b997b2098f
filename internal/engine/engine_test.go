package engine_test

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"testing"

	"github.com/polyhost/polyhost/internal/engine"
	"github.com/pulumi/pulumi/sdk/v3/go/common/resource"
	"github.com/pulumi/pulumi/sdk/v3/go/common/resource/plugin"
	pulumirpc "github.com/pulumi/pulumi/sdk/v3/proto/go"
	"golang.org/x/sync/errgroup"
	"google.golang.org/protobuf/encoding/protojson"
	"google.golang.org/protobuf/types/known/emptypb"
)

// lifecycleProgram registers a (value, name) and, unless dropB, b whose name
// and value depend on a.
type lifecycleSpec struct {
	aValue, aName string
	aDBR          bool
	dropB         bool
}

func lifecycleProgram(s lifecycleSpec) program {
	return func(ctx context.Context, c *client) error {
		props := map[string]any{"value": s.aValue}
		if s.aName != "" {
			props["name"] = s.aName
		}
		var opts []regOpt
		if s.aDBR {
			opts = append(opts, deleteBeforeReplace())
		}
		a, err := c.thing(ctx, "a", props, opts...)
		if err != nil {
			return err
		}
		if s.dropB {
			return nil
		}
		_, err = c.thing(ctx, "b", map[string]any{
			"name":  "b-of-" + strOut(a.Outputs, "name"),
			"value": "w-" + strOut(a.Outputs, "value"),
		}, propDeps([]string{a.URN}, "name", "value"))
		return err
	}
}

func TestLifecycle(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	a, b := thingURN("a"), thingURN("b")

	// 1. create
	res := f.up(lifecycleProgram(lifecycleSpec{aValue: "v1"}))
	if got := res.Count(engine.OpCreate); got != 4 {
		t.Fatalf("want 4 creates (stack, provider, a, b), got %d: %+v", got, res.Steps)
	}
	rs := f.resources()
	if len(rs) != 4 || rs[a].ID == "" || rs[b].ID == "" || rs[defProv].ID == "" {
		t.Fatalf("unexpected state after create: %+v", rs)
	}
	if rs[a].Provider != defProv+"::"+rs[defProv].ID {
		t.Fatalf("a's provider = %q", rs[a].Provider)
	}
	if got := rs[b].Inputs.Get("name").AsString(); got != "b-of-a" {
		t.Fatalf("b.name = %q", got)
	}
	if !slices.Equal(rs[b].Dependencies, []string{a}) {
		t.Fatalf("b.dependencies = %v", rs[b].Dependencies)
	}
	if len(f.things()) != 2 {
		t.Fatalf("cloud has %v", f.things())
	}
	idA1 := rs[a].ID

	// 2. same
	nOps := len(f.ops())
	res = f.up(lifecycleProgram(lifecycleSpec{aValue: "v1"}))
	if res.Count(engine.OpSame) != 4 || len(res.Steps) != 4 {
		t.Fatalf("want 4 sames: %+v", res.Steps)
	}
	if len(f.ops()) != nOps {
		t.Fatalf("same step touched the cloud: %v", f.ops()[nOps:])
	}

	// 3. update
	res = f.up(lifecycleProgram(lifecycleSpec{aValue: "v2"}))
	if !slices.Equal(res.OpsFor(a), []engine.Op{engine.OpUpdate}) || !slices.Equal(res.OpsFor(b), []engine.Op{engine.OpUpdate}) {
		t.Fatalf("want updates of a and b: %+v", res.Steps)
	}
	rs = f.resources()
	if rs[a].ID != idA1 || rs[a].Outputs.Get("computed").AsString() != "computed-v2" {
		t.Fatalf("a after update: %+v", rs[a])
	}

	// 4. replace, create-before-delete: a's name changes, so does b's.
	nOps = len(f.ops())
	res = f.up(lifecycleProgram(lifecycleSpec{aValue: "v2", aName: "a2"}))
	cbd := []engine.Op{engine.OpCreateReplacement, engine.OpReplace, engine.OpDeleteReplaced}
	if !slices.Equal(res.OpsFor(a), cbd) || !slices.Equal(res.OpsFor(b), cbd) {
		t.Fatalf("want CBD replacements: %+v", res.Steps)
	}
	ops := f.ops()[nOps:]
	if len(ops) != 4 || !strings.HasPrefix(ops[0], "create "+a) || !strings.HasPrefix(ops[1], "create "+b) ||
		!strings.HasPrefix(ops[2], "delete "+b) || !strings.HasPrefix(ops[3], "delete "+a+" "+idA1) {
		t.Fatalf("want creates, then deletes in reverse dependency order: %v", ops)
	}
	rs = f.resources()
	if rs[a].ID == idA1 || !strings.HasPrefix(rs[a].ID, "a2-") {
		t.Fatalf("a was not replaced: %+v", rs[a])
	}
	if st, _ := engine.LoadState(f.state); len(st.Resources) != 4 {
		t.Fatalf("pending deletes left in state: %d rows", len(st.Resources))
	}

	// 5. replace, delete-before-replace: b depends on a's name, so it goes first.
	nOps = len(f.ops())
	res = f.up(lifecycleProgram(lifecycleSpec{aValue: "v2", aName: "a3", aDBR: true}))
	ops = f.ops()[nOps:]
	if len(ops) != 4 || !strings.HasPrefix(ops[0], "delete "+b) || !strings.HasPrefix(ops[1], "delete "+a) ||
		!strings.HasPrefix(ops[2], "create "+a) || !strings.HasPrefix(ops[3], "create "+b) {
		t.Fatalf("want delete b, delete a, create a, create b: %v", ops)
	}
	if got := res.OpsFor(a); !slices.Equal(got, []engine.Op{engine.OpDeleteReplaced, engine.OpReplace, engine.OpCreateReplacement}) {
		t.Fatalf("a ops: %v", got)
	}
	if got := res.OpsFor(b); !slices.Equal(got, []engine.Op{engine.OpDeleteReplaced, engine.OpReplace, engine.OpCreateReplacement}) {
		t.Fatalf("b ops: %v", got)
	}
	rs = f.resources()
	if !strings.HasPrefix(rs[a].ID, "a3-") || rs[b].Inputs.Get("name").AsString() != "b-of-a3" {
		t.Fatalf("state after DBR: a=%+v b=%+v", rs[a], rs[b])
	}

	// 6. delete b
	res = f.up(lifecycleProgram(lifecycleSpec{aValue: "v2", aName: "a3", dropB: true}))
	if !slices.Equal(res.OpsFor(b), []engine.Op{engine.OpDelete}) {
		t.Fatalf("want b deleted: %+v", res.Steps)
	}
	if _, ok := f.resources()[b]; ok || len(f.things()) != 1 {
		t.Fatalf("b still around: %v", f.things())
	}

	// 7. destroy
	res, err := f.eng.Destroy(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	if res.Count(engine.OpDelete) != 3 {
		t.Fatalf("want 3 deletes (a, provider, stack): %+v", res.Steps)
	}
	if len(f.resources()) != 0 || len(f.things()) != 0 {
		t.Fatalf("destroy left %v / %v", f.resources(), f.things())
	}
}

func TestPreview(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	var previewID string
	var computedUnknown bool
	p := func(value string) program {
		return func(ctx context.Context, c *client) error {
			r, err := c.thing(ctx, "a", map[string]any{"value": value})
			if err != nil {
				return err
			}
			if c.info.DryRun {
				previewID = r.ID
				computedUnknown = r.Outputs["computed"].ContainsUnknowns()
			}
			return nil
		}
	}
	res, err := f.eng.Preview(context.Background(), p("v1"))
	if err != nil {
		t.Fatal(err)
	}
	if res.Count(engine.OpCreate) != 3 {
		t.Fatalf("want 3 creates: %+v", res.Steps)
	}
	if previewID != "" || !computedUnknown {
		t.Fatalf("preview create should answer an unknown id and outputs: id=%q unknown=%v", previewID, computedUnknown)
	}
	if _, err := os.Stat(f.state); !errors.Is(err, os.ErrNotExist) {
		t.Fatalf("preview wrote state: %v", err)
	}
	if len(f.things()) != 0 || len(f.ops()) != 0 {
		t.Fatalf("preview touched the cloud: %v %v", f.things(), f.ops())
	}

	f.up(p("v1"))
	before, err := os.ReadFile(f.state)
	if err != nil {
		t.Fatal(err)
	}
	nOps := len(f.ops())
	res, err = f.eng.Preview(context.Background(), p("v2"))
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(res.OpsFor(thingURN("a")), []engine.Op{engine.OpUpdate}) {
		t.Fatalf("want an update: %+v", res.Steps)
	}
	res, err = f.eng.Preview(context.Background(), program(func(context.Context, *client) error { return nil }))
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(res.OpsFor(thingURN("a")), []engine.Op{engine.OpDelete}) {
		t.Fatalf("want a delete: %+v", res.Steps)
	}
	after, _ := os.ReadFile(f.state)
	if string(before) != string(after) || len(f.ops()) != nOps || len(f.things()) != 1 {
		t.Fatal("preview changed state or cloud")
	}
}

func TestRefresh(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	f.up(lifecycleProgram(lifecycleSpec{aValue: "v1"}))
	rs := f.resources()
	a, b := rs[thingURN("a")], rs[thingURN("b")]

	// Drift a, and delete b behind the engine's back.
	path := filepath.Join(f.cloud, "things", a.ID+".json")
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(strings.ReplaceAll(string(data), "computed-v1", "drifted")), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Remove(filepath.Join(f.cloud, "things", b.ID+".json")); err != nil {
		t.Fatal(err)
	}

	res, err := f.eng.Refresh(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	results := map[string]engine.Op{}
	for _, s := range res.Steps {
		if s.Op != engine.OpRefresh {
			t.Fatalf("unexpected step %+v", s)
		}
		results[s.URN] = s.ResultOp
	}
	if results[a.URN] != engine.OpSame || results[b.URN] != engine.OpDelete || len(results) != 2 {
		t.Fatalf("refresh results: %v", results)
	}
	rs = f.resources()
	if _, ok := rs[b.URN]; ok {
		t.Fatal("b should be gone after refresh")
	}
	if got := rs[a.URN].Outputs.Get("computed").AsString(); got != "drifted" {
		t.Fatalf("a.computed = %q after refresh", got)
	}
	if len(rs) != 3 {
		t.Fatalf("want stack, provider and a: %v", rs)
	}
}

func TestFailures(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	f.up(lifecycleProgram(lifecycleSpec{aValue: "v1"}))
	before := f.resources()
	nOps := len(f.ops())

	// A program that fails after registering only the stack changes nothing:
	// a and b are not deleted.
	_, err := f.eng.Up(context.Background(), program(func(context.Context, *client) error {
		return errors.New("boom")
	}))
	if err == nil || !strings.Contains(err.Error(), "boom") {
		t.Fatalf("want program failure, got %v", err)
	}
	after := f.resources()
	if len(after) != len(before) || len(f.ops()) != nOps {
		t.Fatalf("failed program changed state or cloud: %v", f.ops()[nOps:])
	}
	for urn, r := range before {
		if after[urn].ID != r.ID || !after[urn].Outputs.Equals(r.Outputs) {
			t.Fatalf("%s changed: %+v -> %+v", urn, r, after[urn])
		}
	}

	// A failing create: what was created before it is recorded, nothing
	// else. As in the real engine, the step is reported, failed.
	failed, err := f.eng.Up(context.Background(), program(func(ctx context.Context, c *client) error {
		if _, err := c.thing(ctx, "a", map[string]any{"value": "v1"}); err != nil {
			return err
		}
		if _, err := c.thing(ctx, "c", map[string]any{"value": "c"}); err != nil {
			return err
		}
		_, err := c.thing(ctx, "d", map[string]any{"value": "d", "fail": "create"})
		return err
	}))
	if err == nil || !strings.Contains(err.Error(), "create failed on purpose") {
		t.Fatalf("want create failure, got %v", err)
	}
	after = f.resources()
	if _, ok := after[thingURN("c")]; !ok {
		t.Fatal("c was created but not recorded")
	}
	if _, ok := after[thingURN("d")]; ok {
		t.Fatal("d failed but was recorded")
	}
	if i := slices.IndexFunc(failed.Steps, func(s engine.Step) bool { return s.URN == thingURN("d") }); i < 0 ||
		failed.Steps[i].Op != engine.OpCreate || !failed.Steps[i].Failed {
		t.Fatalf("steps of the failed create: %+v", failed.Steps)
	}
	if i := slices.IndexFunc(failed.Steps, func(s engine.Step) bool { return s.URN == thingURN("c") }); i < 0 ||
		failed.Steps[i].Failed {
		t.Fatalf("steps beside the failed create: %+v", failed.Steps)
	}
	if _, ok := after[thingURN("b")]; !ok {
		t.Fatal("b must not be deleted by a failed update")
	}

	// A check failure is reported as a diagnostic.
	res, err := f.eng.Up(context.Background(), program(func(ctx context.Context, c *client) error {
		_, err := c.thing(ctx, "a", map[string]any{"value": "invalid"})
		return err
	}))
	if err == nil {
		t.Fatal("want check failure")
	}
	found := false
	for _, d := range res.Diagnostics {
		found = found || d.Severity == "error" && strings.Contains(d.Message, "value may not be invalid")
	}
	if !found {
		t.Fatalf("no check failure diagnostic: %+v", res.Diagnostics)
	}

	// A failed Construct: like the real engine, the reason goes to a
	// diagnostic with no URN, and the program only hears that the
	// monitor shut down.
	var progErr error
	res, err = f.eng.Up(context.Background(), program(func(ctx context.Context, c *client) error {
		_, progErr = c.register(ctx, "test:index:Comp", "bad", false, resource.PropertyMap{}, remote())
		return progErr
	}))
	if err == nil || progErr == nil || !strings.Contains(progErr.Error(), "resource monitor shut down") {
		t.Fatalf("want the monitor to shut down for the program, got %v (up: %v)", progErr, err)
	}
	found = false
	for _, d := range res.Diagnostics {
		found = found || d.Severity == "error" && d.URN == "" &&
			d.Message == "test:index:Comp resource 'bad' has a problem: prefix is required"
	}
	if !found {
		t.Fatalf("no construct failure diagnostic without URN: %+v", res.Diagnostics)
	}

	// Duplicate URNs are an error.
	_, err = f.eng.Up(context.Background(), program(func(ctx context.Context, c *client) error {
		if _, err := c.thing(ctx, "a", map[string]any{"value": "v1"}); err != nil {
			return err
		}
		_, err := c.thing(ctx, "a", map[string]any{"value": "v1"})
		return err
	}))
	if err == nil || !strings.Contains(err.Error(), "Duplicate resource URN") {
		t.Fatalf("want duplicate URN error, got %v", err)
	}
}

// Replacing a protected resource fails an update before anything changes.
// A preview reports the error but, like the real engine, still shows the
// replacement and the steps after it.
// A component's outputs are registered once, as the real step executor
// drops the registration from its pending ones when they come.
func TestRegisterResourceOutputsOnce(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	_, err := f.eng.Up(context.Background(), program(func(ctx context.Context, c *client) error {
		comp, err := c.register(ctx, "test:index:Comp", "comp", false, nil)
		if err != nil {
			return err
		}
		req := &pulumirpc.RegisterResourceOutputsRequest{Urn: comp.URN}
		if _, err := c.mon.RegisterResourceOutputs(ctx, req); err != nil {
			return fmt.Errorf("first RegisterResourceOutputs: %w", err)
		}
		_, err = c.mon.RegisterResourceOutputs(ctx, req)
		return err
	}))
	if err == nil || !strings.Contains(err.Error(), "whose registration isn't pending") {
		t.Fatalf("a second RegisterResourceOutputs: %v, want an error", err)
	}
}

func TestProtectedReplace(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	prog := func(name string) program {
		return program(func(ctx context.Context, c *client) error {
			if _, err := c.thing(ctx, "p", map[string]any{"value": "p", "name": name}, protect()); err != nil {
				return err
			}
			_, err := c.thing(ctx, "q", map[string]any{"value": "q"})
			return err
		})
	}
	f.up(prog("first"))
	nOps := len(f.ops())
	const msg = "unable to replace resource"

	res, err := f.eng.Preview(context.Background(), prog("second"))
	if err == nil || !strings.Contains(err.Error(), msg) || !hasDiag(res, "error", msg) {
		t.Errorf("preview: error %v, diagnostics %+v", err, res.Diagnostics)
	}
	if !slices.Contains(res.OpsFor(thingURN("p")), engine.OpReplace) || len(res.OpsFor(thingURN("q"))) == 0 {
		t.Errorf("preview stopped at the error: %+v", res.Steps)
	}
	if _, err := f.eng.Up(context.Background(), prog("second")); err == nil || !strings.Contains(err.Error(), msg) {
		t.Errorf("up: error %v, want %q", err, msg)
	}
	if ops := f.ops()[nOps:]; len(ops) != 0 {
		t.Errorf("the refused replacement changed the cloud: %v", ops)
	}
}

func TestProtectRetainDeletedWith(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	f.up(program(func(ctx context.Context, c *client) error {
		if _, err := c.thing(ctx, "p", map[string]any{"value": "p"}, protect()); err != nil {
			return err
		}
		if _, err := c.thing(ctx, "r", map[string]any{"value": "r"}, retainOnDelete()); err != nil {
			return err
		}
		x, err := c.thing(ctx, "x", map[string]any{"value": "x"})
		if err != nil {
			return err
		}
		_, err = c.thing(ctx, "y", map[string]any{"value": "y"}, deletedWith(x.URN))
		return err
	}))
	rs := f.resources()
	if !rs[thingURN("p")].Protect || !rs[thingURN("r")].RetainOnDelete || rs[thingURN("y")].DeletedWith != thingURN("x") {
		t.Fatalf("options not recorded: %+v", rs)
	}
	nOps := len(f.ops())

	// Drop r, x and y: only x is really deleted.
	res := f.up(program(func(ctx context.Context, c *client) error {
		_, err := c.thing(ctx, "p", map[string]any{"value": "p"}, protect())
		return err
	}))
	if res.Count(engine.OpDelete) != 3 {
		t.Fatalf("want 3 delete steps: %+v", res.Steps)
	}
	ops := f.ops()[nOps:]
	if len(ops) != 1 || !strings.HasPrefix(ops[0], "delete "+thingURN("x")) {
		t.Fatalf("want only x deleted in the cloud: %v", ops)
	}
	if len(f.things()) != 3 {
		t.Fatalf("want p, r and y left in the cloud: %v", f.things())
	}
	if len(f.resources()) != 3 {
		t.Fatalf("want stack, provider, p in state: %v", f.resources())
	}

	// A protected resource cannot be deleted.
	_, err := f.eng.Up(context.Background(), program(func(context.Context, *client) error { return nil }))
	if err == nil || !strings.Contains(err.Error(), "protected") {
		t.Fatalf("want protect error, got %v", err)
	}
	if _, ok := f.resources()[thingURN("p")]; !ok {
		t.Fatal("protected resource left the state")
	}
}

func TestAliases(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	f.up(program(func(ctx context.Context, c *client) error {
		_, err := c.thing(ctx, "old", map[string]any{"value": "v", "name": "fixed"})
		return err
	}))
	id := f.resources()[thingURN("old")].ID
	res := f.up(program(func(ctx context.Context, c *client) error {
		_, err := c.thing(ctx, "new", map[string]any{"value": "v", "name": "fixed"}, aliasURN(thingURN("old")))
		return err
	}))
	if !slices.Equal(res.OpsFor(thingURN("new")), []engine.Op{engine.OpSame}) || len(res.OpsFor(thingURN("old"))) != 0 {
		t.Fatalf("want a same through the alias: %+v", res.Steps)
	}
	rs := f.resources()
	if _, ok := rs[thingURN("old")]; ok || rs[thingURN("new")].ID != id {
		t.Fatalf("state after alias: %+v", rs)
	}
}

func TestSecretsAreEncrypted(t *testing.T) {
	t.Parallel()
	f := newFixture(t, func(o *engine.Options) {
		o.Config["test:apiKey"] = "s3cr3t-config"
		o.SecretKeys = []string{"test:apiKey"}
	})
	f.up(program(func(ctx context.Context, c *client) error {
		_, err := c.register(ctx, "test:index:Thing", "a", true, resource.PropertyMap{
			"value": resource.MakeSecret(resource.NewProperty("hunter2-secret")),
			"name":  resource.NewProperty("plainname"),
		}, secretOutputs("name"))
		if err != nil {
			return err
		}
		c.exports["out"] = resource.MakeSecret(resource.NewProperty("exported-secret"))
		return nil
	}))
	data, err := os.ReadFile(f.state)
	if err != nil {
		t.Fatal(err)
	}
	for _, s := range []string{"hunter2-secret", "s3cr3t-config", "exported-secret"} {
		if strings.Contains(string(data), s) {
			t.Fatalf("state file holds %q in plaintext", s)
		}
	}
	if !strings.Contains(string(data), `"4dabf18193072939515e22adb298388d": "1b47061264138c4ac30d75fd1eb44270"`) ||
		!strings.Contains(string(data), `"ciphertext"`) {
		t.Fatal("state file has no secret envelope")
	}
	rs := f.resources()
	a := rs[thingURN("a")]
	for _, k := range []string{"value", "computed", "name"} {
		if !a.Outputs.Get(k).Secret() {
			t.Fatalf("output %s should be secret: %v", k, a.Outputs.Get(k))
		}
	}
	if a.Outputs.Get("value").AsString() != "hunter2-secret" {
		t.Fatalf("secret did not round-trip: %v", a.Outputs.Get("value"))
	}
	if key := rs[defProv].Inputs.Get("apiKey"); !key.Secret() || key.AsString() != "s3cr3t-config" {
		t.Fatalf("provider config secret: %v", key)
	}
	if out := rs[stackURN].Outputs.Get("out"); !out.Secret() || out.AsString() != "exported-secret" {
		t.Fatalf("stack output: %v", out)
	}
	// An unchanged second run sees the decrypted state as equal.
	res := f.up(program(func(ctx context.Context, c *client) error {
		_, err := c.register(ctx, "test:index:Thing", "a", true, resource.PropertyMap{
			"value": resource.MakeSecret(resource.NewProperty("hunter2-secret")),
			"name":  resource.NewProperty("plainname"),
		}, secretOutputs("name"))
		c.exports["out"] = resource.MakeSecret(resource.NewProperty("exported-secret"))
		return err
	}))
	if res.Count(engine.OpSame) != len(res.Steps) {
		t.Fatalf("want only sames: %+v", res.Steps)
	}
	if !res.Outputs.Get("out").Secret() {
		t.Fatalf("stack outputs: %v", res.Outputs)
	}
}

func remote() regOpt { return func(r *pulumirpc.RegisterResourceRequest) { r.Remote = true } }

func providersMap(m map[string]string) regOpt {
	return func(r *pulumirpc.RegisterResourceRequest) { r.Providers = m }
}

func TestComponentsCallAndInvoke(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	const explicitURN = "urn:pulumi:dev::proj::pulumi:providers:test::explicit"
	type seen struct {
		compOut, compChild      string
		callDefault, callSelf   string
		callExplicit            string
		invokeDefault, invokeEx string
		explicitID              string
	}
	var got seen
	res := f.up(program(func(ctx context.Context, c *client) error {
		comp, err := c.register(ctx, "test:index:Comp", "c", false,
			resource.NewPropertyMapFromMap(map[string]any{"prefix": "p"}), remote())
		if err != nil {
			return err
		}
		got.compOut, got.compChild = strOut(comp.Outputs, "out"), strOut(comp.Outputs, "childId")
		self := resource.MakeComponentResourceReference(resource.URN(comp.URN), "")

		// No provider on the call: the engine routes by __self__'s goal, and
		// then to the default provider.
		ret, err := c.call(ctx, "test:index:Comp/whoami", resource.PropertyMap{"__self__": self}, "")
		if err != nil {
			return err
		}
		got.callDefault, got.callSelf = strOut(ret, "providerId"), strOut(ret, "self")

		// An explicit provider for a second component.
		prov, err := c.register(ctx, "pulumi:providers:test", "explicit", true,
			resource.NewPropertyMapFromMap(map[string]any{"dir": f.cloud, "region": "r1"}))
		if err != nil {
			return err
		}
		got.explicitID = prov.ID
		ref := prov.URN + "::" + prov.ID
		comp2, err := c.register(ctx, "test:index:Comp", "e", false,
			resource.NewPropertyMapFromMap(map[string]any{"prefix": "q"}), remote(), providersMap(map[string]string{"test": ref}))
		if err != nil {
			return err
		}
		self2 := resource.MakeComponentResourceReference(resource.URN(comp2.URN), "")
		if ret, err = c.call(ctx, "test:index:Comp/whoami", resource.PropertyMap{"__self__": self2}, ref); err != nil {
			return err
		}
		got.callExplicit = strOut(ret, "providerId")

		info, err := c.invoke(ctx, "test:index:getInfo", resource.PropertyMap{}, "")
		if err != nil {
			return err
		}
		got.invokeDefault = strOut(info, "providerId")
		if info, err = c.invoke(ctx, "test:index:getInfo", resource.PropertyMap{}, ref); err != nil {
			return err
		}
		got.invokeEx = strOut(info, "providerId")
		return nil
	}))
	rs := f.resources()
	defID := rs[defProv].ID
	compURN := "urn:pulumi:dev::proj::test:index:Comp::c"
	childURN := "urn:pulumi:dev::proj::test:index:Comp$test:index:Thing::c-child"
	child2URN := "urn:pulumi:dev::proj::test:index:Comp$test:index:Thing::e-child"
	if got.compOut != "p!" || got.compChild != rs[childURN].ID || got.compChild == "" {
		t.Fatalf("component outputs: %+v, state %+v", got, rs[childURN])
	}
	if rs[childURN].Parent != compURN || rs[compURN].Parent != stackURN || rs[compURN].Outputs.Get("out").AsString() != "p!" {
		t.Fatalf("component rows: %+v %+v", rs[compURN], rs[childURN])
	}
	if got.callDefault != defID || got.callSelf != compURN {
		t.Fatalf("call routed to %q (self %q), want default %q", got.callDefault, got.callSelf, defID)
	}
	if got.explicitID == "" || got.callExplicit != got.explicitID || got.invokeEx != got.explicitID || got.invokeDefault != defID {
		t.Fatalf("routing: %+v (default %s)", got, defID)
	}
	if want := explicitURN + "::" + got.explicitID; rs[child2URN].Provider != want {
		t.Fatalf("child of e uses %q, want %q", rs[child2URN].Provider, want)
	}
	// stack, default provider, c, c-child, explicit provider, e, e-child: the
	// remote registrations themselves are not steps.
	if res.Count(engine.OpCreate) != 7 || len(res.Steps) != 7 {
		t.Fatalf("steps: %+v", res.Steps)
	}

	// Re-running is all sames, including the constructed children.
	res = f.up(program(func(ctx context.Context, c *client) error {
		if _, err := c.register(ctx, "test:index:Comp", "c", false,
			resource.NewPropertyMapFromMap(map[string]any{"prefix": "p"}), remote()); err != nil {
			return err
		}
		return nil
	}))
	if !slices.Equal(res.OpsFor(childURN), []engine.Op{engine.OpSame}) || !slices.Equal(res.OpsFor(child2URN), []engine.Op{engine.OpDelete}) {
		t.Fatalf("second run: %+v", res.Steps)
	}
	if _, ok := f.resources()[explicitURN]; ok {
		t.Fatal("explicit provider should be deleted once unused")
	}
}

func TestExplicitProviderReplace(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	const provURN = "urn:pulumi:dev::proj::pulumi:providers:test::p"
	p := func(region string) program {
		return func(ctx context.Context, c *client) error {
			prov, err := c.register(ctx, "pulumi:providers:test", "p", true,
				resource.NewPropertyMapFromMap(map[string]any{"dir": f.cloud, "region": region}))
			if err != nil {
				return err
			}
			_, err = c.thing(ctx, "t", map[string]any{"value": "v"}, provider(prov.URN+"::"+prov.ID))
			return err
		}
	}
	f.up(p("r1"))
	old := f.resources()
	oldProvID, oldThingID := old[provURN].ID, old[thingURN("t")].ID

	// A non-replacing config change updates the provider in place.
	res := f.up(program(func(ctx context.Context, c *client) error {
		prov, err := c.register(ctx, "pulumi:providers:test", "p", true,
			resource.NewPropertyMapFromMap(map[string]any{"dir": f.cloud, "region": "r1", "extra": "x"}))
		if err != nil {
			return err
		}
		_, err = c.thing(ctx, "t", map[string]any{"value": "v"}, provider(prov.URN+"::"+prov.ID))
		return err
	}))
	if !slices.Equal(res.OpsFor(provURN), []engine.Op{engine.OpUpdate}) || !slices.Equal(res.OpsFor(thingURN("t")), []engine.Op{engine.OpSame}) {
		t.Fatalf("want provider update and thing same: %+v", res.Steps)
	}
	if f.resources()[provURN].ID != oldProvID {
		t.Fatal("provider update changed its id")
	}

	// A region change: DiffConfig says replace, so the provider and all its
	// resources are replaced.
	nOps := len(f.ops())
	res = f.up(p("r2"))
	cbd := []engine.Op{engine.OpCreateReplacement, engine.OpReplace, engine.OpDeleteReplaced}
	if !slices.Equal(res.OpsFor(provURN), cbd) || !slices.Equal(res.OpsFor(thingURN("t")), cbd) {
		t.Fatalf("want provider and thing replaced: %+v", res.Steps)
	}
	rs := f.resources()
	newProvID := rs[provURN].ID
	if newProvID == oldProvID || rs[thingURN("t")].ID == oldThingID {
		t.Fatalf("ids did not change: %+v", rs)
	}
	ops := f.ops()[nOps:]
	if len(ops) != 2 || ops[0] != "create "+thingURN("t")+" "+rs[thingURN("t")].ID+" provider="+newProvID ||
		ops[1] != "delete "+thingURN("t")+" "+oldThingID+" provider="+oldProvID {
		t.Fatalf("old thing must be deleted by the old provider, new created by the new one: %v", ops)
	}
}

func TestGetResourceAndReadResource(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	f.up(program(func(ctx context.Context, c *client) error {
		_, err := c.thing(ctx, "a", map[string]any{"value": "v"})
		return err
	}))
	aID := f.resources()[thingURN("a")].ID
	var state resource.PropertyMap
	var gotURN, gotID, gotProv string
	var readOut resource.PropertyMap
	res := f.up(program(func(ctx context.Context, c *client) error {
		a, err := c.thing(ctx, "a", map[string]any{"value": "v"})
		if err != nil {
			return err
		}
		ret, err := c.invoke(ctx, "pulumi:pulumi:getResource", resource.PropertyMap{"urn": resource.NewProperty(a.URN)}, "")
		if err != nil {
			return err
		}
		gotURN, gotID, gotProv = strOut(ret, "urn"), strOut(ret, "id"), strOut(ret, "provider")
		state = ret["state"].ObjectValue()
		if _, err := c.invoke(ctx, "pulumi:pulumi:getResource",
			resource.PropertyMap{"urn": resource.NewProperty(thingURN("nope"))}, ""); err == nil {
			return errors.New("getResource of an unknown URN should fail")
		}
		resp, err := c.mon.ReadResource(ctx, &pulumirpc.ReadResourceRequest{
			Type: "test:index:Thing", Name: "ext", Id: a.ID, Parent: stackURN, AcceptSecrets: true,
		})
		if err != nil {
			return err
		}
		readOut, err = plugin.UnmarshalProperties(resp.GetProperties(), plugin.MarshalOptions{KeepSecrets: true})
		return err
	}))
	rs := f.resources()
	if gotURN != thingURN("a") || gotID != aID || gotProv != rs[thingURN("a")].Provider || strOut(state, "computed") != "computed-v" {
		t.Fatalf("getResource: urn=%q id=%q provider=%q state=%v", gotURN, gotID, gotProv, state)
	}
	if _, ok := rs["urn:pulumi:dev::proj::pulumi:providers:pulumi::default"]; !ok {
		t.Fatal("the builtin default provider should be recorded, as the real engine does")
	}
	ext := rs[thingURN("ext")]
	if !ext.External || ext.ID != aID || strOut(readOut, "computed") != "computed-v" {
		t.Fatalf("read resource: %+v / %v", ext, readOut)
	}
	if !slices.Equal(res.OpsFor(thingURN("ext")), []engine.Op{engine.OpRead}) {
		t.Fatalf("steps: %+v", res.Steps)
	}
	// Dropping the read resource discards it without deleting the real one.
	nOps := len(f.ops())
	res = f.up(program(func(ctx context.Context, c *client) error {
		_, err := c.thing(ctx, "a", map[string]any{"value": "v"})
		return err
	}))
	if !slices.Equal(res.OpsFor(thingURN("ext")), []engine.Op{engine.OpReadDiscard}) || len(f.ops()) != nOps {
		t.Fatalf("discard: %+v %v", res.Steps, f.ops()[nOps:])
	}
}

func TestDeploymentInfo(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	f.up(program(func(ctx context.Context, c *client) error {
		info, err := c.mon.GetDeploymentInfo(ctx, &emptypb.Empty{})
		if err != nil {
			return err
		}
		if info.GetProject() != project || info.GetStack() != stack || info.GetOrganization() != "org" ||
			info.GetConfig()["proj:greeting"] != "hi" || len(info.GetSupportedFeatures()) != 16 {
			return fmt.Errorf("deployment info: %v", info)
		}
		for _, id := range []string{"secrets", "resourceReferences", "outputValues", "aliasSpecs", "deletedWith"} {
			resp, err := c.mon.SupportsFeature(ctx, &pulumirpc.SupportsFeatureRequest{Id: id})
			if err != nil || !resp.GetHasSupport() {
				return fmt.Errorf("feature %s: %v %v", id, resp, err)
			}
		}
		if resp, _ := c.mon.SupportsFeature(ctx, &pulumirpc.SupportsFeatureRequest{Id: "nope"}); resp.GetHasSupport() {
			return errors.New("unknown feature reported as supported")
		}
		return nil
	}))
}

func TestGoSDKProgram(t *testing.T) {
	t.Parallel()
	f := newFixture(t, func(o *engine.Options) { o.Config["proj:value"] = "v" })
	prog := goProgram{bin: sdkProgramPath}

	res, err := f.eng.Preview(context.Background(), prog)
	if err != nil {
		t.Fatalf("preview: %v", err)
	}
	if res.Count(engine.OpCreate) != 5 { // stack, provider, a, c, c-child
		t.Fatalf("preview steps: %+v", res.Steps)
	}

	res = f.up(prog)
	rs := f.resources()
	if got := res.Outputs.Get("thingId").AsString(); got == "" || got != rs[thingURN("a")].ID {
		t.Fatalf("thingId = %q, state %+v", got, rs[thingURN("a")])
	}
	if res.Outputs.Get("computed").AsString() != "computed-v" || res.Outputs.Get("compOut").AsString() != "v!" {
		t.Fatalf("outputs: %v", res.Outputs)
	}
	whoami := res.Outputs.Get("whoami").AsMap()
	if whoami.Get("providerId").AsString() != rs[defProv].ID || whoami.Get("self").AsString() != "urn:pulumi:dev::proj::test:index:Comp::c" {
		t.Fatalf("whoami: %v", whoami)
	}
	if s := res.Outputs.Get("secret"); !s.Secret() || s.AsString() != "sdk-secret" {
		t.Fatalf("secret export: %v", s)
	}

	res = f.up(prog)
	if res.Count(engine.OpSame) != len(res.Steps) || len(res.Steps) != 5 {
		t.Fatalf("second up should be all sames: %+v", res.Steps)
	}
}

func ignoreChanges(paths ...string) regOpt {
	return func(r *pulumirpc.RegisterResourceRequest) { r.IgnoreChanges = paths }
}

func createTimeout(d string) regOpt {
	return func(r *pulumirpc.RegisterResourceRequest) {
		r.CustomTimeouts = &pulumirpc.RegisterResourceRequest_CustomTimeouts{Create: d}
	}
}

func aliasSpec(name string) regOpt {
	return func(r *pulumirpc.RegisterResourceRequest) {
		r.Aliases = append(r.Aliases, &pulumirpc.Alias{Alias: &pulumirpc.Alias_Spec_{Spec: &pulumirpc.Alias_Spec{Name: name}}})
		r.AliasSpecs = true
	}
}

// TestOptions covers resource options: what Construct receives, inheritance
// from a parent, ignoreChanges, custom timeouts, alias specs and a
// delete-before-replace asked for by the provider's Diff.
func TestOptions(t *testing.T) {
	t.Parallel()
	f := newFixture(t, func(o *engine.Options) {
		o.Config["test:token"] = "tok"
		o.SecretKeys = []string{"test:token"}
	})
	const lcURN = "urn:pulumi:dev::proj::my:index:Local::lc"
	run := func(second bool) program {
		return func(ctx context.Context, c *client) error {
			dep, err := c.thing(ctx, "dep", map[string]any{"value": "d"})
			if err != nil {
				return err
			}
			if _, err := c.register(ctx, "test:index:Comp", "c", false,
				resource.NewPropertyMapFromMap(map[string]any{"prefix": "p"}),
				remote(), protect(), retainOnDelete(), deletedWith(dep.URN), ignoreChanges("x"),
				func(r *pulumirpc.RegisterResourceRequest) {
					r.ReplaceOnChanges = []string{"y"}
					r.AdditionalSecretOutputs = []string{"out"}
				},
				createTimeout("5m"), deleteBeforeReplace(), aliasURN(thingURN("zz")), aliasSpec("older"),
				propDeps([]string{dep.URN}, "prefix")); err != nil {
				return err
			}
			lc, err := c.register(ctx, "my:index:Local", "lc", false, resource.PropertyMap{},
				protect(), retainOnDelete(), deletedWith(dep.URN))
			if err != nil {
				return err
			}
			if _, err := c.thing(ctx, "lc-child", map[string]any{"value": "x"}, parent(lc.URN)); err != nil {
				return err
			}
			if !second {
				if _, err := c.thing(ctx, "ic", map[string]any{"value": "v1"}, createTimeout("90s")); err != nil {
					return err
				}
				if _, err := c.thing(ctx, "sa-old", map[string]any{"value": "v", "name": "fixed"}); err != nil {
					return err
				}
				_, err = c.thing(ctx, "d", map[string]any{"value": "v", "name": "n1", "dbr": true})
				return err
			}
			if _, err := c.thing(ctx, "ic", map[string]any{"value": "v2"}, ignoreChanges("value")); err != nil {
				return err
			}
			if _, err := c.thing(ctx, "sa-new", map[string]any{"value": "v", "name": "fixed"}, aliasSpec("sa-old")); err != nil {
				return err
			}
			_, err = c.thing(ctx, "d", map[string]any{"value": "v", "name": "n2", "dbr": true})
			return err
		}
	}
	f.up(run(false))

	raw, err := os.ReadFile(filepath.Join(f.cloud, "construct-c.json"))
	if err != nil {
		t.Fatal(err)
	}
	var req pulumirpc.ConstructRequest
	if err := protojson.Unmarshal(raw, &req); err != nil {
		t.Fatal(err)
	}
	dep := thingURN("dep")
	switch {
	case req.GetProject() != project || req.GetStack() != stack || req.GetOrganization() != "org":
		t.Fatalf("construct identity: %v", &req)
	case req.GetConfig()["test:token"] != "tok" || !slices.Equal(req.GetConfigSecretKeys(), []string{"test:token"}):
		t.Fatalf("construct config: %v %v", req.GetConfig(), req.GetConfigSecretKeys())
	case req.GetDryRun() || req.GetParallel() != 4 || req.GetMonitorEndpoint() == "" || req.GetParent() != stackURN:
		t.Fatalf("construct info: %v", &req)
	case !req.GetProtect() || !req.GetRetainOnDelete() || req.GetDeletedWith() != dep || !req.GetDeleteBeforeReplace():
		t.Fatalf("construct options: %v", &req)
	case !slices.Equal(req.GetIgnoreChanges(), []string{"x"}) || !slices.Equal(req.GetReplaceOnChanges(), []string{"y"}) ||
		!slices.Equal(req.GetAdditionalSecretOutputs(), []string{"out"}) || req.GetCustomTimeouts().GetCreate() != "5m":
		t.Fatalf("construct options: %v", &req)
	case len(req.GetAliases()) != 2 || req.GetAliases()[0].GetUrn() != thingURN("zz") || req.GetAliases()[1].GetSpec().GetName() != "older":
		t.Fatalf("construct aliases: %v", req.GetAliases())
	case !slices.Equal(req.GetDependencies(), []string{dep}) || !slices.Equal(req.GetInputDependencies()["prefix"].GetUrns(), []string{dep}):
		t.Fatalf("construct dependencies: %v %v", req.GetDependencies(), req.GetInputDependencies())
	}

	rs := f.resources()
	child := rs["urn:pulumi:dev::proj::my:index:Local$test:index:Thing::lc-child"]
	if !child.Protect || !child.RetainOnDelete || child.DeletedWith != dep || child.Parent != lcURN {
		t.Fatalf("child did not inherit from its parent: %+v", child)
	}
	data, err := os.ReadFile(filepath.Join(f.cloud, "things", rs[thingURN("ic")].ID+".json"))
	if err != nil || !strings.Contains(string(data), `"createTimeout":90`) {
		t.Fatalf("custom timeout not passed to Create: %s %v", data, err)
	}

	nOps := len(f.ops())
	res := f.up(run(true))
	if !slices.Equal(res.OpsFor(thingURN("ic")), []engine.Op{engine.OpSame}) {
		t.Fatalf("ignoreChanges: %+v", res.Steps)
	}
	if got := f.resources()[thingURN("ic")].Inputs.Get("value").AsString(); got != "v1" {
		t.Fatalf("ignored input changed to %q", got)
	}
	if !slices.Equal(res.OpsFor(thingURN("sa-new")), []engine.Op{engine.OpSame}) || len(res.OpsFor(thingURN("sa-old"))) != 0 {
		t.Fatalf("alias spec: %+v", res.Steps)
	}
	ops := opsMatching(f.ops()[nOps:], "delete", thingURN("d"))
	ops = append(ops, opsMatching(f.ops()[nOps:], "create", thingURN("d"))...)
	if all := f.ops()[nOps:]; len(all) != 2 || len(ops) != 2 || !strings.HasPrefix(all[0], "delete ") {
		t.Fatalf("provider-requested delete-before-replace: %v", all)
	}
}

// TestConcurrentRegistrations registers resources and components from many
// goroutines at once.
func TestConcurrentRegistrations(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	p := program(func(ctx context.Context, c *client) error {
		var g errgroup.Group
		for i := range 12 {
			g.Go(func() error {
				_, err := c.thing(ctx, fmt.Sprintf("t%d", i), map[string]any{"value": fmt.Sprint(i)})
				return err
			})
		}
		for i := range 3 {
			g.Go(func() error {
				_, err := c.register(ctx, "test:index:Comp", fmt.Sprintf("c%d", i), false,
					resource.NewPropertyMapFromMap(map[string]any{"prefix": fmt.Sprint(i)}), remote())
				return err
			})
		}
		return g.Wait()
	})
	res := f.up(p)
	// stack, provider, 12 things, 3 components and their 3 children
	if res.Count(engine.OpCreate) != 20 || len(f.resources()) != 20 || len(f.things()) != 15 {
		t.Fatalf("creates: %d, state %d, cloud %d", res.Count(engine.OpCreate), len(f.resources()), len(f.things()))
	}
	res = f.up(p)
	if res.Count(engine.OpSame) != 20 || len(res.Steps) != 20 {
		t.Fatalf("second run: %+v", res.Steps)
	}
}

// TestParallelBoundsResourceOperations checks that, like the real step
// executor, the engine runs resource operations concurrently, at most
// Parallel at once.
func TestParallelBoundsResourceOperations(t *testing.T) {
	t.Parallel()
	f := newFixture(t) // Parallel 4
	p := program(func(ctx context.Context, c *client) error {
		var g errgroup.Group
		for i := range 12 {
			g.Go(func() error {
				_, err := c.thing(ctx, fmt.Sprintf("t%d", i), map[string]any{"hold": "300ms"})
				return err
			})
		}
		return g.Wait()
	})
	f.up(p)
	peak := 0.0
	for _, r := range f.resources() {
		if v := r.Outputs.Get("peak"); v.IsNumber() {
			peak = max(peak, v.AsNumber())
		}
	}
	if peak != 4 {
		t.Fatalf("at most %v creates ran at once, want 4 (Parallel)", peak)
	}
}

// TestDefaultParallel checks the CLI's default: $PULUMI_PARALLEL, else
// 4 × GOMAXPROCS.
func TestDefaultParallel(t *testing.T) {
	seen := func(t *testing.T) int32 {
		f := newFixture(t, func(o *engine.Options) { o.Parallel = 0 })
		var got int32
		f.up(program(func(_ context.Context, c *client) error {
			got = int32(c.info.Parallel)
			return nil
		}))
		return got
	}
	t.Setenv("PULUMI_PARALLEL", "") // whatever the environment that runs the test says
	if got, want := seen(t), int32(4*runtime.GOMAXPROCS(0)); got != want {
		t.Errorf("default parallel %d, want %d", got, want)
	}
	t.Setenv("PULUMI_PARALLEL", "3")
	if got := seen(t); got != 3 {
		t.Errorf("with PULUMI_PARALLEL=3: parallel %d, want 3", got)
	}
}
