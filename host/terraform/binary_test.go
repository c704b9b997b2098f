package terraform

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/pulumi/pulumi/sdk/v3/go/property"
	pulumirpc "github.com/pulumi/pulumi/sdk/v3/proto/go"
	"google.golang.org/grpc"
	"google.golang.org/grpc/credentials/insecure"
	"google.golang.org/protobuf/types/known/emptypb"
	"google.golang.org/protobuf/types/known/structpb"

	"github.com/polyhost/polyhost/host"
	"github.com/polyhost/polyhost/host/hosttest"
	"github.com/polyhost/polyhost/host/terraform/internal/tftest"
	"github.com/polyhost/polyhost/internal/tfprov6"
)

func TestMain(m *testing.M) {
	code := m.Run()
	tftest.Cleanup()
	os.Exit(code)
}

// terraform-provider-time (protocol 5) serves timekit's resources and
// functions: a time_static's create reads back its RFC 3339 time, the
// function parses one, and the process ends with the plugin.
func TestTimeProviderBinary(t *testing.T) {
	t.Parallel()
	p, err := host.New("timekit", WithProvider(tftest.TimeProvider(t), Only("time_static", "time_offset", "rfc3339_parse")))
	if err != nil {
		t.Fatal(err)
	}
	defer p.Close()
	for _, tok := range []string{"timekit:index:Static", "timekit:index:Offset"} {
		if _, ok := p.Schema().Resource(tok); !ok {
			t.Errorf("schema lacks %s", tok)
		}
	}
	if _, ok := p.Schema().Resource("timekit:index:Sleep"); ok {
		t.Error("Only left out time_sleep, but the schema has it")
	}
	h := hosttest.New(t, p)
	ctx := context.Background()
	if err := h.Configure(ctx, property.Map{}); err != nil {
		t.Fatal(err)
	}
	const at = "2026-11-28T10:00:00Z"
	s, err := h.Create(ctx, hosttest.CreateRequest{Type: "timekit:index:Static", Name: "s",
		Inputs: property.NewMap(map[string]property.Value{"rfc3339": property.New(at)})})
	if err != nil {
		t.Fatal(err)
	}
	if s.ID != at || s.Outputs.Get("year").AsNumber() != 2026 || s.Outputs.Get("unix").AsNumber() != float64(time.Date(2026, 11, 28, 10, 0, 0, 0, time.UTC).Unix()) {
		t.Fatalf("created %s %v", s.ID, s.Outputs)
	}
	o, err := h.Create(ctx, hosttest.CreateRequest{Type: "timekit:index:Offset", Name: "o",
		Inputs: property.NewMap(map[string]property.Value{"baseRfc3339": property.New(at), "offsetDays": property.New(3.0)})})
	if err != nil || o.Outputs.Get("rfc3339").AsString() != "2026-12-01T10:00:00Z" {
		t.Fatalf("offset = %v, %v", o.Outputs, err)
	}
	got, err := h.Invoke(ctx, "timekit:index:rfc3339Parse", property.NewMap(map[string]property.Value{"timestamp": property.New(at)}))
	if err != nil || got.Return.Get("year").AsNumber() != 2026 {
		t.Fatalf("rfc3339Parse = %v, %v", got.Return, err)
	}
	if err := h.Delete(ctx, s); err != nil {
		t.Fatal(err)
	}
}

// The kv provider's binary (protocol 6, go-plugin's handshake and mTLS)
// serves as the in-process one does.
func TestKVProviderBinary(t *testing.T) {
	t.Parallel()
	p, err := host.New("kvkit", WithProvider(tftest.KVProvider(t)))
	if err != nil {
		t.Fatal(err)
	}
	defer p.Close()
	h := hosttest.New(t, p)
	root := t.TempDir()
	ctx := context.Background()
	if err := h.Configure(ctx, property.NewMap(map[string]property.Value{"root": property.New(root)})); err != nil {
		t.Fatal(err)
	}
	e, err := h.Create(ctx, hosttest.CreateRequest{Type: "kvkit:index:Entry", Name: "e", Inputs: entryInputs("k", "v")})
	if err != nil {
		t.Fatal(err)
	}
	if b, err := os.ReadFile(filepath.Join(root, "k.json")); err != nil || !strings.Contains(string(b), `"v"`) {
		t.Fatalf("stored %q, %v", b, err)
	}
	if err := h.Delete(ctx, e); err != nil {
		t.Fatal(err)
	}
}

// A missing binary, or one that is no provider, fails the host's start
// with an error naming it.
func TestBadBinaries(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	notProvider := filepath.Join(dir, "terraform-provider-nothing")
	if err := os.WriteFile(notProvider, []byte("#!/bin/sh\necho hello\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	for path, want := range map[string]string{
		filepath.Join(dir, "terraform-provider-missing"): "terraform-provider-missing",
		notProvider: "terraform-provider-nothing",
	} {
		_, err := host.New("kit", WithProvider(path, StartTimeout(20*time.Second)))
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%s: %v; want an error naming it", path, err)
		}
	}
}

