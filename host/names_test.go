package host_test

import (
	"context"
	"slices"
	"strings"
	"testing"

	"github.com/pulumi/pulumi/sdk/v3/go/common/resource"
	"github.com/pulumi/pulumi/sdk/v3/go/common/resource/plugin"
	"github.com/pulumi/pulumi/sdk/v3/go/property"

	"github.com/polyhost/polyhost/host"
	"github.com/polyhost/polyhost/host/hosttest"
	"github.com/polyhost/polyhost/monitorclient"
)

type pagesArgs struct {
	Pages map[string]property.Value `pulumi:"pages"`
	Title property.Value            `pulumi:"title,optional"`
}

type pagesOut struct {
	Count property.Value `pulumi:"count"`
}

// buildPages registers a child per page, named after the page, the usual
// way to build on a map, and one named after the component.
func buildPages(ctx context.Context, c *host.Component, args pagesArgs) (pagesOut, error) {
	for _, name := range slices.Sorted(func(yield func(string) bool) {
		for k := range args.Pages {
			if !yield(k) {
				return
			}
		}
	}) {
		if _, err := c.Register(ctx, monitorclient.RegisterResourceRequest{
			Type: "test:index:Thing", Name: c.Name() + "-" + name, Custom: true,
		}); err != nil {
			return pagesOut{}, err
		}
	}
	_, err := c.Register(ctx, monitorclient.RegisterResourceRequest{Type: "test:index:Thing", Name: c.Name() + "-bucket", Custom: true})
	return pagesOut{Count: property.New(float64(len(args.Pages)))}, err
}

func constructPages(t *testing.T, mon *hosttest.Monitor, name string, inputs resource.PropertyMap) error {
	t.Helper()
	client := serve(t, mon.Addr(), host.WithComponent("test:index:Pages", buildPages))
	req := constructReq(mon, "test:index:Pages", name, nil)
	req.Inputs, _ = plugin.MarshalProperties(inputs, plugin.MarshalOptions{KeepSecrets: true})
	_, err := client.Construct(context.Background(), req)
	return err
}

func childNames(mon *hosttest.Monitor) []string {
	var out []string
	for _, r := range mon.Registrations() {
		if r.Type == "test:index:Thing" {
			out = append(out, r.Name)
		}
	}
	return out
}

// The keys of a secret map never become names (names are in URNs, in
// plaintext), nor does anything computed from them: a child named after
// one is refused, the error saying why and not printing the key. A key
// of a plain map is kept.
func TestSecretMapKeysNeverBecomeNames(t *testing.T) {
	t.Parallel()
	secretPages := resource.PropertyMap{"pages": resource.MakeSecret(resource.NewProperty(resource.PropertyMap{
		"hushpage-41.html": resource.NewProperty("<p>x</p>"),
	}))}
	refused := hosttest.Start(t)
	err := constructPages(t, refused, "site", secretPages)
	if err == nil || !strings.Contains(err.Error(), "a key of a secret map") {
		t.Fatalf("construct with a secret map's key in a child's name: %v, want a refusal naming the secret map", err)
	}
	if strings.Contains(err.Error(), "hushpage") {
		t.Errorf("the refusal prints the key: %v", err)
	}
	if got := childNames(refused); len(got) != 0 {
		t.Errorf("children %v registered, want none", got)
	}

	mon := hosttest.Start(t)
	plain := resource.PropertyMap{"pages": resource.NewProperty(resource.PropertyMap{
		"hushpage-41.html": resource.MakeSecret(resource.NewProperty("<p>x</p>")),
	})}
	if err := constructPages(t, mon, "site", plain); err != nil {
		t.Fatal(err)
	}
	if got := childNames(mon); !slices.Contains(got, "site-hushpage-41.html") {
		t.Errorf("children %v, want site-hushpage-41.html: the map is not secret, only a value", got)
	}
}

// The component's own name is in its URN already: a secret input equal to
// it, or to a word of it, refuses no child named after the component.
// The same secret elsewhere in a name does.
func TestSecretEqualToComponentNameRefusesNothing(t *testing.T) {
	t.Parallel()
	inputs := resource.PropertyMap{
		"pages": resource.NewProperty(resource.PropertyMap{"a.html": resource.MakeSecret(resource.NewProperty("bad"))}),
	}
	for _, name := range []string{"bad", "bad-site", "my-bad"} {
		mon := hosttest.Start(t)
		if err := constructPages(t, mon, name, inputs); err != nil {
			t.Errorf("component %q: %v", name, err)
		}
	}
	mon := hosttest.Start(t)
	inputs["pages"] = resource.NewProperty(resource.PropertyMap{"bad.html": resource.MakeSecret(resource.NewProperty("site-bad"))})
	err := constructPages(t, mon, "site", inputs)
	if err == nil || !strings.Contains(err.Error(), "secret input") || strings.Contains(err.Error(), "site-bad") {
		t.Errorf("a child named after a secret input: %v, want a refusal that does not print the name", err)
	}
}
