package host_test

import (
	"context"
	"testing"

	"github.com/pulumi/pulumi/sdk/v3/go/property"

	"github.com/polyhost/polyhost/host"
	"github.com/polyhost/polyhost/host/custom"
	"github.com/polyhost/polyhost/host/hosttest"
	"github.com/polyhost/polyhost/monitorclient"
)

const (
	tokenEnv = "POLYHOST_TEST_SAFE_TOKEN"
	keyEnv   = "POLYHOST_TEST_SAFE_KEY"
)

// envConfig is a configuration with a secret filled from the environment.
type envConfig struct {
	Key *string `pulumi:"key,optional,secret"`
}

func (c *envConfig) Annotate(an host.Annotator) { an.SetDefault(&c.Key, nil, keyEnv) }

// envArgs has a secret input filled from the environment and a plain one
// with a default.
type envArgs struct {
	Token  *string `pulumi:"token,optional,secret"`
	Prefix *string `pulumi:"prefix,optional"`
}

func (a *envArgs) Annotate(an host.Annotator) {
	an.SetDefault(&a.Token, nil, tokenEnv)
	an.SetDefault(&a.Prefix, "pre-")
}

type envOut struct {
	Echo string `pulumi:"echo"`
}

type envState struct {
	Echo  string `pulumi:"echo"`
	Token string `pulumi:"token,secret"`
}

type envResource struct{}

func (envResource) Create(ctx context.Context, req custom.TypedCreateRequest[envArgs]) (custom.TypedCreateResponse[envState], error) {
	return custom.TypedCreateResponse[envState]{ID: "s", Outputs: envState{Echo: *req.Inputs.Prefix + *req.Inputs.Token, Token: *req.Inputs.Token}}, nil
}

func echo(a envArgs) envOut { return envOut{Echo: *a.Prefix + *a.Token} }

func envProvider(t *testing.T) *hosttest.Harness {
	t.Helper()
	p, err := host.New("safe",
		host.WithConfig(func(ctx context.Context, c envConfig) error { return nil }),
		host.WithFunction("safe:index:key", func(ctx context.Context, _ struct{}) (envOut, error) {
			return envOut{Echo: "pre-" + *host.Config[envConfig](ctx).Key}, nil
		}),
		host.WithComponent("safe:index:Box", func(ctx context.Context, c *host.Component, a envArgs) (envOut, error) {
			_, err := c.Register(ctx, monitorclient.RegisterResourceRequest{Type: "safe:index:Thing", Name: c.Name() + "-child", Custom: true,
				Inputs: property.NewMap(map[string]property.Value{"token": property.New(*a.Token)})})
			return echo(a), err
		}),
		host.WithMethod("safe:index:Box/greet", func(ctx context.Context, self *host.Component, a envArgs) (envOut, error) {
			return echo(a), nil
		}),
		host.WithFunction("safe:index:greet", func(ctx context.Context, a envArgs) (envOut, error) { return echo(a), nil }),
		host.WithTypedResource[envArgs, envState]("safe:index:Thing", envResource{}))
	if err != nil {
		t.Fatal(err)
	}
	return hosttest.New(t, p)
}

// wantSecretText fails unless m[key] is the secret want.
func wantSecretText(t *testing.T, what string, m property.Map, key, want string) {
	t.Helper()
	v, ok := m.GetOk(key)
	if !ok {
		t.Fatalf("%s has no %s: %v", what, key, m)
	}
	if !v.Secret() || !v.IsString() || v.AsString() != want {
		t.Errorf("%s: %s = %v (secret %v), want the secret %q", what, key, v, v.Secret(), want)
	}
}

// A schema-secret input is secret however it is filled (an environment
// variable's default, or a plain value given explicitly), and defaults
// apply, for every kind of callback that takes inputs: configuration,
// components (and their children), methods, functions, typed resources.
func TestSecretInputDefaults(t *testing.T) { // not parallel: t.Setenv
	t.Setenv(tokenEnv, "envtoken42")
	t.Setenv(keyEnv, "envkey42")
	ctx := context.Background()
	for _, given := range []map[string]property.Value{{}, {"token": property.New("envtoken42")}} {
		h := envProvider(t)
		config := map[string]property.Value{}
		if len(given) > 0 {
			config["key"] = property.New("envkey42")
		}
		if err := h.Configure(ctx, property.NewMap(config)); err != nil {
			t.Fatal(err)
		}
		key, err := h.Invoke(ctx, "safe:index:key", property.Map{})
		if err != nil {
			t.Fatal(err)
		}
		wantSecretText(t, "a function's results from the configuration", key.Return, "echo", "pre-envkey42")
		box, err := h.Construct(ctx, hosttest.ConstructRequest{Type: "safe:index:Box", Name: "b", Inputs: property.NewMap(given)})
		if err != nil {
			t.Fatal(err)
		}
		wantSecretText(t, "component outputs", box.Outputs, "echo", "pre-envtoken42")
		wantSecretText(t, "child inputs", childInputs(t, h.Monitor, "b-child"), "token", "envtoken42")

		got, err := h.Call(ctx, hosttest.CallRequest{Token: "safe:index:Box/greet", Self: box.URN, Args: property.NewMap(given)})
		if err != nil {
			t.Fatal(err)
		}
		wantSecretText(t, "method results", got.Return, "echo", "pre-envtoken42")

		inv, err := h.Invoke(ctx, "safe:index:greet", property.NewMap(given))
		if err != nil {
			t.Fatal(err)
		}
		wantSecretText(t, "function results", inv.Return, "echo", "pre-envtoken42")

		r, err := h.Create(ctx, hosttest.CreateRequest{Type: "safe:index:Thing", Name: "t", Inputs: property.NewMap(given)})
		if err != nil {
			t.Fatal(err)
		}
		wantSecretText(t, "resource inputs", r.Inputs, "token", "envtoken42")
		wantSecretText(t, "resource outputs", r.Outputs, "echo", "pre-envtoken42")
	}
}
