package tfwire

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/hashicorp/terraform-plugin-go/tfprotov6"
	"github.com/hashicorp/terraform-plugin-go/tftypes"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"
	"google.golang.org/protobuf/reflect/protoregistry"

	// Terraform-plugin-go's own copies of the protocol's messages: linking
	// them beside ours must not conflict in the protobuf registry.
	_ "github.com/hashicorp/terraform-plugin-go/tfprotov5/tf5server"
	_ "github.com/hashicorp/terraform-plugin-go/tfprotov6/tf6server"

	"github.com/polyhost/polyhost/host/terraform/internal/tfplugin5"
	"github.com/polyhost/polyhost/host/terraform/internal/tfplugin6"
	"github.com/polyhost/polyhost/host/terraform/internal/tftest"
	"github.com/polyhost/polyhost/internal/tfprov6"
)

func TestStubsBesideTerraformPluginGo(t *testing.T) {
	for _, path := range []string{"tfplugin5.proto", "tfplugin6.proto", "polyhost/tfplugin5.proto", "polyhost/tfplugin6.proto"} {
		if _, err := protoregistry.GlobalFiles.FindFileByPath(path); err != nil {
			t.Errorf("%s: %v", path, err)
		}
	}
	if n := tfplugin5.Provider_ServiceDesc.ServiceName; n != "tfplugin5.Provider" {
		t.Errorf("protocol 5 service %q", n)
	}
	if n := tfplugin6.Provider_ServiceDesc.ServiceName; n != "tfplugin6.Provider" {
		t.Errorf("protocol 6 service %q", n)
	}
}

