package hosttest_test

import (
	"strings"
	"testing"

	"github.com/pulumi/pulumi/sdk/v3/go/common/resource/urn"
	"github.com/pulumi/pulumi/sdk/v3/go/property"
	pulumirpc "github.com/pulumi/pulumi/sdk/v3/proto/go"
	"google.golang.org/grpc"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/credentials/insecure"
	"google.golang.org/grpc/status"
	"google.golang.org/protobuf/proto"
	"google.golang.org/protobuf/types/known/emptypb"
	"google.golang.org/protobuf/types/known/structpb"

	"github.com/polyhost/polyhost/host/hosttest"
	"github.com/polyhost/polyhost/monitorclient"
)

const (
	sigKey     = "4dabf18193072939515e22adb298388d"
	secretSig  = "1b47061264138c4ac30d75fd1eb44270"
	unknownStr = "04da6b54-80e4-46f7-96ec-b56ff0331ba9"
)

// raw dials the fake with the generated clients, to test it independently
// of monitorclient.
func raw(t *testing.T, m *hosttest.Monitor) (pulumirpc.ResourceMonitorClient, pulumirpc.EngineClient) {
	t.Helper()
	conn, err := grpc.NewClient(m.Addr(), grpc.WithTransportCredentials(insecure.NewCredentials()))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = conn.Close() })
	return pulumirpc.NewResourceMonitorClient(conn), pulumirpc.NewEngineClient(conn)
}

