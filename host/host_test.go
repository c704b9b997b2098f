package host_test

import (
	"bytes"
	"context"
	_ "embed"
	"errors"
	"fmt"
	"maps"
	"net"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/pulumi/pulumi/sdk/v3/go/common/providers"
	"github.com/pulumi/pulumi/sdk/v3/go/common/resource"
	"github.com/pulumi/pulumi/sdk/v3/go/common/resource/plugin"
	"github.com/pulumi/pulumi/sdk/v3/go/common/resource/urn"
	"github.com/pulumi/pulumi/sdk/v3/go/property"
	pulumirpc "github.com/pulumi/pulumi/sdk/v3/proto/go"
	"google.golang.org/grpc"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/credentials/insecure"
	"google.golang.org/grpc/status"
	"google.golang.org/protobuf/types/known/emptypb"
	"google.golang.org/protobuf/types/known/structpb"

	"github.com/polyhost/polyhost/host"
	"github.com/polyhost/polyhost/host/custom"
	"github.com/polyhost/polyhost/host/diag"
	"github.com/polyhost/polyhost/host/hosttest"
	"github.com/polyhost/polyhost/monitorclient"
)

// schemaYAML is the test package, a schema-first one.
//
//go:embed testdata/schemas/test.yaml
var schemaYAML string

type compArgs struct {
	Greeting string `pulumi:"greeting"`
}

type compOut struct {
	Shout string `pulumi:"shout"`
}

// serve runs a provider in-process on loopback and returns a raw client.
// An empty engineAddr starts it in attach mode.
func serve(t *testing.T, engineAddr string, opts ...host.Option) pulumirpc.ResourceProviderClient {
	t.Helper()
	var args []string
	if engineAddr != "" {
		args = []string{engineAddr}
	}
	p, err := host.New("test", append([]host.Option{host.WithSchema([]byte(schemaYAML))}, opts...)...)
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	out := portWriter(make(chan string, 1))
	done := make(chan error, 1)
	go func() { done <- host.Serve(ctx, p, args, out) }()
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
	t.Cleanup(func() {
		_ = conn.Close()
		cancel()
		if err := <-done; err != nil {
			t.Errorf("serve returned %v", err)
		}
	})
	return pulumirpc.NewResourceProviderClient(conn)
}

// providerRef parses a provider reference "urn::id".
func providerRef(s string) providers.Reference {
	ref, err := providers.ParseReference(s)
	if err != nil {
		panic(err)
	}
	return ref
}

// portWriter hands the port line Serve writes to the test.
type portWriter chan string

func (w portWriter) Write(p []byte) (int, error) {
	w <- string(p)
	return len(p), nil
}

func constructReq(mon *hosttest.Monitor, typ, name string, inputs map[string]any) *pulumirpc.ConstructRequest {
	s, err := plugin.MarshalProperties(resource.NewPropertyMapFromMap(inputs), plugin.MarshalOptions{})
	if err != nil {
		panic(err)
	}
	return &pulumirpc.ConstructRequest{Project: "proj", Stack: "dev", MonitorEndpoint: mon.Addr(),
		Type: typ, Name: name, Parent: "urn:pulumi:dev::proj::pulumi:pulumi:Stack::proj-dev", Inputs: s}
}

// The options a program set on a component reach the component's own
// registration, as the Go SDK's construct passes them on.
func TestConstructForwardsOptions(t *testing.T) {
	t.Parallel()
	mon := hosttest.Start(t)
	client := serve(t, mon.Addr(), host.WithComponent("test:index:Comp",
		func(ctx context.Context, c *host.Component, args compArgs) (compOut, error) {
			return compOut{Shout: args.Greeting}, nil
		}))
	other := "urn:pulumi:dev::proj::test:index:Other::o"
	req := constructReq(mon, "test:index:Comp", "c", map[string]any{"greeting": "hi"})
	req.Protect, req.RetainOnDelete = new(true), new(true)
	req.DeleteBeforeReplace = new(true)
	req.Dependencies = []string{other}
	req.AdditionalSecretOutputs = []string{"shout"}
	req.IgnoreChanges, req.ReplaceOnChanges = []string{"greeting"}, []string{"greeting.x", "shout"}
	req.DeletedWith, req.ReplaceWith = other, []string{other}
	req.ReplacementTrigger = structpb.NewStringValue("v2")
	req.CustomTimeouts = &pulumirpc.ConstructRequest_CustomTimeouts{Create: "1m", Update: "2m", Delete: "3m", Read: "4m"}
	req.ResourceHooks = &pulumirpc.ConstructRequest_ResourceHooksBinding{BeforeCreate: []string{"audit"}, OnError: []string{"retry"}}
	req.Aliases = []*pulumirpc.Alias{{Alias: &pulumirpc.Alias_Urn{Urn: "urn:pulumi:dev::proj::test:index:Comp::old"}}}
	resp, err := client.Construct(context.Background(), req)
	if err != nil {
		t.Fatal(err)
	}
	state, err := plugin.UnmarshalProperties(resp.GetState(), plugin.MarshalOptions{KeepSecrets: true})
	if err != nil {
		t.Fatal(err)
	}
	if shout := state["shout"]; !shout.IsSecret() {
		t.Errorf("the state's shout = %v, want it secret: it is in additionalSecretOutputs", shout)
	}
	if len(mon.Registrations()) == 0 {
		t.Fatal("the component was not registered")
	}
	r := mon.Registrations()[0].Raw
	checks := map[string]bool{
		"protect":            r.GetProtect() && r.GetRetainOnDelete() && r.GetDeleteBeforeReplace(),
		"dependencies":       slices.Equal(r.GetDependencies(), []string{other}),
		"additionalSecrets":  slices.Equal(r.GetAdditionalSecretOutputs(), []string{"shout"}),
		"ignoreChanges":      slices.Equal(r.GetIgnoreChanges(), []string{"greeting"}),
		"replaceOnChanges":   slices.Equal(r.GetReplaceOnChanges(), []string{"greeting.x", "shout"}),
		"deletedWith":        r.GetDeletedWith() == other,
		"replaceWith":        len(r.GetReplaceWith()) == 1 && r.GetReplaceWith()[0] == other,
		"replacementTrigger": r.GetReplacementTrigger().GetStringValue() == "v2",
		"customTimeouts":     r.GetCustomTimeouts().GetRead() == "4m" && r.GetCustomTimeouts().GetDelete() == "3m",
		"hooks":              len(r.GetHooks().GetBeforeCreate()) == 1 && len(r.GetHooks().GetOnError()) == 1,
		"aliases":            len(r.GetAliases()) == 1,
	}
	for what, ok := range checks {
		if !ok {
			t.Errorf("%s not forwarded: %v", what, r)
		}
	}
}

func TestPanicInComponentFailsOnlyThatCall(t *testing.T) {
	t.Parallel()
	mon := hosttest.Start(t)
	calls := 0
	client := serve(t, mon.Addr(), host.WithComponent("test:index:Comp",
		func(ctx context.Context, c *host.Component, args compArgs) (compOut, error) {
			calls++
			if args.Greeting == "boom" {
				var m map[string]int
				m["x"] = 1 //lint:ignore SA5000 a nil map write: the real panic this test wants
			}
			return compOut{Shout: strings.ToUpper(args.Greeting)}, nil
		}))
	_, err := client.Construct(context.Background(), constructReq(mon, "test:index:Comp", "c", map[string]any{"greeting": "boom"}))
	if msg := status.Convert(err).Message(); !strings.HasPrefix(msg, "panic in component code: assignment to entry in nil map") {
		t.Fatalf("error = %v, want a panic error", err)
	}
	if !slices.ContainsFunc(mon.Logs(), func(l monitorclient.LogRequest) bool {
		return strings.HasPrefix(l.Message, `test:index:Comp "c": construct: panic in component code`) && strings.Contains(l.Message, "goroutine")
	}) {
		t.Errorf("no debug log names the component and has the stack: %v", mon.Logs())
	}
	resp, err := client.Construct(context.Background(), constructReq(mon, "test:index:Comp", "d", map[string]any{"greeting": "hi"}))
	if err != nil {
		t.Fatalf("next call failed: %v", err)
	}
	if got := resp.GetState().GetFields()["shout"].GetStringValue(); got != "HI" {
		t.Errorf("shout = %q", got)
	}
	if calls != 2 {
		t.Errorf("component ran %d times, want 2", calls)
	}
}

