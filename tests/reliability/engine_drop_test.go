package reliability

import (
	"context"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/pulumi/pulumi/sdk/v3/go/common/resource"
	"github.com/pulumi/pulumi/sdk/v3/go/property"
	pulumirpc "github.com/pulumi/pulumi/sdk/v3/proto/go"
	"google.golang.org/grpc/status"

	"github.com/polyhost/polyhost/host/hosttest"
)

// stallingMonitor is a fake engine whose registrations of one type never
// get an answer: it reports when one is in flight and holds it until the
// test ends.
func stallingMonitor(t *testing.T, stallType string) (*hosttest.Monitor, <-chan struct{}) {
	t.Helper()
	inflight, release := make(chan struct{}), make(chan struct{})
	var once sync.Once
	mon := hosttest.Start(t, hosttest.WithRegisterHook(func(r hosttest.Registration) (resource.ID, property.Map, error) {
		if r.Type == stallType {
			once.Do(func() { close(inflight) })
			<-release
		}
		return resource.ID("id-" + r.Name), r.Inputs, nil
	}))
	t.Cleanup(func() { close(release) }) // runs before the monitor stops
	return mon, inflight
}

type constructResult struct {
	resp *pulumirpc.ConstructResponse
	err  error
}

// constructAsync sends Construct and returns a channel for the answer.
func constructAsync(client pulumirpc.ResourceProviderClient, req *pulumirpc.ConstructRequest) <-chan constructResult {
	out := make(chan constructResult, 1)
	go func() {
		resp, err := client.Construct(context.Background(), req)
		out <- constructResult{resp, err}
	}()
	return out
}

func awaitConstruct(t *testing.T, c <-chan constructResult) constructResult {
	t.Helper()
	select {
	case r := <-c:
		return r
	case <-time.After(hangGuard):
		t.Fatalf("Construct still running %v after the engine went away", hangGuard)
		return constructResult{}
	}
}

func awaitSignal(t *testing.T, c <-chan struct{}, what string) {
	t.Helper()
	select {
	case <-c:
	case <-time.After(hangGuard):
		t.Fatalf("timed out waiting for %s", what)
	}
}

// The engine vanishes while a component's child registration is in
// flight: Construct fails naming the registration, host.Serve returns
// (it polls the engine's health), and no goroutine is left behind.
func TestEngineVanishesMidConstruct(t *testing.T) {
	// Not parallel: the goroutine check must see this test alone. A first
	// round trip starts whatever gRPC starts once per process.
	t.Run("warm-up", warmUp)
	before := snapshotGoroutines()
	t.Run("connection drops", engineDropsMidRegistration)
	t.Run("monitor hangs, engine gone", monitorHangsEngineGone)
	checkNoLeaks(t, before)
}

// warmUp serves the provider for one Construct and stops it.
func warmUp(t *testing.T) {
	mon := hosttest.Start(t)
	p, err := newBoom(newSlowBackend())
	if err != nil {
		t.Fatal(err)
	}
	srv := serve(t, p, mon.Addr())
	if _, err := srv.client.Construct(context.Background(), &pulumirpc.ConstructRequest{
		Project: project, Stack: stack, MonitorEndpoint: mon.Addr(), Type: boomComp, Name: "c", Parent: stackURN,
	}); err != nil {
		t.Fatal(err)
	}
	srv.cancel()
	if err := srv.wait(t); err != nil {
		t.Fatal(err)
	}
}

// engineDropsMidRegistration cuts the engine's whole endpoint (monitor and
// Engine service) while the child registration waits for its answer.
func engineDropsMidRegistration(t *testing.T) {
	mon, inflight := stallingMonitor(t, boomChild)
	engine := startProxy(t, mon.Addr())
	p, err := newBoom(newSlowBackend())
	if err != nil {
		t.Fatal(err)
	}
	srv := serve(t, p, engine.Addr())
	res := constructAsync(srv.client, &pulumirpc.ConstructRequest{
		Project: project, Stack: stack, MonitorEndpoint: engine.Addr(),
		Type: boomComp, Name: "c", Parent: stackURN,
	})
	awaitSignal(t, inflight, "the child registration")
	engine.Cut()

	r := awaitConstruct(t, res)
	if r.err == nil {
		t.Fatalf("Construct succeeded without an engine: %v", r.resp)
	}
	if msg := status.Convert(r.err).Message(); !strings.Contains(msg, `register child boom:index:Child "c-child"`) {
		t.Errorf("Construct error %q does not name the failed registration", msg)
	}
	if err := srv.wait(t); err != nil {
		t.Errorf("host.Serve returned %v, want a clean stop", err)
	}
}

// monitorHangsEngineGone: the monitor accepted the child registration and
// never answers, and the engine's address stops answering health checks.
// Only the host's own engine poll can end the Construct.
func monitorHangsEngineGone(t *testing.T) {
	mon, inflight := stallingMonitor(t, boomChild)
	engine := startProxy(t, mon.Addr())
	p, err := newBoom(newSlowBackend())
	if err != nil {
		t.Fatal(err)
	}
	srv := serve(t, p, engine.Addr())
	res := constructAsync(srv.client, &pulumirpc.ConstructRequest{
		Project: project, Stack: stack, MonitorEndpoint: mon.Addr(), // not through the proxy
		Type: boomComp, Name: "c", Parent: stackURN,
	})
	awaitSignal(t, inflight, "the child registration")
	engine.Cut()

	r := awaitConstruct(t, res)
	if r.err == nil {
		t.Fatalf("Construct succeeded without an answer from the monitor: %v", r.resp)
	}
	if msg := status.Convert(r.err).Message(); !strings.Contains(msg, `register child boom:index:Child "c-child"`) {
		t.Errorf("Construct error %q does not name the abandoned registration", msg)
	}
	if err := srv.wait(t); err != nil {
		t.Errorf("host.Serve returned %v, want a clean stop", err)
	}
}

// The real plugin process: the engine vanishes while the Site's bucket
// registration is in flight; Construct fails and the process exits 0.
func TestEngineVanishesMidConstructBinary(t *testing.T) {
	skipUnderRace(t)
	t.Parallel()
	mon, inflight := stallingMonitor(t, "sitekit:index:Bucket")
	engine := startProxy(t, mon.Addr())
	proc := startPlugin(t, pluginBin, engine.Addr())
	proc.configure(t, map[string]any{"storageUrl": "mem://"})
	res := constructAsync(proc.client, &pulumirpc.ConstructRequest{
		Project: project, Stack: stack, MonitorEndpoint: engine.Addr(),
		Type: "sitekit:index:Site", Name: "www", Parent: stackURN, Inputs: rawStruct(t, map[string]any{"indexContent": "hi"}),
	})
	awaitSignal(t, inflight, "the bucket registration")
	engine.Cut()

	r := awaitConstruct(t, res)
	if r.err == nil {
		t.Fatalf("Construct succeeded without an engine: %v", r.resp)
	}
	if msg := status.Convert(r.err).Message(); !strings.Contains(msg, `register child sitekit:index:Bucket "www-bucket"`) {
		t.Errorf("Construct error %q does not name the failed registration", msg)
	}
	select {
	case <-proc.exited:
		if got := exitCode(proc.err); got != "exit 0" {
			t.Errorf("plugin ended with %s, want exit 0; stderr:\n%s", got, proc.stderr)
		}
	case <-time.After(hangGuard):
		t.Fatalf("plugin still running %v after the engine went away", hangGuard)
	}
}
