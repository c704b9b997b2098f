package tfresource_test

import (
	"bytes"
	"context"
	"encoding/base64"
	"encoding/json"
	"errors"
	"log/slog"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/hashicorp/terraform-plugin-go/tfprotov6"
	"github.com/hashicorp/terraform-plugin-go/tftypes"
	"github.com/pulumi/pulumi/sdk/v3/go/property"

	"github.com/polyhost/polyhost/host/custom"
	"github.com/polyhost/polyhost/host/terraform/internal/tfresource"
	"github.com/polyhost/polyhost/host/terraform/internal/tfschema"
	"github.com/polyhost/polyhost/host/terraform/internal/tfwire"
	"github.com/polyhost/polyhost/internal/tfprov6"
)

// kv serves kv_entry of the test provider, one configured server per
// root, each request served by the server of its configuration's root.
type kv struct {
	*tfresource.Resource
	schema *tfprotov6.Schema
	server tfresource.ServerFunc
}

func newKV(t *testing.T, roots ...string) kv {
	t.Helper()
	return newKVOf(t, "kv_entry", roots...)
}

// newKVOf serves the kv provider's resource typeName as newKV serves kv_entry.
func newKVOf(t *testing.T, typeName string, roots ...string) kv {
	t.Helper()
	ctx := context.Background()
	servers := map[string]tfwire.Server{}
	var schema *tfprotov6.Schema
	for _, root := range roots {
		s := tfprov6.New("test")
		ps, err := s.GetProviderSchema(ctx, &tfprotov6.GetProviderSchemaRequest{})
		if err != nil || len(ps.Diagnostics) > 0 {
			t.Fatalf("GetProviderSchema: %v %v", err, ps.Diagnostics)
		}
		schema = ps.ResourceSchemas[typeName]
		typ := ps.Provider.ValueType()
		cfg, err := tfprotov6.NewDynamicValue(typ, tftypes.NewValue(typ, map[string]tftypes.Value{"root": tftypes.NewValue(tftypes.String, root)}))
		if err != nil {
			t.Fatal(err)
		}
		if r, err := s.ConfigureProvider(ctx, &tfprotov6.ConfigureProviderRequest{Config: &cfg}); err != nil || len(r.Diagnostics) > 0 {
			t.Fatalf("ConfigureProvider: %v %v", err, r.Diagnostics)
		}
		servers[root] = s
	}
	server := func(_ context.Context, info custom.ResourceInfo) (tfwire.Server, error) {
		if s, ok := servers[info.Config.Get("root").AsString()]; ok {
			return s, nil
		}
		return nil, errors.New("no provider of that root")
	}
	res, err := tfresource.New(typeName, schema, server)
	if err != nil {
		t.Fatal(err)
	}
	return kv{res, schema, server}
}

func info(root string) custom.ResourceInfo {
	return custom.ResourceInfo{URN: "urn:pulumi:dev::p::kv:index:Entry::e", Name: "e", Type: "kv:index:Entry",
		Config: property.NewMap(map[string]property.Value{"root": property.New(root)})}
}

// in makes a map of alternating keys and values; a Go string, float64,
// bool is wrapped, a property.Value kept.
func in(kvs ...any) property.Map {
	m := map[string]property.Value{}
	for i := 0; i < len(kvs); i += 2 {
		switch v := kvs[i+1].(type) {
		case property.Value:
			m[kvs[i].(string)] = v
		case string:
			m[kvs[i].(string)] = property.New(v)
		case float64:
			m[kvs[i].(string)] = property.New(v)
		case bool:
			m[kvs[i].(string)] = property.New(v)
		case property.Map:
			m[kvs[i].(string)] = property.New(v)
		}
	}
	return property.NewMap(m)
}

func list(vs ...property.Value) property.Value { return property.New(property.NewArray(vs)) }

// stored is the record of key in root, nil if none.
func stored(t *testing.T, root, key string) map[string]any {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(root, key+".json"))
	if errors.Is(err, os.ErrNotExist) {
		return nil
	}
	if err != nil {
		t.Fatal(err)
	}
	var m map[string]any
	if err := json.Unmarshal(b, &m); err != nil {
		t.Fatal(err)
	}
	return m
}

func wantString(t *testing.T, m property.Map, key, want string) {
	t.Helper()
	if v := m.Get(key); !v.IsString() || v.AsString() != want {
		t.Errorf("%s = %v, want %q (in %v)", key, v, want, m)
	}
}

func wantNumber(t *testing.T, m property.Map, key string, want float64) {
	t.Helper()
	if v := m.Get(key); !v.IsNumber() || v.AsNumber() != want {
		t.Errorf("%s = %v, want %v (in %v)", key, v, want, m)
	}
}

