package host_test

import (
	"context"
	"errors"
	"slices"
	"strings"
	"testing"

	"github.com/pulumi/pulumi/sdk/v3/go/common/resource"
	"github.com/pulumi/pulumi/sdk/v3/go/common/resource/plugin"
	"github.com/pulumi/pulumi/sdk/v3/go/common/resource/urn"
	"github.com/pulumi/pulumi/sdk/v3/go/property"
	pulumirpc "github.com/pulumi/pulumi/sdk/v3/proto/go"
	"google.golang.org/protobuf/types/known/structpb"

	"github.com/polyhost/polyhost/host"
	"github.com/polyhost/polyhost/host/diag"
	"github.com/polyhost/polyhost/host/hosttest"
	"github.com/polyhost/polyhost/monitorclient"
)

type rawCompArgs struct {
	Greeting property.Value `pulumi:"greeting"`
}

type rawCompOut struct {
	Shout property.Value `pulumi:"shout"`
}

const (
	srcURN   = "urn:pulumi:dev::proj::test:index:Source::src"
	otherRef = "urn:pulumi:dev::proj::pulumi:providers:other::p1::id1"
)

// lookupComponent shouts what the function other:index:lookup answers for
// its greeting.
func lookupComponent(ctx context.Context, c *host.Component, args rawCompArgs) (rawCompOut, error) {
	resp, err := c.Invoke(ctx, monitorclient.InvokeRequest{
		Token: "other:index:lookup",
		Args:  property.NewMap(map[string]property.Value{"key": args.Greeting}),
	})
	if err != nil {
		return rawCompOut{}, err
	}
	if resp.Unknown {
		return rawCompOut{Shout: property.New(property.Computed)}, nil
	}
	return rawCompOut{Shout: resp.Return.Get("value")}, nil
}

// constructLookup constructs test:index:Comp as lookupComponent with the
// greeting, depending on srcURN, under the provider otherRef for "other".
func constructLookup(t *testing.T, mon *hosttest.Monitor, greeting resource.PropertyValue, dryRun bool) resource.PropertyMap {
	t.Helper()
	client := serve(t, mon.Addr(), host.WithComponent("test:index:Comp", lookupComponent))
	req := constructReq(mon, "test:index:Comp", "c", nil)
	req.DryRun = dryRun
	req.Inputs, _ = plugin.MarshalProperties(resource.PropertyMap{"greeting": greeting}, plugin.MarshalOptions{KeepSecrets: true, KeepUnknowns: true})
	req.InputDependencies = map[string]*pulumirpc.ConstructRequest_PropertyDependencies{"greeting": {Urns: []string{srcURN}}}
	req.Providers = map[string]string{"other": otherRef}
	resp, err := client.Construct(context.Background(), req)
	if err != nil {
		t.Fatal(err)
	}
	state, err := plugin.UnmarshalProperties(resp.GetState(), plugin.MarshalOptions{KeepSecrets: true, KeepUnknowns: true, KeepOutputValues: true})
	if err != nil {
		t.Fatal(err)
	}
	if deps := resp.GetStateDependencies()["shout"].GetUrns(); !dryRun && !slices.Contains(deps, srcURN) {
		t.Errorf("shout depends on %v, want the greeting's dependency %s", deps, srcURN)
	}
	return state
}

func lookupHook(inv hosttest.Invocation) (monitorclient.InvokeResponse, error) {
	return monitorclient.InvokeResponse{Return: property.NewMap(map[string]property.Value{
		"value": property.New("found " + inv.Args.Get("key").AsString()),
	})}, nil
}

// A component's function call goes to the provider the program passed for
// the function's package, is gated on the arguments' dependencies, and
// its result is secret when an argument was and depends on what they did.
func TestComponentInvoke(t *testing.T) {
	t.Parallel()
	mon := hosttest.Start(t, hosttest.WithInvokeHook(lookupHook))
	state := constructLookup(t, mon, resource.MakeSecret(resource.NewProperty("hi")), false)
	if got := state["shout"]; !got.IsSecret() || got.SecretValue().Element != resource.NewProperty("found hi") {
		t.Errorf("shout = %v, want the secret %q", got, "found hi")
	}
	invs := mon.Invocations()
	if len(invs) != 1 {
		t.Fatalf("invocations %v, want one", invs)
	}
	if inv := invs[0]; inv.Provider.String() != otherRef || !slices.Equal(inv.DependsOn, []urn.URN{srcURN}) || !inv.Args.Get("key").Secret() {
		t.Errorf("invoked with provider %q, dependsOn %v, args %v; want %s, [%s] and a secret key", inv.Provider, inv.DependsOn, inv.Args, otherRef, srcURN)
	}
}

