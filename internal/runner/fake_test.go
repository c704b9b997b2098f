package runner

import (
	"context"
	"fmt"
	"net"
	"strings"
	"sync"
	"testing"

	"github.com/pulumi/pulumi/sdk/v3/go/common/resource"
	"github.com/pulumi/pulumi/sdk/v3/go/common/resource/plugin"
	pulumirpc "github.com/pulumi/pulumi/sdk/v3/proto/go"
	"google.golang.org/grpc"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"
	"google.golang.org/protobuf/types/known/emptypb"
	"google.golang.org/protobuf/types/known/structpb"
)

// fakeEngine is a minimal ResourceMonitor + Engine on one loopback gRPC
// server: it assigns URNs, records registrations, outputs and logs. Custom
// resources get a fixed id; nothing is diffed or persisted.
type fakeEngine struct {
	addr           string
	project, stack string

	mu        sync.Mutex
	resources []fakeResource
	types     map[string]string // urn -> qualified type
	outputs   map[string]resource.PropertyMap
	logs      []string
	root      string

	stackRegistered chan struct{}
	stackOnce       sync.Once
}

type fakeResource struct {
	URN, Type, Name, Parent string
	Custom                  bool
}

// monitorFeatures are answered true by SupportsFeature; GetDeploymentInfo is
// left Unimplemented so the SDKs take the legacy probing path.
var monitorFeatures = map[string]bool{
	"secrets": true, "resourceReferences": true, "outputValues": true,
	"aliasSpecs": true, "deletedWith": true,
}

func startFakeEngine(t *testing.T, project, stack string) *fakeEngine {
	t.Helper()
	f := &fakeEngine{
		project: project, stack: stack,
		types:           map[string]string{},
		outputs:         map[string]resource.PropertyMap{},
		stackRegistered: make(chan struct{}),
	}
	lis, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	srv := grpc.NewServer()
	pulumirpc.RegisterResourceMonitorServer(srv, &fakeMonitor{f: f})
	pulumirpc.RegisterEngineServer(srv, &fakeEngineService{f: f})
	go func() { _ = srv.Serve(lis) }()
	t.Cleanup(srv.Stop)
	f.addr = lis.Addr().String()
	return f
}

// fakeMonitor embeds the Unimplemented server on purpose: RPCs the test
// programs do not use answer Unimplemented, which all SDKs tolerate.
type fakeMonitor struct {
	pulumirpc.UnimplementedResourceMonitorServer
	f *fakeEngine
}

func (m *fakeMonitor) SupportsFeature(_ context.Context, req *pulumirpc.SupportsFeatureRequest) (*pulumirpc.SupportsFeatureResponse, error) {
	return &pulumirpc.SupportsFeatureResponse{HasSupport: monitorFeatures[req.GetId()]}, nil
}

func (m *fakeMonitor) RegisterResource(_ context.Context, req *pulumirpc.RegisterResourceRequest) (*pulumirpc.RegisterResourceResponse, error) {
	f := m.f
	f.mu.Lock()
	defer f.mu.Unlock()
	qualified := req.GetType()
	if p := req.GetParent(); p != "" {
		pt, ok := f.types[p]
		if !ok {
			return nil, status.Errorf(codes.InvalidArgument, "unknown parent %s", p)
		}
		if pt != "pulumi:pulumi:Stack" {
			qualified = pt + "$" + qualified
		}
	}
	urn := fmt.Sprintf("urn:pulumi:%s::%s::%s::%s", f.stack, f.project, qualified, req.GetName())
	if _, dup := f.types[urn]; dup {
		return nil, status.Errorf(codes.AlreadyExists, "duplicate URN %s", urn)
	}
	f.types[urn] = qualified
	f.resources = append(f.resources, fakeResource{
		URN: urn, Type: req.GetType(), Name: req.GetName(), Parent: req.GetParent(), Custom: req.GetCustom(),
	})
	if req.GetType() == "pulumi:pulumi:Stack" {
		f.stackOnce.Do(func() { close(f.stackRegistered) })
	}
	resp := &pulumirpc.RegisterResourceResponse{Urn: urn, Object: &structpb.Struct{}}
	if req.GetCustom() {
		resp.Id = "id-" + req.GetName()
	}
	return resp, nil
}

func (m *fakeMonitor) RegisterResourceOutputs(_ context.Context, req *pulumirpc.RegisterResourceOutputsRequest) (*emptypb.Empty, error) {
	outs, err := plugin.UnmarshalProperties(req.GetOutputs(), plugin.MarshalOptions{
		KeepUnknowns: true, KeepSecrets: true, KeepResources: true,
	})
	if err != nil {
		return nil, status.Errorf(codes.InvalidArgument, "outputs: %v", err)
	}
	m.f.mu.Lock()
	defer m.f.mu.Unlock()
	if _, ok := m.f.types[req.GetUrn()]; !ok {
		return nil, status.Errorf(codes.NotFound, "unknown resource %s", req.GetUrn())
	}
	m.f.outputs[req.GetUrn()] = outs
	return &emptypb.Empty{}, nil
}

type fakeEngineService struct {
	pulumirpc.UnimplementedEngineServer
	f *fakeEngine
}

func (e *fakeEngineService) Log(_ context.Context, req *pulumirpc.LogRequest) (*emptypb.Empty, error) {
	e.f.mu.Lock()
	defer e.f.mu.Unlock()
	e.f.logs = append(e.f.logs, req.GetSeverity().String()+": "+req.GetMessage())
	return &emptypb.Empty{}, nil
}

func (e *fakeEngineService) GetRootResource(context.Context, *pulumirpc.GetRootResourceRequest) (*pulumirpc.GetRootResourceResponse, error) {
	e.f.mu.Lock()
	defer e.f.mu.Unlock()
	return &pulumirpc.GetRootResourceResponse{Urn: e.f.root}, nil
}

func (e *fakeEngineService) SetRootResource(_ context.Context, req *pulumirpc.SetRootResourceRequest) (*pulumirpc.SetRootResourceResponse, error) {
	e.f.mu.Lock()
	defer e.f.mu.Unlock()
	e.f.root = req.GetUrn()
	return &pulumirpc.SetRootResourceResponse{}, nil
}

func (f *fakeEngine) stackURN() string {
	return fmt.Sprintf("urn:pulumi:%s::%s::pulumi:pulumi:Stack::%s-%s", f.stack, f.project, f.project, f.stack)
}

func (f *fakeEngine) snapshot() ([]fakeResource, map[string]resource.PropertyMap, []string) {
	f.mu.Lock()
	defer f.mu.Unlock()
	outs := make(map[string]resource.PropertyMap, len(f.outputs))
	for k, v := range f.outputs {
		outs[k] = v
	}
	return append([]fakeResource(nil), f.resources...), outs, append([]string(nil), f.logs...)
}

func (f *fakeEngine) logText() string {
	_, _, logs := f.snapshot()
	return strings.Join(logs, "\n")
}