// TestLifecycle runs an entry through check, create, read, an empty diff,
// an update in place, a diff that replaces, the replacement (create, then
// delete) and a delete, as the engine calls them.
func TestLifecycle(t *testing.T) {
	ctx := context.Background()
	root := t.TempDir()
	r := newKV(t, root)
	ri := info(root)

	inputs := in("key", "a", "value", "v1", "tags", in("team", "x"), "owner", in("name", "me"),
		"rule", list(property.New(in("name", "r", "maxSize", 3.0))))
	chk, err := r.Check(ctx, custom.CheckRequest{ResourceInfo: ri, Inputs: inputs})
	if err != nil || len(chk.Failures) > 0 {
		t.Fatalf("Check: %v %v", err, chk.Failures)
	}
	if !chk.Inputs.Equals(inputs) {
		t.Errorf("Check changed the inputs: %v, want %v", chk.Inputs, inputs)
	}

	cr, err := r.Create(ctx, custom.CreateRequest{ResourceInfo: ri, Inputs: chk.Inputs})
	if err != nil {
		t.Fatalf("Create: %v", err)
	}
	if cr.ID != "a" {
		t.Errorf("ID = %q, want a", cr.ID)
	}
	out := cr.Outputs
	wantString(t, out, "value", "v1")
	wantNumber(t, out, "ttlSeconds", tfprov6.DefaultTTL)
	wantNumber(t, out, "revision", 1)
	if _, has := out.GetOk("id"); has {
		t.Errorf("outputs hold id: %v", out)
	}
	if got := out.Get("rule").AsArray().Get(0).AsMap(); !got.Get("maxSize").IsNumber() || got.Get("name").AsString() != "r" {
		t.Errorf("rule = %v", got)
	}
	if rec := stored(t, root, "a"); rec == nil || rec["value"] != "v1" {
		t.Fatalf("stored %v", rec)
	}

	rd, err := r.Read(ctx, custom.ReadRequest{ResourceInfo: ri, ID: cr.ID, Inputs: chk.Inputs, Outputs: out})
	if err != nil || rd.ID != "a" {
		t.Fatalf("Read: %q %v", rd.ID, err)
	}
	if !rd.Outputs.Equals(out) {
		t.Errorf("Read outputs %v, want %v", rd.Outputs, out)
	}
	if !rd.Inputs.Equals(inputs) {
		t.Errorf("Read inputs %v, want %v", rd.Inputs, inputs)
	}

	diff := func(outs, inputs property.Map) custom.DiffResponse {
		t.Helper()
		d, err := r.Diff(ctx, custom.DiffRequest{ResourceInfo: ri, ID: "a", OldInputs: chk.Inputs, OldOutputs: outs, Inputs: inputs})
		if err != nil {
			t.Fatalf("Diff: %v", err)
		}
		return d
	}
	if d := diff(out, inputs); d.HasChanges || len(d.Changes) > 0 || len(d.Replaces) > 0 {
		t.Errorf("Diff of the same inputs: %+v", d)
	}

	inputs2 := inputs.Set("value", property.New("v2")).Delete("tags")
	d := diff(out, inputs2)
	want := map[string]custom.DiffKind{"value": custom.DiffUpdate, "tags": custom.DiffDelete}
	if !d.HasChanges || len(d.Replaces) > 0 || len(d.Changes) != 2 || d.Changes["value"] != want["value"] || d.Changes["tags"] != want["tags"] {
		t.Errorf("Diff of value and tags: %+v, want changes %v", d, want)
	}
	up, err := r.Update(ctx, custom.UpdateRequest{ResourceInfo: ri, ID: "a", OldInputs: inputs, OldOutputs: out, Inputs: inputs2})
	if err != nil {
		t.Fatalf("Update: %v", err)
	}
	wantString(t, up.Outputs, "value", "v2")
	wantNumber(t, up.Outputs, "revision", 2)
	if _, has := up.Outputs.GetOk("tags"); has {
		t.Errorf("tags still in outputs: %v", up.Outputs)
	}
	if rec := stored(t, root, "a"); rec["value"] != "v2" {
		t.Errorf("stored %v after update", rec)
	}

	inputs3 := inputs2.Set("key", property.New("b"))
	d = diff(up.Outputs, inputs3)
	if !d.HasChanges || !slices.Equal(d.Replaces, []string{"key"}) || d.Changes["key"] != custom.DiffUpdateReplace {
		t.Errorf("Diff of key: %+v, want key replaced", d)
	}
	if _, err := r.Update(ctx, custom.UpdateRequest{ResourceInfo: ri, ID: "a", OldInputs: inputs2, OldOutputs: up.Outputs, Inputs: inputs3}); err == nil || !strings.Contains(err.Error(), "key") {
		t.Errorf("Update of a replacing change: %v, want an error naming key", err)
	}

	// The engine replaces: create the new one, then delete the old one.
	cb, err := r.Create(ctx, custom.CreateRequest{ResourceInfo: ri, Inputs: inputs3})
	if err != nil || cb.ID != "b" {
		t.Fatalf("Create b: %q %v", cb.ID, err)
	}
	wantNumber(t, cb.Outputs, "revision", 1)
	if _, err := r.Delete(ctx, custom.DeleteRequest{ResourceInfo: ri, ID: "a", Inputs: inputs2, Outputs: up.Outputs}); err != nil {
		t.Fatalf("Delete a: %v", err)
	}
	if stored(t, root, "a") != nil || stored(t, root, "b") == nil {
		t.Errorf("after the replacement: a %v, b %v", stored(t, root, "a"), stored(t, root, "b"))
	}
	if _, err := r.Delete(ctx, custom.DeleteRequest{ResourceInfo: ri, ID: "b", Inputs: inputs3, Outputs: cb.Outputs}); err != nil {
		t.Fatalf("Delete b: %v", err)
	}
	if stored(t, root, "b") != nil {
		t.Errorf("b still stored")
	}
	gone, err := r.Read(ctx, custom.ReadRequest{ResourceInfo: ri, ID: "b", Inputs: inputs3, Outputs: cb.Outputs})
	if err != nil || gone.ID != "" {
		t.Errorf("Read of a deleted entry: %q %v, want an empty ID", gone.ID, err)
	}
}

