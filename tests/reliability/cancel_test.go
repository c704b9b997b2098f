package reliability

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/pulumi/pulumi/sdk/v3/go/common/resource"
	plugin "github.com/pulumi/pulumi/sdk/v3/go/common/resource/plugin"
	"github.com/pulumi/pulumi/sdk/v3/go/common/tokens"

	"github.com/polyhost/polyhost/internal/fakemonitor"
)

// sdkClient wraps a raw provider client in the SDK's plugin client, the
// code the engine uses, and configures it.
func sdkClient(t *testing.T, s *servedProvider, pkg string) plugin.Provider {
	t.Helper()
	host := &plugin.MockHost{}
	pctx, err := plugin.NewContextWithHost(context.Background(), nil, nil, host, t.TempDir(), t.TempDir(), nil)
	if err != nil {
		t.Fatal(err)
	}
	prov := plugin.NewProviderWithClient(pctx, s.client, false)
	typ := tokens.Type("pulumi:providers:" + pkg)
	name, id := "default", resource.ID("default-id")
	urn := resource.URN("urn:pulumi:dev::proj::pulumi:providers:" + pkg + "::default")
	if _, err := prov.Configure(context.Background(), plugin.ConfigureRequest{
		Type: &typ, Name: &name, URN: &urn, ID: &id, Inputs: resource.PropertyMap{},
	}); err != nil {
		t.Fatal(err)
	}
	return prov
}

// Cancel while a backend create is in progress: the create ends at once,
// well before the backend would have finished on its own (it never would),
// and the engine is told what exists so it records the resource.
func TestCancelDuringSlowCreate(t *testing.T) {
	t.Parallel()
	mon := fakemonitor.Start(t)
	backend := newSlowBackend()
	p, err := newBoom(backend)
	if err != nil {
		t.Fatal(err)
	}
	prov := sdkClient(t, serve(t, p, mon.Addr()), "boom")

	type result struct {
		resp plugin.CreateResponse
		err  error
		at   time.Time
	}
	done := make(chan result, 1)
	urn := resource.URN("urn:pulumi:dev::proj::boom:index:Slow::s")
	go func() {
		resp, err := prov.Create(context.Background(), plugin.CreateRequest{
			URN: urn, Name: "s", Type: boomSlow,
			Properties: resource.PropertyMap{"wait": resource.NewProperty(true)},
		})
		done <- result{resp, err, time.Now()}
	}()
	select {
	case <-backend.started:
	case <-time.After(hangGuard):
		t.Fatal("the create never reached the backend")
	}

	cancelled := time.Now()
	if err := prov.SignalCancellation(context.Background()); err != nil {
		t.Fatalf("Cancel: %v", err)
	}
	var r result
	select {
	case r = <-done:
	case <-time.After(hangGuard):
		t.Fatalf("Create still running %v after Cancel", hangGuard)
	}
	// The backend alone would never finish, so this is the cancellation
	// being honoured, not a benchmark.
	if took := r.at.Sub(cancelled); took >= time.Second {
		t.Errorf("Create ended %v after Cancel, want under 1s", took)
	}

	var initErr *plugin.InitError
	if r.resp.Status != resource.StatusPartialFailure || !errors.As(r.err, &initErr) {
		t.Fatalf("Create = %+v, %v; want a partial failure (ErrorResourceInitFailed)", r.resp, r.err)
	}
	if r.resp.ID != "slow-s" || r.resp.Properties["state"].StringValue() != "creating" {
		t.Errorf("partial state = id %q, %v; want the resource the backend made", r.resp.ID, r.resp.Properties)
	}
	if len(initErr.Reasons) != 1 || !strings.Contains(initErr.Reasons[0], "context canceled") {
		t.Errorf("reasons = %q, want the cancellation", initErr.Reasons)
	}
}
