package host_test

import (
	"context"
	"errors"
	"fmt"
	"testing"

	"github.com/pulumi/pulumi/sdk/v3/go/property"

	"github.com/polyhost/polyhost/host"
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
