package gosdk_test

import (
	"context"
	_ "embed"
	"fmt"
	"strings"
	"testing"

	"github.com/pulumi/pulumi/sdk/v3/go/common/resource"
	"github.com/pulumi/pulumi/sdk/v3/go/common/resource/plugin"
	"github.com/pulumi/pulumi/sdk/v3/go/pulumi"
	pulumirpc "github.com/pulumi/pulumi/sdk/v3/proto/go"
	"google.golang.org/grpc/status"

	"github.com/polyhost/polyhost/host"
	"github.com/polyhost/polyhost/host/diag"
	"github.com/polyhost/polyhost/host/gosdk"
	"github.com/polyhost/polyhost/host/hosttest"
)

// schemaYAML is the test package of Greeter, schema-first.
//
//go:embed testdata/greeter.yaml
var schemaYAML string

type GreeterArgs struct {
	Name   pulumi.StringInput `pulumi:"name"`
	Prefix string             `pulumi:"prefix,optional"` // plain: no room for a secret
}

type Greeter struct {
	pulumi.ResourceState
	Greeting pulumi.StringOutput `pulumi:"greeting"`
	ThingID  pulumi.IDOutput     `pulumi:"thingId"`
}

type Thing struct {
	pulumi.CustomResourceState
}

// NewGreeter is written as a Go SDK author writes a component.
func NewGreeter(ctx *pulumi.Context, name string, args *GreeterArgs, opts ...pulumi.ResourceOption) (*Greeter, error) {
	g := &Greeter{}
	if err := ctx.RegisterComponentResource("test:index:Greeter", name, g, opts...); err != nil {
		return nil, err
	}
	if strings.HasPrefix(name, "panic") {
		panic("greeter " + name + " panicked")
	}
	if args.Prefix == "bad" {
		return nil, diag.Errorf("prefix", "must not be %q", args.Prefix)
	}
	thing := &Thing{}
	if err := ctx.RegisterResource("test:index:Thing", name+"-thing", pulumi.Map{"text": args.Name}, thing, pulumi.Parent(g)); err != nil {
		return nil, err
	}
	g.Greeting = pulumi.Sprintf("%shello, %s", args.Prefix, args.Name)
	g.ThingID = thing.ID()
	return g, ctx.RegisterResourceOutputs(g, pulumi.Map{"greeting": g.Greeting, "thingId": g.ThingID})
}

type greetArgs struct {
	Punctuation pulumi.StringInput `pulumi:"punctuation"`
}

func greet(ctx *pulumi.Context, self *Greeter, args greetArgs) (pulumi.StringOutput, error) {
	if p, ok := args.Punctuation.(pulumi.String); ok && len(p) > 3 {
		return pulumi.StringOutput{}, diag.Errorf("punctuation", "at most 3 characters, got %d", len(p))
	}
	return pulumi.Sprintf("%s%s", self.Greeting, args.Punctuation), nil
}

// embeddingArgs embed GreeterArgs, which the Go SDK would not fill.
type embeddingArgs struct {
	GreeterArgs
	Extra string `pulumi:"extra,optional"`
}

type rawArgs struct {
	Name string `pulumi:"name"`
}

type rawOut struct {
	Greeting string `pulumi:"greeting"`
}

// provider serves Greeter with the Go SDK and Raw on the raw path, in one
// plugin, attached to mon's engine.
func provider(t *testing.T, mon *hosttest.Monitor) pulumirpc.ResourceProviderServer {
	t.Helper()
	p, err := host.New("test", // the schema is built from the Go types
		gosdk.Component("test:index:Greeter", NewGreeter),
		gosdk.Method("test:index:Greeter/greet", greet),
		host.WithComponent("test:index:Raw", func(ctx context.Context, c *host.Component, args rawArgs) (rawOut, error) {
			return rawOut{Greeting: "hello, " + args.Name}, nil
		}))
	if err != nil {
		t.Fatal(err)
	}
	srv := hosttest.NewServer(p)
	if _, err := srv.Attach(context.Background(), &pulumirpc.PluginAttach{Address: mon.Addr()}); err != nil {
		t.Fatal(err)
	}
	return srv
}

func construct(srv pulumirpc.ResourceProviderServer, mon *hosttest.Monitor, typ, name string, dryRun bool, inputs resource.PropertyMap) (*pulumirpc.ConstructResponse, error) {
	s, err := plugin.MarshalProperties(inputs, plugin.MarshalOptions{KeepSecrets: true, KeepUnknowns: true})
	if err != nil {
		return nil, err
	}
	return srv.Construct(context.Background(), &pulumirpc.ConstructRequest{
		Project: mon.Project(), Stack: mon.Stack(), MonitorEndpoint: mon.Addr(), DryRun: dryRun,
		Type: typ, Name: name, Parent: string(mon.StackURN()), Inputs: s,
		InputDependencies: map[string]*pulumirpc.ConstructRequest_PropertyDependencies{
			"name": {Urns: []string{"urn:pulumi:dev::proj::test:index:Source::src"}},
		},
		AcceptsOutputValues: true,
	})
}

