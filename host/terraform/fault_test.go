package terraform

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"sync"
	"sync/atomic"
	"testing"

	"github.com/hashicorp/terraform-plugin-go/tfprotov6"
	"github.com/hashicorp/terraform-plugin-go/tftypes"
	"github.com/pulumi/pulumi/sdk/v3/go/property"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"

	"github.com/polyhost/polyhost/host"
	"github.com/polyhost/polyhost/host/hosttest"
	"github.com/polyhost/polyhost/host/terraform/internal/tfwire"
	"github.com/polyhost/polyhost/internal/tfprov6"
)

// liar is the kv provider answering its applies, reads and data source
// reads with bad, a value not of the schema.
type liar struct {
	tfprotov6.ProviderServer
	bad *tfprotov6.DynamicValue
}

func (l liar) ApplyResourceChange(ctx context.Context, req *tfprotov6.ApplyResourceChangeRequest) (*tfprotov6.ApplyResourceChangeResponse, error) {
	resp, err := l.ProviderServer.ApplyResourceChange(ctx, req)
	if resp != nil && resp.NewState != nil {
		resp.NewState = l.bad
	}
	return resp, err
}

func (l liar) ReadResource(ctx context.Context, req *tfprotov6.ReadResourceRequest) (*tfprotov6.ReadResourceResponse, error) {
	resp, err := l.ProviderServer.ReadResource(ctx, req)
	if resp != nil {
		resp.NewState = l.bad
	}
	return resp, err
}

func (l liar) ReadDataSource(ctx context.Context, req *tfprotov6.ReadDataSourceRequest) (*tfprotov6.ReadDataSourceResponse, error) {
	resp, err := l.ProviderServer.ReadDataSource(ctx, req)
	if resp != nil {
		resp.State = l.bad
	}
	return resp, err
}

// liarSource serves an honest kv provider for the schema, a liar after.
type liarSource struct{ bad *tfprotov6.DynamicValue }

func (liarSource) name() string { return "terraform-provider-kv" }

func (s liarSource) start(context.Context) (tfwire.Server, func() error, error) {
	return liar{tfprov6.New("1.0.0"), s.bad}, func() error { return nil }, nil
}

// A provider answering with a value not of its schema fails the step with
// an error naming the provider and the resource type, never a panic.
func TestValueNotOfTheSchema(t *testing.T) {
	t.Parallel()
	str, err := tfprotov6.NewDynamicValue(tftypes.String, tftypes.NewValue(tftypes.String, "not an object"))
	if err != nil {
		t.Fatal(err)
	}
	for name, bad := range map[string]*tfprotov6.DynamicValue{
		"a string":             &str,
		"a number as a string": {JSON: []byte(`{"id":"k","key":"k","value":"v","revision":"many"}`)},
		"garbage":              {MsgPack: []byte{0xc1, 0xff, 0x00}},
	} {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			hp, err := host.New("kvkit", serve(liarSource{bad}, options{prefix: "kv"}))
			if err != nil {
				t.Fatal(err)
			}
			t.Cleanup(func() { _ = hp.Close() })
			h := hosttest.New(t, hp)
			ctx := context.Background()
			if err := h.Configure(ctx, property.NewMap(map[string]property.Value{"root": property.New(t.TempDir())})); err != nil {
				t.Fatal(err)
			}
			_, err = h.Create(ctx, hosttest.CreateRequest{Type: "kvkit:index:Entry", Name: "e", Inputs: entryInputs("k", "v")})
			wantNamed(t, "create", err, "kv_entry")
			_, err = h.Invoke(ctx, "kvkit:index:getEntry", property.NewMap(map[string]property.Value{"key": property.New("k")}))
			wantNamed(t, "getEntry", err, "kv_entry")
		})
	}
}

func wantNamed(t *testing.T, step string, err error, what string) {
	t.Helper()
	if err == nil {
		t.Fatalf("%s: no error", step)
	}
	for _, s := range []string{"terraform-provider-kv", what} {
		if !strings.Contains(err.Error(), s) {
			t.Errorf("%s: %v; want it to name %s", step, err, s)
		}
	}
}

// mortal is the in-process kv provider, doomed on demand: it dies in its
// next call, which fails, as do all after it, and then reports Exited, as
// a provider process that died does.
type mortal struct {
	tfprotov6.ProviderServer
	doomed, dead *atomic.Bool
}

// gone reports whether the call fails: the provider died in it, or before.
func (m mortal) gone() bool {
	if m.doomed.Load() {
		m.dead.Store(true)
	}
	return m.dead.Load()
}

var errGone = errors.New("rpc error: code = Unavailable desc = error reading from server: EOF")

func (m mortal) Exited() bool { return m.dead.Load() }

func (m mortal) UpgradeResourceState(ctx context.Context, req *tfprotov6.UpgradeResourceStateRequest) (*tfprotov6.UpgradeResourceStateResponse, error) {
	if m.gone() {
		return nil, errGone
	}
	return m.ProviderServer.UpgradeResourceState(ctx, req)
}

func (m mortal) ReadResource(ctx context.Context, req *tfprotov6.ReadResourceRequest) (*tfprotov6.ReadResourceResponse, error) {
	if m.gone() {
		return nil, errGone
	}
	return m.ProviderServer.ReadResource(ctx, req)
}

