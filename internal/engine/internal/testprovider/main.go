// Command testprovider is pulumi-resource-test, the provider plugin the engine
// tests drive. It keeps a fake cloud in the directory named by its "dir"
// config (one JSON file per test:index:Thing, plus an ops.log of every
// mutating call), and serves a component test:index:Comp through the Go SDK's
// Construct/Call adapters.
package main

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"time"

	"github.com/pulumi/pulumi/sdk/v3/go/common/resource"
	"github.com/pulumi/pulumi/sdk/v3/go/common/resource/plugin"
	"github.com/pulumi/pulumi/sdk/v3/go/pulumi"
	"github.com/pulumi/pulumi/sdk/v3/go/pulumi/provider"
	pulumirpc "github.com/pulumi/pulumi/sdk/v3/proto/go"
	"google.golang.org/protobuf/encoding/protojson"
	"google.golang.org/protobuf/types/known/emptypb"
	"google.golang.org/protobuf/types/known/structpb"
)

func main() {
	err := provider.Main("test", func(host *provider.HostClient) (pulumirpc.ResourceProviderServer, error) {
		return &testProvider{host: host}, nil
	})
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
}

type testProvider struct {
	// Embedded on purpose: RPCs this fake does not need answer Unimplemented.
	pulumirpc.UnimplementedResourceProviderServer
	host *provider.HostClient

	mu     sync.Mutex
	urn    string
	id     string
	config resource.PropertyMap
	active int // creates in progress
	peak   int // most creates seen in progress at once
}

var opts = plugin.MarshalOptions{KeepUnknowns: true, KeepSecrets: true, KeepResources: true}

func unmarshal(s *structpb.Struct) resource.PropertyMap {
	m, err := plugin.UnmarshalProperties(s, opts)
	if err != nil || m == nil {
		return resource.PropertyMap{}
	}
	return m
}

func marshal(m resource.PropertyMap) *structpb.Struct {
	s, err := plugin.MarshalProperties(m, opts)
	if err != nil {
		panic(err)
	}
	return s
}

func str(m resource.PropertyMap, k string) string {
	v, ok := m[resource.PropertyKey(k)]
	if !ok {
		return ""
	}
	if v.IsSecret() {
		v = v.SecretValue().Element
	}
	if v.IsComputed() || v.IsOutput() && !v.OutputValue().Known {
		return plugin.UnknownStringValue
	}
	if v.IsOutput() {
		v = v.OutputValue().Element
	}
	if v.IsString() {
		return v.StringValue()
	}
	if v.IsBool() {
		return fmt.Sprint(v.BoolValue())
	}
	return ""
}

func (p *testProvider) dir() string {
	p.mu.Lock()
	defer p.mu.Unlock()
	return str(p.config, "dir")
}

func (p *testProvider) identity() (string, string) {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.urn, p.id
}

// record appends one line to the fake cloud's ops.log.
func (p *testProvider) record(op, urn, id string) error {
	dir := p.dir()
	if dir == "" {
		return errors.New("test provider: config \"dir\" is not set")
	}
	_, pid := p.identity()
	f, err := os.OpenFile(filepath.Join(dir, "ops.log"), os.O_CREATE|os.O_APPEND|os.O_WRONLY, 0o644)
	if err != nil {
		return err
	}
	defer f.Close()
	_, err = fmt.Fprintf(f, "%s %s %s provider=%s\n", op, urn, id, pid)
	return err
}

type thingFile struct {
	Inputs        map[string]any `json:"inputs"`
	Outputs       map[string]any `json:"outputs"`
	CreateTimeout float64        `json:"createTimeout,omitempty"`
}

func (p *testProvider) thingPath(id string) string {
	return filepath.Join(p.dir(), "things", id+".json")
}

func plainMap(m resource.PropertyMap) map[string]any {
	out := map[string]any{}
	for k, v := range m {
		out[string(k)] = plainValue(v)
	}
	return out
}

// plainValue flattens secrets for the fake cloud (a real cloud stores
// plaintext too); secretness is restored from the inputs on the way out.
func plainValue(v resource.PropertyValue) any {
	switch {
	case v.IsSecret():
		return plainValue(v.SecretValue().Element)
	case v.IsObject():
		return plainMap(v.ObjectValue())
	case v.IsArray():
		var out []any
		for _, e := range v.ArrayValue() {
			out = append(out, plainValue(e))
		}
		return out
	default:
		return v.V
	}
}