// In a preview, an unknown argument gives an unknown result, and the
// provider is not called.
func TestComponentInvokeUnknownInPreview(t *testing.T) {
	t.Parallel()
	mon := hosttest.Start(t, hosttest.WithDryRun(true), hosttest.WithInvokeHook(lookupHook))
	state := constructLookup(t, mon, resource.MakeComputed(resource.NewProperty("")), true)
	if got := state["shout"]; !got.ContainsUnknowns() {
		t.Errorf("shout = %v, want unknown", got)
	}
	if invs := mon.Invocations(); len(invs) != 0 {
		t.Errorf("the provider was called with unknown arguments: %v", invs)
	}
}

// A component calls a method of a resource it holds: the call goes to that
// resource's provider, and the result keeps the dependencies the method
// reported. A failure comes back as an error naming the method.
func TestComponentCall(t *testing.T) {
	t.Parallel()
	mon := hosttest.Start(t, hosttest.WithCallHook(func(c hosttest.Call) (monitorclient.CallResponse, error) {
		if c.Args.Get("style").AsString() == "bad" {
			return monitorclient.CallResponse{}, &monitorclient.FailuresError{Failures: []diag.CheckFailure{{Property: "style", Reason: "unknown style"}}}
		}
		self := c.Args.Get("__self__").AsResourceReference().URN
		return monitorclient.CallResponse{
			Return:             property.NewMap(map[string]property.Value{"text": property.New("described " + c.Args.Get("style").AsString())}),
			ReturnDependencies: map[string][]urn.URN{"text": {self}},
		}, nil
	}))
	var calls []hosttest.Call
	client := serve(t, mon.Addr(), host.WithComponent("test:index:Comp",
		func(ctx context.Context, c *host.Component, args rawCompArgs) (rawCompOut, error) {
			thing, err := c.Register(ctx, monitorclient.RegisterResourceRequest{Type: "other:index:Thing", Name: "thing", Custom: true})
			if err != nil {
				return rawCompOut{}, err
			}
			call := func(style string) (monitorclient.CallResponse, error) {
				return c.Call(ctx, monitorclient.CallRequest{Token: "other:index:Thing/describe", Args: property.NewMap(map[string]property.Value{
					"__self__": property.New(property.ResourceReference{URN: thing.URN, ID: property.New(string(thing.ID))}),
					"style":    property.New(style),
				})})
			}
			resp, err := call(args.Greeting.AsString())
			if err != nil {
				return rawCompOut{}, err
			}
			calls = mon.Calls()
			var fe *monitorclient.FailuresError
			if _, err := call("bad"); !errors.As(err, &fe) || fe.Failures[0].Property != "style" {
				return rawCompOut{}, errors.New("a failing call did not report its failure")
			}
			return rawCompOut{Shout: resp.Return.Get("text")}, nil
		}))
	req := constructReq(mon, "test:index:Comp", "c", map[string]any{"greeting": "plain"})
	req.Providers = map[string]string{"other": otherRef}
	resp, err := client.Construct(context.Background(), req)
	if err != nil {
		t.Fatal(err)
	}
	if len(calls) != 1 || calls[0].Provider.String() != otherRef {
		t.Fatalf("calls %v, want one to the thing's provider %s", calls, otherRef)
	}
	deps := resp.GetStateDependencies()["shout"].GetUrns()
	if len(deps) != 1 || !urn.URN(deps[0]).IsValid() || urn.URN(deps[0]).Name() != "thing" {
		t.Errorf("shout depends on %v, want the thing", deps)
	}
}

