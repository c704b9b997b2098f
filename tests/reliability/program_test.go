package reliability

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/pulumi/pulumi/sdk/v3/go/common/resource"
	"github.com/pulumi/pulumi/sdk/v3/go/common/resource/plugin"
	pulumirpc "github.com/pulumi/pulumi/sdk/v3/proto/go"
	"google.golang.org/grpc"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/credentials/insecure"
	"google.golang.org/grpc/status"
	"google.golang.org/protobuf/types/known/emptypb"

	"github.com/polyhost/polyhost/internal/engine"
)

// program is a consumer program written against the ResourceMonitor, as a
// language SDK talks to it: stack first, then the body, then the exports.
type program func(ctx context.Context, p *programClient) error

type programClient struct {
	mon     pulumirpc.ResourceMonitorClient
	exports resource.PropertyMap
}

var wireOpts = plugin.MarshalOptions{KeepUnknowns: true, KeepSecrets: true, KeepResources: true}

func (f program) Run(ctx context.Context, info engine.RunInfo) error {
	conn, err := grpc.NewClient(info.MonitorAddr, grpc.WithTransportCredentials(insecure.NewCredentials()))
	if err != nil {
		return err
	}
	defer conn.Close()
	p := &programClient{mon: pulumirpc.NewResourceMonitorClient(conn), exports: resource.PropertyMap{}}
	if _, err := p.mon.RegisterResource(ctx, &pulumirpc.RegisterResourceRequest{
		Type: "pulumi:pulumi:Stack", Name: info.Project + "-" + info.Stack,
	}); err != nil {
		return err
	}
	if err := f(ctx, p); err != nil {
		return err
	}
	outs, err := plugin.MarshalProperties(p.exports, wireOpts)
	if err != nil {
		return err
	}
	if _, err := p.mon.RegisterResourceOutputs(ctx, &pulumirpc.RegisterResourceOutputsRequest{Urn: stackURN, Outputs: outs}); err != nil {
		return err
	}
	if _, err := p.mon.SignalAndWaitForShutdown(ctx, &emptypb.Empty{}); err != nil && status.Code(err) != codes.Unimplemented {
		return err
	}
	return nil
}

type registered struct {
	URN, ID string
	Outputs resource.PropertyMap
}

// register registers a resource under the stack; remote makes it a
// component the provider constructs.
func (p *programClient) register(ctx context.Context, typ, name string, custom, remote bool, props resource.PropertyMap) (registered, error) {
	obj, err := plugin.MarshalProperties(props, wireOpts)
	if err != nil {
		return registered{}, err
	}
	resp, err := p.mon.RegisterResource(ctx, &pulumirpc.RegisterResourceRequest{
		Type: typ, Name: name, Parent: stackURN, Custom: custom, Remote: remote, Object: obj,
		AcceptSecrets: true, AcceptResources: true, SupportsPartialValues: true, SupportsResultReporting: true,
	})
	if err != nil {
		return registered{}, fmt.Errorf("registering %s: %w", name, err)
	}
	if resp.GetResult() != pulumirpc.Result_SUCCESS {
		return registered{}, fmt.Errorf("registering %s: %v", name, resp.GetResult())
	}
	outs, err := plugin.UnmarshalProperties(resp.GetObject(), wireOpts)
	return registered{URN: resp.GetUrn(), ID: resp.GetId(), Outputs: outs}, err
}

// call calls a method through the monitor, as an SDK does.
func (p *programClient) call(ctx context.Context, tok string, args resource.PropertyMap) (resource.PropertyMap, error) {
	margs, err := plugin.MarshalProperties(args, wireOpts)
	if err != nil {
		return nil, err
	}
	resp, err := p.mon.Call(ctx, &pulumirpc.ResourceCallRequest{Tok: tok, Args: margs})
	if err != nil {
		return nil, fmt.Errorf("calling %s: %w", tok, err)
	}
	if len(resp.GetFailures()) > 0 {
		return nil, fmt.Errorf("calling %s: %v", tok, resp.GetFailures())
	}
	return plugin.UnmarshalProperties(resp.GetReturn(), wireOpts)
}

// invoke calls a provider function through the monitor.
func (p *programClient) invoke(ctx context.Context, tok string, args resource.PropertyMap) (resource.PropertyMap, error) {
	margs, err := plugin.MarshalProperties(args, wireOpts)
	if err != nil {
		return nil, err
	}
	resp, err := p.mon.Invoke(ctx, &pulumirpc.ResourceInvokeRequest{Tok: tok, Args: margs, AcceptResources: true})
	if err != nil {
		return nil, fmt.Errorf("invoking %s: %w", tok, err)
	}
	if len(resp.GetFailures()) > 0 {
		return nil, fmt.Errorf("invoking %s: %v", tok, resp.GetFailures())
	}
	return plugin.UnmarshalProperties(resp.GetReturn(), wireOpts)
}

// stackFixture is one stack on the embedded engine with its own state and
// storage directory.
type stackFixture struct {
	eng     *engine.Engine
	state   string
	storage string
	stderr  *syncBuffer
}

func newStack(t *testing.T, pluginPath string, config map[string]string, secretKeys ...string) *stackFixture {
	t.Helper()
	dir := t.TempDir()
	s := &stackFixture{state: filepath.Join(dir, "state.json"), storage: filepath.Join(dir, "storage"), stderr: &syncBuffer{}}
	cfg := map[string]string{"sitekit:storageUrl": "file://" + s.storage}
	for k, v := range config {
		cfg[k] = v
	}
	eng, err := engine.New(engine.Options{
		Project: project, Stack: stack, StateFile: s.state,
		Plugins: map[string]string{"sitekit": pluginPath},
		Config:  cfg, SecretKeys: secretKeys, Parallel: 4, Dir: dir, Stderr: s.stderr,
	})
	if err != nil {
		t.Fatal(err)
	}
	s.eng = eng
	t.Cleanup(func() {
		if t.Failed() {
			t.Logf("engine and plugin output:\n%s", s.stderr)
		}
	})
	return s
}

// live returns the state's resources of a type, pending deletes left out.
func (s *stackFixture) live(t *testing.T, typ string) []engine.Resource {
	t.Helper()
	all, err := engine.LoadResources(s.state)
	if err != nil {
		t.Fatal(err)
	}
	var out []engine.Resource
	for _, r := range all {
		if r.Type == typ && !r.Delete {
			out = append(out, r)
		}
	}
	return out
}

// storedFiles lists the files in the storage directory, relative to it.
func (s *stackFixture) storedFiles(t *testing.T) []string {
	t.Helper()
	var out []string
	err := filepath.WalkDir(s.storage, func(path string, d os.DirEntry, err error) error {
		if err != nil || d.IsDir() || strings.HasSuffix(path, ".attrs") {
			return err
		}
		rel, _ := filepath.Rel(s.storage, path)
		out = append(out, rel)
		return nil
	})
	if err != nil && !os.IsNotExist(err) {
		t.Fatal(err)
	}
	return out
}