func TestCancelAbortsInFlightConstruct(t *testing.T) {
	t.Parallel()
	mon := hosttest.Start(t)
	started := make(chan struct{})
	client := serve(t, mon.Addr(), host.WithComponent("test:index:Comp",
		func(ctx context.Context, c *host.Component, args compArgs) (compOut, error) {
			close(started)
			<-ctx.Done()
			return compOut{}, ctx.Err()
		}))
	errc := make(chan error, 1)
	go func() {
		_, err := client.Construct(context.Background(), constructReq(mon, "test:index:Comp", "c", map[string]any{"greeting": "x"}))
		errc <- err
	}()
	<-started
	if _, err := client.Cancel(context.Background(), &emptypb.Empty{}); err != nil {
		t.Fatal(err)
	}
	select {
	case err := <-errc:
		if err == nil || !strings.Contains(err.Error(), "context canceled") {
			t.Fatalf("construct error = %v, want cancellation", err)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("construct still running after Cancel")
	}
}

// Stack config reaches a default provider as strings, and the Node and
// Python SDKs JSON-encode an explicit provider's non-string inputs, so a
// string for an integer variable is decoded; one that is not a number is
// named.
func TestConfigStringsDecoded(t *testing.T) {
	t.Parallel()
	mon := hosttest.Start(t)
	client := serve(t, mon.Addr())
	check := func(retries string) *pulumirpc.CheckResponse {
		s, _ := plugin.MarshalProperties(resource.PropertyMap{"retries": resource.NewProperty(retries)}, plugin.MarshalOptions{})
		resp, err := client.CheckConfig(context.Background(), &pulumirpc.CheckRequest{News: s})
		if err != nil {
			t.Fatal(err)
		}
		return resp
	}
	resp := check("3")
	if len(resp.GetFailures()) > 0 {
		t.Errorf(`retries "3": failures %v`, resp.GetFailures())
	}
	if got := resp.GetInputs().GetFields()["retries"].GetNumberValue(); got != 3 {
		t.Errorf(`retries "3" checked to %v, want the number 3`, resp.GetInputs().GetFields()["retries"])
	}
	resp = check("lots")
	if f := resp.GetFailures(); len(f) != 1 || f[0].GetProperty() != "retries" {
		t.Errorf(`retries "lots": failures %v, want one naming retries`, f)
	}
}

func TestConfigCheckAndDiff(t *testing.T) {
	t.Parallel()
	mon := hosttest.Start(t)
	client := serve(t, mon.Addr())
	marshal := func(m map[string]any) *pulumirpc.CheckRequest {
		s, _ := plugin.MarshalProperties(resource.NewPropertyMapFromMap(m), plugin.MarshalOptions{})
		return &pulumirpc.CheckRequest{News: s}
	}
	resp, err := client.CheckConfig(context.Background(), marshal(map[string]any{"token": "t0ps3cret", "retries": -1, "colour": "red"}))
	if err != nil {
		t.Fatal(err)
	}
	var failures []string
	for _, f := range resp.GetFailures() {
		failures = append(failures, f.GetProperty()+": "+f.GetReason())
		if strings.Contains(f.GetReason(), "t0ps3cret") {
			t.Errorf("failure reveals the secret: %v", f)
		}
	}
	want := []string{`colour: unknown property "colour"`, "retries: -1 is below the minimum 0"}
	if strings.Join(failures, "|") != strings.Join(want, "|") {
		t.Errorf("failures = %q, want %q", failures, want)
	}
	checked, err := plugin.UnmarshalProperties(resp.GetInputs(), plugin.MarshalOptions{KeepSecrets: true})
	if err != nil {
		t.Fatal(err)
	}
	if checked["region"].StringValue() != "here" {
		t.Errorf("default not applied: %v", checked["region"])
	}
	if !checked["token"].IsSecret() {
		t.Errorf("token not marked secret: %v", checked["token"])
	}

	diff := func(olds, news map[string]any) *pulumirpc.DiffResponse {
		o, _ := plugin.MarshalProperties(resource.NewPropertyMapFromMap(olds), plugin.MarshalOptions{})
		n, _ := plugin.MarshalProperties(resource.NewPropertyMapFromMap(news), plugin.MarshalOptions{})
		d, err := client.DiffConfig(context.Background(), &pulumirpc.DiffRequest{OldInputs: o, Olds: o, News: n})
		if err != nil {
			t.Fatal(err)
		}
		return d
	}
	if d := diff(map[string]any{"location": "a"}, map[string]any{"location": "a"}); d.GetChanges() != pulumirpc.DiffResponse_DIFF_NONE {
		t.Errorf("same config: %v", d)
	}
	if d := diff(map[string]any{"location": "a", "token": "x"}, map[string]any{"location": "a", "token": "y"}); d.GetChanges() != pulumirpc.DiffResponse_DIFF_SOME || len(d.GetReplaces()) != 0 {
		t.Errorf("credential change must update in place: %v", d)
	}
	if d := diff(map[string]any{"location": "a"}, map[string]any{"location": "b"}); len(d.GetReplaces()) != 1 || d.GetReplaces()[0] != "location" {
		t.Errorf("location change must replace: %v", d)
	}
}

func TestUnknownComponentNamesServedTokens(t *testing.T) {
	t.Parallel()
	mon := hosttest.Start(t)
	client := serve(t, mon.Addr(), host.WithComponent("test:index:Comp",
		func(ctx context.Context, c *host.Component, args compArgs) (compOut, error) { return compOut{}, nil }))
	_, err := client.Construct(context.Background(), constructReq(mon, "test:index:Missing", "c", nil))
	if err == nil || !strings.Contains(err.Error(), `unknown component type "test:index:Missing": provider test serves test:index:Comp`) {
		t.Fatalf("error = %v", err)
	}
}

// An unknown method is named at once, without waiting on a monitor that
// does not answer.
func TestUnknownMethodBeforeMonitor(t *testing.T) {
	t.Parallel()
	mon := hosttest.Start(t)
	client := serve(t, mon.Addr(), host.WithMethod("test:index:Comp/greet",
		func(ctx context.Context, self *host.Component, args greetArgs) (string, error) { return "", nil }))
	silent, err := net.Listen("tcp", "127.0.0.1:0") // accepts, never speaks gRPC
	if err != nil {
		t.Fatal(err)
	}
	defer silent.Close()
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	_, err = client.Call(ctx, &pulumirpc.CallRequest{Tok: "test:index:Comp/missing", MonitorEndpoint: silent.Addr().String()})
	if err == nil || !strings.Contains(err.Error(), `unknown method "test:index:Comp/missing": provider test serves test:index:Comp/greet`) {
		t.Fatalf("error = %v, want the unknown method named", err)
	}
}

func TestApplyPropagatesMarkers(t *testing.T) {
	t.Parallel()
	dep := urn.URN("urn:pulumi:dev::proj::a:b:C::x")
	known := property.New("a").WithSecret(true)
	depd := property.New("b").WithDependencies([]urn.URN{dep})
	join := func(v ...property.Value) property.Value {
		if v[0].Secret() || len(v[1].Dependencies()) > 0 {
			t.Errorf("f saw markers: %v %v", v[0], v[1])
		}
		return property.New(v[0].AsString() + v[1].AsString())
	}
	got := host.Apply(join, known, depd)
	if !got.Secret() || got.AsString() != "ab" || len(got.Dependencies()) != 1 || got.Dependencies()[0] != dep {
		t.Errorf("Apply = %#v, want secret ab depending on %s", got, dep)
	}
	unknown := host.Apply(join, known, property.New(property.Computed))
	if !unknown.IsComputed() || !unknown.Secret() {
		t.Errorf("Apply over an unknown = %v, want unknown secret", unknown)
	}
	// A secret anywhere inside a value makes the result secret: a map
	// holding one, and an array holding that map.
	nested := property.New(map[string]property.Value{"plain": property.New("p"), "pw": property.New("hunter2").WithSecret(true)})
	count := func(v ...property.Value) property.Value { return property.New(float64(v[0].AsMap().Len())) }
	if got := host.Apply(count, nested); !got.Secret() {
		t.Errorf("Apply over a map holding a secret = %v, want secret", got)
	}
	inArray := property.New([]property.Value{nested})
	if got := host.Apply(func(v ...property.Value) property.Value { return v[0] }, inArray); !got.Secret() {
		t.Errorf("Apply over an array holding a secret = %v, want secret", got)
	}
}

func TestErrorfIsInputError(t *testing.T) {
	t.Parallel()
	err := diag.Errorf("pages[0]", "too long")
	var ie *diag.InputError
	if !errors.As(err, &ie) || ie.Failures[0].Property != "pages[0]" {
		t.Fatalf("Errorf = %#v", err)
	}
}

func TestConstructSeesStackConfig(t *testing.T) {
	t.Parallel()
	mon := hosttest.Start(t)
	client := serve(t, mon.Addr(), host.WithComponent("test:index:Comp",
		func(ctx context.Context, c *host.Component, args compArgs) (property.Map, error) {
			cfg := c.Stack().Config
			return property.NewMap(map[string]property.Value{
				"greeting": cfg.Get("proj:greeting"), "password": cfg.Get("proj:password"),
			}), nil
		}))
	req := constructReq(mon, "test:index:Comp", "c", map[string]any{"greeting": "x"})
	req.Config = map[string]string{"proj:greeting": "hello", "proj:password": "hunter2"}
	req.ConfigSecretKeys = []string{"proj:password"}
	resp, err := client.Construct(context.Background(), req)
	if err != nil {
		t.Fatal(err)
	}
	state, err := plugin.UnmarshalProperties(resp.GetState(), plugin.MarshalOptions{KeepSecrets: true})
	if err != nil {
		t.Fatal(err)
	}
	if state["greeting"].StringValue() != "hello" || state["greeting"].IsSecret() {
		t.Errorf("greeting = %v, want plain hello", state["greeting"])
	}
	if !state["password"].IsSecret() || state["password"].SecretValue().Element.StringValue() != "hunter2" {
		t.Errorf("password = %v, want a secret", state["password"])
	}
}

// With no engine address the provider waits in attach mode; after Attach it
// logs to that engine, attached to the component's URN.
func TestAttachModeAndLogging(t *testing.T) {
	t.Parallel()
	mon := hosttest.Start(t)
	client := serve(t, "", host.WithComponent("test:index:Comp",
		func(ctx context.Context, c *host.Component, args compArgs) (compOut, error) {
			c.Log(ctx, monitorclient.SeverityInfo, "building "+args.Greeting)
			return compOut{}, nil
		}))
	if _, err := client.Attach(context.Background(), &pulumirpc.PluginAttach{Address: mon.Addr()}); err != nil {
		t.Fatal(err)
	}
	resp, err := client.Construct(context.Background(), constructReq(mon, "test:index:Comp", "c", map[string]any{"greeting": "hi"}))
	if err != nil {
		t.Fatal(err)
	}
	var found bool
	for _, l := range mon.Logs() {
		if l.Message == "building hi" && string(l.URN) == resp.GetUrn() && l.Severity == monitorclient.SeverityInfo {
			found = true
		}
	}
	if !found {
		t.Errorf("log not received with the component URN: %+v", mon.Logs())
	}
}

func TestServeRejectsBadArguments(t *testing.T) {
	t.Parallel()
	p, err := host.New("test")
	if err != nil {
		t.Fatal(err)
	}
	err = host.Serve(context.Background(), p, []string{"a:1", "b:2"}, &bytes.Buffer{})
	if err == nil || !strings.Contains(err.Error(), "want at most one argument") {
		t.Fatalf("error = %v", err)
	}
}

type secretArgs struct {
	Greeting string `pulumi:"greeting"` // decoded by plaintext
}

// Author code that formats a secret input into its error cannot leak it:
// the host redacts the request's secrets from every message it returns,
// and a panic's stack goes to the debug log, not to the user.
func TestErrorsNeverCarrySecrets(t *testing.T) {
	t.Parallel()
	mon := hosttest.Start(t)
	client := serve(t, mon.Addr(), host.WithComponent("test:index:Comp",
		func(ctx context.Context, c *host.Component, args secretArgs) (compOut, error) {
			if args.Greeting == "panic-hunter2" {
				panic("bad greeting " + args.Greeting)
			}
			return compOut{}, fmt.Errorf("cannot greet %q", args.Greeting)
		}))
	for _, secret := range []string{"hunter2", "panic-hunter2"} {
		req := constructReq(mon, "test:index:Comp", "c-"+secret, nil)
		req.Inputs, _ = plugin.MarshalProperties(resource.PropertyMap{
			"greeting": resource.MakeSecret(resource.NewProperty(secret)),
		}, plugin.MarshalOptions{KeepSecrets: true})
		_, err := client.Construct(context.Background(), req)
		if err == nil || strings.Contains(err.Error(), "hunter2") || !strings.Contains(err.Error(), "[secret]") {
			t.Errorf("error = %v, want the secret redacted", err)
		}
		if strings.Contains(err.Error(), "goroutine") {
			t.Errorf("error carries a stack: %v", err)
		}
	}
	for _, l := range mon.Logs() {
		if strings.Contains(l.Message, "hunter2") {
			t.Errorf("log carries the secret: %q", l.Message)
		}
	}
}

type greetArgs struct {
	Name string `pulumi:"name"`
}

// callGreet serves test:index:Comp with greet as its method, constructs one
// and calls greet on it with name "world" and the stack config cfg.
func callGreet(t *testing.T, mon *hosttest.Monitor, cfg map[string]string, greet host.MethodFunc[greetArgs, string]) *pulumirpc.CallResponse {
	t.Helper()
	_, resp := callMethod(t, mon, cfg, resource.NewProperty("hello"), greet)
	return resp
}

// greetCallArgs are the arguments of a call of greet on the Comp compURN,
// with name "world".
func greetCallArgs(compURN string) *structpb.Struct {
	args, err := plugin.MarshalProperties(resource.PropertyMap{
		"__self__": resource.MakeComponentResourceReference(resource.URN(compURN), ""),
		"name":     resource.NewProperty("world"),
	}, plugin.MarshalOptions{KeepResources: true})
	if err != nil {
		panic(err)
	}
	return args
}

// callMethod is callGreet for any result type and a Comp constructed with
// greeting (which it returns as its shout); it returns the Comp's URN too.
func callMethod[R any](t *testing.T, mon *hosttest.Monitor, cfg map[string]string, greeting resource.PropertyValue, greet host.MethodFunc[greetArgs, R]) (string, *pulumirpc.CallResponse) {
	t.Helper()
	client := serve(t, mon.Addr(),
		host.WithComponent("test:index:Comp", func(ctx context.Context, c *host.Component, args compArgs) (compOut, error) {
			return compOut{Shout: args.Greeting}, nil
		}),
		host.WithMethod("test:index:Comp/greet", greet))
	req := constructReq(mon, "test:index:Comp", "c", nil)
	req.Inputs, _ = plugin.MarshalProperties(resource.PropertyMap{"greeting": greeting}, plugin.MarshalOptions{KeepSecrets: true})
	comp, err := client.Construct(context.Background(), req)
	if err != nil {
		t.Fatal(err)
	}
	args := greetCallArgs(comp.GetUrn())
	resp, err := client.Call(context.Background(), &pulumirpc.CallRequest{
		Tok: "test:index:Comp/greet", Args: args, MonitorEndpoint: mon.Addr(), Config: cfg,
	})
	if err != nil {
		t.Fatal(err)
	}
	return comp.GetUrn(), resp
}

// A method whose result is a single value returns it under "res".
func TestSingleValueMethod(t *testing.T) {
	t.Parallel()
	resp := callGreet(t, hosttest.Start(t), nil, func(ctx context.Context, self *host.Component, args greetArgs) (string, error) {
		return self.State().Get("shout").AsString() + ", " + args.Name, nil
	})
	if got := resp.GetReturn().GetFields()["res"].GetStringValue(); got != "hello, world" || len(resp.GetFailures()) > 0 {
		t.Fatalf("return = %v, failures %v", resp.GetReturn(), resp.GetFailures())
	}
}

// A method result computed from the component's state depends on the
// component, as with the Go SDK, and a secret state value stays secret,
// also when read into a plain Go string.
func TestMethodResultFromStateDependsOnComponent(t *testing.T) {
	t.Parallel()
	for _, secret := range []bool{false, true} {
		greeting := resource.NewProperty("hello")
		if secret {
			greeting = resource.MakeSecret(greeting)
		}
		compURN, resp := callMethod(t, hosttest.Start(t), nil, greeting, func(ctx context.Context, self *host.Component, args greetArgs) (property.Value, error) {
			return host.Apply(func(v ...property.Value) property.Value {
				return property.New(v[0].AsString() + ", " + args.Name)
			}, self.State().Get("shout")), nil
		})
		ret, err := plugin.UnmarshalProperties(resp.GetReturn(), plugin.MarshalOptions{KeepSecrets: true})
		if err != nil || len(resp.GetFailures()) > 0 {
			t.Fatalf("return = %v, %v; failures %v", resp.GetReturn(), err, resp.GetFailures())
		}
		if deps := resp.GetReturnDependencies()["res"].GetUrns(); !slices.Contains(deps, compURN) {
			t.Errorf("secret=%v: return dependencies %v, want the component %s among them", secret, resp.GetReturnDependencies(), compURN)
		}
		if ret["res"].IsSecret() != secret {
			t.Errorf("secret=%v: return = %v", secret, ret["res"])
		}
	}

	// A plain Go value keeps the secretness; its dependency is lost.
	_, resp := callMethod(t, hosttest.Start(t), nil, resource.MakeSecret(resource.NewProperty("hello")), func(ctx context.Context, self *host.Component, args greetArgs) (string, error) {
		return self.State().Get("shout").AsString() + ", " + args.Name, nil
	})
	ret, err := plugin.UnmarshalProperties(resp.GetReturn(), plugin.MarshalOptions{KeepSecrets: true})
	if err != nil || !ret["res"].IsSecret() || ret["res"].SecretValue().Element.StringValue() != "hello, world" {
		t.Errorf("plain return = %v, %v; want the secret \"hello, world\"", ret["res"], err)
	}
}

// The engine's CallRequest carries neither the organization nor which
// config keys are secret; the host takes both from the monitor, so a method
// that reads secret stack config returns it secret.
func TestCallTakesSecretConfigKeysFromMonitor(t *testing.T) {
	t.Parallel()
	cfg := map[string]string{"proj:apiKey": "s3cr3t-key"}
	mon := hosttest.Start(t, hosttest.WithDeploymentConfig("acme", cfg, "proj:apiKey"))
	resp := callGreet(t, mon, cfg, func(ctx context.Context, self *host.Component, args greetArgs) (string, error) {
		return self.Stack().Organization + "/" + self.Stack().Config.Get("proj:apiKey").AsString(), nil
	})
	ret, err := plugin.UnmarshalProperties(resp.GetReturn(), plugin.MarshalOptions{KeepSecrets: true})
	if err != nil {
		t.Fatal(err)
	}
	if !ret["res"].IsSecret() || ret["res"].SecretValue().Element.StringValue() != "acme/s3cr3t-key" {
		t.Errorf("return = %v, want the secret \"acme/s3cr3t-key\"", ret["res"])
	}
}

type mirrorArgs struct {
	Source property.Value `pulumi:"source"`
}

type mirrorOut struct {
	SourceShout property.Value `pulumi:"sourceShout"`
}

// constructMirror constructs a Mirror named name whose source is a
// reference to sourceURN with an unknown ID, as Pulumi YAML sends one.
func constructMirror(t *testing.T, mon *hosttest.Monitor, client pulumirpc.ResourceProviderClient, name, sourceURN string, dryRun bool) (*pulumirpc.ConstructResponse, error) {
	t.Helper()
	req := constructReq(mon, "test:index:Mirror", name, nil)
	req.DryRun = dryRun
	req.Inputs, _ = plugin.MarshalProperties(resource.PropertyMap{
		"source": resource.NewProperty(resource.ResourceReference{
			URN: resource.URN(sourceURN), ID: resource.MakeComputed(resource.NewProperty("")),
		}),
	}, plugin.MarshalOptions{KeepResources: true, KeepUnknowns: true})
	if id := req.Inputs.GetFields()["source"].GetStructValue().GetFields()["id"]; id == nil {
		t.Fatalf("the reference was sent without an ID: %v", req.Inputs)
	}
	return client.Construct(context.Background(), req)
}

// serveMirror serves test:index:Comp and a Mirror that resolves its source
// and returns the source's shout, unknown if the source is not known.
func serveMirror(t *testing.T, mon *hosttest.Monitor) pulumirpc.ResourceProviderClient {
	return serve(t, mon.Addr(),
		host.WithComponent("test:index:Comp", func(ctx context.Context, c *host.Component, args compArgs) (compOut, error) {
			return compOut{Shout: args.Greeting}, nil
		}),
		host.WithComponent("test:index:Mirror", func(ctx context.Context, c *host.Component, args mirrorArgs) (mirrorOut, error) {
			src, err := c.Resolve(ctx, args.Source)
			if err != nil {
				return mirrorOut{}, diag.Errorf("source", "%v", err)
			}
			if !src.Known {
				return mirrorOut{SourceShout: property.New(property.Computed)}, nil
			}
			return mirrorOut{SourceShout: src.State.Get("shout")}, nil
		}))
}

// Pulumi YAML sends a reference to a component with an unknown ID, since
// components have none; outside a preview it still resolves through
// getResource.
func TestResolveComponentReferenceWithUnknownID(t *testing.T) {
	t.Parallel()
	mon := hosttest.Start(t)
	client := serveMirror(t, mon)
	comp, err := client.Construct(context.Background(), constructReq(mon, "test:index:Comp", "c", map[string]any{"greeting": "hello"}))
	if err != nil {
		t.Fatal(err)
	}
	resp, err := constructMirror(t, mon, client, "m", comp.GetUrn(), false)
	if err != nil {
		_, msg, details := wireError(t, err)
		t.Fatalf("Construct = %s %q", msg, details)
	}
	if got := resp.GetState().GetFields()["sourceShout"].GetStringValue(); got != "hello" {
		t.Errorf("sourceShout = %q, want the source's shout \"hello\"", got)
	}
	// A resource the engine does not know is an error outside a preview.
	_, err = constructMirror(t, mon, client, "m2", "urn:pulumi:dev::proj::test:index:Comp::ghost", false)
	if _, _, details := wireError(t, err); len(details) != 1 || !strings.Contains(details[0], "source: ") || !strings.Contains(details[0], "unknown resource") {
		t.Errorf("mirror of an unregistered component: details %q, want source named", details)
	}
}

// In a preview, a reference without an ID resolves through getResource
// when the engine knows the resource, and is unknown, not an error, when
// it does not.
func TestResolveUnknownIDInPreview(t *testing.T) {
	t.Parallel()
	mon := hosttest.Start(t, hosttest.WithDryRun(true))
	client := serveMirror(t, mon)
	req := constructReq(mon, "test:index:Comp", "c", map[string]any{"greeting": "hello"})
	req.DryRun = true
	comp, err := client.Construct(context.Background(), req)
	if err != nil {
		t.Fatal(err)
	}
	resp, err := constructMirror(t, mon, client, "m", comp.GetUrn(), true)
	if err != nil {
		t.Fatal(err)
	}
	if got := resp.GetState().GetFields()["sourceShout"].GetStringValue(); got != "hello" {
		t.Errorf("sourceShout = %q, want the source's shout \"hello\"", got)
	}
	resp, err = constructMirror(t, mon, client, "m2", "urn:pulumi:dev::proj::test:index:Comp::later", true)
	if err != nil {
		t.Fatalf("mirror of a resource the engine does not know yet: %v", err)
	}
	if got := resp.GetState().GetFields()["sourceShout"].GetStringValue(); got != plugin.UnknownStringValue {
		t.Errorf("sourceShout = %q, want unknown", got)
	}
}

type slowResource struct{}

func (slowResource) Create(ctx context.Context, req custom.CreateRequest) (custom.CreateResponse, error) {
	<-ctx.Done() // never finishes on its own
	return custom.CreateResponse{}, ctx.Err()
}
func (slowResource) Read(context.Context, custom.ReadRequest) (custom.ReadResponse, error) {
	return custom.ReadResponse{}, nil
}
func (slowResource) Update(context.Context, custom.UpdateRequest) (custom.UpdateResponse, error) {
	return custom.UpdateResponse{}, nil
}
func (slowResource) Delete(context.Context, custom.DeleteRequest) (custom.DeleteResponse, error) {
	return custom.DeleteResponse{}, nil
}

// The request's timeout bounds the backend call.
func TestCreateTimeoutBoundsBackend(t *testing.T) {
	t.Parallel()
	mon := hosttest.Start(t)
	client := serve(t, mon.Addr(), host.WithResource("test:index:Thing", slowResource{}))
	_, err := client.Create(context.Background(), &pulumirpc.CreateRequest{
		Urn: "urn:pulumi:dev::proj::test:index:Thing::t", Name: "t", Type: "test:index:Thing", Timeout: 0.05,
	})
	if err == nil || !strings.Contains(err.Error(), "deadline exceeded") {
		t.Fatalf("error = %v, want the timeout", err)
	}
}

type noteResource struct{ slowResource }

func (noteResource) Create(ctx context.Context, req custom.CreateRequest) (custom.CreateResponse, error) {
	return custom.CreateResponse{ID: "n1", Outputs: property.NewMap(map[string]property.Value{"note": property.New("x")})}, nil
}

// A custom resource's outputs that its schema does not declare are stored,
// since the resource exists, with a warning naming them, as for components.
func TestUndeclaredResourceOutputsWarn(t *testing.T) {
	t.Parallel()
	mon := hosttest.Start(t)
	client := serve(t, mon.Addr(), host.WithResource("test:index:Thing", noteResource{}))
	resp, err := client.Create(context.Background(), &pulumirpc.CreateRequest{
		Urn: "urn:pulumi:dev::proj::test:index:Thing::t", Name: "t", Type: "test:index:Thing",
	})
	if err != nil || resp.GetProperties().GetFields()["note"].GetStringValue() != "x" {
		t.Fatalf("Create = %v, %v; want the output kept", resp, err)
	}
	warned := false
	for _, l := range mon.Logs() {
		warned = warned || l.Severity == monitorclient.SeverityWarning &&
			strings.HasSuffix(l.Message, "test:index:Thing returned outputs its schema does not declare, which SDKs cannot read: note")
	}
	if !warned {
		t.Errorf("logs = %v, want a warning naming the undeclared output", mon.Logs())
	}
}

type passArgs struct {
	Password string `pulumi:"password"` // a plain field: the secret marker is dropped here
}

type passOut struct {
	Echo     string `pulumi:"echo"`
	Greeting string `pulumi:"greeting"`
}

// In a preview, an unknown input in a plain field reads as its zero value,
// so outputs computed from it would be wrong: every output is unknown.
func TestUnknownInPlainFieldMakesOutputsUnknown(t *testing.T) {
	t.Parallel()
	mon := hosttest.Start(t, hosttest.WithDryRun(true))
	client := serve(t, mon.Addr(), host.WithComponent("test:index:Vault",
		func(ctx context.Context, c *host.Component, args passArgs) (passOut, error) {
			return passOut{Echo: args.Password, Greeting: "Hello, " + args.Password}, nil
		}))
	for _, tc := range []struct {
		name     string
		password resource.PropertyValue
		unknown  bool
	}{
		{"known", resource.NewProperty("pw"), false},
		{"unknown", resource.MakeComputed(resource.NewProperty("")), true},
	} {
		req := constructReq(mon, "test:index:Vault", "v-"+tc.name, nil)
		req.DryRun = true
		req.Inputs, _ = plugin.MarshalProperties(resource.PropertyMap{"password": tc.password}, plugin.MarshalOptions{KeepUnknowns: true})
		resp, err := client.Construct(context.Background(), req)
		if err != nil {
			t.Fatalf("%s: %v", tc.name, err)
		}
		state, _ := plugin.UnmarshalProperties(resp.GetState(), plugin.MarshalOptions{KeepUnknowns: true})
		if got := state["greeting"].IsComputed() && state["echo"].IsComputed(); got != tc.unknown {
			t.Errorf("%s password: outputs %v, want unknown=%v", tc.name, state, tc.unknown)
		}
	}
}

// A child named after a secret input would put the secret into its URN, in
// plaintext in the state: Register refuses it, without printing the name.
func TestChildNameWithSecretRefused(t *testing.T) {
	t.Parallel()
	mon := hosttest.Start(t)
	client := serve(t, mon.Addr(), host.WithComponent("test:index:Vault",
		func(ctx context.Context, c *host.Component, args passArgs) (passOut, error) {
			_, err := c.Register(ctx, monitorclient.RegisterResourceRequest{
				Type: "test:index:Thing", Name: "thing-" + args.Password, Custom: true,
			})
			return passOut{}, err
		}))
	req := constructReq(mon, "test:index:Vault", "v", nil)
	req.Inputs, _ = plugin.MarshalProperties(resource.PropertyMap{
		"password": resource.MakeSecret(resource.NewProperty("hunter2")),
	}, plugin.MarshalOptions{KeepSecrets: true})
	_, err := client.Construct(context.Background(), req)
	if err == nil || !strings.Contains(err.Error(), "name contains a secret") || strings.Contains(err.Error(), "hunter2") {
		t.Errorf("Construct = %v, want a refusal that does not print the secret", err)
	}
	for _, r := range mon.Registrations() {
		if strings.Contains(r.Name, "hunter2") {
			t.Errorf("registered %q", r.Name)
		}
	}

	// A secret of the stack's config is not the component's input: a name
	// that happens to contain it ("prod" in "thing-prod") is not refused.
	req = constructReq(mon, "test:index:Vault", "w", map[string]any{"password": "prod"})
	req.Config = map[string]string{"proj:env": "prod"}
	req.ConfigSecretKeys = []string{"proj:env"}
	if _, err := client.Construct(context.Background(), req); err != nil {
		t.Errorf("child named after a config secret: %v", err)
	}
}

// A component's outputs are checked against its schema. A wrong type or a
// missing required output is the author's mistake: Construct fails naming
// the property, without quoting a secret. An undeclared output only gets a
// warning.
func TestOutputsCheckedAgainstSchema(t *testing.T) {
	t.Parallel()
	mon := hosttest.Start(t)
	client := serve(t, mon.Addr(), host.WithComponent("test:index:Greeter",
		func(ctx context.Context, c *host.Component, args property.Map) (property.Map, error) {
			switch args.Get("mode").AsString() {
			case "wrong":
				return property.NewMap(map[string]property.Value{"message": property.New(42.0)}), nil
			case "secret":
				return property.NewMap(map[string]property.Value{
					"message": property.New(4242.0).WithSecret(true), "size": property.New(1.0),
				}), nil
			}
			return property.NewMap(map[string]property.Value{
				"message": property.New("hi"), "size": property.New(1.0), "note": property.New("x"),
			}), nil
		}))
	construct := func(mode string) error {
		_, err := client.Construct(context.Background(), constructReq(mon, "test:index:Greeter", mode, map[string]any{"mode": mode}))
		return err
	}
	err := construct("wrong")
	if err == nil || !strings.Contains(err.Error(), `desc = check outputs against the schema: `) ||
		!strings.Contains(err.Error(), "message: expected a string") || !strings.Contains(err.Error(), `size: missing required property "size"`) {
		t.Errorf("wrong outputs: error = %v, want both properties named", err)
	}
	err = construct("secret")
	if err == nil || !strings.Contains(err.Error(), "message: does not match the schema") || strings.Contains(err.Error(), "4242") {
		t.Errorf("secret output: error = %v, want the property named and the value hidden", err)
	}
	if err := construct("ok"); err != nil {
		t.Fatalf("undeclared output: %v", err)
	}
	warned := false
	for _, l := range mon.Logs() {
		warned = warned || l.Severity == monitorclient.SeverityWarning && strings.Contains(l.Message, "schema does not declare") &&
			strings.HasSuffix(l.Message, ": note")
	}
	if !warned {
		t.Errorf("logs = %v, want a warning naming the undeclared output", mon.Logs())
	}
}

type misspeltArgs struct {
	Greeting string `pulumi:"greting"`
}

type requiredArgs struct {
	Mode string `pulumi:"mode"` // optional in the schema
}

type misspeltOut struct {
	Message string `pulumi:"mesage"`
}

type mistypedArgs struct {
	Greeting int `pulumi:"greeting"` // a string in the schema
}

type mistypedOut struct {
	Shout []string `pulumi:"shout,optional"` // a string in the schema
}

// New compares the struct tags of components, methods and functions with
// the schema, so an author's mistake stops the provider at start-up
// instead of failing users' programs.
func TestNewChecksShapesAgainstSchema(t *testing.T) {
	t.Parallel()
	noop := func(ctx context.Context, c *host.Component, args misspeltArgs) (compOut, error) {
		return compOut{}, nil
	}
	cases := []struct {
		name string
		opt  host.Option
		want string
	}{
		{"misspelt input", host.WithComponent("test:index:Comp", noop),
			`test:index:Comp: field host_test.misspeltArgs.Greeting reads input "greting", which the schema does not declare`},
		{"optional input without ,optional", host.WithComponent("test:index:Greeter",
			func(ctx context.Context, c *host.Component, args requiredArgs) (property.Map, error) {
				return property.Map{}, nil
			}),
			`test:index:Greeter: input "mode" is optional in the schema, so field host_test.requiredArgs.Mode needs the tag ` + "`pulumi:\"mode,optional\"`"},
		{"misspelt output", host.WithComponent("test:index:Comp",
			func(ctx context.Context, c *host.Component, args compArgs) (misspeltOut, error) {
				return misspeltOut{}, nil
			}),
			`test:index:Comp: field host_test.misspeltOut.Message sets output "mesage", which the schema does not declare`},
		{"input of the wrong type", host.WithComponent("test:index:Comp",
			func(ctx context.Context, c *host.Component, args mistypedArgs) (compOut, error) {
				return compOut{}, nil
			}),
			`test:index:Comp: field host_test.mistypedArgs.Greeting is int, but input "greeting" is a string in the schema`},
		{"output of the wrong type", host.WithComponent("test:index:Comp",
			func(ctx context.Context, c *host.Component, args *compArgs) (*mistypedOut, error) {
				return nil, nil
			}),
			`test:index:Comp: field host_test.mistypedOut.Shout is []string, but output "shout" is a string in the schema`},
		{"arguments not a struct", host.WithComponent("test:index:Comp",
			func(ctx context.Context, c *host.Component, args int) (compOut, error) { return compOut{}, nil }),
			"test:index:Comp: the arguments must be a struct or property.Map, not int"},
		{"method not in the schema", host.WithMethod("test:index:Comp/wave",
			func(ctx context.Context, self *host.Component, args greetArgs) (string, error) { return "", nil }),
			"test:index:Comp/wave: the schema does not declare it"},
	}
	for _, tc := range cases {
		_, err := host.New("test", host.WithSchema([]byte(schemaYAML)), tc.opt)
		if err == nil || err.Error() != "provider test: "+tc.want+"\n(if the schema is generated from these Go types, it is stale: run go generate)" {
			t.Errorf("%s: New = %v, want %q", tc.name, err, tc.want)
		}
	}
}

// The version defaults to the schema's, and must be semver.
func TestVersion(t *testing.T) {
	t.Parallel()
	p, err := host.New("test", host.WithSchema([]byte("name: test\nversion: 1.2.3\n")))
	if err != nil || p.Version() != "1.2.3" {
		t.Errorf("New = %v, %v; want version 1.2.3 from the schema", p, err)
	}
	p, err = host.New("test", host.WithVersion("2.0.0"), host.WithSchema([]byte("name: test\nversion: 1.2.3\n")))
	if err != nil || p.Version() != "2.0.0" {
		t.Errorf("New = %v, %v; want WithVersion's 2.0.0", p, err)
	}
	if p, err := host.New("test"); err != nil || p.Version() != "0.0.0-dev" {
		t.Errorf("New = %v, %v; want 0.0.0-dev without a version", p, err)
	}
	if _, err := host.New("test", host.WithVersion("banana")); err == nil || !strings.Contains(err.Error(), `version "banana" is not semver`) {
		t.Errorf("New with version banana = %v, want a semver error", err)
	}
}

// A child of this package's custom type registered without Custom would be
// recorded as an empty component, and one of a type the schema does not
// declare has no SDK; the host refuses both, naming the type.
func TestChildKindCheckedAgainstSchema(t *testing.T) {
	t.Parallel()
	mon := hosttest.Start(t)
	client := serve(t, mon.Addr(), host.WithComponent("test:index:Comp",
		func(ctx context.Context, c *host.Component, args compArgs) (compOut, error) {
			typ := map[string]string{"custom": "test:index:Thing", "undeclared": "test:index:Nope"}[args.Greeting]
			_, err := c.Register(ctx, monitorclient.RegisterResourceRequest{Type: typ, Name: "t-" + args.Greeting})
			return compOut{}, err
		}))
	for greeting, want := range map[string]string{
		"custom":     `register child test:index:Thing "t-custom": test:index:Thing is a custom resource in the schema: set Custom`,
		"undeclared": `register child test:index:Nope "t-undeclared": the schema of package test does not declare test:index:Nope`,
	} {
		_, err := client.Construct(context.Background(), constructReq(mon, "test:index:Comp", greeting, map[string]any{"greeting": greeting}))
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("error = %v, want %q", err, want)
		}
	}
	for _, r := range mon.Registrations() {
		if strings.HasPrefix(r.Name, "t-") {
			t.Errorf("the child was registered: %+v", r)
		}
	}
}