func (p *testProvider) writeThing(id string, ins, outs resource.PropertyMap, timeout float64) error {
	data, err := json.Marshal(thingFile{Inputs: plainMap(ins), Outputs: plainMap(outs), CreateTimeout: timeout})
	if err != nil {
		return err
	}
	if err := os.MkdirAll(filepath.Dir(p.thingPath(id)), 0o755); err != nil {
		return err
	}
	return os.WriteFile(p.thingPath(id), data, 0o644)
}

func (p *testProvider) Handshake(context.Context, *pulumirpc.ProviderHandshakeRequest) (*pulumirpc.ProviderHandshakeResponse, error) {
	return &pulumirpc.ProviderHandshakeResponse{AcceptSecrets: true, AcceptResources: true, AcceptOutputs: true}, nil
}

func (p *testProvider) GetPluginInfo(context.Context, *emptypb.Empty) (*pulumirpc.PluginInfo, error) {
	return &pulumirpc.PluginInfo{Version: "1.0.0"}, nil
}

func (p *testProvider) GetSchema(context.Context, *pulumirpc.GetSchemaRequest) (*pulumirpc.GetSchemaResponse, error) {
	return &pulumirpc.GetSchemaResponse{Schema: "{}"}, nil
}

func (p *testProvider) CheckConfig(_ context.Context, req *pulumirpc.CheckRequest) (*pulumirpc.CheckResponse, error) {
	news := unmarshal(req.GetNews())
	if str(news, "region") == "bad" {
		return &pulumirpc.CheckResponse{Failures: []*pulumirpc.CheckFailure{{Property: "region", Reason: "bad region"}}}, nil
	}
	return &pulumirpc.CheckResponse{Inputs: req.GetNews()}, nil
}

// DiffConfig: a region change replaces the provider; other changes update it.
func (p *testProvider) DiffConfig(_ context.Context, req *pulumirpc.DiffRequest) (*pulumirpc.DiffResponse, error) {
	olds, news := unmarshal(req.GetOldInputs()), unmarshal(req.GetNews())
	resp := &pulumirpc.DiffResponse{Changes: pulumirpc.DiffResponse_DIFF_NONE}
	keys := map[string]bool{}
	for k := range olds {
		keys[string(k)] = true
	}
	for k := range news {
		keys[string(k)] = true
	}
	for k := range keys {
		if k == "version" || str(olds, k) == str(news, k) {
			continue
		}
		resp.Changes = pulumirpc.DiffResponse_DIFF_SOME
		resp.Diffs = append(resp.Diffs, k)
		if k == "region" {
			resp.Replaces = append(resp.Replaces, k)
		}
	}
	return resp, nil
}

func (p *testProvider) Configure(_ context.Context, req *pulumirpc.ConfigureRequest) (*pulumirpc.ConfigureResponse, error) {
	p.mu.Lock()
	p.urn, p.id = req.GetUrn(), req.GetId()
	p.config = unmarshal(req.GetArgs())
	p.mu.Unlock()
	if err := p.record("configure", req.GetUrn(), req.GetId()); err != nil {
		return nil, err
	}
	return &pulumirpc.ConfigureResponse{AcceptSecrets: true, SupportsPreview: true, AcceptResources: true, AcceptOutputs: true}, nil
}

// Check: "value" must not be "invalid"; "name" defaults to the URN's name.
func (p *testProvider) Check(_ context.Context, req *pulumirpc.CheckRequest) (*pulumirpc.CheckResponse, error) {
	news := unmarshal(req.GetNews())
	if str(news, "value") == "invalid" {
		return &pulumirpc.CheckResponse{Failures: []*pulumirpc.CheckFailure{{Property: "value", Reason: "value may not be invalid"}}}, nil
	}
	if _, ok := news["name"]; !ok {
		news["name"] = resource.NewProperty(resource.URN(req.GetUrn()).Name())
	}
	return &pulumirpc.CheckResponse{Inputs: marshal(news)}, nil
}

// Diff: a changed "name" replaces (delete-before-replace when "dbr" is
// true); any other changed input updates.
func (p *testProvider) Diff(_ context.Context, req *pulumirpc.DiffRequest) (*pulumirpc.DiffResponse, error) {
	olds, news := unmarshal(req.GetOldInputs()), unmarshal(req.GetNews())
	if req.GetOldInputs() == nil {
		return nil, errors.New("engine did not send old inputs")
	}
	resp := &pulumirpc.DiffResponse{Changes: pulumirpc.DiffResponse_DIFF_NONE, DeleteBeforeReplace: str(news, "dbr") == "true"}
	keys := map[string]bool{}
	for k := range olds {
		keys[string(k)] = true
	}
	for k := range news {
		keys[string(k)] = true
	}
	for k := range keys {
		ov, nv := olds[resource.PropertyKey(k)], news[resource.PropertyKey(k)]
		if ov.DeepEquals(nv) && !nv.ContainsUnknowns() {
			continue
		}
		resp.Changes = pulumirpc.DiffResponse_DIFF_SOME
		resp.Diffs = append(resp.Diffs, k)
		if k == "name" {
			resp.Replaces = append(resp.Replaces, k)
		}
	}
	return resp, nil
}

