package terraform

import (
	"context"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/pulumi/pulumi/sdk/v3/go/property"

	"github.com/polyhost/polyhost/host"
	"github.com/polyhost/polyhost/host/custom"
	"github.com/polyhost/polyhost/host/hosttest"
	"github.com/polyhost/polyhost/host/terraform/internal/tfwire"
	"github.com/polyhost/polyhost/internal/tfprov6"
)

// inproc serves the kv test provider in-process, a fresh server per start,
// counting starts and stops.
type inproc struct{ started, stopped *atomic.Int32 }

func newInproc() inproc { return inproc{new(atomic.Int32), new(atomic.Int32)} }

func (inproc) name() string { return "terraform-provider-kv" }

func (s inproc) start(context.Context) (tfwire.Server, func() error, error) {
	s.started.Add(1)
	return tfprov6.New("1.0.0"), func() error { s.stopped.Add(1); return nil }, nil
}

func kvHarness(t *testing.T, src inproc, extra ...host.Option) (*hosttest.Harness, *host.Provider) {
	t.Helper()
	p, err := host.New("kvkit", append([]host.Option{serve(src, options{prefix: "kv"})}, extra...)...)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = p.Close() })
	return hosttest.New(t, p), p
}

func str(s string) property.Value { return property.New(s) }

func entryInputs(key, value string) property.Map {
	return property.NewMap(map[string]property.Value{"key": str(key), "value": str(value)})
}

// A package serving a Terraform provider: its schema joins the package's,
// and an entry goes through create, refresh, update, replace and delete
// against the provider, which keeps it in the configured root.
func TestProviderResourceLifecycle(t *testing.T) {
	t.Parallel()
	src := newInproc()
	h, p := kvHarness(t, src)
	for _, tok := range []string{"kvkit:index:Entry"} {
		if _, ok := p.Schema().Resource(tok); !ok {
			t.Fatalf("schema lacks %s: %s", tok, p.Schema().JSON())
		}
	}
	for _, tok := range []string{"kvkit:index:getEntry", "kvkit:index:checksum"} {
		if _, ok := p.Schema().Function(tok); !ok {
			t.Fatalf("schema lacks %s: %s", tok, p.Schema().JSON())
		}
	}
	root := t.TempDir()
	ctx := context.Background()
	if err := h.Configure(ctx, property.NewMap(map[string]property.Value{"root": str(root)})); err != nil {
		t.Fatal(err)
	}
	e, err := h.Create(ctx, hosttest.CreateRequest{Type: "kvkit:index:Entry", Name: "e", Inputs: entryInputs("greeting", "hello")})
	if err != nil {
		t.Fatal(err)
	}
	if e.ID != "greeting" || e.Outputs.Get("revision").AsNumber() != 1 || e.Outputs.Get("ttlSeconds").AsNumber() != tfprov6.DefaultTTL {
		t.Fatalf("created %s %v", e.ID, e.Outputs)
	}
	if !e.Outputs.Get("__terraform").Secret() {
		t.Errorf("__terraform = %v, want it secret", e.Outputs.Get("__terraform"))
	}
	if b, err := os.ReadFile(filepath.Join(root, "greeting.json")); err != nil || !strings.Contains(string(b), "hello") {
		t.Fatalf("the provider's store: %q, %v", b, err)
	}
	read, err := h.Read(ctx, e)
	if err != nil || !read.Outputs.Equals(e.Outputs) {
		t.Errorf("refresh = %v, %v; want %v", read.Outputs, err, e.Outputs)
	}
	diff, err := h.Diff(ctx, hosttest.UpdateRequest{Resource: e, Inputs: entryInputs("greeting", "hi")})
	if err != nil || diff.Changes["value"] != custom.DiffUpdate || len(diff.Replaces) > 0 {
		t.Fatalf("diff of value = %+v, %v; want an update", diff, err)
	}
	e, err = h.Update(ctx, hosttest.UpdateRequest{Resource: e, Inputs: entryInputs("greeting", "hi")})
	if err != nil || e.Outputs.Get("value").AsString() != "hi" || e.Outputs.Get("revision").AsNumber() != 2 {
		t.Fatalf("update = %v, %v", e.Outputs, err)
	}
	diff, err = h.Diff(ctx, hosttest.UpdateRequest{Resource: e, Inputs: entryInputs("welcome", "hi")})
	if err != nil || !slices.Equal(diff.Replaces, []string{"key"}) {
		t.Fatalf("diff of key = %+v, %v; want a replace", diff, err)
	}
	for _, l := range h.Monitor.Logs() {
		if strings.Contains(l.Message, "does not declare") {
			t.Errorf("warned: %s", l.Message)
		}
	}
	if err := h.Delete(ctx, e); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(filepath.Join(root, "greeting.json")); !os.IsNotExist(err) {
		t.Errorf("after delete: %v, want the entry gone", err)
	}
	if err := p.Close(); err != nil {
		t.Fatal(err)
	}
	if started, stopped := src.started.Load(), src.stopped.Load(); started != 1 || stopped != 1 {
		t.Errorf("processes started %d, stopped %d; want the schema's one, configured and stopped", started, stopped)
	}
}

