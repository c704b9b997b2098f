package terraform

import (
	"context"
	"fmt"
	"runtime"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/hashicorp/terraform-plugin-go/tfprotov6"
	"github.com/hashicorp/terraform-plugin-go/tftypes"
	"github.com/pulumi/pulumi/sdk/v3/go/common/resource"
	"github.com/pulumi/pulumi/sdk/v3/go/common/resource/plugin"
	pulumirpc "github.com/pulumi/pulumi/sdk/v3/proto/go"
	"google.golang.org/protobuf/types/known/structpb"

	"github.com/polyhost/polyhost/host"
	"github.com/polyhost/polyhost/host/hosttest"
	"github.com/polyhost/polyhost/host/terraform/internal/tftest"
	"github.com/polyhost/polyhost/host/terraform/internal/tfwire"
)

// recorder is a provider process whose every call it keeps, to replay.
type recorder struct {
	tfwire.Server
	mu    sync.Mutex
	calls []func(context.Context, tfwire.Server) (any, error)
}

func record[Req, Resp any](r *recorder, call func(tfwire.Server, context.Context, *Req) (*Resp, error), ctx context.Context, req *Req) (*Resp, error) {
	r.mu.Lock()
	r.calls = append(r.calls, func(ctx context.Context, s tfwire.Server) (any, error) { return call(s, ctx, req) })
	r.mu.Unlock()
	return call(r.Server, ctx, req)
}

func (r *recorder) ValidateResourceConfig(ctx context.Context, req *tfprotov6.ValidateResourceConfigRequest) (*tfprotov6.ValidateResourceConfigResponse, error) {
	return record(r, tfwire.Server.ValidateResourceConfig, ctx, req)
}

func (r *recorder) PlanResourceChange(ctx context.Context, req *tfprotov6.PlanResourceChangeRequest) (*tfprotov6.PlanResourceChangeResponse, error) {
	return record(r, tfwire.Server.PlanResourceChange, ctx, req)
}

func (r *recorder) ApplyResourceChange(ctx context.Context, req *tfprotov6.ApplyResourceChangeRequest) (*tfprotov6.ApplyResourceChangeResponse, error) {
	return record(r, tfwire.Server.ApplyResourceChange, ctx, req)
}

func (r *recorder) ReadResource(ctx context.Context, req *tfprotov6.ReadResourceRequest) (*tfprotov6.ReadResourceResponse, error) {
	return record(r, tfwire.Server.ReadResource, ctx, req)
}

func (r *recorder) UpgradeResourceState(ctx context.Context, req *tfprotov6.UpgradeResourceStateRequest) (*tfprotov6.UpgradeResourceStateResponse, error) {
	return record(r, tfwire.Server.UpgradeResourceState, ctx, req)
}

// recording starts the binary as WithProvider does, and records the
// calls made to the configured process (the one after the schema's).
type recording struct {
	binary
	last *recorder
}

func (s *recording) start(ctx context.Context) (tfwire.Server, func() error, error) {
	srv, stop, err := s.binary.start(ctx)
	if err != nil {
		return nil, nil, err
	}
	s.last = &recorder{Server: srv}
	return s.last, stop, nil
}

// cpu is this process's user and system CPU time so far; the provider
// processes, its children, are not counted.
func cpu(b *testing.B) time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		b.Fatal(err)
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// BenchmarkBackendCPU is the Terraform backend's own cost: n time_static
// resources created, refreshed and deleted through the host (Check,
// Create, Read, Delete requests as the engine sends them), against the
// floor, a bare client replaying exactly the protocol calls the host made
// on a provider process of its own and decoding the states they answer.
// The two take turns, a chunk of resources at a time, so that the shared
// machine's load weighs on both alike. Both figures are this process's
// CPU per resource; docs/performance.md has them.
func BenchmarkBackendCPU(b *testing.B) {
	const n, chunks = 1000, 10
	bin := tftest.TimeProvider(b)
	ctx := context.Background()
	for b.Loop() {
		src := &recording{binary: binary{path: bin}}
		p, err := host.New("timekit", serve(src, options{prefix: "time", only: []string{"time_static"}}))
		if err != nil {
			b.Fatal(err)
		}
		srv := hosttest.NewServer(p)
		if _, err := srv.Configure(ctx, &pulumirpc.ConfigureRequest{Args: &structpb.Struct{}, AcceptSecrets: true}); err != nil {
			b.Fatal(err)
		}
		floor, err := tfwire.Start(ctx, tfwire.Config{Path: bin})
		if err != nil {
			b.Fatal(err)
		}
		schema, err := floor.GetProviderSchema(ctx, &tfprotov6.GetProviderSchemaRequest{})
		if err != nil {
			b.Fatal(err)
		}
		// The configure calls the pool made went to the process before
		// recording began; the floor's configure is not counted either.
		if _, err := floor.ConfigureProvider(ctx, &tfprotov6.ConfigureProviderRequest{TerraformVersion: terraformVersion,
			Config: emptyConfig(b)}); err != nil {
			b.Fatal(err)
		}
		typ := schema.ResourceSchemas["time_static"].ValueType()
		base := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
		var ours, bare time.Duration
		replayed := 0
		for c := range chunks {
			start := cpu(b)
			for i := c * n / chunks; i < (c+1)*n/chunks; i++ {
				driveOne(b, srv, base.Add(time.Duration(i)*time.Second))
			}
			ours += cpu(b) - start
			calls := src.last.calls[replayed:]
			replayed += len(calls)
			start = cpu(b)
			for _, call := range calls {
				resp, err := call(ctx, floor)
				if err == nil {
					err = readState(resp, typ)
				}
				if err != nil {
					b.Fatal(err)
				}
			}
			bare += cpu(b) - start
		}
		_ = p.Close()
		_ = floor.Close()
		b.ReportMetric(float64(ours.Microseconds())/n, "ours-cpu-us/resource")
		b.ReportMetric(float64(bare.Microseconds())/n, "floor-cpu-us/resource")
		b.ReportMetric(float64(ours)/float64(bare), "ours/floor")
		b.ReportMetric(float64(replayed)/n, "calls/resource")
	}
}