func (p *testProvider) outputs(ins resource.PropertyMap, preview bool) resource.PropertyMap {
	outs := ins.Copy()
	switch v := ins["value"]; {
	case preview:
		outs["computed"] = resource.MakeComputed(resource.NewProperty(""))
	case v.IsSecret():
		outs["computed"] = resource.MakeSecret(resource.NewProperty("computed-" + str(ins, "value")))
	default:
		outs["computed"] = resource.NewProperty("computed-" + str(ins, "value"))
	}
	_, pid := p.identity()
	outs["providerId"] = resource.NewProperty(pid)
	return outs
}

func (p *testProvider) Create(_ context.Context, req *pulumirpc.CreateRequest) (*pulumirpc.CreateResponse, error) {
	ins := unmarshal(req.GetProperties())
	if req.GetPreview() {
		return &pulumirpc.CreateResponse{Properties: marshal(p.outputs(ins, true))}, nil
	}
	if str(ins, "fail") == "create" {
		return nil, errors.New("create failed on purpose")
	}
	suffix := make([]byte, 4)
	_, _ = rand.Read(suffix)
	id := str(ins, "name") + "-" + hex.EncodeToString(suffix)
	outs := p.outputs(ins, false)
	if hold := str(ins, "hold"); hold != "" {
		peak, err := p.hold(hold)
		if err != nil {
			return nil, err
		}
		outs["peak"] = resource.NewProperty(float64(peak))
	}
	if err := p.writeThing(id, ins, outs, req.GetTimeout()); err != nil {
		return nil, err
	}
	if err := p.record("create", req.GetUrn(), id); err != nil {
		return nil, err
	}
	return &pulumirpc.CreateResponse{Id: id, Properties: marshal(outs)}, nil
}

// hold makes a create take the given duration and returns the most creates
// seen in progress at once so far, which shows the engine's parallelism.
func (p *testProvider) hold(duration string) (int, error) {
	d, err := time.ParseDuration(duration)
	if err != nil {
		return 0, fmt.Errorf("hold: %w", err)
	}
	p.mu.Lock()
	p.active++
	p.peak = max(p.peak, p.active)
	p.mu.Unlock()
	time.Sleep(d)
	p.mu.Lock()
	defer p.mu.Unlock()
	p.active--
	return p.peak, nil
}

func (p *testProvider) Read(_ context.Context, req *pulumirpc.ReadRequest) (*pulumirpc.ReadResponse, error) {
	// "by-name/<id>" is another way to name thing <id>, as some clouds
	// accept a name for import and answer with their own ID.
	id := strings.TrimPrefix(req.GetId(), "by-name/")
	data, err := os.ReadFile(p.thingPath(id))
	if errors.Is(err, os.ErrNotExist) {
		return &pulumirpc.ReadResponse{}, nil // gone
	} else if err != nil {
		return nil, err
	}
	var f thingFile
	if err := json.Unmarshal(data, &f); err != nil {
		return nil, err
	}
	ins := resource.NewPropertyMapFromMap(f.Inputs)
	outs := resource.NewPropertyMapFromMap(f.Outputs)
	// Keep secretness the engine gave us.
	old := unmarshal(req.GetProperties())
	for k, v := range old {
		if v.IsSecret() {
			if o, ok := outs[k]; ok {
				outs[k] = resource.MakeSecret(o)
			}
			if i, ok := ins[k]; ok {
				ins[k] = resource.MakeSecret(i)
			}
		}
	}
	return &pulumirpc.ReadResponse{Id: id, Properties: marshal(outs), Inputs: marshal(ins)}, nil
}

func (p *testProvider) Update(_ context.Context, req *pulumirpc.UpdateRequest) (*pulumirpc.UpdateResponse, error) {
	ins := unmarshal(req.GetNews())
	if req.GetPreview() {
		return &pulumirpc.UpdateResponse{Properties: marshal(p.outputs(ins, true))}, nil
	}
	if str(ins, "fail") == "update" {
		return nil, errors.New("update failed on purpose")
	}
	outs := p.outputs(ins, false)
	if err := p.writeThing(req.GetId(), ins, outs, 0); err != nil {
		return nil, err
	}
	if err := p.record("update", req.GetUrn(), req.GetId()); err != nil {
		return nil, err
	}
	return &pulumirpc.UpdateResponse{Properties: marshal(outs)}, nil
}