// The data source and the function serve as the package's functions.
func TestProviderFunctions(t *testing.T) {
	t.Parallel()
	h, _ := kvHarness(t, newInproc())
	root := t.TempDir()
	ctx := context.Background()
	if err := h.Configure(ctx, property.NewMap(map[string]property.Value{"root": str(root)})); err != nil {
		t.Fatal(err)
	}
	if _, err := h.Create(ctx, hosttest.CreateRequest{Type: "kvkit:index:Entry", Name: "e", Inputs: entryInputs("k1", "v1")}); err != nil {
		t.Fatal(err)
	}
	got, err := h.Invoke(ctx, "kvkit:index:getEntry", property.NewMap(map[string]property.Value{"key": str("k1")}))
	if err != nil || got.Return.Get("value").AsString() != "v1" {
		t.Fatalf("getEntry = %v, %v; want value v1", got.Return, err)
	}
	sum, err := h.Invoke(ctx, "kvkit:index:checksum", property.NewMap(map[string]property.Value{"value": str("abc")}))
	if err != nil || !sum.Return.Get("result").IsString() || sum.Return.Get("result").AsString() == "" {
		t.Fatalf("checksum = %v, %v; want a result", sum.Return, err)
	}
}

// Two explicit provider instances with different roots are two provider
// processes, each serving its own resources.
func TestTwoInstancesTwoProcesses(t *testing.T) {
	t.Parallel()
	src := newInproc()
	h, _ := kvHarness(t, src)
	ctx := context.Background()
	roots := []string{t.TempDir(), t.TempDir()}
	for i, root := range roots {
		ref, err := h.RegisterProvider(ctx, hosttest.ProviderRequest{Name: "p" + string(rune('a'+i)), Config: property.NewMap(map[string]property.Value{"root": str(root)})})
		if err != nil {
			t.Fatal(err)
		}
		if _, err := h.Create(ctx, hosttest.CreateRequest{Type: "kvkit:index:Entry", Name: "e", Inputs: entryInputs("same_key", root), Provider: ref}); err != nil {
			t.Fatal(err)
		}
	}
	for _, root := range roots {
		b, err := os.ReadFile(filepath.Join(root, "same_key.json"))
		if err != nil || !strings.Contains(string(b), root) {
			t.Errorf("entry in %s: %q, %v; want its own value", root, b, err)
		}
	}
	if n := src.started.Load(); n != 2 {
		t.Errorf("started %d processes, want 2 (the schema's, configured for the first root, and one more)", n)
	}
}

// Naming what the provider lacks fails the host's start.
func TestOnlyUnknownName(t *testing.T) {
	t.Parallel()
	_, err := host.New("kvkit", serve(newInproc(), options{prefix: "kv", only: []string{"kv_entry", "kv_nothing"}}))
	if err == nil || !strings.Contains(err.Error(), "terraform-provider-kv has no resource, data source or function kv_nothing") {
		t.Fatalf("err = %v", err)
	}
}

// A provider's configuration error names the provider and the property.
func TestConfigureErrorNamesTheProvider(t *testing.T) {
	t.Parallel()
	h, _ := kvHarness(t, newInproc())
	ctx := context.Background()
	if err := h.Configure(ctx, property.NewMap(map[string]property.Value{"root": str("")})); err != nil {
		t.Fatal(err)
	}
	_, err := h.Create(ctx, hosttest.CreateRequest{Type: "kvkit:index:Entry", Name: "e", Inputs: entryInputs("k", "v")})
	if err == nil || !strings.Contains(err.Error(), "terraform provider terraform-provider-kv: configure") || !strings.Contains(err.Error(), "root") {
		t.Fatalf("err = %v; want the provider's configure error", err)
	}
}

func TestPrefixOf(t *testing.T) {
	t.Parallel()
	for path, want := range map[string]string{
		"/x/terraform-provider-time":           "time",
		"terraform-provider-time_v0.14.2":      "time",
		"/bin/terraform-provider-kv_v1.0.0_x5": "kv",
		"mine":                                 "mine",
	} {
		if got := prefixOf(path); got != want {
			t.Errorf("prefixOf(%q) = %q, want %q", path, got, want)
		}
	}
}

func TestReattachOf(t *testing.T) {
	t.Parallel()
	env := `{"registry.terraform.io/hashicorp/time": {"Protocol": "grpc", "ProtocolVersion": 5}}`
	if got, ok := reattachOf(env, "time"); !ok || !strings.Contains(got, `"ProtocolVersion": 5`) {
		t.Errorf("reattachOf = %q, %v", got, ok)
	}
	if _, ok := reattachOf(env, "kv"); ok {
		t.Error("reattachOf found an entry for kv")
	}
	if _, ok := reattachOf("not json", "time"); ok {
		t.Error("reattachOf read bad JSON")
	}
}

