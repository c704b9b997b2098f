package engine_test

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"testing"

	"github.com/polyhost/polyhost/internal/engine"
	"github.com/pulumi/pulumi/sdk/v3/go/common/resource"
	"github.com/pulumi/pulumi/sdk/v3/go/common/resource/plugin"
	pulumirpc "github.com/pulumi/pulumi/sdk/v3/proto/go"
	"google.golang.org/grpc"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/credentials/insecure"
	"google.golang.org/grpc/status"
	"google.golang.org/protobuf/types/known/emptypb"
)

const (
	project  = "proj"
	stack    = "dev"
	stackURN = "urn:pulumi:dev::proj::pulumi:pulumi:Stack::proj-dev"
	defProv  = "urn:pulumi:dev::proj::pulumi:providers:test::default"
)

func thingURN(name string) string { return "urn:pulumi:dev::proj::test:index:Thing::" + name }

var providerPath, sdkProgramPath string

func TestMain(m *testing.M) {
	dir, err := os.MkdirTemp("", "engine-test-")
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	providerPath = filepath.Join(dir, "pulumi-resource-test")
	sdkProgramPath = filepath.Join(dir, "sdkprogram")
	for out, pkg := range map[string]string{providerPath: "./internal/testprovider", sdkProgramPath: "./internal/sdkprogram"} {
		cmd := exec.Command("go", "build", "-o", out, pkg)
		cmd.Stdout, cmd.Stderr = os.Stderr, os.Stderr
		if err := cmd.Run(); err != nil {
			fmt.Fprintf(os.Stderr, "building %s: %v\n", pkg, err)
			os.Exit(1)
		}
	}
	code := m.Run()
	_ = os.RemoveAll(dir)
	os.Exit(code)
}

// fixture is one stack with its own state file and fake cloud directory.
type fixture struct {
	t      *testing.T
	cloud  string
	state  string
	eng    *engine.Engine
	stderr *syncBuffer
}

type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *syncBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}

func newFixture(t *testing.T, mutate ...func(*engine.Options)) *fixture {
	t.Helper()
	root := t.TempDir()
	f := &fixture{t: t, cloud: filepath.Join(root, "cloud"), state: filepath.Join(root, "state.json"), stderr: &syncBuffer{}}
	if err := os.MkdirAll(f.cloud, 0o755); err != nil {
		t.Fatal(err)
	}
	opts := engine.Options{
		Project: project, Stack: stack, Organization: "org",
		StateFile: f.state,
		Plugins:   map[string]string{"test": providerPath},
		Config:    map[string]string{"test:dir": f.cloud, "proj:greeting": "hi"},
		Parallel:  4,
		Dir:       root,
		Stderr:    f.stderr,
	}
	for _, m := range mutate {
		m(&opts)
	}
	eng, err := engine.New(opts)
	if err != nil {
		t.Fatal(err)
	}
	f.eng = eng
	t.Cleanup(func() {
		if t.Failed() {
			t.Logf("engine stderr:\n%s", f.stderr.String())
		}
	})
	return f
}

func (f *fixture) up(p engine.Program) *engine.Result {
	f.t.Helper()
	res, err := f.eng.Up(context.Background(), p)
	if err != nil {
		f.t.Fatalf("up: %v", err)
	}
	return res
}

func (f *fixture) resources() map[string]engine.Resource {
	f.t.Helper()
	rs, err := engine.LoadResources(f.state)
	if err != nil {
		f.t.Fatal(err)
	}
	out := map[string]engine.Resource{}
	for _, r := range rs {
		if _, dup := out[r.URN]; dup && !r.Delete {
			f.t.Fatalf("two live rows for %s", r.URN)
		}
		if !r.Delete {
			out[r.URN] = r
		}
	}
	return out
}

// ops returns the fake cloud's mutating calls ("create <urn> <id> provider=<id>").
func (f *fixture) ops() []string {
	f.t.Helper()
	data, err := os.ReadFile(filepath.Join(f.cloud, "ops.log"))
	if errors.Is(err, os.ErrNotExist) {
		return nil
	} else if err != nil {
		f.t.Fatal(err)
	}
	var out []string
	for _, l := range strings.Split(strings.TrimSpace(string(data)), "\n") {
		if l != "" && !strings.HasPrefix(l, "configure ") {
			out = append(out, l)
		}
	}
	return out
}