// An output that fails the schema check while holding a secret decoded
// into a plain field is named without its value.
func TestOutputCheckHidesPlainFieldSecrets(t *testing.T) {
	t.Parallel()
	mon := hosttest.Start(t)
	client := serve(t, mon.Addr(), host.WithComponent("test:index:Vault",
		func(ctx context.Context, c *host.Component, args passArgs) (property.Map, error) {
			return property.NewMap(map[string]property.Value{"count": property.New("pw " + args.Password)}), nil
		}))
	req := constructReq(mon, "test:index:Vault", "v", nil)
	req.Inputs, _ = plugin.MarshalProperties(resource.PropertyMap{
		"password": resource.MakeSecret(resource.NewProperty("hunter2")),
	}, plugin.MarshalOptions{KeepSecrets: true})
	_, err := client.Construct(context.Background(), req)
	if err == nil || !strings.Contains(err.Error(), "count: does not match the schema") || strings.Contains(err.Error(), "hunter2") {
		t.Fatalf("error = %v, want count named and the secret hidden", err)
	}
}

// escapedNames are names the generators escape.
//
//go:embed testdata/schemas/escaped-names.yaml
var escapedNames []byte

// New refuses a schema whose names Pulumi's SDK generators turn into code
// that does not compile, naming each token, the language and why: a resource
// named Object is a TypeScript class Object (TS2725), a function named delete
// a TypeScript function named delete.
func TestNewRefusesNamesSDKsCannotCompile(t *testing.T) {
	t.Parallel()
	_, err := host.New("sitekit", host.WithSchema([]byte(`
name: sitekit
resources: {sitekit:index:Object: {properties: {key: {type: string}}}}
`)))
	want := "provider sitekit: schema: a name that generates invalid code in an SDK language (Pulumi's generators: TypeScript, Python, Go):\n" +
		"\tsitekit:index:Object: the TypeScript SDK would declare a class named Object, which TypeScript refuses " +
		"(TS2725: Class name cannot be 'Object' when targeting ES5 and above with module NodeNext); rename the resource"
	if err == nil || err.Error() != want {
		t.Errorf("New = %v\nwant %s", err, want)
	}

	_, err = host.New("sitekit", host.WithSchema([]byte(`
name: sitekit
resources: {sitekit:index:Object: {properties: {key: {type: string}}}}
functions: {sitekit:index:delete: {outputs: {properties: {ok: {type: boolean}}}}}
`)))
	if err == nil || !strings.Contains(err.Error(), "2 names that generate invalid code") ||
		!strings.Contains(err.Error(), "\n\tsitekit:index:Object: the TypeScript SDK would declare a class named Object") ||
		!strings.Contains(err.Error(), "\n\tsitekit:index:delete: the TypeScript SDK would declare a function named delete: a reserved word in JavaScript") {
		t.Errorf("New = %v, want both names refused", err)
	}

	// What the generators escape is fine: a module or property class is
	// _class in TypeScript and class_ in Python, a property type is Type in Go.
	if _, err := host.New("sitekit", host.WithSchema(escapedNames)); err != nil {
		t.Errorf("New = %v, want the schema accepted", err)
	}
}