// Module puts the provider's tokens in a module of the package, types
// included, beside the package's own index tokens.
func TestModule(t *testing.T) {
	t.Parallel()
	p, err := host.New("kvkit", serve(newInproc(), options{prefix: "kv", module: "store"}))
	if err != nil {
		t.Fatal(err)
	}
	defer p.Close()
	if _, ok := p.Schema().Resource("kvkit:store:Entry"); !ok {
		t.Fatalf("no kvkit:store:Entry in %s", p.Schema().JSON())
	}
	if _, ok := p.Schema().Function("kvkit:store:getEntry"); !ok {
		t.Error("no kvkit:store:getEntry")
	}
	js := string(p.Schema().JSON())
	if !strings.Contains(js, `"kvkit:store:EntryOwner"`) || strings.Contains(js, "kvkit:index:") {
		t.Errorf("types not in the module: %s", js)
	}
	h := hosttest.New(t, p)
	ctx := context.Background()
	if err := h.Configure(ctx, property.NewMap(map[string]property.Value{"root": str(t.TempDir())})); err != nil {
		t.Fatal(err)
	}
	if _, err := h.Create(ctx, hosttest.CreateRequest{Type: "kvkit:store:Entry", Name: "e", Inputs: entryInputs("k", "v")}); err != nil {
		t.Fatal(err)
	}
}

// A provider's log lines, its own text that nothing redacts, are dropped
// unless the user asks for them with TF_LOG.
func TestProviderLogOnlyWhenAsked(t *testing.T) {
	t.Setenv("TF_LOG", "")
	for _, kv := range os.Environ() {
		if k, _, _ := strings.Cut(kv, "="); strings.HasPrefix(k, "TF_LOG_") {
			t.Setenv(k, "")
		}
	}
	if providerLog("terraform-provider-kv") != nil {
		t.Error("provider lines forwarded without TF_LOG")
	}
	t.Setenv("TF_LOG", "debug")
	if providerLog("terraform-provider-kv") == nil {
		t.Error("TF_LOG=debug, but provider lines dropped")
	}
}

// In a preview whose provider configuration is unknown (a root from
// another resource's output), no provider is configured: Check checks
// what Terraform itself checks, Diff compares the inputs, and nothing
// fails for want of a configuration.
func TestPreviewWithUnknownConfig(t *testing.T) {
	t.Parallel()
	src := newInproc()
	p, err := host.New("kvkit", serve(src, options{prefix: "kv"}))
	if err != nil {
		t.Fatal(err)
	}
	defer p.Close()
	h := hosttest.New(t, p, hosttest.WithDryRun(true))
	ctx := context.Background()
	if err := h.Configure(ctx, property.NewMap(map[string]property.Value{"root": property.New(property.Computed)})); err != nil {
		t.Fatal(err)
	}
	e, err := h.Create(ctx, hosttest.CreateRequest{Type: "kvkit:index:Entry", Name: "e", Inputs: entryInputs("k", "v")})
	if err != nil {
		t.Fatalf("a preview's create with the configuration unknown: %v", err)
	}
	if e.Inputs.Get("value").AsString() != "v" || !e.Outputs.Get("revision").IsComputed() {
		t.Errorf("previewed %v %v; want the inputs, and outputs unknown", e.Inputs, e.Outputs)
	}
	_, err = h.Create(ctx, hosttest.CreateRequest{Type: "kvkit:index:Entry", Name: "bad", Inputs: entryInputs("k", "v").Set("ttlSeconds", str("soon"))})
	if err == nil || !strings.Contains(err.Error(), "ttlSeconds") {
		t.Errorf("a mistyped input in the same preview: %v, want a failure naming ttlSeconds", err)
	}
	diff, err := h.Diff(ctx, hosttest.UpdateRequest{Resource: hosttest.Resource{URN: e.URN, ID: "k", Inputs: entryInputs("k", "v"), Outputs: entryInputs("k", "v")}, Inputs: entryInputs("k", "v2")})
	if err != nil || diff.Changes["value"] != custom.DiffUpdate {
		t.Errorf("diff = %+v, %v; want value updated", diff, err)
	}
	if n := src.started.Load(); n != 1 {
		t.Errorf("started %d processes, want the schema's alone", n)
	}
	// A data source reads only with a configured provider (and Pulumi
	// takes no unknown results from an Invoke): an error naming the
	// function and the unknown key. A provider function needs no
	// configuration, as in Terraform: it answers.
	_, err = h.Invoke(ctx, "kvkit:index:getEntry", property.NewMap(map[string]property.Value{"key": str("k")}))
	if err == nil || !strings.Contains(err.Error(), "kvkit:index:getEntry") || !strings.Contains(err.Error(), "root") || !strings.Contains(err.Error(), "not known") {
		t.Errorf("getEntry with the configuration unknown: %v, want an error naming the function and root", err)
	}
	sum, err := h.Invoke(ctx, "kvkit:index:checksum", property.NewMap(map[string]property.Value{"value": str("abc")}))
	if err != nil || sum.Return.Get("result").AsString() != "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad" {
		t.Errorf("checksum with the configuration unknown: %v, %v; want its result", sum.Return, err)
	}
}