func mustStruct(t *testing.T, m map[string]any) *structpb.Struct {
	t.Helper()
	s, err := structpb.NewStruct(m)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

func TestURNRule(t *testing.T) {
	t.Parallel()
	m := hosttest.Start(t, hosttest.WithProject("p"), hosttest.WithStack("s"))
	mon, _ := raw(t, m)
	ctx := t.Context()
	reg := func(typ, name, parent string) string {
		t.Helper()
		resp, err := mon.RegisterResource(ctx, &pulumirpc.RegisterResourceRequest{Type: typ, Name: name, Parent: parent})
		if err != nil {
			t.Fatal(err)
		}
		return resp.GetUrn()
	}
	stack := reg("pulumi:pulumi:Stack", "p-s", "")
	if stack != "urn:pulumi:s::p::pulumi:pulumi:Stack::p-s" || stack != string(m.StackURN()) {
		t.Errorf("stack URN %s (StackURN %s)", stack, m.StackURN())
	}
	comp := reg("a:b:C", "c1", stack)
	if comp != "urn:pulumi:s::p::a:b:C::c1" {
		t.Errorf("top-level URN %s", comp)
	}
	child := reg("a:b:Child", "c1-child", comp)
	if child != "urn:pulumi:s::p::a:b:C$a:b:Child::c1-child" {
		t.Errorf("child URN %s", child)
	}
	if g := reg("x:y:Z", "g", child); g != "urn:pulumi:s::p::a:b:C$a:b:Child$x:y:Z::g" {
		t.Errorf("grandchild URN %s", g)
	}

	_, err := mon.RegisterResource(ctx, &pulumirpc.RegisterResourceRequest{Type: "a:b:C", Name: "c1", Parent: stack})
	if status.Code(err) != codes.InvalidArgument || !strings.Contains(err.Error(), "Duplicate resource URN 'urn:pulumi:s::p::a:b:C::c1'") {
		t.Errorf("duplicate: %v", err)
	}
	_, err = mon.RegisterResource(ctx, &pulumirpc.RegisterResourceRequest{Type: "bad", Name: "x", Custom: true})
	if status.Code(err) != codes.InvalidArgument {
		t.Errorf("two-part custom type: %v", err)
	}
	_, err = mon.RegisterResource(ctx, &pulumirpc.RegisterResourceRequest{Type: "a:b:C", Name: "x", Parent: "not-a-urn"})
	if status.Code(err) != codes.InvalidArgument {
		t.Errorf("bad parent: %v", err)
	}
}

func TestResponseHonoursCallerFlags(t *testing.T) {
	t.Parallel()
	m := hosttest.Start(t,
		hosttest.WithDryRun(true),
		hosttest.WithPreviewUnknowns(func(hosttest.Registration) []string { return []string{"u"} }))
	mon, _ := raw(t, m)
	obj := mustStruct(t, map[string]any{"s": map[string]any{sigKey: secretSig, "value": "x"}, "p": "plain"})

	// An old SDK: no secrets, no partial values.
	resp, err := mon.RegisterResource(t.Context(), &pulumirpc.RegisterResourceRequest{
		Type: "a:b:C", Name: "old", Custom: true, Object: obj, AdditionalSecretOutputs: []string{"p"},
	})
	if err != nil {
		t.Fatal(err)
	}
	want := mustStruct(t, map[string]any{"s": "x", "p": "plain"}) // "u" dropped, secrets unwrapped
	if resp.GetId() != "" || !proto.Equal(resp.GetObject(), want) {
		t.Errorf("old caller got id %q object %v", resp.GetId(), resp.GetObject())
	}

	resp, err = mon.RegisterResource(t.Context(), &pulumirpc.RegisterResourceRequest{
		Type: "a:b:C", Name: "new", Custom: true, Object: obj, AdditionalSecretOutputs: []string{"p"},
		AcceptSecrets: true, SupportsPartialValues: true,
	})
	if err != nil {
		t.Fatal(err)
	}
	want = mustStruct(t, map[string]any{
		"s": map[string]any{sigKey: secretSig, "value": "x"},
		"p": map[string]any{sigKey: secretSig, "value": "plain"},
		"u": unknownStr,
	})
	if !proto.Equal(resp.GetObject(), want) {
		t.Errorf("new caller got %v", resp.GetObject())
	}
	// The recorded state keeps secretness regardless of the caller.
	r, _ := m.Registration(urn.URN(resp.GetUrn()))
	if !r.Outputs.Get("s").Secret() || !r.Outputs.Get("u").IsComputed() {
		t.Errorf("recorded outputs %#v", r.Outputs)
	}
}

func TestLocalComponentGetsEmptyObject(t *testing.T) {
	t.Parallel()
	m := hosttest.Start(t)
	mon, _ := raw(t, m)
	resp, err := mon.RegisterResource(t.Context(), &pulumirpc.RegisterResourceRequest{
		Type: "a:b:C", Name: "c", Object: mustStruct(t, map[string]any{"in": "v"}),
	})
	if err != nil {
		t.Fatal(err)
	}
	if resp.GetId() != "" || len(resp.GetObject().GetFields()) != 0 {
		t.Errorf("component response %v", resp)
	}
	if r, _ := m.Registration(urn.URN(resp.GetUrn())); r.Inputs.Get("in").AsString() != "v" {
		t.Errorf("inputs not recorded: %#v", r.Inputs)
	}
}

func TestRegisterResourceOutputs(t *testing.T) {
	t.Parallel()
	m := hosttest.Start(t)
	mon, _ := raw(t, m)
	ctx := t.Context()
	_, err := mon.RegisterResourceOutputs(ctx, &pulumirpc.RegisterResourceOutputsRequest{Urn: "urn:pulumi:dev::proj::a:b:C::nope"})
	if err == nil || !strings.Contains(err.Error(), "whose registration isn't pending") {
		t.Errorf("unregistered: %v", err)
	}
	resp, err := mon.RegisterResource(ctx, &pulumirpc.RegisterResourceRequest{Type: "a:b:C", Name: "c"})
	if err != nil {
		t.Fatal(err)
	}
	outs := mustStruct(t, map[string]any{"o": 1.0})
	if _, err := mon.RegisterResourceOutputs(ctx, &pulumirpc.RegisterResourceOutputsRequest{Urn: resp.GetUrn(), Outputs: outs}); err != nil {
		t.Fatal(err)
	}
	got, ok := m.Outputs(urn.URN(resp.GetUrn()))
	if !ok || !got.Equals(property.NewMap(map[string]property.Value{"o": property.New(1.0)})) {
		t.Errorf("outputs %#v %v", got, ok)
	}
	if _, err := mon.RegisterResourceOutputs(ctx, &pulumirpc.RegisterResourceOutputsRequest{Urn: resp.GetUrn(), Outputs: outs}); err == nil {
		t.Error("second RegisterResourceOutputs accepted")
	}
}

func TestGetResourceBuiltin(t *testing.T) {
	t.Parallel()
	const provRef = "urn:pulumi:dev::proj::pulumi:providers:a::p::prov-id"
	m := hosttest.Start(t)
	mon, _ := raw(t, m)
	ctx := t.Context()
	resp, err := mon.RegisterResource(ctx, &pulumirpc.RegisterResourceRequest{
		Type: "a:b:C", Name: "x", Custom: true, Provider: provRef, Object: mustStruct(t, map[string]any{"k": "v"}),
	})
	if err != nil {
		t.Fatal(err)
	}
	// The engine refuses a malformed provider reference; so does the fake.
	_, err = mon.RegisterResource(ctx, &pulumirpc.RegisterResourceRequest{Type: "a:b:C", Name: "y", Custom: true, Provider: "prov::id"})
	if status.Code(err) != codes.InvalidArgument || !strings.Contains(err.Error(), `provider reference "prov::id"`) {
		t.Errorf("malformed provider reference: %v", err)
	}
	inv, err := mon.Invoke(ctx, &pulumirpc.ResourceInvokeRequest{
		Tok: "pulumi:pulumi:getResource", Args: mustStruct(t, map[string]any{"urn": resp.GetUrn()}),
	})
	if err != nil {
		t.Fatal(err)
	}
	want := mustStruct(t, map[string]any{
		"urn": resp.GetUrn(), "id": "id-x", "provider": provRef, "state": map[string]any{"k": "v"},
	})
	if !proto.Equal(inv.GetReturn(), want) {
		t.Errorf("got %v", inv.GetReturn())
	}
	_, err = mon.Invoke(ctx, &pulumirpc.ResourceInvokeRequest{
		Tok: "pulumi:pulumi:getResource", Args: mustStruct(t, map[string]any{"urn": "urn:pulumi:dev::proj::a:b:C::nope"}),
	})
	if err == nil || !strings.Contains(err.Error(), "unknown resource urn:pulumi:dev::proj::a:b:C::nope") {
		t.Errorf("unknown: %v", err)
	}
	if len(m.Invocations()) != 0 {
		t.Error("getResource recorded as an invocation")
	}
	_, err = mon.Invoke(ctx, &pulumirpc.ResourceInvokeRequest{Tok: "a:b:fn"})
	if status.Code(err) != codes.Unimplemented || len(m.Invocations()) != 1 {
		t.Errorf("invoke without hook: %v", err)
	}
}

func TestFeaturesAndUnimplemented(t *testing.T) {
	t.Parallel()
	m := hosttest.Start(t, hosttest.WithFeatures("secrets", "invokeParent"), hosttest.WithoutDeploymentInfo())
	mon, _ := raw(t, m)
	ctx := t.Context()
	if _, err := mon.GetDeploymentInfo(ctx, &emptypb.Empty{}); status.Code(err) != codes.Unimplemented {
		t.Errorf("GetDeploymentInfo: %v", err)
	}
	for id, want := range map[string]bool{"secrets": true, "outputValues": false, "bogus": false} {
		r, err := mon.SupportsFeature(ctx, &pulumirpc.SupportsFeatureRequest{Id: id})
		if err != nil || r.GetHasSupport() != want {
			t.Errorf("%s: %v %v", id, r, err)
		}
	}
	if m.DeploymentInfoCalls() != 1 || m.SupportsFeatureCalls() != 3 {
		t.Errorf("counters %d %d", m.DeploymentInfoCalls(), m.SupportsFeatureCalls())
	}
	if _, err := mon.RegisterStackTransform(ctx, &pulumirpc.Callback{}); status.Code(err) != codes.Unimplemented {
		t.Errorf("RegisterStackTransform: %v", err)
	}
	if _, err := mon.ReadResource(ctx, &pulumirpc.ReadResourceRequest{}); status.Code(err) != codes.InvalidArgument {
		t.Errorf("ReadResource of nothing: %v", err)
	}

	m2 := hosttest.Start(t)
	mon2, _ := raw(t, m2)
	di, err := mon2.GetDeploymentInfo(ctx, &emptypb.Empty{})
	if err != nil || len(di.GetSupportedFeatures()) != 16 || di.GetProject() != "proj" || di.GetStack() != "dev" {
		t.Errorf("default deployment info %v %v", di, err)
	}
}

func TestEngineService(t *testing.T) {
	t.Parallel()
	m := hosttest.Start(t)
	_, eng := raw(t, m)
	ctx := t.Context()
	if _, err := eng.Log(ctx, &pulumirpc.LogRequest{Severity: pulumirpc.LogSeverity_ERROR, Message: "m", Urn: "u", StreamId: 3}); err != nil {
		t.Fatal(err)
	}
	if got := m.Logs(); len(got) != 1 || got[0] != (monitorclient.LogRequest{Severity: monitorclient.SeverityError, Message: "m", URN: "u", StreamID: 3}) {
		t.Errorf("logs %+v", got)
	}
	if _, err := eng.SetRootResource(ctx, &pulumirpc.SetRootResourceRequest{Urn: "root"}); err != nil {
		t.Fatal(err)
	}
	r, err := eng.GetRootResource(ctx, &pulumirpc.GetRootResourceRequest{})
	if err != nil || r.GetUrn() != "root" || m.RootResource() != "root" {
		t.Errorf("root %v %v", r, err)
	}
}