// The providers a program passed to a component reach its children that
// are components, local or remote (another package's, constructed by its
// own plugin), as a providers map, as the Go SDK sends it; a custom child
// of one of those packages gets its provider; an entry the child sets
// itself wins.
func TestConstructPassesProvidersToChildren(t *testing.T) {
	t.Parallel()
	mon := hosttest.Start(t)
	const (
		awsRef = "urn:pulumi:dev::proj::pulumi:providers:aws::east::id-1"
		k8sRef = "urn:pulumi:dev::proj::pulumi:providers:kubernetes::k::id-2"
		ownRef = "urn:pulumi:dev::proj::pulumi:providers:kubernetes::mine::id-3"
	)
	client := serve(t, mon.Addr(), host.WithComponent("test:index:Comp",
		func(ctx context.Context, c *host.Component, args compArgs) (compOut, error) {
			for _, req := range []monitorclient.RegisterResourceRequest{
				{Type: "eks:index:Cluster", Name: "remote", Remote: true},
				{Type: "test:index:Greeter", Name: "local"},
				{Type: "eks:index:Cluster", Name: "own", Remote: true,
					ResourceOptions: monitorclient.ResourceOptions{Providers: map[string]providers.Reference{"kubernetes": providerRef(ownRef)}}},
				{Type: "aws:s3:Bucket", Name: "bucket", Custom: true},
			} {
				if _, err := c.Register(ctx, req); err != nil {
					return compOut{}, err
				}
			}
			return compOut{Shout: args.Greeting}, nil
		}))
	req := constructReq(mon, "test:index:Comp", "c", map[string]any{"greeting": "hi"})
	req.Providers = map[string]string{"aws": awsRef, "kubernetes": k8sRef}
	if _, err := client.Construct(context.Background(), req); err != nil {
		t.Fatal(err)
	}
	byName := map[string]hosttest.Registration{}
	for _, r := range mon.Registrations() {
		byName[r.Name] = r
	}
	for name, want := range map[string]map[string]string{
		"remote": {"aws": awsRef, "kubernetes": k8sRef},
		"local":  {"aws": awsRef, "kubernetes": k8sRef},
		"own":    {"aws": awsRef, "kubernetes": ownRef},
	} {
		got := map[string]string{}
		for pkg, ref := range byName[name].Providers {
			got[pkg] = ref.String()
		}
		if !maps.Equal(got, want) {
			t.Errorf("%s: providers = %v, want %v", name, got, want)
		}
	}
	if got := byName["bucket"].Raw.GetProvider(); got != awsRef {
		t.Errorf("bucket: provider = %q, want %q", got, awsRef)
	}
}

