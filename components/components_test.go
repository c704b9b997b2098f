package components_test

import (
	"context"
	"errors"
	"slices"
	"testing"

	"github.com/pulumi/pulumi/sdk/v3/go/common/resource"
	"github.com/pulumi/pulumi/sdk/v3/go/property"

	"github.com/polyhost/polyhost/components"
	"github.com/polyhost/polyhost/host"
	"github.com/polyhost/polyhost/host/hosttest"
	"github.com/polyhost/polyhost/provider"
)

// bucketMock answers the custom children's registrations as the sitekit
// backend would, without storage: a Bucket gets a name and an endpoint.
func bucketMock(r hosttest.Registration) (resource.ID, property.Map, error) {
	outputs := r.Inputs
	if r.Type == components.BucketType {
		outputs = outputs.Set("bucketName", property.New(r.Name+"-b")).Set("endpoint", property.New("mem://"+r.Name+"-b"))
	}
	return resource.ID("id-" + r.Name), outputs, nil
}

func harness(t *testing.T, opts ...hosttest.Option) *hosttest.Harness {
	t.Helper()
	p, err := provider.New("0.1.0")
	if err != nil {
		t.Fatal(err)
	}
	return hosttest.New(t, p, append([]hosttest.Option{hosttest.WithRegisterHook(bucketMock)}, opts...)...)
}

func siteInputs(index property.Value) property.Map {
	return property.NewMap(map[string]property.Value{
		"indexContent": index,
		"pages":        property.New(map[string]property.Value{"about.html": property.New("<p>about</p>")}),
	})
}

// A Site registers its bucket, index and error pages and a PageSet with its
// pages; the secret index content stays secret in its object's inputs; the
// url is derived from the bucket's endpoint and depends on the bucket.
func TestSite(t *testing.T) {
	t.Parallel()
	h := harness(t)
	site, err := h.Construct(context.Background(), hosttest.ConstructRequest{
		Type: components.SiteType, Name: "s", Inputs: siteInputs(property.New("<h1>hi</h1>").WithSecret(true)),
	})
	if err != nil {
		t.Fatal(err)
	}
	byName := map[string]hosttest.Registration{}
	for _, r := range h.Monitor.Registrations() {
		byName[r.Name] = r
	}
	bucket := byName["s-bucket"]
	if bucket.Type != components.BucketType || bucket.Parent != site.URN {
		t.Errorf("bucket registered as %s under %s, want a %s under the site", bucket.Type, bucket.Parent, components.BucketType)
	}
	if c := byName["s-index"].Inputs.Get("content"); !c.Secret() {
		t.Errorf("index content = %v, want secret", c)
	}
	if _, ok := byName["s-pages-about.html"]; !ok {
		t.Errorf("no page object for about.html among %v", slices.Collect(func(yield func(string) bool) {
			for n := range byName {
				if !yield(n) {
					return
				}
			}
		}))
	}
	url := site.Outputs.Get("url")
	if url.AsString() != "mem://s-bucket-b/index.html" || !slices.Contains(url.Dependencies(), bucket.URN) {
		t.Errorf("url = %v (depends on %v), want mem://s-bucket-b/index.html depending on the bucket", url, url.Dependencies())
	}
	if n := site.Outputs.Get("pageCount"); n.AsNumber() != 3 {
		t.Errorf("pageCount = %v, want 3", n)
	}

	// The method reads the recorded url.
	resp, err := h.Call(context.Background(), hosttest.CallRequest{Token: components.SitePageURLMethod, Self: site.URN,
		Args: property.NewMap(map[string]property.Value{"page": property.New("about.html")})})
	if err != nil || len(resp.Failures) > 0 {
		t.Fatalf("pageUrl: %v %v", err, resp.Failures)
	}
	if got := resp.Return.Get("url").AsString(); got != "mem://s-bucket-b/pages/about.html" {
		t.Errorf("pageUrl = %q", got)
	}
	resp, err = h.Call(context.Background(), hosttest.CallRequest{Token: components.SitePageURLMethod, Self: site.URN,
		Args: property.NewMap(map[string]property.Value{"page": property.New("../secret")})})
	if err != nil || len(resp.Failures) != 1 || resp.Failures[0].Path != "page" {
		t.Errorf("pageUrl with ..: %v %v, want a failure naming page", err, resp.Failures)
	}
}

// In a preview an unknown index content reaches the index object unknown,
// and a missing input is a user's mistake naming it.
func TestSitePreviewAndBadInput(t *testing.T) {
	t.Parallel()
	h := harness(t, hosttest.WithDryRun(true))
	if _, err := h.Construct(context.Background(), hosttest.ConstructRequest{
		Type: components.SiteType, Name: "s", Inputs: siteInputs(property.New(property.Computed)),
	}); err != nil {
		t.Fatal(err)
	}
	for _, r := range h.Monitor.Registrations() {
		if r.Name == "s-index" && !r.Inputs.Get("content").IsComputed() {
			t.Errorf("index content = %v in a preview, want unknown", r.Inputs.Get("content"))
		}
	}
	_, err := h.Construct(context.Background(), hosttest.ConstructRequest{Type: components.SiteType, Name: "bad",
		Inputs: property.NewMap(map[string]property.Value{})})
	var ie *host.InputError
	if !errors.As(err, &ie) || len(ie.Properties) != 1 || ie.Properties[0].Path != "indexContent" {
		t.Errorf("Site without indexContent: %v, want an input error naming indexContent", err)
	}
}
