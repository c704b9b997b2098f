package reliability

import (
	"context"
	"strings"
	"testing"

	"github.com/pulumi/pulumi/sdk/v3/go/common/resource"
	"github.com/pulumi/pulumi/sdk/v3/go/common/resource/plugin"
	pulumirpc "github.com/pulumi/pulumi/sdk/v3/proto/go"
	"google.golang.org/grpc/status"
	"google.golang.org/protobuf/types/known/emptypb"
	"google.golang.org/protobuf/types/known/structpb"

	"github.com/polyhost/polyhost/host/hosttest"
)

func mustStruct(t testing.TB, m resource.PropertyMap) *structpb.Struct {
	t.Helper()
	s, err := plugin.MarshalProperties(m, plugin.MarshalOptions{KeepUnknowns: true, KeepSecrets: true, KeepResources: true})
	if err != nil {
		t.Fatal(err)
	}
	return s
}

func panicArgs(t *testing.T, panics bool, extra ...resource.PropertyMap) *structpb.Struct {
	m := resource.PropertyMap{"panic": resource.NewProperty(panics)}
	for _, e := range extra {
		for k, v := range e {
			m[k] = v
		}
	}
	return mustStruct(t, m)
}

// wantPanicError checks that err reports a panic, saying where it happened
// beyond what the engine prints before it (the resource, method or
// function).
func wantPanicError(t *testing.T, err error, wants ...string) {
	t.Helper()
	if err == nil {
		t.Fatal("the panicking call succeeded")
	}
	msg := status.Convert(err).Message()
	for _, w := range append([]string{"panic"}, wants...) {
		if !strings.Contains(msg, w) {
			t.Errorf("error %q does not say %q", firstLine(msg), w)
		}
	}
}

func firstLine(s string) string {
	line, _, _ := strings.Cut(s, "\n")
	return line
}

// A panic in component, method, function or resource code fails that call
// only: the same provider answers the next call.
func TestPanicFailsOnlyThatCall(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	mon := hosttest.Start(t)
	p, err := newBoom(newSlowBackend())
	if err != nil {
		t.Fatal(err)
	}
	c := serve(t, p, mon.Addr()).client
	construct := func(name string, panics bool) (*pulumirpc.ConstructResponse, error) {
		return c.Construct(ctx, &pulumirpc.ConstructRequest{
			Project: project, Stack: stack, MonitorEndpoint: mon.Addr(),
			Type: boomComp, Name: name, Parent: stackURN, Inputs: panicArgs(t, panics),
		})
	}

	t.Run("component", func(t *testing.T) {
		_, err := construct("bad", true)
		wantPanicError(t, err, "panic in component code: boom in component bad")
		if _, err := construct("good", false); err != nil {
			t.Fatalf("the next Construct: %v", err)
		}
	})
	t.Run("method", func(t *testing.T) {
		self := resource.PropertyMap{"__self__": resource.MakeComponentResourceReference(
			"urn:pulumi:dev::proj::boom:index:Comp::good", "")}
		call := func(panics bool) (*pulumirpc.CallResponse, error) {
			return c.Call(ctx, &pulumirpc.CallRequest{
				Tok: boomMethod, Args: panicArgs(t, panics, self),
				Project: project, Stack: stack, MonitorEndpoint: mon.Addr(),
			})
		}
		_, err := call(true)
		wantPanicError(t, err, `on "good": panic in component code: boom in method on good`)
		resp, err := call(false)
		if err != nil || len(resp.GetFailures()) > 0 {
			t.Fatalf("the next Call: %v %v", resp.GetFailures(), err)
		}
		if got := resp.GetReturn().GetFields()["res"].GetStringValue(); got != "poked good" {
			t.Errorf("the next Call returned %q", got)
		}
	})
	t.Run("function", func(t *testing.T) {
		_, err := c.Invoke(ctx, &pulumirpc.InvokeRequest{Tok: boomFunc, Args: panicArgs(t, true)})
		wantPanicError(t, err, "panic in function code: boom in function")
		resp, err := c.Invoke(ctx, &pulumirpc.InvokeRequest{Tok: boomFunc, Args: panicArgs(t, false)})
		if err != nil || len(resp.GetFailures()) > 0 {
			t.Fatalf("the next Invoke: %v %v", resp.GetFailures(), err)
		}
	})
	t.Run("resource", func(t *testing.T) {
		create := func(name string, panics bool) (*pulumirpc.CreateResponse, error) {
			return c.Create(ctx, &pulumirpc.CreateRequest{
				Urn: "urn:pulumi:dev::proj::boom:index:Slow::" + name, Name: name, Type: boomSlow,
				Properties: panicArgs(t, panics),
			})
		}
		_, err := create("bad", true)
		wantPanicError(t, err, "create: panic in custom resource code: boom in create of bad")
		if _, err := create("good", false); err != nil {
			t.Fatalf("the next Create: %v", err)
		}
	})
}

// The same through the real plugin: an object create that panics
// (SITEKIT_FAULT=panic-create) fails, and the process serves the next one.
func TestPanicInPluginCreate(t *testing.T) {
	skipUnderRace(t)
	t.Parallel()
	ctx := context.Background()
	mon := hosttest.Start(t)
	proc := startPlugin(t, faultyPlugin, mon.Addr(), "SITEKIT_FAULT=panic-create:*/boom.txt")
	proc.configure(t, map[string]any{"storageUrl": "file://" + t.TempDir()})

	bucket, err := proc.client.Create(ctx, &pulumirpc.CreateRequest{
		Urn: "urn:pulumi:dev::proj::sitekit:index:Bucket::b", Name: "b", Type: "sitekit:index:Bucket",
		Properties: mustStruct(t, resource.PropertyMap{}),
	})
	if err != nil {
		t.Fatal(err)
	}
	object := func(key string) (*pulumirpc.CreateResponse, error) {
		return proc.client.Create(ctx, &pulumirpc.CreateRequest{
			Urn: "urn:pulumi:dev::proj::sitekit:index:BucketObject::" + key, Name: key, Type: "sitekit:index:BucketObject",
			Properties: mustStruct(t, resource.PropertyMap{
				"bucket": resource.NewProperty(bucket.GetId()), "key": resource.NewProperty(key),
				"content": resource.NewProperty("hi"),
			}),
		})
	}
	_, err = object("boom.txt")
	wantPanicError(t, err, "create: panic in custom resource code: injected panic in object-create of "+bucket.GetId()+"/boom.txt")
	if _, err := object("ok.txt"); err != nil {
		t.Fatalf("the next Create: %v\nplugin stderr:\n%s", err, proc.stderr)
	}
	if _, err := proc.client.GetPluginInfo(ctx, &emptypb.Empty{}); err != nil {
		t.Fatalf("plugin gone after a panic: %v", err)
	}
}