// The stack trace handle of a Construct or Call becomes the
// parentStackTraceHandle of everything the component registers, so the
// engine can stitch the program's stack to the plugin's registrations; a
// child that sets its own keeps it.
func TestStackTraceHandleReachesRegistrations(t *testing.T) {
	t.Parallel()
	mon := hosttest.Start(t)
	child := func(ctx context.Context, c *host.Component, name, handle string) error {
		_, err := c.Register(ctx, monitorclient.RegisterResourceRequest{Type: "test:index:Greeter", Name: name, ParentStackTraceHandle: handle})
		return err
	}
	client := serve(t, mon.Addr(),
		host.WithComponent("test:index:Comp", func(ctx context.Context, c *host.Component, args compArgs) (compOut, error) {
			if err := child(ctx, c, "child", ""); err != nil {
				return compOut{}, err
			}
			return compOut{Shout: args.Greeting}, child(ctx, c, "own-handle", "set-by-child")
		}),
		host.WithMethod("test:index:Comp/greet", func(ctx context.Context, self *host.Component, args greetArgs) (string, error) {
			return "hi", child(ctx, self, "from-method", "")
		}))
	req := constructReq(mon, "test:index:Comp", "c", map[string]any{"greeting": "hi"})
	req.StackTraceHandle = "construct-handle"
	comp, err := client.Construct(context.Background(), req)
	if err != nil {
		t.Fatal(err)
	}
	args := greetCallArgs(comp.GetUrn())
	if _, err := client.Call(context.Background(), &pulumirpc.CallRequest{Tok: "test:index:Comp/greet", Args: args,
		MonitorEndpoint: mon.Addr(), StackTraceHandle: "call-handle"}); err != nil {
		t.Fatal(err)
	}
	want := map[string]string{"c": "construct-handle", "child": "construct-handle", "own-handle": "set-by-child", "from-method": "call-handle"}
	for _, r := range mon.Registrations() {
		if got := r.Raw.GetParentStackTraceHandle(); got != want[r.Name] {
			t.Errorf("%s: parentStackTraceHandle = %q, want %q", r.Name, got, want[r.Name])
		}
		delete(want, r.Name)
	}
	if len(want) > 0 {
		t.Errorf("not registered: %v", want)
	}
}

