package reliability

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/pulumi/pulumi/sdk/v3/go/common/resource"
	plugin "github.com/pulumi/pulumi/sdk/v3/go/common/resource/plugin"
	"github.com/pulumi/pulumi/sdk/v3/go/common/tokens"
	"github.com/pulumi/pulumi/sdk/v3/go/common/util/rpcutil/rpcerror"
	pulumirpc "github.com/pulumi/pulumi/sdk/v3/proto/go"
	"google.golang.org/protobuf/types/known/emptypb"
	"google.golang.org/protobuf/types/known/structpb"

	"github.com/polyhost/polyhost/host/hosttest"
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
	mon := hosttest.Start(t)
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

// The same on the shipped provider's own backend: an object create held by
// the slow-create fault ends as soon as the engine sends Cancel, reporting
// the object it wrote as a partial create (ErrorResourceInitFailed).
func TestCancelDuringSlowCreateBinary(t *testing.T) {
	t.Parallel()
	skipUnderRace(t)
	mon := hosttest.Start(t)
	p := startPlugin(t, faultyPlugin, mon.Addr(), "SITEKIT_FAULT=slow-create:*/slow.txt")
	store := t.TempDir()
	p.configure(t, map[string]any{"storageUrl": "file://" + store})

	bucket, err := p.client.Create(context.Background(), &pulumirpc.CreateRequest{
		Urn: "urn:pulumi:dev::proj::sitekit:index:Bucket::b", Name: "b", Type: "sitekit:index:Bucket",
	})
	if err != nil {
		t.Fatalf("bucket: %v\n%s", err, p.stderr)
	}
	props, err := structpb.NewStruct(map[string]any{"bucket": bucket.GetId(), "key": "slow.txt", "content": "x"})
	if err != nil {
		t.Fatal(err)
	}
	type result struct {
		err error
		at  time.Time
	}
	done := make(chan result, 1)
	go func() {
		_, err := p.client.Create(context.Background(), &pulumirpc.CreateRequest{
			Urn: "urn:pulumi:dev::proj::sitekit:index:BucketObject::o", Name: "o", Type: "sitekit:index:BucketObject",
			Properties: props,
		})
		done <- result{err, time.Now()}
	}()
	// The fault holds the create once the object is written: wait for the
	// write, then cancel.
	written := filepath.Join(store, bucket.GetId(), "slow.txt")
	for deadline := time.Now().Add(hangGuard); time.Now().Before(deadline); time.Sleep(10 * time.Millisecond) {
		if _, err := os.Stat(written); err == nil {
			break
		}
	}
	cancelled := time.Now()
	if _, err := p.client.Cancel(context.Background(), &emptypb.Empty{}); err != nil {
		t.Fatalf("Cancel: %v", err)
	}
	var r result
	select {
	case r = <-done:
	case <-time.After(hangGuard):
		t.Fatalf("Create still running %v after Cancel", hangGuard)
	}
	if took := r.at.Sub(cancelled); took >= time.Second {
		t.Errorf("Create ended %v after Cancel, want under 1s", took)
	}
	rerr, ok := rpcerror.FromError(r.err)
	if !ok {
		t.Fatalf("Create error = %v, want a status", r.err)
	}
	var partial *pulumirpc.ErrorResourceInitFailed
	for _, d := range rerr.Details() {
		if f, ok := d.(*pulumirpc.ErrorResourceInitFailed); ok {
			partial = f
		}
	}
	if partial == nil || partial.GetId() != bucket.GetId()+"/slow.txt" || !strings.Contains(r.err.Error(), "context canceled") {
		t.Fatalf("Create = %v (details %v); want a partial create of the object, cancelled", r.err, partial)
	}
}