// TestPreview: Check and Diff take unknown inputs; an unknown value
// changes, an unknown key replaces. Check keeps an input secret.
func TestPreview(t *testing.T) {
	ctx := context.Background()
	root := t.TempDir()
	r := newKV(t, root)
	ri := info(root)
	unknown := property.New(property.Computed)

	chk, err := r.Check(ctx, custom.CheckRequest{ResourceInfo: ri, Inputs: in("key", "p", "value", unknown)})
	if err != nil || len(chk.Failures) > 0 {
		t.Fatalf("Check: %v %v", err, chk.Failures)
	}
	if !chk.Inputs.Get("value").IsComputed() {
		t.Errorf("Check inputs %v, want value unknown", chk.Inputs)
	}
	chk, err = r.Check(ctx, custom.CheckRequest{ResourceInfo: ri, Inputs: in("key", "p", "value", property.New("v").WithSecret(true))})
	if err != nil || len(chk.Failures) > 0 || !chk.Inputs.Get("value").Secret() || chk.Inputs.Len() != 2 {
		t.Errorf("Check of a secret: %v %v %v, want the same two inputs, value secret", chk.Inputs, chk.Failures, err)
	}
	inputs := in("key", "p", "value", "v")
	cr, err := r.Create(ctx, custom.CreateRequest{ResourceInfo: ri, Inputs: inputs})
	if err != nil {
		t.Fatal(err)
	}
	d, err := r.Diff(ctx, custom.DiffRequest{ResourceInfo: ri, ID: cr.ID, OldInputs: inputs, OldOutputs: cr.Outputs, Inputs: in("key", "p", "value", unknown)})
	if err != nil || !d.HasChanges || d.Changes["value"] != custom.DiffUpdate || len(d.Replaces) > 0 {
		t.Errorf("Diff of an unknown value: %+v %v", d, err)
	}
	d, err = r.Diff(ctx, custom.DiffRequest{ResourceInfo: ri, ID: cr.ID, OldInputs: inputs, OldOutputs: cr.Outputs, Inputs: in("key", unknown, "value", "v")})
	if err != nil || !slices.Equal(d.Replaces, []string{"key"}) {
		t.Errorf("Diff of an unknown key: %+v %v, want key replaced", d, err)
	}
}

// TestImport imports an entry by its id: the provider's import, then its
// read; the inputs it answers diff as no change.
func TestImport(t *testing.T) {
	ctx := context.Background()
	root := t.TempDir()
	r := newKV(t, root)
	ri := info(root)
	if err := os.WriteFile(filepath.Join(root, "imp.json"), []byte(`{"value":"there","ttl":60,"secret":"s3","revision":4}`), 0o644); err != nil {
		t.Fatal(err)
	}
	rd, err := r.Read(ctx, custom.ReadRequest{ResourceInfo: ri, ID: "imp"})
	if err != nil || rd.ID != "imp" {
		t.Fatalf("import: %q %v", rd.ID, err)
	}
	wantString(t, rd.Outputs, "value", "there")
	wantNumber(t, rd.Outputs, "revision", 4)
	if s := rd.Outputs.Get("secret"); !s.Secret() || s.AsString() != "s3" {
		t.Errorf("secret = %v, want a secret s3", s)
	}
	want := in("key", "imp", "value", "there", "ttlSeconds", 60.0, "secret", property.New("s3").WithSecret(true), "rule", list())
	if !rd.Inputs.Equals(want) {
		t.Errorf("imported inputs %v, want %v", rd.Inputs, want)
	}
	d, err := r.Diff(ctx, custom.DiffRequest{ResourceInfo: ri, ID: rd.ID, OldInputs: rd.Inputs, OldOutputs: rd.Outputs, Inputs: rd.Inputs})
	if err != nil || d.HasChanges {
		t.Errorf("Diff after import: %+v %v", d, err)
	}
	if none, err := r.Read(ctx, custom.ReadRequest{ResourceInfo: ri, ID: "nothing"}); err != nil || none.ID != "" {
		t.Errorf("import of nothing: %q %v, want an empty ID", none.ID, err)
	}
}