// things lists the ids that exist in the fake cloud.
func (f *fixture) things() []string {
	f.t.Helper()
	entries, err := os.ReadDir(filepath.Join(f.cloud, "things"))
	if errors.Is(err, os.ErrNotExist) {
		return nil
	} else if err != nil {
		f.t.Fatal(err)
	}
	var ids []string
	for _, e := range entries {
		ids = append(ids, strings.TrimSuffix(e.Name(), ".json"))
	}
	return ids
}

// program is a consumer program written directly against the monitor, the
// way a language SDK talks to it.
type program func(ctx context.Context, c *client) error

type client struct {
	mon     pulumirpc.ResourceMonitorClient
	info    engine.RunInfo
	exports resource.PropertyMap
}

func (p program) Run(ctx context.Context, info engine.RunInfo) error {
	conn, err := grpc.NewClient(info.MonitorAddr, grpc.WithTransportCredentials(insecure.NewCredentials()))
	if err != nil {
		return err
	}
	defer conn.Close()
	c := &client{mon: pulumirpc.NewResourceMonitorClient(conn), info: info, exports: resource.PropertyMap{}}
	if _, err := c.mon.GetDeploymentInfo(ctx, &emptypb.Empty{}); err != nil {
		return fmt.Errorf("GetDeploymentInfo: %w", err)
	}
	if _, err := c.mon.RegisterResource(ctx, &pulumirpc.RegisterResourceRequest{
		Type: "pulumi:pulumi:Stack", Name: info.Project + "-" + info.Stack,
	}); err != nil {
		return err
	}
	if err := p(ctx, c); err != nil {
		return err
	}
	outs, err := plugin.MarshalProperties(c.exports, plugin.MarshalOptions{KeepSecrets: true, KeepResources: true})
	if err != nil {
		return err
	}
	if _, err := c.mon.RegisterResourceOutputs(ctx, &pulumirpc.RegisterResourceOutputsRequest{Urn: stackURN, Outputs: outs}); err != nil {
		return err
	}
	if _, err := c.mon.SignalAndWaitForShutdown(ctx, &emptypb.Empty{}); status.Code(err) != codes.Unimplemented && err != nil {
		return err
	}
	return nil
}

type regOpt func(*pulumirpc.RegisterResourceRequest)

func parent(urn string) regOpt { return func(r *pulumirpc.RegisterResourceRequest) { r.Parent = urn } }
func provider(ref string) regOpt {
	return func(r *pulumirpc.RegisterResourceRequest) { r.Provider = ref }
}
func protect() regOpt {
	return func(r *pulumirpc.RegisterResourceRequest) { t := true; r.Protect = &t }
}
func retainOnDelete() regOpt {
	return func(r *pulumirpc.RegisterResourceRequest) { t := true; r.RetainOnDelete = &t }
}
func deletedWith(urn string) regOpt {
	return func(r *pulumirpc.RegisterResourceRequest) { r.DeletedWith = urn }
}
func aliasURN(urn string) regOpt {
	return func(r *pulumirpc.RegisterResourceRequest) { r.AliasURNs = append(r.AliasURNs, urn) }
}
func secretOutputs(keys ...string) regOpt {
	return func(r *pulumirpc.RegisterResourceRequest) { r.AdditionalSecretOutputs = keys }
}
func deleteBeforeReplace() regOpt {
	return func(r *pulumirpc.RegisterResourceRequest) {
		r.DeleteBeforeReplace, r.DeleteBeforeReplaceDefined = true, true
	}
}

// propDeps records that the given properties depend on urns.
func propDeps(urns []string, keys ...string) regOpt {
	return func(r *pulumirpc.RegisterResourceRequest) {
		r.Dependencies = append(r.Dependencies, urns...)
		if r.PropertyDependencies == nil {
			r.PropertyDependencies = map[string]*pulumirpc.RegisterResourceRequest_PropertyDependencies{}
		}
		for _, k := range keys {
			r.PropertyDependencies[k] = &pulumirpc.RegisterResourceRequest_PropertyDependencies{Urns: urns}
		}
	}
}

type regResult struct {
	URN, ID string
	Outputs resource.PropertyMap
	Result  pulumirpc.Result
}