func state(t *testing.T, resp *pulumirpc.ConstructResponse) resource.PropertyMap {
	t.Helper()
	m, err := plugin.UnmarshalProperties(resp.GetState(), plugin.MarshalOptions{KeepSecrets: true, KeepUnknowns: true, KeepOutputValues: true})
	if err != nil {
		t.Fatal(err)
	}
	return m
}

// A component written with the Go SDK registers its children under itself,
// and its outputs keep the secret, the dependencies and the child's ID.
func TestComponentKeepsSecretsAndDependencies(t *testing.T) {
	t.Parallel()
	mon := hosttest.Start(t)
	srv := provider(t, mon)
	resp, err := construct(srv, mon, "test:index:Greeter", "g", false, resource.PropertyMap{
		"name": resource.MakeSecret(resource.NewProperty("world")),
	})
	if err != nil {
		t.Fatal(err)
	}
	greeting := state(t, resp)["greeting"]
	if !greeting.ContainsSecrets() || !strings.Contains(fmt.Sprint(greeting), "hello, world") {
		t.Errorf("greeting = %v, want the secret %q", greeting, "hello, world")
	}
	if deps := resp.GetStateDependencies()["greeting"].GetUrns(); len(deps) != 1 || deps[0] != "urn:pulumi:dev::proj::test:index:Source::src" {
		t.Errorf("greeting depends on %v, want the input's dependency", deps)
	}
	var thing hosttest.Registration
	for _, r := range mon.Registrations() {
		if r.Type == "test:index:Thing" {
			thing = r
		}
	}
	if string(thing.Parent) != resp.GetUrn() || !thing.Inputs.Get("text").Secret() {
		t.Errorf("child registered with parent %q and inputs %v, want parent %s and a secret text", thing.Parent, thing.Inputs, resp.GetUrn())
	}
	if deps := resp.GetStateDependencies()["thingId"].GetUrns(); len(deps) != 1 || deps[0] != string(thing.URN) {
		t.Errorf("thingId depends on %v, want the child %s", deps, thing.URN)
	}
}

// In a preview an unknown input gives unknown outputs.
func TestComponentPreviewUnknowns(t *testing.T) {
	t.Parallel()
	mon := hosttest.Start(t, hosttest.WithDryRun(true))
	srv := provider(t, mon)
	resp, err := construct(srv, mon, "test:index:Greeter", "g", true, resource.PropertyMap{
		"name": resource.MakeComputed(resource.NewProperty("")),
	})
	if err != nil {
		t.Fatal(err)
	}
	if g := state(t, resp)["greeting"]; !g.ContainsUnknowns() {
		t.Errorf("greeting = %v in a preview with an unknown name, want unknown", g)
	}
}

// A user's mistake is an InputPropertiesError naming the property: a
// missing required input, and a secret that would reach a plain field.
// A panic fails only that Construct.
func TestComponentErrors(t *testing.T) {
	t.Parallel()
	mon := hosttest.Start(t)
	srv := provider(t, mon)
	for _, tc := range []struct {
		name, component string
		inputs          resource.PropertyMap
		want            string
	}{
		{"missing input", "g1", resource.PropertyMap{}, "name"},
		{"secret in a plain field", "g2", resource.PropertyMap{
			"name":   resource.NewProperty("world"),
			"prefix": resource.MakeSecret(resource.NewProperty("s3cr3t-prefix")),
		}, "prefix"},
		{"the component's own InputError", "g3", resource.PropertyMap{
			"name": resource.NewProperty("world"), "prefix": resource.NewProperty("bad"),
		}, "prefix"},
	} {
		_, err := construct(srv, mon, "test:index:Greeter", tc.component, false, tc.inputs)
		st := status.Convert(err)
		var props []string
		for _, d := range st.Details() {
			if ipe, ok := d.(*pulumirpc.InputPropertiesError); ok {
				for _, e := range ipe.GetErrors() {
					props = append(props, e.GetPropertyPath())
				}
			}
		}
		// A secret property is named in the message rather than in the
		// details, which the engine prints beside the input's value.
		named := len(props) == 1 && props[0] == tc.want || len(props) == 0 && strings.Contains(st.Message(), tc.want+": ")
		if !named || strings.Contains(st.Message(), "s3cr3t") {
			t.Errorf("%s: error %v with property errors %v, want one naming %q and no secret", tc.name, err, props, tc.want)
		}
	}
	_, err := construct(srv, mon, "test:index:Greeter", "panicky", false, resource.PropertyMap{"name": resource.NewProperty("x")})
	if err == nil || !strings.Contains(err.Error(), "greeter panicky panicked") {
		t.Errorf("panicking component: %v, want an error carrying the panic", err)
	}
	if _, err := construct(srv, mon, "test:index:Greeter", "after", false, resource.PropertyMap{"name": resource.NewProperty("x")}); err != nil {
		t.Errorf("construct after a panic: %v", err)
	}
}