// In a preview, a method call with an unknown argument gives an unknown
// result without calling the method, or reading its receiver (srcURN is
// registered nowhere: reading it would fail the Construct).
func TestComponentCallUnknownInPreview(t *testing.T) {
	t.Parallel()
	mon := hosttest.Start(t, hosttest.WithDryRun(true), hosttest.WithCallHook(func(c hosttest.Call) (monitorclient.CallResponse, error) {
		return monitorclient.CallResponse{Return: property.NewMap(map[string]property.Value{"text": property.New("called")})}, nil
	}))
	var unknown bool
	client := serve(t, mon.Addr(), host.WithComponent("test:index:Comp",
		func(ctx context.Context, c *host.Component, args rawCompArgs) (rawCompOut, error) {
			resp, err := c.Call(ctx, monitorclient.CallRequest{Token: "other:index:Thing/describe", Args: property.NewMap(map[string]property.Value{
				"__self__": property.New(property.ResourceReference{URN: srcURN}),
				"style":    args.Greeting,
			})})
			if err != nil {
				return rawCompOut{}, err
			}
			unknown = resp.Unknown
			if resp.Unknown {
				return rawCompOut{Shout: property.New(property.Computed)}, nil
			}
			return rawCompOut{Shout: resp.Return.Get("text")}, nil
		}))
	req := constructReq(mon, "test:index:Comp", "c", nil)
	req.DryRun = true
	req.Inputs, _ = plugin.MarshalProperties(resource.PropertyMap{"greeting": resource.MakeComputed(resource.NewProperty(""))},
		plugin.MarshalOptions{KeepUnknowns: true})
	resp, err := client.Construct(context.Background(), req)
	if err != nil {
		t.Fatal(err)
	}
	if !unknown {
		t.Error("Call with an unknown argument: result not Unknown")
	}
	if calls := mon.Calls(); len(calls) != 0 {
		t.Errorf("the method was called with an unknown argument: %v", calls)
	}
	state, err := plugin.UnmarshalProperties(resp.GetState(), plugin.MarshalOptions{KeepUnknowns: true, KeepOutputValues: true})
	if err != nil {
		t.Fatal(err)
	}
	if got := state["shout"]; !got.ContainsUnknowns() {
		t.Errorf("shout = %v, want unknown", got)
	}
}

// A component registers a parameterized package and a child of it, by its
// reference, with properties whose diffs the CLI hides.
func TestComponentParameterizedChildWithHiddenDiffs(t *testing.T) {
	t.Parallel()
	mon := hosttest.Start(t)
	client := serve(t, mon.Addr(), host.WithComponent("test:index:Comp",
		func(ctx context.Context, c *host.Component, args rawCompArgs) (rawCompOut, error) {
			pkg, err := c.RegisterPackage(ctx, monitorclient.RegisterPackageRequest{Name: "terraform-provider", Version: "0.8.0",
				Parameterization: &monitorclient.Parameterization{Name: "netbox", Version: "3.1.0", Value: []byte("params")}})
			if err != nil {
				return rawCompOut{}, err
			}
			_, err = c.Register(ctx, monitorclient.RegisterResourceRequest{Type: "netbox:index:Site", Name: "site", Custom: true,
				PackageRef: pkg.Ref, HideDiffs: []string{"comments"}})
			return rawCompOut{Shout: property.New("ok")}, err
		}))
	if _, err := client.Construct(context.Background(), constructReq(mon, "test:index:Comp", "c", map[string]any{"greeting": "hi"})); err != nil {
		t.Fatal(err)
	}
	pkgs := mon.Packages()
	if len(pkgs) != 1 || pkgs[0].GetParameterization().GetName() != "netbox" || string(pkgs[0].GetParameterization().GetValue()) != "params" {
		t.Fatalf("packages registered: %v", pkgs)
	}
	for _, r := range mon.Registrations() {
		if r.Name == "site" && (r.PackageRef != "ref-1" || !slices.Equal(r.HideDiffs, []string{"comments"})) {
			t.Errorf("child registered with packageRef %q and hideDiffs %v, want ref-1 and [comments]", r.PackageRef, r.HideDiffs)
		}
	}
}

// An engine without parameterization refuses a package: the error names
// the component and the package, once.
func TestComponentRegisterPackageRefused(t *testing.T) {
	t.Parallel()
	mon := hosttest.Start(t, hosttest.WithFeatures("secrets", "resourceReferences", "outputValues"))
	var err error
	client := serve(t, mon.Addr(), host.WithComponent("test:index:Comp",
		func(ctx context.Context, c *host.Component, args rawCompArgs) (rawCompOut, error) {
			_, err = c.RegisterPackage(ctx, monitorclient.RegisterPackageRequest{Name: "terraform-provider",
				Parameterization: &monitorclient.Parameterization{Name: "netbox", Version: "3.1.0"}})
			return rawCompOut{Shout: property.New("ok")}, nil
		}))
	if _, cerr := client.Construct(context.Background(), constructReq(mon, "test:index:Comp", "c", map[string]any{"greeting": "hi"})); cerr != nil {
		t.Fatal(cerr)
	}
	want := `test:index:Comp "c": register package terraform-provider: the monitor does not support parameterized packages`
	if err == nil || err.Error() != want {
		t.Errorf("got %v, want %s", err, want)
	}
}