func (m mortal) ReadDataSource(ctx context.Context, req *tfprotov6.ReadDataSourceRequest) (*tfprotov6.ReadDataSourceResponse, error) {
	if m.gone() {
		return nil, errGone
	}
	return m.ProviderServer.ReadDataSource(ctx, req)
}

// mortals starts mortal providers, keeping each one's switch.
type mortals struct {
	mu    sync.Mutex
	kills []*atomic.Bool
}

func (*mortals) name() string { return "terraform-provider-kv" }

func (s *mortals) start(context.Context) (tfwire.Server, func() error, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	doomed := new(atomic.Bool)
	s.kills = append(s.kills, doomed)
	return mortal{tfprov6.New("1.0.0"), doomed, new(atomic.Bool)}, func() error { return nil }, nil
}

// kill dooms the last process started and returns how many were.
func (s *mortals) kill() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.kills[len(s.kills)-1].Store(true)
	return len(s.kills)
}

func (s *mortals) started() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return len(s.kills)
}

// A call without side effects that finds its process gone is made again
// on a new process: a refresh and a data source read whose process dies
// in their first call succeed.
func TestRetryOnANewProcess(t *testing.T) {
	t.Parallel()
	src := &mortals{}
	hp, err := host.New("kvkit", serve(src, options{prefix: "kv"}))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = hp.Close() })
	h := hosttest.New(t, hp)
	ctx := context.Background()
	if err := h.Configure(ctx, property.NewMap(map[string]property.Value{"root": property.New(t.TempDir())})); err != nil {
		t.Fatal(err)
	}
	e, err := h.Create(ctx, hosttest.CreateRequest{Type: "kvkit:index:Entry", Name: "e", Inputs: entryInputs("k", "v")})
	if err != nil {
		t.Fatal(err)
	}
	n := src.kill()
	read, err := h.Read(ctx, e)
	if err != nil || read.Outputs.Get("value").AsString() != "v" {
		t.Fatalf("refresh after the process died = %v, %v", read.Outputs, err)
	}
	if src.started() != n+1 {
		t.Errorf("started %d processes, want %d", src.started(), n+1)
	}
	src.kill()
	got, err := h.Invoke(ctx, "kvkit:index:getEntry", property.NewMap(map[string]property.Value{"key": property.New("k")}))
	if err != nil || got.Return.Get("value").AsString() != "v" {
		t.Fatalf("getEntry after the process died = %v, %v", got.Return, err)
	}
}

// flaky is the in-process kv provider whose data source reads answer a
// transient Unavailable while flaky is set: the process lives on.
type flaky struct {
	tfprotov6.ProviderServer
	fails *atomic.Int32 // how many reads fail next
}

func (f flaky) Exited() bool { return false }

func (f flaky) ReadDataSource(ctx context.Context, req *tfprotov6.ReadDataSourceRequest) (*tfprotov6.ReadDataSourceResponse, error) {
	if f.fails.Add(-1) >= 0 {
		return nil, fmt.Errorf("terraform provider kv: ReadDataSource: %w", status.Error(codes.Unavailable, "transient"))
	}
	return f.ProviderServer.ReadDataSource(ctx, req)
}

type flakySource struct{ fails, started *atomic.Int32 }

func (flakySource) name() string { return "terraform-provider-kv" }

func (s flakySource) start(context.Context) (tfwire.Server, func() error, error) {
	s.started.Add(1)
	return flaky{tfprov6.New("1.0.0"), s.fails}, func() error { return nil }, nil
}

// A transient Unavailable from a live process does not replace it: a
// call without side effects is made once more on the same process, and a
// second failure is returned.
func TestTransientUnavailableKeepsTheProcess(t *testing.T) {
	t.Parallel()
	src := flakySource{new(atomic.Int32), new(atomic.Int32)}
	hp, err := host.New("kvkit", serve(src, options{prefix: "kv"}))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = hp.Close() })
	h := hosttest.New(t, hp)
	ctx := context.Background()
	if err := h.Configure(ctx, property.NewMap(map[string]property.Value{"root": property.New(t.TempDir())})); err != nil {
		t.Fatal(err)
	}
	if _, err := h.Create(ctx, hosttest.CreateRequest{Type: "kvkit:index:Entry", Name: "e", Inputs: entryInputs("k", "v")}); err != nil {
		t.Fatal(err)
	}
	key := property.NewMap(map[string]property.Value{"key": property.New("k")})
	src.fails.Store(1)
	got, err := h.Invoke(ctx, "kvkit:index:getEntry", key)
	if err != nil || got.Return.Get("value").AsString() != "v" {
		t.Fatalf("getEntry after one transient failure = %v, %v", got.Return, err)
	}
	src.fails.Store(2)
	if _, err := h.Invoke(ctx, "kvkit:index:getEntry", key); err == nil || !strings.Contains(err.Error(), "transient") {
		t.Errorf("getEntry failing twice: %v, want the transient error", err)
	}
	if n := src.started.Load(); n != 1 {
		t.Errorf("started %d processes, want 1: a live process was replaced", n)
	}
}
