package terraform

// Regression tests of an independent review of the backend: each failed
// at a3468b0.
import (
	"context"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/hashicorp/terraform-plugin-go/tfprotov6"
	"github.com/hashicorp/terraform-plugin-go/tftypes"
	"github.com/pulumi/pulumi/sdk/v3/go/property"

	"github.com/polyhost/polyhost/host"
	"github.com/polyhost/polyhost/host/hosttest"
	"github.com/polyhost/polyhost/host/terraform/internal/tfwire"
	"github.com/polyhost/polyhost/internal/tfprov6"
)

// wrapped is the kv provider, its schema described or its plans asking
// to replace key.
type wrapped struct {
	tfprotov6.ProviderServer
	describe, replaceKey bool
}

func (w wrapped) GetProviderSchema(ctx context.Context, req *tfprotov6.GetProviderSchemaRequest) (*tfprotov6.GetProviderSchemaResponse, error) {
	r, err := w.ProviderServer.GetProviderSchema(ctx, req)
	if err == nil && w.describe {
		r.Provider.Block.Description = "The kv provider."
	}
	return r, err
}

func (w wrapped) PlanResourceChange(ctx context.Context, req *tfprotov6.PlanResourceChangeRequest) (*tfprotov6.PlanResourceChangeResponse, error) {
	r, err := w.ProviderServer.PlanResourceChange(ctx, req)
	if err == nil && w.replaceKey {
		r.RequiresReplace = append(r.RequiresReplace, tftypes.NewAttributePath().WithAttributeName("key"))
	}
	return r, err
}

type wsrc struct {
	describe, replaceKey bool
	started, stopped     *atomic.Int32
}

func (wsrc) name() string { return "terraform-provider-kv" }
func (s wsrc) start(context.Context) (tfwire.Server, func() error, error) {
	s.started.Add(1)
	return wrapped{tfprov6.New("1.0.0"), s.describe, s.replaceKey}, func() error { s.stopped.Add(1); return nil }, nil
}

func newW(d, r bool) wsrc { return wsrc{d, r, new(atomic.Int32), new(atomic.Int32)} }

// A provider block with a description joins the package's schema; and a
// host.New that fails stops the provider processes it started.
func TestProviderDescriptionAndNoLeak(t *testing.T) {
	s := newW(true, false)
	_, err := host.New("kvkit", serve(s, options{prefix: "kv"}))
	if err != nil {
		t.Errorf("host.New with a provider block description: %v", err)
	}
	if err != nil && s.stopped.Load() < s.started.Load() {
		t.Errorf("failed host.New left %d process(es) running", s.started.Load()-s.stopped.Load())
	}
}

func configured(t *testing.T, s wsrc) *hosttest.Harness {
	p, err := host.New("kvkit", serve(s, options{prefix: "kv"}))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = p.Close() })
	h := hosttest.New(t, p)
	if err := h.Configure(context.Background(), property.NewMap(map[string]property.Value{"root": str(t.TempDir())})); err != nil {
		t.Fatal(err)
	}
	return h
}

// A RequiresReplace path whose value does not change replaces nothing, as
// Terraform filters it.
func TestRequiresReplaceOnlyWhenChanged(t *testing.T) {
	h := configured(t, newW(false, true))
	ctx := context.Background()
	e, err := h.Create(ctx, hosttest.CreateRequest{Type: "kvkit:index:Entry", Name: "e", Inputs: entryInputs("k", "v")})
	if err != nil {
		t.Fatal(err)
	}
	d, _ := h.Diff(ctx, hosttest.UpdateRequest{Resource: e, Inputs: entryInputs("k", "v2")})
	if len(d.Replaces) > 0 {
		t.Errorf("replaces %v although key is unchanged", d.Replaces)
	}
}

// A write-only attribute (a password_wo) is recorded secret: Terraform
// never stores it at all.
func TestWriteOnlyInputsAreSecret(t *testing.T) {
	h := configured(t, newW(false, false))
	e, err := h.Create(context.Background(), hosttest.CreateRequest{Type: "kvkit:index:Entry", Name: "e", Inputs: entryInputs("k", "v").Set("token", str("tok-123"))})
	if err != nil {
		t.Fatal(err)
	}
	if !e.Inputs.Get("token").Secret() {
		t.Errorf("write-only token in the recorded inputs in plaintext: %v", e.Inputs.Get("token"))
	}
}

// A state of the current schema version holding an attribute the schema
// no longer has still refreshes: providers ignore such attributes.
func TestStateWithDroppedAttribute(t *testing.T) {
	h := configured(t, newW(false, false))
	ctx := context.Background()
	e, err := h.Create(ctx, hosttest.CreateRequest{Type: "kvkit:index:Entry", Name: "e", Inputs: entryInputs("k", "v")})
	if err != nil {
		t.Fatal(err)
	}
	e.Outputs = e.Outputs.Set("dropped", str("x"))
	if _, err := h.Read(ctx, e); err != nil {
		t.Errorf("refresh of a same-version state holding an attribute the schema dropped: %v", err)
	}
}

// A host.New that fails after a provider started stops it: here two
// providers declare the same tokens.
func TestFailedNewStopsTheProcesses(t *testing.T) {
	a, b := newW(false, false), newW(false, false)
	if _, err := host.New("kvkit", serve(a, options{prefix: "kv"}), serve(b, options{prefix: "kv"})); err == nil {
		t.Fatal("two providers with the same tokens were taken")
	}
	for _, s := range []wsrc{a, b} {
		if s.started.Load() != s.stopped.Load() {
			t.Errorf("started %d processes, stopped %d", s.started.Load(), s.stopped.Load())
		}
	}
}

// hanging is a provider that starts but never answers for its schema.
type hanging struct{ tfprotov6.ProviderServer }

func (hanging) GetProviderSchema(ctx context.Context, _ *tfprotov6.GetProviderSchemaRequest) (*tfprotov6.GetProviderSchemaResponse, error) {
	<-ctx.Done()
	return nil, ctx.Err()
}

type hangingSource struct{ stopped *atomic.Int32 }

func (hangingSource) name() string { return "terraform-provider-hang" }

func (s hangingSource) start(context.Context) (tfwire.Server, func() error, error) {
	return hanging{tfprov6.New("1.0.0")}, func() error { s.stopped.Add(1); return nil }, nil
}

// A provider that never answers for its schema fails host.New once the
// start timeout passes, naming it, instead of hanging the plugin's start.
func TestSchemaReadIsBounded(t *testing.T) {
	src := hangingSource{new(atomic.Int32)}
	_, err := host.New("kit", serve(src, options{prefix: "hang", startTimeout: 200 * time.Millisecond}))
	if err == nil || !strings.Contains(err.Error(), "terraform-provider-hang: schema") {
		t.Fatalf("err = %v; want the schema read's failure naming the provider", err)
	}
	if src.stopped.Load() != 1 {
		t.Errorf("the process was stopped %d times, want 1", src.stopped.Load())
	}
}