// TestUpgrade reads, diffs and updates a state recorded with schema
// version 0, whose data is now value.
func TestUpgrade(t *testing.T) {
	ctx := context.Background()
	root := t.TempDir()
	r := newKV(t, root)
	ri := info(root)
	if err := os.WriteFile(filepath.Join(root, "old.json"), []byte(`{"value":"hello","ttl":3600,"revision":1}`), 0o644); err != nil {
		t.Fatal(err)
	}
	private := frameworkPrivate(root)
	oldInputs := in("key", "old", "data", "hello")
	oldOutputs := in("key", "old", "data", "hello",
		tfresource.StateKey, property.New(in("schemaVersion", 0.0, "private", private)).WithSecret(true))

	d, err := r.Diff(ctx, custom.DiffRequest{ResourceInfo: ri, ID: "old", OldInputs: oldInputs, OldOutputs: oldOutputs, Inputs: in("key", "old", "value", "hello")})
	if err != nil || d.HasChanges {
		t.Errorf("Diff of a version 0 state: %+v %v", d, err)
	}
	rd, err := r.Read(ctx, custom.ReadRequest{ResourceInfo: ri, ID: "old", Inputs: oldInputs, Outputs: oldOutputs})
	if err != nil || rd.ID != "old" {
		t.Fatalf("Read: %q %v", rd.ID, err)
	}
	wantString(t, rd.Outputs, "value", "hello")
	wantNumber(t, rd.Outputs, "ttlSeconds", tfprov6.DefaultTTL)
	if v := rd.Outputs.Get(tfresource.StateKey).AsMap().Get("schemaVersion"); v.AsNumber() != 1 {
		t.Errorf("schemaVersion after read = %v, want 1", v)
	}
	up, err := r.Update(ctx, custom.UpdateRequest{ResourceInfo: ri, ID: "old", OldInputs: oldInputs, OldOutputs: oldOutputs, Inputs: in("key", "old", "value", "new")})
	if err != nil {
		t.Fatalf("Update of a version 0 state: %v", err)
	}
	wantNumber(t, up.Outputs, "revision", 2)
	if rec := stored(t, root, "old"); rec["value"] != "new" {
		t.Errorf("stored %v", rec)
	}
	newer := oldOutputs.Set(tfresource.StateKey, property.New(in("schemaVersion", 2.0)))
	if _, err := r.Diff(ctx, custom.DiffRequest{ResourceInfo: ri, ID: "old", OldOutputs: newer, Inputs: oldInputs}); err == nil || !strings.Contains(err.Error(), "kv_entry") {
		t.Errorf("Diff of a state of a newer version: %v, want an error naming kv_entry", err)
	}
}

// frameworkPrivate is kv_entry's private state, in Pulumi's state: the
// framework's JSON of base64 values, in base64.
func frameworkPrivate(root string) string {
	origin := base64.StdEncoding.EncodeToString([]byte(`{"root":"` + root + `"}`))
	return base64.StdEncoding.EncodeToString([]byte(`{"` + tfprov6.PrivateKey + `":"` + origin + `"}`))
}

// TestPrivate: the provider's private state is kept, secret, in
// StateKey, and given back to it: without it, the provider's read fails.
func TestPrivate(t *testing.T) {
	ctx := context.Background()
	root := t.TempDir()
	r := newKV(t, root)
	ri := info(root)
	inputs := in("key", "k", "value", "v")
	cr, err := r.Create(ctx, custom.CreateRequest{ResourceInfo: ri, Inputs: inputs})
	if err != nil {
		t.Fatal(err)
	}
	st := cr.Outputs.Get(tfresource.StateKey)
	if !st.Secret() || st.AsMap().Get("schemaVersion").AsNumber() != 1 {
		t.Fatalf("%s = %v, want a secret object of schemaVersion 1", tfresource.StateKey, st)
	}
	if got, want := st.AsMap().Get("private").AsString(), frameworkPrivate(root); got != want {
		t.Errorf("private = %s, want %s", got, want)
	}
	if _, err := r.Read(ctx, custom.ReadRequest{ResourceInfo: ri, ID: cr.ID, Inputs: inputs, Outputs: cr.Outputs}); err != nil {
		t.Errorf("Read with the private state: %v", err)
	}
	lost := cr.Outputs.Delete(tfresource.StateKey)
	_, err = r.Read(ctx, custom.ReadRequest{ResourceInfo: ri, ID: cr.ID, Inputs: inputs, Outputs: lost})
	if err == nil || !strings.Contains(err.Error(), "private state lost") || !strings.Contains(err.Error(), "kv_entry") {
		t.Errorf("Read without the private state: %v, want the provider's error", err)
	}
}

// TestPartial: an apply that fails after storing the entry is a
// PartialError with the entry's ID and outputs.
func TestPartial(t *testing.T) {
	ctx := context.Background()
	root := t.TempDir()
	r := newKV(t, root)
	ri := info(root)
	inputs := in("key", "f", "value", "v", "failAfterApply", true)
	_, err := r.Create(ctx, custom.CreateRequest{ResourceInfo: ri, Inputs: inputs})
	var pe *custom.PartialError
	if !errors.As(err, &pe) {
		t.Fatalf("Create: %v, want a PartialError", err)
	}
	if pe.ID != "f" {
		t.Errorf("PartialError ID %q, want f", pe.ID)
	}
	wantString(t, pe.Outputs, "value", "v")
	if msg := pe.Err.Error(); !strings.Contains(msg, "kv_entry") || !strings.Contains(msg, "failAfterApply") {
		t.Errorf("error %q, want it to name kv_entry and failAfterApply", msg)
	}
	if stored(t, root, "f") == nil {
		t.Errorf("entry not stored")
	}
	_, err = r.Update(ctx, custom.UpdateRequest{ResourceInfo: ri, ID: pe.ID, OldInputs: inputs, OldOutputs: pe.Outputs, Inputs: inputs.Set("value", property.New("w"))})
	if !errors.As(err, &pe) || pe.ID != "f" {
		t.Fatalf("Update: %v, want a PartialError", err)
	}
	wantString(t, pe.Outputs, "value", "w")
	wantNumber(t, pe.Outputs, "revision", 2)
}