// A method gets the component it is called on with its outputs, read back
// through the engine; the raw path serves its own component in the same
// plugin.
func TestMethodAndRawComponentInOnePlugin(t *testing.T) {
	t.Parallel()
	mon := hosttest.Start(t)
	srv := provider(t, mon)
	g, err := construct(srv, mon, "test:index:Greeter", "g", false, resource.PropertyMap{"name": resource.NewProperty("world")})
	if err != nil {
		t.Fatal(err)
	}
	args, err := plugin.MarshalProperties(resource.PropertyMap{
		"__self__":    resource.MakeComponentResourceReference(resource.URN(g.GetUrn()), ""),
		"punctuation": resource.NewProperty("!"),
	}, plugin.MarshalOptions{KeepResources: true})
	if err != nil {
		t.Fatal(err)
	}
	resp, err := srv.Call(context.Background(), &pulumirpc.CallRequest{
		Tok: "test:index:Greeter/greet", Args: args, MonitorEndpoint: mon.Addr(), Project: mon.Project(), Stack: mon.Stack(),
		AcceptsOutputValues: true,
	})
	if err != nil {
		t.Fatal(err)
	}
	if got := resp.GetReturn().GetFields()["res"].GetStringValue(); got != "hello, world!" || len(resp.GetFailures()) > 0 {
		t.Errorf("greet returned %v (failures %v), want res %q", resp.GetReturn(), resp.GetFailures(), "hello, world!")
	}
	// A user's mistake is a failure naming the argument.
	args, _ = plugin.MarshalProperties(resource.PropertyMap{
		"__self__":    resource.MakeComponentResourceReference(resource.URN(g.GetUrn()), ""),
		"punctuation": resource.NewProperty("!!!!"),
	}, plugin.MarshalOptions{KeepResources: true})
	bad, err := srv.Call(context.Background(), &pulumirpc.CallRequest{
		Tok: "test:index:Greeter/greet", Args: args, MonitorEndpoint: mon.Addr(), Project: mon.Project(), Stack: mon.Stack(),
	})
	if err != nil || len(bad.GetFailures()) != 1 || bad.GetFailures()[0].GetProperty() != "punctuation" {
		t.Errorf("greet with bad punctuation: %v %v, want one failure naming punctuation", err, bad.GetFailures())
	}

	raw, err := construct(srv, mon, "test:index:Raw", "r", false, resource.PropertyMap{"name": resource.NewProperty("raw")})
	if err != nil {
		t.Fatal(err)
	}
	if got := state(t, raw)["greeting"]; got != resource.NewProperty("hello, raw") {
		t.Errorf("raw component greeting = %v", got)
	}
	_, err = construct(srv, mon, "test:index:Nope", "n", false, nil)
	if err == nil || !strings.Contains(err.Error(), "test:index:Greeter, test:index:Raw") {
		t.Errorf("unknown component: %v, want the served components named", err)
	}
}

// Options refuse what cannot work, at start-up.
func TestRegistrationErrors(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name string
		opt  host.Option
		want string
	}{
		{"twice", gosdk.Component("test:index:Raw", NewGreeter), "registered twice"},
		{"not a method token", gosdk.Method("test:index:Greeter", greet), "pkg:module:Type/method"},
		{"not in the schema", gosdk.Method("test:index:Greeter/wave", greet), "not a function in the schema"},
		{"embedded struct", gosdk.Component("test:index:Greeter", func(*pulumi.Context, string, *embeddingArgs, ...pulumi.ResourceOption) (*Greeter, error) {
			return nil, nil
		}), "gosdk_test.embeddingArgs embeds gosdk_test.GreeterArgs, whose fields the Go SDK neither reads nor writes"},
		{"args not a struct", gosdk.Component("test:index:Greeter", func(*pulumi.Context, string, string, ...pulumi.ResourceOption) (*Greeter, error) {
			return nil, nil
		}), "must be a struct"},
	} {
		_, err := host.New("test", host.WithSchema([]byte(schemaYAML)),
			host.WithComponent("test:index:Raw", func(context.Context, *host.Component, rawArgs) (rawOut, error) { return rawOut{}, nil }),
			tc.opt)
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: %v, want an error with %q", tc.name, err, tc.want)
		}
	}
	// Go-first refuses a type it cannot describe, naming the field.
	_, err := host.New("test", gosdk.Component("test:index:Greeter", func(*pulumi.Context, string, *struct {
		Fn pulumi.StringInput `pulumi:"fn"`
		Ch chan int           `pulumi:"ch"`
	}, ...pulumi.ResourceOption) (*Greeter, error) {
		return nil, nil
	}))
	if err == nil || !strings.Contains(err.Error(), "Ch: chan int has no schema type") {
		t.Errorf("a gosdk component with a channel input: %v, want an error naming the field", err)
	}
}