func (c *client) register(ctx context.Context, typ, name string, custom bool, props resource.PropertyMap, opts ...regOpt) (*regResult, error) {
	obj, err := plugin.MarshalProperties(props, plugin.MarshalOptions{KeepUnknowns: true, KeepSecrets: true, KeepResources: true})
	if err != nil {
		return nil, err
	}
	req := &pulumirpc.RegisterResourceRequest{
		Type: typ, Name: name, Custom: custom, Object: obj, Parent: stackURN,
		AcceptSecrets: true, AcceptResources: true, SupportsPartialValues: true, SupportsResultReporting: true,
	}
	for _, o := range opts {
		o(req)
	}
	resp, err := c.mon.RegisterResource(ctx, req)
	if err != nil {
		return nil, err
	}
	if resp.GetResult() != pulumirpc.Result_SUCCESS {
		return nil, fmt.Errorf("registering %s failed: %v", name, resp.GetResult())
	}
	outs, err := plugin.UnmarshalProperties(resp.GetObject(), plugin.MarshalOptions{KeepUnknowns: true, KeepSecrets: true, KeepResources: true})
	if err != nil {
		return nil, err
	}
	return &regResult{URN: resp.GetUrn(), ID: resp.GetId(), Outputs: outs, Result: resp.GetResult()}, nil
}

func (c *client) thing(ctx context.Context, name string, props map[string]any, opts ...regOpt) (*regResult, error) {
	return c.register(ctx, "test:index:Thing", name, true, resource.NewPropertyMapFromMap(props), opts...)
}

func (c *client) invoke(ctx context.Context, tok string, args resource.PropertyMap, providerRef string) (resource.PropertyMap, error) {
	margs, err := plugin.MarshalProperties(args, plugin.MarshalOptions{KeepSecrets: true, KeepResources: true})
	if err != nil {
		return nil, err
	}
	resp, err := c.mon.Invoke(ctx, &pulumirpc.ResourceInvokeRequest{Tok: tok, Args: margs, Provider: providerRef, AcceptResources: true})
	if err != nil {
		return nil, err
	}
	return plugin.UnmarshalProperties(resp.GetReturn(), plugin.MarshalOptions{KeepUnknowns: true, KeepSecrets: true, KeepResources: true})
}

func (c *client) call(ctx context.Context, tok string, args resource.PropertyMap, providerRef string) (resource.PropertyMap, error) {
	margs, err := plugin.MarshalProperties(args, plugin.MarshalOptions{KeepSecrets: true, KeepResources: true})
	if err != nil {
		return nil, err
	}
	resp, err := c.mon.Call(ctx, &pulumirpc.ResourceCallRequest{Tok: tok, Args: margs, Provider: providerRef})
	if err != nil {
		return nil, err
	}
	return plugin.UnmarshalProperties(resp.GetReturn(), plugin.MarshalOptions{KeepUnknowns: true, KeepSecrets: true, KeepResources: true})
}

func strOut(m resource.PropertyMap, k string) string {
	v := m[resource.PropertyKey(k)]
	if v.IsSecret() {
		v = v.SecretValue().Element
	}
	if v.IsString() {
		return v.StringValue()
	}
	return ""
}

// opsMatching filters cloud ops by verb and URN.
func opsMatching(ops []string, verb, urn string) []string {
	var out []string
	for _, o := range ops {
		if strings.HasPrefix(o, verb+" "+urn+" ") {
			out = append(out, o)
		}
	}
	return out
}

// goProgram runs a Go SDK program binary the way the Go language host does.
type goProgram struct{ bin string }

func (g goProgram) Run(ctx context.Context, info engine.RunInfo) error {
	cfg, err := json.Marshal(info.Config)
	if err != nil {
		return err
	}
	keys, err := json.Marshal(info.SecretKeys)
	if err != nil {
		return err
	}
	cmd := exec.CommandContext(ctx, g.bin)
	cmd.Dir = info.Dir
	cmd.Env = append(os.Environ(),
		"PULUMI_MONITOR="+info.MonitorAddr, "PULUMI_ENGINE="+info.EngineAddr,
		"PULUMI_PROJECT="+info.Project, "PULUMI_STACK="+info.Stack, "PULUMI_ORGANIZATION="+info.Organization,
		"PULUMI_CONFIG="+string(cfg), "PULUMI_CONFIG_SECRET_KEYS="+string(keys),
		"PULUMI_DRY_RUN="+strconv.FormatBool(info.DryRun), "PULUMI_PARALLEL="+strconv.Itoa(info.Parallel))
	out, err := cmd.CombinedOutput()
	if err != nil {
		return fmt.Errorf("%w: %s", err, out)
	}
	return nil
}