// TestCheckFailures: a wrong type, an unknown or computed attribute, a
// missing one and the provider's validation errors are failures naming
// the property.
func TestCheckFailures(t *testing.T) {
	ctx := context.Background()
	root := t.TempDir()
	r := newKV(t, root)
	for _, tc := range []struct {
		name   string
		inputs property.Map
		prop   string
		reason string
	}{
		{"wrong type", in("key", "k", "value", list(property.New("x"))), "value", ""},
		{"unknown attribute", in("key", "k", "value", "v", "colour", "red"), "colour", "kv_entry"},
		{"computed", in("key", "k", "value", "v", "revision", 3.0), "revision", "computed"},
		{"missing", in("key", "k"), "value", "required"},
		{"missing nested", in("key", "k", "value", "v", "owner", in("email", "e")), "owner.name", "required"},
		{"provider validation", in("key", "Bad Key", "value", "v"), "key", "invalid key"},
		{"nested wrong type", in("key", "k", "value", "v", "rule", list(property.New(in("name", "r", "maxSize", "big")))), "rule", "rule[0].maxSize"},
		{"nested validation", in("key", "k", "value", "v", "rule", list(property.New(in("name", "r", "maxSize", -1.0)))), "rule[0].maxSize", "negative"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			resp, err := r.Check(ctx, custom.CheckRequest{ResourceInfo: info(root), Inputs: tc.inputs})
			if err != nil {
				t.Fatalf("Check: %v", err)
			}
			if len(resp.Failures) != 1 || resp.Failures[0].Property != tc.prop || !strings.Contains(resp.Failures[0].Reason, tc.reason) {
				t.Errorf("failures %v, want one on %s saying %q", resp.Failures, tc.prop, tc.reason)
			}
		})
	}
}

// TestTwoServers: two providers of different roots each serve their own
// entry of one key.
func TestTwoServers(t *testing.T) {
	ctx := context.Background()
	rootA, rootB := t.TempDir(), t.TempDir()
	r := newKV(t, rootA, rootB)
	created := map[string]custom.CreateResponse{}
	for root, value := range map[string]string{rootA: "in A", rootB: "in B"} {
		cr, err := r.Create(ctx, custom.CreateRequest{ResourceInfo: info(root), Inputs: in("key", "same", "value", value)})
		if err != nil {
			t.Fatalf("Create in %s: %v", root, err)
		}
		created[root] = cr
		if rec := stored(t, root, "same"); rec["value"] != value {
			t.Errorf("%s holds %v, want %q", root, rec, value)
		}
	}
	for root, value := range map[string]string{rootA: "in A", rootB: "in B"} {
		rd, err := r.Read(ctx, custom.ReadRequest{ResourceInfo: info(root), ID: "same", Inputs: in("key", "same", "value", value), Outputs: created[root].Outputs})
		if err != nil {
			t.Fatal(err)
		}
		wantString(t, rd.Outputs, "value", value)
	}
	if _, err := r.Delete(ctx, custom.DeleteRequest{ResourceInfo: info(rootA), ID: "same", Outputs: created[rootA].Outputs}); err != nil {
		t.Fatal(err)
	}
	if stored(t, rootA, "same") != nil || stored(t, rootB, "same") == nil {
		t.Errorf("deleting A's entry: A %v, B %v", stored(t, rootA, "same"), stored(t, rootB, "same"))
	}
}

// TestWarnings: the provider's warnings are logged, naming the type and
// the property, and fail nothing.
func TestWarnings(t *testing.T) {
	var logged bytes.Buffer
	defer slog.SetDefault(slog.Default())
	slog.SetDefault(slog.New(slog.NewTextHandler(&logged, nil)))

	ctx := context.Background()
	root := t.TempDir()
	r := newKV(t, root)
	resp, err := r.Check(ctx, custom.CheckRequest{ResourceInfo: info(root), Inputs: in("key", "k", "value", "v", "ttlSeconds", 30.0)})
	if err != nil || len(resp.Failures) > 0 {
		t.Fatalf("Check: %v %v", err, resp.Failures)
	}
	if out := logged.String(); !strings.Contains(out, "short ttl") || !strings.Contains(out, "type=kv_entry") || !strings.Contains(out, "property=ttlSeconds") {
		t.Errorf("logged %q, want the warning with its type and property", out)
	}
}

// spy counts plans and records whether each apply had a deadline.
type spy struct {
	tfwire.Server
	plans int
	had   []bool
}

func (s *spy) PlanResourceChange(ctx context.Context, req *tfprotov6.PlanResourceChangeRequest) (*tfprotov6.PlanResourceChangeResponse, error) {
	s.plans++
	return s.Server.PlanResourceChange(ctx, req)
}

func (s *spy) ApplyResourceChange(ctx context.Context, req *tfprotov6.ApplyResourceChangeRequest) (*tfprotov6.ApplyResourceChangeResponse, error) {
	_, ok := ctx.Deadline()
	s.had = append(s.had, ok)
	return s.Server.ApplyResourceChange(ctx, req)
}

func (k kv) spied(t *testing.T, root string) (*tfresource.Resource, *spy) {
	t.Helper()
	srv, err := k.server(context.Background(), info(root))
	if err != nil {
		t.Fatal(err)
	}
	s := &spy{Server: srv}
	r, err := tfresource.New("kv_entry", k.schema, func(context.Context, custom.ResourceInfo) (tfwire.Server, error) { return s, nil })
	if err != nil {
		t.Fatal(err)
	}
	return r, s
}