// A bare name is found on PATH; one found nowhere is named.
func TestResolve(t *testing.T) {
	dir := t.TempDir()
	bin := filepath.Join(dir, "terraform-provider-found")
	if err := os.WriteFile(bin, []byte("#!/bin/sh\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	t.Setenv("PATH", dir)
	if got, err := resolve("terraform-provider-found"); err != nil || got != bin {
		t.Errorf("resolve = %q, %v; want %q", got, err, bin)
	}
	if _, err := resolve("terraform-provider-gone"); err == nil || !strings.Contains(err.Error(), "terraform-provider-gone: neither beside the plugin nor on PATH") {
		t.Errorf("resolve of a missing name: %v", err)
	}
	if got, err := resolve("./rel/terraform-provider-x"); err != nil || got != "./rel/terraform-provider-x" {
		t.Errorf("a path with a folder: %q, %v; want it as is", got, err)
	}
}

// A provider that exits inside an apply fails the create with an error
// naming the provider and the resource type; the next request starts a
// new process, which serves it.
func TestProviderCrash(t *testing.T) {
	t.Parallel()
	p, err := host.New("kvkit", WithProvider(tftest.KVProvider(t), Env(tfprov6.CrashEnv+"=crashing")))
	if err != nil {
		t.Fatal(err)
	}
	defer p.Close()
	h := hosttest.New(t, p)
	root := t.TempDir()
	ctx := context.Background()
	if err := h.Configure(ctx, property.NewMap(map[string]property.Value{"root": property.New(root)})); err != nil {
		t.Fatal(err)
	}
	_, err = h.Create(ctx, hosttest.CreateRequest{Type: "kvkit:index:Entry", Name: "e", Inputs: entryInputs("crashing", "v")})
	if err == nil || !strings.Contains(err.Error(), "terraform provider terraform-provider-kv") || !strings.Contains(err.Error(), "kv_entry: apply") ||
		!strings.Contains(err.Error(), "ApplyResourceChange: the provider stopped answering: it exited or closed the connection") {
		t.Fatalf("create = %v; want an error naming the provider and kv_entry", err)
	}
	if _, err := os.Stat(filepath.Join(root, "crashing.json")); !os.IsNotExist(err) {
		t.Fatalf("the crashed create stored its entry (%v)", err)
	}
	e, err := h.Create(ctx, hosttest.CreateRequest{Type: "kvkit:index:Entry", Name: "f", Inputs: entryInputs("fine", "v")})
	if err != nil || e.ID != "fine" {
		t.Fatalf("create after the crash = %v, %v; want a new process to serve it", e.ID, err)
	}
}

// A create whose request is cancelled mid-apply (the engine's Cancel
// cancels every request in flight) tells the provider process to stop:
// kv_job's held apply returns once StopProvider reaches it over gRPC.
func TestCancelStopsTheProviderProcess(t *testing.T) {
	t.Parallel()
	p, err := host.New("kvkit", WithProvider(tftest.KVProvider(t)))
	if err != nil {
		t.Fatal(err)
	}
	defer p.Close()
	h := hosttest.New(t, p)
	if err := h.Configure(context.Background(), property.NewMap(map[string]property.Value{"root": property.New(t.TempDir())})); err != nil {
		t.Fatal(err)
	}
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
	_, err = h.Create(ctx, hosttest.CreateRequest{Type: "kvkit:index:Job", Name: "j",
		Inputs: property.NewMap(map[string]property.Value{"name": property.New("j"), "hold": property.New(fifo)})})
	if err == nil || !strings.Contains(err.Error(), "StopProvider") {
		t.Fatalf("a cancelled create: %v; want the apply stopped by StopProvider", err)
	}
}

// portLine hands the port line host.Serve writes to the test.
type portLine chan string

func (w portLine) Write(p []byte) (int, error) {
	w <- string(p)
	return len(p), nil
}

// The engine's Cancel RPC (its first Ctrl-C) cancels the requests in
// flight: a create whose apply is in flight in a provider process tells
// that process to stop, and answers with what the stopped apply returned.
func TestEngineCancelStopsTheApply(t *testing.T) {
	t.Parallel()
	p, err := host.New("kvkit", WithProvider(tftest.KVProvider(t)))
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	out := make(portLine, 1)
	done := make(chan error, 1)
	go func() { done <- host.Serve(ctx, p, nil, out) }()
	t.Cleanup(func() {
		cancel()
		if err := <-done; err != nil {
			t.Errorf("serve returned %v", err)
		}
	})
	var port string
	select {
	case port = <-out:
	case err := <-done:
		t.Fatalf("serve: %v", err)
	}
	conn, err := grpc.NewClient("127.0.0.1:"+strings.TrimSpace(port), grpc.WithTransportCredentials(insecure.NewCredentials()))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = conn.Close() })
	client := pulumirpc.NewResourceProviderClient(conn)
	args, _ := structpb.NewStruct(map[string]any{"root": t.TempDir()})
	if _, err := client.Configure(ctx, &pulumirpc.ConfigureRequest{Args: args, AcceptSecrets: true}); err != nil {
		t.Fatal(err)
	}
	fifo := filepath.Join(t.TempDir(), "applying")
	if err := syscall.Mkfifo(fifo, 0o600); err != nil {
		t.Fatal(err)
	}
	cancelled := make(chan error, 1)
	go func() {
		_, _ = os.ReadFile(fifo) // returns once the apply is in flight
		_, err := client.Cancel(context.Background(), &emptypb.Empty{})
		cancelled <- err
	}()
	props, _ := structpb.NewStruct(map[string]any{"name": "j", "hold": fifo})
	_, err = client.Create(ctx, &pulumirpc.CreateRequest{Urn: "urn:pulumi:dev::p::kvkit:index:Job::j", Type: "kvkit:index:Job", Name: "j", Properties: props})
	if err == nil || !strings.Contains(err.Error(), "StopProvider") {
		t.Fatalf("a create the engine cancelled: %v; want the apply stopped by StopProvider", err)
	}
	if err := <-cancelled; err != nil {
		t.Errorf("Cancel: %v", err)
	}
}