func (p *testProvider) Delete(_ context.Context, req *pulumirpc.DeleteRequest) (*emptypb.Empty, error) {
	if str(unmarshal(req.GetOldInputs()), "fail") == "delete" {
		return nil, errors.New("delete failed on purpose")
	}
	if err := os.Remove(p.thingPath(req.GetId())); err != nil && !errors.Is(err, os.ErrNotExist) {
		return nil, err
	}
	if err := p.record("delete", req.GetUrn(), req.GetId()); err != nil {
		return nil, err
	}
	return &emptypb.Empty{}, nil
}

// Invoke test:index:getInfo reports which provider instance answered.
func (p *testProvider) Invoke(_ context.Context, req *pulumirpc.InvokeRequest) (*pulumirpc.InvokeResponse, error) {
	if req.GetTok() != "test:index:getInfo" {
		return nil, fmt.Errorf("unknown function %s", req.GetTok())
	}
	urn, id := p.identity()
	return &pulumirpc.InvokeResponse{Return: marshal(resource.PropertyMap{
		"providerUrn": resource.NewProperty(urn),
		"providerId":  resource.NewProperty(id),
		"preview":     resource.NewProperty(req.GetPreview()),
	})}, nil
}

// Comp is the component test:index:Comp: one Thing child, output "out".
type Comp struct {
	pulumi.ResourceState
	Out     pulumi.StringOutput `pulumi:"out"`
	ChildID pulumi.IDOutput     `pulumi:"childId"`
}

// Thing is the Go SDK view of a test:index:Thing child.
type Thing struct {
	pulumi.CustomResourceState
	Value pulumi.StringOutput `pulumi:"value"`
}

func (p *testProvider) Construct(ctx context.Context, req *pulumirpc.ConstructRequest) (*pulumirpc.ConstructResponse, error) {
	// Keep the request so tests can check what the engine sent.
	raw, err := protojson.Marshal(req)
	if err != nil {
		return nil, err
	}
	if err := os.WriteFile(filepath.Join(p.dir(), "construct-"+req.GetName()+".json"), raw, 0o644); err != nil {
		return nil, err
	}
	return provider.Construct(ctx, req, p.host.EngineConn(), func(ctx *pulumi.Context, typ, name string,
		inputs provider.ConstructInputs, options pulumi.ResourceOption,
	) (*provider.ConstructResult, error) {
		if typ != "test:index:Comp" {
			return nil, fmt.Errorf("unknown component type %s", typ)
		}
		var args struct {
			Prefix pulumi.StringInput `pulumi:"prefix"`
		}
		if err := inputs.CopyTo(&args); err != nil {
			return nil, err
		}
		if args.Prefix == nil {
			return nil, errors.New("prefix is required")
		}
		comp := &Comp{}
		if err := ctx.RegisterComponentResource(typ, name, comp, options); err != nil {
			return nil, err
		}
		child := &Thing{}
		if err := ctx.RegisterResource("test:index:Thing", name+"-child",
			pulumi.Map{"value": args.Prefix}, child, pulumi.Parent(comp)); err != nil {
			return nil, err
		}
		comp.Out = pulumi.Sprintf("%s!", args.Prefix)
		comp.ChildID = child.ID()
		if err := ctx.RegisterResourceOutputs(comp, pulumi.Map{"out": comp.Out, "childId": child.ID()}); err != nil {
			return nil, err
		}
		return provider.NewConstructResult(comp)
	})
}

// Call test:index:Comp/whoami answers which provider instance served it.
func (p *testProvider) Call(ctx context.Context, req *pulumirpc.CallRequest) (*pulumirpc.CallResponse, error) {
	return provider.Call(ctx, req, p.host.EngineConn(), func(ctx *pulumi.Context, tok string, args provider.CallArgs) (*provider.CallResult, error) {
		if !strings.HasSuffix(tok, "/whoami") {
			return nil, fmt.Errorf("unknown method %s", tok)
		}
		self, err := args.Self()
		if err != nil {
			return nil, err
		}
		_, id := p.identity()
		return provider.NewCallResult(&struct {
			ProviderID pulumi.StringInput `pulumi:"providerId"`
			Self       pulumi.URNInput    `pulumi:"self"`
		}{pulumi.String(id), self.URN()})
	})
}

func (p *testProvider) Cancel(context.Context, *emptypb.Empty) (*emptypb.Empty, error) {
	return &emptypb.Empty{}, nil
}