// TestTimeout: an apply runs under the request's timeout.
func TestTimeout(t *testing.T) {
	ctx := context.Background()
	root := t.TempDir()
	r, s := newKV(t, root).spied(t, root)
	inputs := in("key", "t", "value", "v")
	cr, err := r.Create(ctx, custom.CreateRequest{ResourceInfo: info(root), Inputs: inputs, Timeout: time.Minute})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := r.Delete(ctx, custom.DeleteRequest{ResourceInfo: info(root), ID: cr.ID, Outputs: cr.Outputs}); err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(s.had, []bool{true, false}) {
		t.Errorf("deadlines of create (1 min) and delete (none): %v", s.had)
	}
}

// TestCheckPlansCreates: Check plans a create, not an update (its Diff
// plans it).
func TestCheckPlansCreates(t *testing.T) {
	ctx := context.Background()
	root := t.TempDir()
	r, s := newKV(t, root).spied(t, root)
	inputs := in("key", "c", "value", "v")
	if _, err := r.Check(ctx, custom.CheckRequest{ResourceInfo: info(root), Inputs: inputs}); err != nil || s.plans != 1 {
		t.Errorf("Check of a create: %d plans, %v; want 1", s.plans, err)
	}
	if _, err := r.Check(ctx, custom.CheckRequest{ResourceInfo: info(root), OldInputs: inputs, Inputs: inputs}); err != nil || s.plans != 1 {
		t.Errorf("Check of an update: %d plans in all, %v; want still 1", s.plans, err)
	}
}

// TestBadState: a recorded state or input the backend cannot read is an
// error or a failure naming the type or the property, not a panic.
func TestBadState(t *testing.T) {
	ctx := context.Background()
	root := t.TempDir()
	r := newKV(t, root)
	ri := info(root)
	inputs := in("key", "k", "value", "v")
	cr, err := r.Create(ctx, custom.CreateRequest{ResourceInfo: ri, Inputs: inputs})
	if err != nil {
		t.Fatal(err)
	}
	for name, outs := range map[string]property.Map{
		"meta not an object": cr.Outputs.Set(tfresource.StateKey, property.New("x")),
		"version fraction":   cr.Outputs.Set(tfresource.StateKey, property.New(in("schemaVersion", 0.5))),
		"private not base64": cr.Outputs.Set(tfresource.StateKey, property.New(in("private", "%%"))),
		"value mistyped":     cr.Outputs.Set("value", list()),
		"unknown output":     cr.Outputs.Set("value", property.New(property.Computed)),
	} {
		_, err := r.Diff(ctx, custom.DiffRequest{ResourceInfo: ri, ID: cr.ID, OldInputs: inputs, OldOutputs: outs, Inputs: inputs})
		if err == nil || !strings.Contains(err.Error(), "kv_entry") {
			t.Errorf("%s: Diff: %v, want an error naming kv_entry", name, err)
		}
	}
	chk, err := r.Check(ctx, custom.CheckRequest{ResourceInfo: ri, Inputs: inputs.Set("value", property.New(property.ResourceReference{URN: "urn:pulumi:dev::p::t::n"}))})
	if err != nil || len(chk.Failures) != 1 || chk.Failures[0].Property != "value" {
		t.Errorf("Check of a resource reference: %v %v, want a failure on value", chk.Failures, err)
	}
	none, err := tfresource.New("kv_entry", r.schema, func(context.Context, custom.ResourceInfo) (tfwire.Server, error) { return nil, nil })
	if err != nil {
		t.Fatal(err)
	}
	if _, err := none.Create(ctx, custom.CreateRequest{ResourceInfo: ri, Inputs: inputs}); err == nil || !strings.Contains(err.Error(), "kv_entry") {
		t.Errorf("Create without a server: %v", err)
	}
	if _, err := tfresource.New("kv_entry", &tfprotov6.Schema{Block: &tfprotov6.SchemaBlock{Attributes: []*tfprotov6.SchemaAttribute{nil}}}, nil); err == nil {
		t.Errorf("New took a schema with a nil attribute")
	}
}

// TestDrift: a refresh reads what changed behind the provider's back, the
// next diff restores the program's value, and an entry removed is gone.
func TestDrift(t *testing.T) {
	ctx := context.Background()
	root := t.TempDir()
	r := newKV(t, root)
	ri := info(root)
	inputs := in("key", "d", "value", "v")
	cr, err := r.Create(ctx, custom.CreateRequest{ResourceInfo: ri, Inputs: inputs})
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(root, "d.json"), []byte(`{"value":"changed","ttl":3600,"revision":1}`), 0o644); err != nil {
		t.Fatal(err)
	}
	rd, err := r.Read(ctx, custom.ReadRequest{ResourceInfo: ri, ID: cr.ID, Inputs: inputs, Outputs: cr.Outputs})
	if err != nil {
		t.Fatal(err)
	}
	wantString(t, rd.Outputs, "value", "changed")
	wantString(t, rd.Inputs, "value", "changed")
	if _, has := rd.Inputs.GetOk("ttlSeconds"); has {
		t.Errorf("refreshed inputs %v hold ttlSeconds, which the program left out", rd.Inputs)
	}
	d, err := r.Diff(ctx, custom.DiffRequest{ResourceInfo: ri, ID: rd.ID, OldInputs: rd.Inputs, OldOutputs: rd.Outputs, Inputs: inputs})
	if err != nil || !d.HasChanges || len(d.Changes) != 1 || d.Changes["value"] != custom.DiffUpdate {
		t.Errorf("Diff after drift: %+v %v, want value updated", d, err)
	}
	if err := os.Remove(filepath.Join(root, "d.json")); err != nil {
		t.Fatal(err)
	}
	gone, err := r.Read(ctx, custom.ReadRequest{ResourceInfo: ri, ID: rd.ID, Inputs: rd.Inputs, Outputs: rd.Outputs})
	if err != nil || gone.ID != "" {
		t.Errorf("Read of a removed entry: %q %v, want an empty ID", gone.ID, err)
	}
}

