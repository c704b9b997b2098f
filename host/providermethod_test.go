package host_test

import (
	"context"
	"errors"
	"fmt"
	"testing"

	"github.com/pulumi/pulumi/sdk/v3/go/common/providers"
	"github.com/pulumi/pulumi/sdk/v3/go/common/resource/urn"
	"github.com/pulumi/pulumi/sdk/v3/go/property"

	"github.com/polyhost/polyhost/host"
	"github.com/polyhost/polyhost/host/custom"
	"github.com/polyhost/polyhost/host/hosttest"
	"github.com/polyhost/polyhost/monitorclient"
)

// A provider method is called on a provider whose recorded state is its
// configuration: one that does not fit the configuration's schema (here
// retries, an integer, recorded as a word) is the user's input, refused
// as a failure naming the property before the method's code runs, which
// may rely on the schema's types. A state that fits reaches the method.
func TestProviderMethodOnBadConfiguration(t *testing.T) {
	t.Parallel()
	p, err := host.New("vault",
		host.WithConfig(func(ctx context.Context, c vaultConfig) error { return nil }),
		host.WithMethod("pulumi:providers:vault/countRetries", func(ctx context.Context, self *host.Component, args struct{}) (string, error) {
			return fmt.Sprint(self.State().Get("retries").AsNumber()), nil
		}))
	if err != nil {
		t.Fatal(err)
	}
	h := hosttest.New(t, p)
	ctx := context.Background()
	client, err := monitorclient.Dial(ctx, h.Monitor.Addr())
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = client.Close() })
	for _, tc := range []struct {
		name    string
		retries property.Value
		want    string // the result, or the failure's property
	}{
		{"good", property.New(5.0), "5"},
		{"bad", property.New("abc"), "retries"},
	} {
		prov, err := client.RegisterResource(ctx, monitorclient.RegisterResourceRequest{Type: "pulumi:providers:vault", Name: tc.name, Custom: true,
			Parent: h.Monitor.StackURN(), Inputs: property.NewMap(map[string]property.Value{"retries": tc.retries})})
		if err != nil {
			t.Fatal(err)
		}
		resp, err := h.Call(ctx, hosttest.CallRequest{Token: "pulumi:providers:vault/countRetries", Self: prov.URN})
		var fe *monitorclient.FailuresError
		switch {
		case errors.As(err, &fe):
			if len(fe.Failures) != 1 || fe.Failures[0].Property != tc.want {
				t.Errorf("%s: failures %v, want one naming %s", tc.name, fe.Failures, tc.want)
			}
		case err != nil:
			t.Errorf("%s: %v", tc.name, err)
		case resp.Return.Get("res").AsString() != tc.want:
			t.Errorf("%s: countRetries() = %v, want %s", tc.name, resp.Return, tc.want)
		}
	}
}

type petOut struct {
	Pet string `pulumi:"pet"`
}

type petResource struct{}

func (petResource) Create(ctx context.Context, req custom.TypedCreateRequest[struct{}]) (custom.TypedCreateResponse[petOut], error) {
	return custom.TypedCreateResponse[petOut]{ID: "pet"}, nil
}

// A method's children of its own package are served by the provider the
// method was called through: the provider resource a provider method is
// called on, and for a component's method the provider that serves the
// call (the one the program constructed the component with). Called
// through the default provider, they go to the default.
func TestMethodChildrenInheritTheProvider(t *testing.T) {
	t.Parallel()
	pet := func(ctx context.Context, self *host.Component, args struct{}) (petOut, error) {
		_, err := self.Register(ctx, monitorclient.RegisterResourceRequest{Type: "vault:index:Pet", Name: self.Name() + "-pet", Custom: true})
		return petOut{Pet: self.Name()}, err
	}
	p, err := host.New("vault",
		host.WithConfig(func(ctx context.Context, c vaultConfig) error { return nil }),
		host.WithMethod("pulumi:providers:vault/makePet", pet),
		host.WithComponent("vault:index:Box", func(ctx context.Context, c *host.Component, args boxArgs) (boxOut, error) {
			return boxOut{Label: "box"}, nil
		}),
		host.WithMethod("vault:index:Box/makePet", pet),
		host.WithTypedResource("vault:index:Pet", petResource{}))
	if err != nil {
		t.Fatal(err)
	}
	h := hosttest.New(t, p)
	ctx := context.Background()
	explicit, err := h.RegisterProvider(ctx, hosttest.ProviderRequest{Name: "explicit"})
	if err != nil {
		t.Fatal(err)
	}
	box, err := h.Construct(ctx, hosttest.ConstructRequest{Type: "vault:index:Box", Name: "box", Inputs: property.Map{},
		Providers: map[string]providers.Reference{"vault": explicit}})
	if err != nil {
		t.Fatal(err)
	}
	plain, err := h.Construct(ctx, hosttest.ConstructRequest{Type: "vault:index:Box", Name: "plain", Inputs: property.Map{}})
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		token string
		self  urn.URN
		via   providers.Reference
		pet   string
		want  providers.Reference
	}{
		{"pulumi:providers:vault/makePet", explicit.URN(), explicit, "explicit-pet", explicit},
		{"vault:index:Box/makePet", box.URN, explicit, "box-pet", explicit},
		{"vault:index:Box/makePet", plain.URN, providers.Reference{}, "plain-pet", providers.Reference{}},
	} {
		if _, err := h.Call(ctx, hosttest.CallRequest{Token: tc.token, Self: tc.self, Provider: tc.via}); err != nil {
			t.Fatal(err)
		}
		reg := registration(t, h.Monitor, tc.pet)
		if reg.Provider != tc.want || reg.Parent != tc.self {
			t.Errorf("%s: %s has provider %q and parent %q, want %q and %q", tc.token, tc.pet, reg.Provider, reg.Parent, tc.want, tc.self)
		}
	}
}

func registration(t *testing.T, mon *hosttest.Monitor, name string) hosttest.Registration {
	t.Helper()
	for _, r := range mon.Registrations() {
		if r.Name == name {
			return r
		}
	}
	t.Fatalf("no %q registered", name)
	return hosttest.Registration{}
}