// BenchmarkBackendMemory is the backend's memory per resource at 250 and
// at 1,000 resources, each created, refreshed and deleted as in
// BenchmarkBackendCPU: what this process allocates per resource (bytes
// and objects), and what stays live after a collection at the end, per
// resource (the host keeps nothing per resource: the engine keeps the
// state). Flat means the same figures at both sizes. The provider
// processes are not counted. docs/performance.md has the figures.
func BenchmarkBackendMemory(b *testing.B) {
	for _, n := range []int{250, 1000} {
		b.Run(fmt.Sprintf("resources=%d", n), func(b *testing.B) {
			bin := tftest.TimeProvider(b)
			ctx := context.Background()
			for b.Loop() {
				p, err := host.New("timekit", serve(binary{path: bin}, options{prefix: "time", only: []string{"time_static"}}))
				if err != nil {
					b.Fatal(err)
				}
				srv := hosttest.NewServer(p)
				if _, err := srv.Configure(ctx, &pulumirpc.ConfigureRequest{Args: &structpb.Struct{}, AcceptSecrets: true}); err != nil {
					b.Fatal(err)
				}
				base := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
				driveOne(b, srv, base.Add(-time.Second)) // the first request's one-off work is not per resource
				before := memStats()
				for i := range n {
					driveOne(b, srv, base.Add(time.Duration(i)*time.Second))
				}
				after := memStats()
				runtime.KeepAlive(srv)
				_ = p.Close()
				b.ReportMetric(float64(after.TotalAlloc-before.TotalAlloc)/float64(n), "alloc-B/resource")
				b.ReportMetric(float64(after.Mallocs-before.Mallocs)/float64(n), "allocs/resource")
				b.ReportMetric((float64(after.HeapAlloc)-float64(before.HeapAlloc))/float64(n), "live-B/resource")
				b.ReportMetric(float64(after.HeapAlloc)/(1<<20), "live-MB")
			}
		})
	}
}

// memStats are the memory statistics after a collection.
func memStats() runtime.MemStats {
	runtime.GC()
	var m runtime.MemStats
	runtime.ReadMemStats(&m)
	return m
}

// driveOne is one resource's life as the engine drives it.
func driveOne(b *testing.B, srv pulumirpc.ResourceProviderServer, at time.Time) {
	ctx := context.Background()
	urn := fmt.Sprintf("urn:pulumi:dev::bench::timekit:index:Static::s%d", at.Unix())
	opts := plugin.MarshalOptions{KeepUnknowns: true, KeepSecrets: true}
	news, err := plugin.MarshalProperties(resource.PropertyMap{"rfc3339": resource.NewProperty(at.Format(time.RFC3339))}, opts)
	if err != nil {
		b.Fatal(err)
	}
	checked, err := srv.Check(ctx, &pulumirpc.CheckRequest{Urn: urn, Type: "timekit:index:Static", Name: "s", News: news, Olds: &structpb.Struct{}})
	if err != nil || len(checked.GetFailures()) > 0 {
		b.Fatalf("check: %v %v", checked.GetFailures(), err)
	}
	created, err := srv.Create(ctx, &pulumirpc.CreateRequest{Urn: urn, Type: "timekit:index:Static", Name: "s", Properties: checked.GetInputs()})
	if err != nil {
		b.Fatal(err)
	}
	read, err := srv.Read(ctx, &pulumirpc.ReadRequest{Id: created.GetId(), Urn: urn, Type: "timekit:index:Static", Name: "s",
		Properties: created.GetProperties(), Inputs: checked.GetInputs()})
	if err != nil || read.GetId() != created.GetId() {
		b.Fatalf("read: %v %v", read, err)
	}
	if _, err := srv.Delete(ctx, &pulumirpc.DeleteRequest{Id: created.GetId(), Urn: urn, Type: "timekit:index:Static", Name: "s",
		Properties: read.GetProperties(), OldInputs: checked.GetInputs()}); err != nil {
		b.Fatal(err)
	}
}

// readState decodes the state an answer carries, as any client must.
func readState(resp any, typ tftypes.Type) error {
	var dv *tfprotov6.DynamicValue
	switch r := resp.(type) {
	case *tfprotov6.PlanResourceChangeResponse:
		dv = r.PlannedState
	case *tfprotov6.ApplyResourceChangeResponse:
		dv = r.NewState
	case *tfprotov6.ReadResourceResponse:
		dv = r.NewState
	case *tfprotov6.UpgradeResourceStateResponse:
		dv = r.UpgradedState
	}
	if dv == nil {
		return nil
	}
	_, err := dv.Unmarshal(typ)
	return err
}

// emptyConfig is the time provider's configuration: it has none.
func emptyConfig(b *testing.B) *tfprotov6.DynamicValue {
	dv, err := tfprotov6.NewDynamicValue(emptyObject, emptyValue)
	if err != nil {
		b.Fatal(err)
	}
	return &dv
}

var (
	emptyObject = tftypes.Object{AttributeTypes: map[string]tftypes.Type{}}
	emptyValue  = tftypes.NewValue(emptyObject, map[string]tftypes.Value{})
)
