package host_test

import (
	"context"
	"encoding/base64"
	"strings"
	"testing"

	"github.com/pulumi/pulumi/sdk/v3/go/common/resource"
	"github.com/pulumi/pulumi/sdk/v3/go/common/resource/plugin"
	"github.com/pulumi/pulumi/sdk/v3/go/property"
	pulumirpc "github.com/pulumi/pulumi/sdk/v3/proto/go"

	"github.com/polyhost/polyhost/host"
	"github.com/polyhost/polyhost/host/hosttest"
	"github.com/polyhost/polyhost/monitorclient"
)

// construct runs one Construct of test:index:Vault with password as its input.
func constructVault(t *testing.T, mon *hosttest.Monitor, client pulumirpc.ResourceProviderClient, name string, password resource.PropertyValue) property.Map {
	t.Helper()
	req := constructReq(mon, "test:index:Vault", name, nil)
	req.Inputs, _ = plugin.MarshalProperties(resource.PropertyMap{"password": password}, plugin.MarshalOptions{KeepSecrets: true})
	resp, err := client.Construct(context.Background(), req)
	if err != nil {
		t.Fatal(err)
	}
	state, err := plugin.UnmarshalProperties(resp.GetState(), plugin.MarshalOptions{KeepSecrets: true})
	if err != nil {
		t.Fatal(err)
	}
	return resource.FromResourcePropertyMap(state)
}

// requireKeys stops the test unless m has each of keys: a loop over m
// then checks them all.
func requireKeys(t *testing.T, what string, m property.Map, keys ...string) {
	t.Helper()
	for _, k := range keys {
		if _, ok := m.GetOk(k); !ok {
			t.Fatalf("%s have no %s: %v", what, k, m)
		}
	}
}

func childInputs(t *testing.T, mon *hosttest.Monitor, name string) property.Map {
	t.Helper()
	for _, r := range mon.Registrations() {
		if r.Name == name {
			return r.Inputs
		}
	}
	t.Fatalf("no child %q registered", name)
	return property.Map{}
}

// A secret decoded into a plain Go field cannot be followed through what is
// computed from it (encoded, upper-cased, a constant beside it), so the host
// fails closed: every child input and every output is secret, and the
// engine hears once which field it was. Without a secret nothing is marked.
func TestSecretInPlainFieldSealsEverything(t *testing.T) {
	t.Parallel()
	mon := hosttest.Start(t)
	client := serve(t, mon.Addr(), host.WithComponent("test:index:Vault",
		func(ctx context.Context, c *host.Component, args passArgs) (passOut, error) {
			_, err := c.Register(ctx, monitorclient.RegisterResourceRequest{
				Type: "test:index:Thing", Name: c.Name() + "-child", Custom: true,
				Inputs: property.NewMap(map[string]property.Value{
					"encoded":  property.New(base64.StdEncoding.EncodeToString([]byte(args.Password))),
					"upper":    property.New(strings.ToUpper(args.Password)),
					"list":     property.New([]property.Value{property.New(args.Password[:1])}),
					"constant": property.New("plain"),
				}),
			})
			return passOut{Echo: strings.ToUpper(args.Password), Greeting: "hello"}, err
		}))
	for _, name := range []string{"a", "b"} {
		out := constructVault(t, mon, client, name, resource.MakeSecret(resource.NewProperty("hunter2xyz")))
		requireKeys(t, name+"'s child inputs", childInputs(t, mon, name+"-child"), "encoded", "upper", "list", "constant")
		requireKeys(t, name+"'s outputs", out, "echo", "greeting")
		for k, v := range childInputs(t, mon, name+"-child").All {
			if !v.Secret() {
				t.Errorf("%s: child input %s = %v, want secret", name, k, v)
			}
		}
		for k, v := range out.All {
			if !v.Secret() {
				t.Errorf("%s: output %s = %v, want secret", name, k, v)
			}
		}
	}
	warnings := 0
	for _, l := range mon.Logs() {
		if l.Severity == monitorclient.SeverityWarning && strings.Contains(l.Message, "secret arguments reached plain Go values (password)") {
			warnings++
			if strings.Contains(l.Message, "hunter2") {
				t.Errorf("the warning shows the secret: %s", l.Message)
			}
		}
	}
	if warnings != 1 {
		t.Errorf("%d warnings naming the field, want 1 (once per process): %+v", warnings, mon.Logs())
	}

	out := constructVault(t, mon, client, "plain", resource.NewProperty("hunter2xyz"))
	requireKeys(t, "plain child inputs", childInputs(t, mon, "plain-child"), "encoded", "upper", "list", "constant")
	for k, v := range childInputs(t, mon, "plain-child").All {
		if v.Secret() {
			t.Errorf("plain: child input %s is secret without any secret input", k)
		}
	}
	if out.Get("echo").Secret() {
		t.Errorf("plain: output echo is secret without any secret input")
	}
}

type preciseArgs struct {
	Password property.Value `pulumi:"password"`
}

type preciseOut struct {
	Echo     property.Value `pulumi:"echo"`
	Greeting property.Value `pulumi:"greeting"`
}

// property.Value fields keep secrets exact: what is computed from a secret
// with Apply is secret, what is not stays plain.
func TestPropertyValueKeepsSecretsExact(t *testing.T) {
	t.Parallel()
	mon := hosttest.Start(t)
	upper := func(v property.Value) property.Value {
		return host.Apply(func(vals ...property.Value) property.Value {
			return property.New(strings.ToUpper(vals[0].AsString()))
		}, v)
	}
	client := serve(t, mon.Addr(), host.WithComponent("test:index:Vault",
		func(ctx context.Context, c *host.Component, args preciseArgs) (preciseOut, error) {
			_, err := c.Register(ctx, monitorclient.RegisterResourceRequest{
				Type: "test:index:Thing", Name: "child", Custom: true,
				Inputs: property.NewMap(map[string]property.Value{
					"upper": upper(args.Password), "constant": property.New("plain"),
				}),
			})
			return preciseOut{Echo: upper(args.Password), Greeting: property.New("hello")}, err
		}))
	out := constructVault(t, mon, client, "v", resource.MakeSecret(resource.NewProperty("hunter2xyz")))
	in := childInputs(t, mon, "child")
	if !in.Get("upper").Secret() || in.Get("constant").Secret() {
		t.Errorf("child inputs = %v, want upper secret and constant plain", in)
	}
	if !out.Get("echo").Secret() || out.Get("greeting").Secret() {
		t.Errorf("outputs = %v, want echo secret and greeting plain", out)
	}
	for _, l := range mon.Logs() {
		if strings.Contains(l.Message, "plain Go values") {
			t.Errorf("warned with every secret kept: %s", l.Message)
		}
	}
}