// A component reads an existing resource into the stack: under itself,
// with the program's provider for the package, its properties depending on
// the resource read.
func TestComponentRead(t *testing.T) {
	t.Parallel()
	mon := hosttest.Start(t, hosttest.WithRegisterHook(func(r hosttest.Registration) (resource.ID, property.Map, error) {
		return resource.ID(r.ImportID), r.Inputs.Set("arn", property.New("arn:"+string(r.ImportID))), nil
	}))
	client := serve(t, mon.Addr(), host.WithComponent("test:index:Comp",
		func(ctx context.Context, c *host.Component, args rawCompArgs) (rawCompOut, error) {
			got, err := c.Read(ctx, monitorclient.ReadResourceRequest{Type: "other:index:Thing", Name: "existing", ID: "thing-7"})
			if err != nil {
				return rawCompOut{}, err
			}
			return rawCompOut{Shout: got.Properties.Get("arn")}, nil
		}))
	req := constructReq(mon, "test:index:Comp", "c", map[string]any{"greeting": "hi"})
	req.Providers = map[string]string{"other": otherRef}
	resp, err := client.Construct(context.Background(), req)
	if err != nil {
		t.Fatal(err)
	}
	var read hosttest.Registration
	for _, r := range mon.Registrations() {
		if r.Read {
			read = r
		}
	}
	if read.Name != "existing" || read.ImportID != "thing-7" || read.Provider.String() != otherRef || string(read.Parent) != resp.GetUrn() {
		t.Errorf("read %+v, want thing-7 under the component with the program's provider", read)
	}
	if got := resp.GetState().GetFields()["shout"].GetStringValue(); got != "arn:thing-7" {
		t.Errorf("shout = %q", got)
	}
	if deps := resp.GetStateDependencies()["shout"].GetUrns(); len(deps) != 1 || deps[0] != string(read.URN) {
		t.Errorf("shout depends on %v, want the resource read", deps)
	}
}

// A read's name, stored in plaintext in the URN, may not hold a secret
// input, as a registered child's may not.
func TestComponentReadRefusesSecretName(t *testing.T) {
	t.Parallel()
	mon := hosttest.Start(t)
	client := serve(t, mon.Addr(), host.WithComponent("test:index:Comp",
		func(ctx context.Context, c *host.Component, args rawCompArgs) (rawCompOut, error) {
			_, err := c.Read(ctx, monitorclient.ReadResourceRequest{Type: "other:index:Thing", Name: "t-" + args.Greeting.AsString(), ID: "thing-7"})
			return rawCompOut{Shout: property.New("read")}, err
		}))
	req := constructReq(mon, "test:index:Comp", "c", nil)
	req.Inputs, _ = plugin.MarshalProperties(resource.PropertyMap{"greeting": resource.MakeSecret(resource.NewProperty("s3cr3t-name"))},
		plugin.MarshalOptions{KeepSecrets: true})
	_, err := client.Construct(context.Background(), req)
	if err == nil || !strings.Contains(err.Error(), "secret input") || strings.Contains(err.Error(), "s3cr3t") {
		t.Errorf("read with a secret name: %v, want a refusal that does not print the name", err)
	}
	for _, r := range mon.Registrations() {
		if r.Read {
			t.Errorf("the read reached the engine: %+v", r)
		}
	}
}