// The stack trace handle reaches the functions and methods a component
// calls too, unless a request sets its own.
func TestStackTraceHandleReachesInvokesAndCalls(t *testing.T) {
	t.Parallel()
	mon := hosttest.Start(t, hosttest.WithInvokeHook(lookupHook),
		hosttest.WithCallHook(func(hosttest.Call) (monitorclient.CallResponse, error) { return monitorclient.CallResponse{}, nil }))
	self := property.New(property.ResourceReference{URN: srcURN})
	client := serve(t, mon.Addr(), host.WithComponent("test:index:Comp",
		func(ctx context.Context, c *host.Component, args compArgs) (compOut, error) {
			for _, handle := range []string{"", "set-by-request"} {
				key := property.NewMap(map[string]property.Value{"key": property.New(handle)})
				if _, err := c.Invoke(ctx, monitorclient.InvokeRequest{Token: "other:index:lookup", Args: key, ParentStackTraceHandle: handle}); err != nil {
					return compOut{}, err
				}
				if _, err := c.Call(ctx, monitorclient.CallRequest{Token: "other:index:Thing/describe", Provider: providerRef(otherRef),
					Args: key.Set("__self__", self), ParentStackTraceHandle: handle}); err != nil {
					return compOut{}, err
				}
			}
			return compOut{Shout: args.Greeting}, nil
		}))
	req := constructReq(mon, "test:index:Comp", "c", map[string]any{"greeting": "hi"})
	req.StackTraceHandle = "construct-handle"
	if _, err := client.Construct(context.Background(), req); err != nil {
		t.Fatal(err)
	}
	want := map[string]string{"": "construct-handle", "set-by-request": "set-by-request"}
	invokes, calls := mon.Invocations(), mon.Calls()
	if len(invokes) != 2 || len(calls) != 2 {
		t.Fatalf("%d invokes and %d calls, want 2 of each", len(invokes), len(calls))
	}
	for _, inv := range invokes {
		if got, w := inv.Raw.GetParentStackTraceHandle(), want[inv.Args.Get("key").AsString()]; got != w {
			t.Errorf("invoke: parentStackTraceHandle = %q, want %q", got, w)
		}
	}
	for _, call := range calls {
		if got, w := call.Raw.GetParentStackTraceHandle(), want[call.Args.Get("key").AsString()]; got != w {
			t.Errorf("call: parentStackTraceHandle = %q, want %q", got, w)
		}
	}
}