// TestWriteOnly: a write-only input reaches the provider, stays out of
// the outputs, and a refresh keeps it in the inputs.
func TestWriteOnly(t *testing.T) {
	ctx := context.Background()
	root := t.TempDir()
	r := newKV(t, root)
	ri := info(root)
	inputs := in("key", "w", "value", "v", "token", property.New("t0k").WithSecret(true))
	if chk, err := r.Check(ctx, custom.CheckRequest{ResourceInfo: ri, Inputs: inputs}); err != nil || len(chk.Failures) > 0 {
		t.Fatalf("Check: %v %v", chk.Failures, err)
	}
	cr, err := r.Create(ctx, custom.CreateRequest{ResourceInfo: ri, Inputs: inputs})
	if err != nil {
		t.Fatal(err)
	}
	if rec := stored(t, root, "w"); rec["token"] != "t0k" {
		t.Errorf("stored %v, want the token", rec)
	}
	if _, has := cr.Outputs.GetOk("token"); has {
		t.Errorf("outputs hold the write-only token: %v", cr.Outputs)
	}
	rd, err := r.Read(ctx, custom.ReadRequest{ResourceInfo: ri, ID: cr.ID, Inputs: inputs, Outputs: cr.Outputs})
	if err != nil {
		t.Fatal(err)
	}
	if !rd.Inputs.Get("token").Equals(inputs.Get("token")) {
		t.Errorf("refreshed inputs %v, want the token kept", rd.Inputs)
	}
	if _, has := rd.Outputs.GetOk("token"); has {
		t.Errorf("refreshed outputs hold the token: %v", rd.Outputs)
	}
}

// TestSchemaAgrees: what the backend answers is what tfschema's Pulumi
// schema of the provider declares, but for StateKey.
func TestSchemaAgrees(t *testing.T) {
	ctx := context.Background()
	root := t.TempDir()
	ps, err := tfprov6.New("test").GetProviderSchema(ctx, &tfprotov6.GetProviderSchemaRequest{})
	if err != nil {
		t.Fatal(err)
	}
	pkg, err := tfschema.Build(ps, tfschema.Options{Name: "kv", Prefix: "kv"})
	if err != nil {
		t.Fatal(err)
	}
	spec, ok := pkg.Schema.Resources["kv:index:Entry"]
	if !ok || pkg.Resources["kv:index:Entry"] != "kv_entry" {
		t.Fatalf("no kv:index:Entry in %v", pkg.Resources)
	}
	r := newKV(t, root)
	inputs := in("key", "s", "value", "v", "secret", "x", "tags", in("a", "b"), "owner", in("name", "n"),
		"rule", list(property.New(in("name", "r"))), "token", "t", "ttlSeconds", 90.0, "failAfterApply", false)
	cr, err := r.Create(ctx, custom.CreateRequest{ResourceInfo: info(root), Inputs: inputs})
	if err != nil {
		t.Fatal(err)
	}
	for k := range inputs.All {
		if _, ok := spec.InputProperties[k]; !ok {
			t.Errorf("input %s not declared", k)
		}
	}
	for k := range cr.Outputs.All {
		if _, ok := spec.Properties[k]; !ok && k != tfresource.StateKey {
			t.Errorf("output %s not declared", k)
		}
	}
}

// TestNoIDAttribute: a resource whose schema has no id attribute (kv_job)
// gets an ID of the backend's making on create, which a refresh and an
// update keep, and deletes by it; an import keeps the import ID.
func TestNoIDAttribute(t *testing.T) {
	ctx := context.Background()
	root := t.TempDir()
	r := newKVOf(t, "kv_job", root)
	ri := info(root)
	ri.Type = "kv:index:Job"
	inputs := in("name", "j", "value", "1")
	cr, err := r.Create(ctx, custom.CreateRequest{ResourceInfo: ri, Inputs: inputs})
	if err != nil {
		t.Fatalf("Create: %v", err)
	}
	if cr.ID == "" {
		t.Fatal("Create returned no ID")
	}
	other, err := r.Create(ctx, custom.CreateRequest{ResourceInfo: ri, Inputs: in("name", "k")})
	if err != nil || other.ID == cr.ID {
		t.Errorf("a second job's ID %q (%v), want one of its own, not %q", other.ID, err, cr.ID)
	}
	rd, err := r.Read(ctx, custom.ReadRequest{ResourceInfo: ri, ID: cr.ID, Inputs: inputs, Outputs: cr.Outputs})
	if err != nil || rd.ID != cr.ID {
		t.Errorf("Read: ID %q, %v; want %q", rd.ID, err, cr.ID)
	}
	ur, err := r.Update(ctx, custom.UpdateRequest{ResourceInfo: ri, ID: cr.ID, OldInputs: inputs, OldOutputs: cr.Outputs, Inputs: in("name", "j", "value", "2")})
	if err != nil {
		t.Fatalf("Update: %v", err)
	}
	wantString(t, ur.Outputs, "value", "2")
	if _, err := r.Delete(ctx, custom.DeleteRequest{ResourceInfo: ri, ID: cr.ID, Outputs: ur.Outputs}); err != nil {
		t.Errorf("Delete: %v", err)
	}
	imp, err := r.Read(ctx, custom.ReadRequest{ResourceInfo: ri, ID: "imported"})
	if err != nil || imp.ID != "imported" {
		t.Errorf("import: ID %q, %v; want the import ID", imp.ID, err)
	}
	wantString(t, imp.Outputs, "name", "imported")
}