// script writes an executable shell script into a temporary directory.
func script(t *testing.T, name, body string) string {
	t.Helper()
	p := filepath.Join(t.TempDir(), name)
	if err := os.WriteFile(p, []byte("#!/bin/sh\n"+body+"\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	return p
}

// startFails starts cfg, wants an error naming the provider's path and
// containing want, and the start to take less than within.
func startFails(t *testing.T, cfg Config, want string, within time.Duration) {
	t.Helper()
	t0 := time.Now()
	c, err := Start(context.Background(), cfg)
	if err == nil {
		c.Close()
		t.Fatal("Start succeeded")
	}
	if !strings.Contains(err.Error(), cfg.Path) || !strings.Contains(err.Error(), want) {
		t.Errorf("error %q, want the path %s and %q", err, cfg.Path, want)
	}
	if d := time.Since(t0); d > within {
		t.Errorf("Start took %v", d)
	}
}

func TestStartMissingBinary(t *testing.T) {
	p := filepath.Join(t.TempDir(), "terraform-provider-missing")
	startFails(t, Config{Path: p}, "no such file", 30*time.Second)
}

func TestStartNotAProvider(t *testing.T) {
	p := script(t, "terraform-provider-true", "exit 0")
	startFails(t, Config{Path: p}, "Failed to read any lines", 30*time.Second)
}

func TestStartHandshakeTimeout(t *testing.T) {
	p := script(t, "terraform-provider-sleepy", "exec sleep 600")
	startFails(t, Config{Path: p, StartTimeout: 2 * time.Second}, "timeout", 60*time.Second)
}

func TestStartCancelled(t *testing.T) {
	// The script says it runs through a FIFO, whose read blocks until it
	// does: the start is cancelled while it waits for a handshake.
	fifo := filepath.Join(t.TempDir(), "running")
	if err := syscall.Mkfifo(fifo, 0o600); err != nil {
		t.Fatal(err)
	}
	p := script(t, "terraform-provider-sleepy", "echo running > "+fifo+"\nexec sleep 600")
	ctx, cancel := context.WithCancel(context.Background())
	go func() {
		_, _ = os.ReadFile(fifo)
		cancel()
	}()
	t0 := time.Now()
	_, err := Start(ctx, Config{Path: p})
	if err == nil || !strings.Contains(err.Error(), p) || !strings.Contains(err.Error(), "context canceled") {
		t.Errorf("error %v, want the path and the cancellation", err)
	}
	if d := time.Since(t0); d > 50*time.Second {
		t.Errorf("cancelled Start took %v", d)
	}
}

func TestStartUnsupportedProtocol(t *testing.T) {
	p := script(t, "terraform-provider-v4", `
[ "$TF_PLUGIN_MAGIC_COOKIE" = d602bf8f470bc67ca7faa0386276bbdd4330efaf76d1a219cb4d6991ca9872b2 ] || exit 1
echo '1|4|tcp|127.0.0.1:1|grpc|'
exec sleep 600`)
	startFails(t, Config{Path: p}, "Plugin version: 4", 30*time.Second)
}

func TestProviderKilledMidCall(t *testing.T) {
	logs := newLogLines()
	c, s := configured(t, Config{Env: []string{"TF_LOG_SDK_PROTO=trace"}, Log: logs.log})
	typ := s.ResourceSchemas["time_sleep"].ValueType()
	null := dynamic(t, typ, tftypes.NewValue(typ, nil))
	config := dynamic(t, typ, object(typ, map[string]tftypes.Value{"create_duration": tftypes.NewValue(tftypes.String, "10m")}))
	plan, err := c.PlanResourceChange(ctx(t), &tfprotov6.PlanResourceChangeRequest{
		TypeName: "time_sleep", PriorState: null, ProposedNewState: config, Config: config,
	})
	if err != nil {
		t.Fatal(err)
	}
	noErrors(t, "PlanResourceChange", plan.Diagnostics)

	done := make(chan error, 1)
	go func() {
		_, err := c.ApplyResourceChange(ctx(t), &tfprotov6.ApplyResourceChangeRequest{
			TypeName: "time_sleep", PriorState: null, PlannedState: plan.PlannedState, Config: config,
		})
		done <- err
	}()
	// The provider says it received the apply: it is in its 10 minute sleep.
	if _, ok := logs.wait("tf_rpc=ApplyResourceChange", time.Minute); !ok {
		t.Fatal("the provider never logged the apply")
	}
	proc, err := os.FindProcess(c.pc.ReattachConfig().Pid)
	if err != nil {
		t.Fatal(err)
	}
	if err := proc.Kill(); err != nil {
		t.Fatal(err)
	}
	select {
	case err := <-done:
		if err == nil || !strings.Contains(err.Error(), "terraform-provider-time") || !strings.Contains(err.Error(), "ApplyResourceChange") {
			t.Errorf("error %v, want one naming the provider and the RPC", err)
		}
	case <-time.After(50 * time.Second):
		t.Fatal("the call outlived its provider")
	}
	_, err = c.GetMetadata(ctx(t), &tfprotov6.GetMetadataRequest{})
	if err == nil || !strings.Contains(err.Error(), "terraform-provider-time") || !strings.Contains(err.Error(), "GetMetadata") {
		t.Errorf("call after the kill: error %v", err)
	}
}

// A provider that answers Unavailable but lives on is not gone: the call
// fails, Exited stays false, and the same process serves the next call.
func TestTransientUnavailable(t *testing.T) {
	c, err := Start(ctx(t), Config{Path: tftest.KVProvider(t), Env: []string{tfprov6.UnavailableEnv + "=1"}})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { c.Close() })
	_, err = c.ReadDataSource(ctx(t), &tfprotov6.ReadDataSourceRequest{TypeName: "kv_entry"})
	if status.Code(errors.Unwrap(err)) != codes.Unavailable || !strings.Contains(err.Error(), "ReadDataSource") {
		t.Fatalf("error %v, want Unavailable naming the RPC", err)
	}
	if c.Exited() {
		t.Error("a transient Unavailable marked the live provider gone")
	}
	if _, err := c.GetMetadata(ctx(t), &tfprotov6.GetMetadataRequest{}); err != nil {
		t.Errorf("the next call: %v", err)
	}
}