// In a method, self is the component: its type, name and URN, its outputs
// as State; Inputs are the method's arguments and Options are empty, since
// a Call carries neither the component's inputs nor its options.
func TestMethodSelfDescribesTheComponent(t *testing.T) {
	t.Parallel()
	var self *host.Component
	compURN, _ := callMethod(t, hosttest.Start(t), nil, resource.NewProperty("hello"),
		func(ctx context.Context, c *host.Component, args greetArgs) (string, error) {
			self = c
			return "", nil
		})
	if self.Type() != "test:index:Comp" || self.Name() != "c" || string(self.URN()) != compURN {
		t.Errorf("self is %s %q %s, want the component test:index:Comp \"c\" %s", self.Type(), self.Name(), self.URN(), compURN)
	}
	if got := self.State().Get("shout"); got.AsString() != "hello" {
		t.Errorf("State()[shout] = %v, want the component's output", got)
	}
	if got := slices.Sorted(maps.Keys(self.Inputs().AsMap())); fmt.Sprint(got) != "[name]" {
		t.Errorf("Inputs() keys = %v, want the method's arguments [name]", got)
	}
	if o := self.Options(); o.Providers != nil || o.Protect != nil || o.Dependencies != nil {
		t.Errorf("Options() = %+v, want none", o)
	}
}

// An error from ApplyErr's function fails the component with that error
// (bad input as bad input); markers propagate as with Apply, and while an
// input is unknown the function does not run.
func TestApplyErrFailsTheComponent(t *testing.T) {
	t.Parallel()
	mon := hosttest.Start(t)
	client := serve(t, mon.Addr(), host.WithComponent("test:index:Comp",
		func(ctx context.Context, c *host.Component, args property.Map) (property.Map, error) {
			shout, err := host.ApplyErr(func(v ...property.Value) (property.Value, error) {
				switch g := v[0].AsString(); {
				case g == "":
					return property.Value{}, diag.Errorf("greeting", "must not be empty")
				case strings.Contains(g, " "):
					return property.Value{}, fmt.Errorf("cannot shout %q: it has spaces", g)
				default:
					return property.New(strings.ToUpper(g)), nil
				}
			}, args.Get("greeting"))
			if err != nil {
				return property.Map{}, err
			}
			return property.NewMap(map[string]property.Value{"shout": shout}), nil
		}))
	construct := func(name string, greeting resource.PropertyValue) (property.Value, error) {
		req := constructReq(mon, "test:index:Comp", name, nil)
		req.Inputs, _ = plugin.MarshalProperties(resource.PropertyMap{"greeting": greeting},
			plugin.MarshalOptions{KeepSecrets: true, KeepUnknowns: true})
		req.DryRun = greeting.IsComputed()
		resp, err := client.Construct(context.Background(), req)
		if err != nil {
			return property.Value{}, err
		}
		state, err := plugin.UnmarshalProperties(resp.GetState(), plugin.MarshalOptions{KeepSecrets: true, KeepUnknowns: true})
		if err != nil {
			t.Fatal(err)
		}
		return resource.FromResourcePropertyValue(state["shout"]), nil
	}
	if _, err := construct("spaces", resource.NewProperty("a b")); status.Convert(err).Message() != `cannot shout "a b": it has spaces` {
		t.Errorf("error = %v, want the function's error", err)
	}
	if _, err := construct("empty", resource.NewProperty("")); status.Code(err) != codes.InvalidArgument {
		t.Errorf("error = %v, want bad input", err)
	}
	if v, err := construct("secret", resource.MakeSecret(resource.NewProperty("hi"))); err != nil || !v.Secret() || v.AsString() != "HI" {
		t.Errorf("secret greeting: shout = %v, %v; want secret HI", v, err)
	}
	if v, err := construct("preview", resource.MakeComputed(resource.NewProperty(""))); err != nil || !v.IsComputed() {
		t.Errorf("unknown greeting: shout = %v, %v; want unknown", v, err)
	}
}