// TestTimeoutsReachTheProvider: a resource with a timeouts block (kv_job)
// receives each step's customTimeouts in it, as Go durations, under the
// context deadline; the block is no input or output of its own.
func TestTimeoutsReachTheProvider(t *testing.T) {
	ctx := context.Background()
	root := t.TempDir()
	r := newKVOf(t, "kv_job", root)
	ri := info(root)
	inputs := in("name", "j", "value", "1")
	cr, err := r.Create(ctx, custom.CreateRequest{ResourceInfo: ri, Inputs: inputs, Timeout: 90 * time.Second})
	if err != nil {
		t.Fatal(err)
	}
	wantString(t, cr.Outputs, "timeoutsSeen", "create=1m30s update= delete=")
	if _, has := cr.Outputs.GetOk("timeouts"); has {
		t.Errorf("outputs hold timeouts: %v", cr.Outputs)
	}
	d, err := r.Diff(ctx, custom.DiffRequest{ResourceInfo: ri, ID: cr.ID, OldInputs: inputs, OldOutputs: cr.Outputs, Inputs: inputs})
	if err != nil || d.HasChanges {
		t.Errorf("Diff of the same inputs: %+v %v, want no changes", d, err)
	}
	ur, err := r.Update(ctx, custom.UpdateRequest{ResourceInfo: ri, ID: cr.ID, OldInputs: inputs, OldOutputs: cr.Outputs,
		Inputs: in("name", "j", "value", "2"), Timeout: 2 * time.Minute})
	if err != nil {
		t.Fatal(err)
	}
	wantString(t, ur.Outputs, "timeoutsSeen", "create= update=2m0s delete=")
	if _, err := r.Delete(ctx, custom.DeleteRequest{ResourceInfo: ri, ID: cr.ID, Outputs: ur.Outputs, Timeout: 3 * time.Minute}); err != nil {
		t.Fatal(err)
	}
	if rec := stored(t, root, "j.deleted"); rec["timeouts_seen"] != "create= update= delete=3m0s" {
		t.Errorf("the delete saw %v, want delete=3m0s", rec)
	}
	chk, err := r.Check(ctx, custom.CheckRequest{ResourceInfo: ri, Inputs: inputs.Set("timeouts", property.New(in("create", "1m")))})
	if err != nil || len(chk.Failures) != 1 || chk.Failures[0].Property != "timeouts" || !strings.Contains(chk.Failures[0].Reason, "customTimeouts") {
		t.Errorf("Check of a timeouts input: %v %v, want a failure pointing to customTimeouts", chk.Failures, err)
	}
}

// TestTimeoutsNotInTheSchema: tfschema leaves kv_job's timeouts block out
// of the Pulumi schema, property and type, as the resource does.
func TestTimeoutsNotInTheSchema(t *testing.T) {
	ps, err := tfprov6.New("test").GetProviderSchema(context.Background(), &tfprotov6.GetProviderSchemaRequest{})
	if err != nil {
		t.Fatal(err)
	}
	if got := tfschema.Timeouts(ps.ResourceSchemas["kv_job"].Block); !slices.Equal(got, []string{"create", "delete", "update"}) {
		t.Errorf("Timeouts(kv_job) = %v", got)
	}
	pkg, err := tfschema.Build(ps, tfschema.Options{Name: "kv", Prefix: "kv"})
	if err != nil {
		t.Fatal(err)
	}
	job := pkg.Schema.Resources["kv:index:Job"]
	if _, ok := job.InputProperties["timeouts"]; ok || job.Properties["timeouts"].Ref != "" || job.Properties["timeoutsSeen"].Type != "string" {
		t.Errorf("kv:index:Job declares timeouts, or lacks timeoutsSeen: %+v", job)
	}
	for tok := range pkg.Schema.Types {
		if strings.Contains(tok, "Timeouts") {
			t.Errorf("type %s in the schema", tok)
		}
	}
}

// TestCancelStopsTheApply: an apply in flight whose context is cancelled
// (the engine's Cancel) is told to stop with StopProvider, as Terraform
// tells it on an interrupt, and what it answers then is recorded. kv_job's
// held apply waits for StopProvider or its context, and says which.
func TestCancelStopsTheApply(t *testing.T) {
	root := t.TempDir()
	r := newKVOf(t, "kv_job", root)
	fifo := filepath.Join(t.TempDir(), "applying")
	if err := syscall.Mkfifo(fifo, 0o600); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	go func() {
		_, _ = os.ReadFile(fifo) // returns once the apply is in flight
		cancel()
	}()
	_, err := r.Create(ctx, custom.CreateRequest{ResourceInfo: info(root), Inputs: in("name", "j", "hold", fifo)})
	var partial *custom.PartialError
	if !errors.As(err, &partial) || partial.ID == "" || !strings.Contains(err.Error(), "StopProvider") {
		t.Fatalf("a cancelled create: %v; want the apply stopped by StopProvider, its state recorded", err)
	}
	wantString(t, partial.Outputs, "name", "j")
}