// What Register answers depends on the child in its raw form too
// (resp.Outputs, not only through Output and IDValue): an output of the
// component taken from it depends on the child.
func TestRegisterOutputsDependOnTheChild(t *testing.T) {
	t.Parallel()
	mon := hosttest.Start(t)
	var child urn.URN
	client := serve(t, mon.Addr(), host.WithComponent("test:index:Comp",
		func(ctx context.Context, c *host.Component, args rawCompArgs) (rawCompOut, error) {
			resp, err := c.Register(ctx, monitorclient.RegisterResourceRequest{
				Type: "other:index:Thing", Name: "t", Custom: true,
				Inputs: property.NewMap(map[string]property.Value{"label": property.New("x")}),
			})
			child = resp.URN
			return rawCompOut{Shout: resp.Outputs.Get("label")}, err
		}))
	resp, err := client.Construct(context.Background(), constructReq(mon, "test:index:Comp", "c", map[string]any{"greeting": "hi"}))
	if err != nil {
		t.Fatal(err)
	}
	if deps := resp.GetStateDependencies()["shout"].GetUrns(); child == "" || !slices.Contains(deps, string(child)) {
		t.Errorf("shout depends on %v, want the child %s", deps, child)
	}
}

// A component asks what the engine's monitor supports: the features it
// advertised, and only those.
func TestComponentFeatures(t *testing.T) {
	t.Parallel()
	for _, ids := range [][]string{
		{"secrets", "resourceReferences", "outputValues", "parameterization", "transforms", "resourceHooks"},
		{"secrets", "resourceReferences", "outputValues"},
	} {
		mon := hosttest.Start(t, hosttest.WithFeatures(ids...))
		var got monitorclient.Features
		client := serve(t, mon.Addr(), host.WithComponent("test:index:Comp",
			func(ctx context.Context, c *host.Component, args rawCompArgs) (rawCompOut, error) {
				got = c.Features()
				return rawCompOut{Shout: property.New("ok")}, nil
			}))
		if _, err := client.Construct(context.Background(), constructReq(mon, "test:index:Comp", "c", map[string]any{"greeting": "hi"})); err != nil {
			t.Fatal(err)
		}
		all := len(ids) > 3
		if !got.Secrets || got.Parameterization != all || got.Transforms != all || got.ResourceHooks != all {
			t.Errorf("monitor advertising %v: component saw %+v", ids, got)
		}
	}
}

// A child of the plugin's own package, registered with no provider and no
// version, goes out with the plugin's version when the engine serves the
// plugin as a versioned default provider, as a generated SDK sends its
// own: the engine then serves it by the provider that serves its parent
// (issue 38, item 15). Served as the unversioned default, it goes out with
// none, and so lands there too. A child of another package, or one given a
// version, is left as it is.
func TestOwnChildrenCarryThePluginVersion(t *testing.T) {
	t.Parallel()
	for provider, want := range map[string]map[string]string{
		"default_1_2_3": {"own": "1.2.3", "pinned": "1.0.0", "other": ""},
		"default":       {"own": "", "pinned": "1.0.0", "other": ""},
	} {
		mon := hosttest.Start(t)
		client := serve(t, mon.Addr(), host.WithVersion("1.2.3"), host.WithResource("test:index:Thing", noteResource{}),
			host.WithComponent("test:index:Comp", func(ctx context.Context, c *host.Component, args rawCompArgs) (rawCompOut, error) {
				for _, req := range []monitorclient.RegisterResourceRequest{
					{Type: "test:index:Thing", Name: "own", Custom: true},
					{Type: "test:index:Thing", Name: "pinned", Custom: true, Version: "1.0.0"},
					{Type: "other:index:Thing", Name: "other", Custom: true},
				} {
					if _, err := c.Register(ctx, req); err != nil {
						return rawCompOut{}, err
					}
				}
				return rawCompOut{Shout: property.New("x")}, nil
			}))
		urn := "urn:pulumi:dev::proj::pulumi:providers:test::" + provider
		if _, err := client.Configure(context.Background(), &pulumirpc.ConfigureRequest{Args: &structpb.Struct{}, AcceptSecrets: true,
			Urn: &urn, Name: &provider, Id: ptr("04da6b54-80e4-46f7-96ec-b56ff0331ba9")}); err != nil {
			t.Fatal(err)
		}
		if _, err := client.Construct(context.Background(), constructReq(mon, "test:index:Comp", "c", map[string]any{"greeting": "hi"})); err != nil {
			t.Fatal(err)
		}
		for _, r := range mon.Registrations() {
			if v, ok := want[r.Name]; ok && r.Version != v {
				t.Errorf("served as %s: %s registered with version %q, want %q", provider, r.Name, r.Version, v)
			}
		}
	}
}

func ptr[T any](v T) *T { return &v }