// regionResource creates things in the region of the provider's
// configuration, and fails to update with the configured token.
type regionResource struct{ slowResource }

func (regionResource) Create(ctx context.Context, req custom.CreateRequest) (custom.CreateResponse, error) {
	return custom.CreateResponse{ID: resource.ID(req.Config.Get("region").AsString() + "/" + req.Name)}, nil
}

func (regionResource) Update(ctx context.Context, req custom.UpdateRequest) (custom.UpdateResponse, error) {
	return custom.UpdateResponse{}, fmt.Errorf("token %s is revoked", req.Config.Get("token").AsString())
}

// A backend reads the provider's configuration in its requests; a secret
// from it stays out of the backend's errors.
func TestBackendSeesProviderConfig(t *testing.T) {
	t.Parallel()
	mon := hosttest.Start(t)
	client := serve(t, mon.Addr(), host.WithResource("test:index:Thing", regionResource{}))
	args, err := plugin.MarshalProperties(resource.PropertyMap{
		"region": resource.NewProperty("eu"),
		"token":  resource.MakeSecret(resource.NewProperty("tok-hunter2")),
	}, plugin.MarshalOptions{KeepSecrets: true})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := client.Configure(context.Background(), &pulumirpc.ConfigureRequest{Args: args, AcceptSecrets: true}); err != nil {
		t.Fatal(err)
	}
	const thing = "urn:pulumi:dev::proj::test:index:Thing::t"
	created, err := client.Create(context.Background(), &pulumirpc.CreateRequest{Urn: thing, Name: "t", Type: "test:index:Thing"})
	if err != nil || created.GetId() != "eu/t" {
		t.Fatalf("create: id %q, %v; want eu/t", created.GetId(), err)
	}
	_, err = client.Update(context.Background(), &pulumirpc.UpdateRequest{Urn: thing, Name: "t", Type: "test:index:Thing", Id: "eu/t"})
	if got := status.Convert(err).Message(); got != "token [secret] is revoked" {
		t.Errorf("update error %q, want the token redacted", got)
	}
}

// A component reads a provider the program passed in `providers` as a
// parsed reference, and its state (the provider's configuration) through
// Resolve.
func TestComponentReadsProviderFromOptions(t *testing.T) {
	t.Parallel()
	p, err := host.New("test", host.WithSchema([]byte(schemaYAML)), host.WithComponent("test:index:Comp",
		func(ctx context.Context, c *host.Component, args compArgs) (compOut, error) {
			ref, ok := c.Options().Providers["test"]
			if !ok {
				return compOut{}, errors.New("no test provider")
			}
			p, err := c.Resolve(ctx, property.New(string(ref.URN())))
			if err != nil {
				return compOut{}, err
			}
			return compOut{Shout: p.State.Get("region").AsString() + " " + string(ref.ID())}, nil
		}))
	if err != nil {
		t.Fatal(err)
	}
	h := hosttest.New(t, p)
	ctx := context.Background()
	eu, err := h.RegisterProvider(ctx, hosttest.ProviderRequest{Name: "eu",
		Config: property.NewMap(map[string]property.Value{"region": property.New("eu-west")})})
	if err != nil {
		t.Fatal(err)
	}
	resp, err := h.Construct(ctx, hosttest.ConstructRequest{Type: "test:index:Comp", Name: "c",
		Inputs:    property.NewMap(map[string]property.Value{"greeting": property.New("hi")}),
		Providers: map[string]providers.Reference{"test": eu}})
	if err != nil {
		t.Fatal(err)
	}
	if got, want := resp.Outputs.Get("shout").AsString(), "eu-west "+string(eu.ID()); got != want {
		t.Errorf("shout = %q, want %q", got, want)
	}

	// A malformed reference on the wire is the engine's bug: InvalidArgument.
	mon := hosttest.Start(t)
	req := constructReq(mon, "test:index:Comp", "bad", map[string]any{"greeting": "hi"})
	req.Providers = map[string]string{"test": "not-a-reference"}
	if _, err := serve(t, mon.Addr()).Construct(ctx, req); status.Code(err) != codes.InvalidArgument {
		t.Errorf("malformed provider reference: %v, want InvalidArgument", err)
	}
}

// A child's ID and outputs read as values that depend on the child. In a
// preview, a child whose provider sent no outputs (it does not preview)
// and no ID has both unknown, as the Go SDK has them; in an update the ID
// is known, and a missing output is the input of that name. A reference
// to the child has its ID, unknown where the ID is.
func TestChildIDAndOutputsAsValues(t *testing.T) {
	t.Parallel()
	for _, dryRun := range []bool{true, false} {
		t.Run(fmt.Sprintf("dryRun=%v", dryRun), func(t *testing.T) {
			t.Parallel()
			mon := hosttest.Start(t, hosttest.WithDryRun(dryRun),
				hosttest.WithRegisterHook(func(r hosttest.Registration) (resource.ID, property.Map, error) {
					return resource.ID("id-" + r.Name), property.Map{}, nil // a provider that sends no outputs
				}))
			client := serve(t, mon.Addr(), host.WithComponent("test:index:Comp",
				func(ctx context.Context, c *host.Component, args compArgs) (property.Map, error) {
					thing, err := c.Register(ctx, monitorclient.RegisterResourceRequest{
						Type: "test:index:Thing", Name: "t", Custom: true,
						Inputs: property.NewMap(map[string]property.Value{"size": property.New(3.0)}),
					})
					if err != nil {
						return property.Map{}, err
					}
					greeter, err := c.Register(ctx, monitorclient.RegisterResourceRequest{Type: "test:index:Greeter", Name: "g"})
					if err != nil {
						return property.Map{}, err
					}
					return property.NewMap(map[string]property.Value{
						"shout":      property.New(args.Greeting),
						"greeterId":  greeter.IDValue(), // a component has none
						"thingId":    thing.IDValue(),
						"size":       thing.Output("size"),
						"arn":        thing.Output("arn"),
						"thingRef":   thing.Reference(),
						"greeterRef": greeter.Reference(),
					}), nil
				}))
			req := constructReq(mon, "test:index:Comp", "c", map[string]any{"greeting": "hi"})
			req.DryRun = dryRun
			resp, err := client.Construct(context.Background(), req)
			if err != nil {
				t.Fatal(err)
			}
			state, err := plugin.UnmarshalProperties(resp.GetState(), plugin.MarshalOptions{KeepUnknowns: true, KeepResources: true})
			if err != nil {
				t.Fatal(err)
			}
			thingURN := "urn:pulumi:dev::proj::test:index:Comp$test:index:Thing::t"
			greeterURN := "urn:pulumi:dev::proj::test:index:Comp$test:index:Greeter::g"
			want := resource.PropertyMap{"thingId": resource.NewProperty("id-t"), "size": resource.NewProperty(3.0), "arn": resource.NewNullProperty(),
				"thingRef": resource.MakeCustomResourceReference(resource.URN(thingURN), "id-t", "")}
			if dryRun {
				unknown := resource.MakeComputed(resource.NewProperty(""))
				want = resource.PropertyMap{"thingId": unknown, "size": unknown, "arn": unknown,
					"thingRef": resource.NewProperty(resource.ResourceReference{URN: resource.URN(thingURN), ID: unknown})}
			}
			if got, w := state["greeterRef"], resource.MakeComponentResourceReference(resource.URN(greeterURN), ""); !got.DeepEquals(w) {
				t.Errorf("greeterRef = %v, want %v", got, w)
			}
			if v, ok := state["greeterId"]; ok && !v.IsNull() {
				t.Errorf("greeterId = %v, want null", v)
			}
			for k, w := range want {
				if got := state[k]; !got.DeepEquals(w) {
					t.Errorf("%s = %v, want %v", k, got, w)
				}
				if deps := resp.GetStateDependencies()[string(k)].GetUrns(); !slices.Contains(deps, thingURN) {
					t.Errorf("%s depends on %v, want the child %s", k, deps, thingURN)
				}
			}
		})
	}
}
