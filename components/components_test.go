package components_test

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/pulumi/pulumi/sdk/v3/go/common/resource"
	"github.com/pulumi/pulumi/sdk/v3/go/common/resource/urn"
	"github.com/pulumi/pulumi/sdk/v3/go/property"

	"github.com/polyhost/polyhost/components"
	"github.com/polyhost/polyhost/host/diag"
	"github.com/polyhost/polyhost/host/hosttest"
	"github.com/polyhost/polyhost/monitorclient"
	"github.com/polyhost/polyhost/provider"
)

// bucketMock answers the custom children's registrations as the sitekit
// backend would, without storage: a Bucket gets a name and an endpoint, a
// BucketObject a url.
func bucketMock(r hosttest.Registration) (resource.ID, property.Map, error) {
	outputs := r.Inputs
	switch r.Type {
	case components.BucketType:
		outputs = outputs.Set("bucketName", property.New(r.Name+"-b")).Set("endpoint", property.New("mem://"+r.Name+"-b"))
	case components.BucketObjectType:
		if b, k := r.Inputs.Get("bucket"), r.Inputs.Get("key"); b.IsString() && k.IsString() {
			outputs = outputs.Set("url", property.New("mem://"+b.AsString()+"/"+k.AsString()))
		}
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
	bucket := registration(t, h, "s-bucket")
	if bucket.Type != components.BucketType || bucket.Parent != site.URN {
		t.Errorf("bucket registered as %s under %s, want a %s under the site", bucket.Type, bucket.Parent, components.BucketType)
	}
	if c := registration(t, h, "s-index").Inputs.Get("content"); !c.Secret() {
		t.Errorf("index content = %v, want secret", c)
	}
	registration(t, h, "s-pages-about.html")
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
	if err != nil {
		t.Fatalf("pageUrl: %v", err)
	}
	if got := resp.Return.Get("url").AsString(); got != "mem://s-bucket-b/pages/about.html" {
		t.Errorf("pageUrl = %q", got)
	}
	_, err = h.Call(context.Background(), hosttest.CallRequest{Token: components.SitePageURLMethod, Self: site.URN,
		Args: property.NewMap(map[string]property.Value{"page": property.New("../secret")})})
	var fe *monitorclient.FailuresError
	if !errors.As(err, &fe) || len(fe.Failures) != 1 || fe.Failures[0].Property != "page" {
		t.Errorf("pageUrl with ..: %v, want a failure naming page", err)
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
	if c := registration(t, h, "s-index").Inputs.Get("content"); !c.IsComputed() {
		t.Errorf("index content = %v in a preview, want unknown", c)
	}
	_, err := h.Construct(context.Background(), hosttest.ConstructRequest{Type: components.SiteType, Name: "bad",
		Inputs: property.NewMap(map[string]property.Value{})})
	var ie *diag.InputError
	if !errors.As(err, &ie) || len(ie.Failures) != 1 || ie.Failures[0].Property != "indexContent" {
		t.Errorf("Site without indexContent: %v, want an input error naming indexContent", err)
	}
}

// A Mirror reads the Site it is given through the engine (Resolve): its
// own bucket is labelled with the source's URN, its index page redirects
// to the source's url, and sourceUrl depends on the Site. A source that is
// not a Site, or not registered, is a user's mistake naming source.
func TestMirror(t *testing.T) {
	t.Parallel()
	h := harness(t)
	ctx := context.Background()
	site, err := h.Construct(ctx, hosttest.ConstructRequest{
		Type: components.SiteType, Name: "s", Inputs: siteInputs(property.New("<h1>hi</h1>")),
	})
	if err != nil {
		t.Fatal(err)
	}
	source := func(u urn.URN) property.Map {
		ref := property.New(property.ResourceReference{URN: u}).WithDependencies([]urn.URN{u})
		return property.NewMap(map[string]property.Value{"source": ref})
	}
	m, err := h.Construct(ctx, hosttest.ConstructRequest{Type: components.MirrorType, Name: "m", Inputs: source(site.URN)})
	if err != nil {
		t.Fatal(err)
	}
	bucket, index := registration(t, h, "m-bucket"), registration(t, h, "m-index")
	if bucket.Parent != m.URN || bucket.Inputs.Get("labels").AsMap().Get("mirrorOf").AsString() != string(site.URN) {
		t.Errorf("mirror bucket %+v, want a child of the mirror labelled with the site's URN", bucket)
	}
	want := `<meta http-equiv="refresh" content="0; url=mem://s-bucket-b/index.html">`
	if got := index.Inputs.Get("content"); got.AsString() != want {
		t.Errorf("mirror index content = %v, want %s", got, want)
	}
	src := m.Outputs.Get("sourceUrl")
	if src.AsString() != "mem://s-bucket-b/index.html" || !slices.Contains(src.Dependencies(), site.URN) {
		t.Errorf("sourceUrl = %v (depends on %v), want the site's url depending on the site", src, src.Dependencies())
	}
	if u := m.Outputs.Get("url"); u.AsString() != "mem://m-bucket-b/index.html" {
		t.Errorf("url = %v, want the mirror's own index page", u)
	}

	for name, u := range map[string]urn.URN{
		"m2": bucketURN(h, "s-bucket"),
		"m3": urn.URN("urn:pulumi:dev::proj::sitekit:index:Site::nowhere"),
	} {
		_, err := h.Construct(ctx, hosttest.ConstructRequest{Type: components.MirrorType, Name: name, Inputs: source(u)})
		var ie *diag.InputError
		if !errors.As(err, &ie) || len(ie.Failures) != 1 || ie.Failures[0].Property != "source" {
			t.Errorf("mirror of %s: %v, want an input error naming source", u, err)
		}
	}
}

// In a preview, with the buckets' endpoints unknown, the Site's url is
// unknown: so are the mirror's sourceUrl and its index page's content.
func TestMirrorPreview(t *testing.T) {
	t.Parallel()
	h := harness(t, hosttest.WithDryRun(true), hosttest.WithPreviewUnknowns(func(r hosttest.Registration) []string {
		if r.Type == components.BucketType {
			return []string{"bucketName", "endpoint"}
		}
		return nil
	}))
	ctx := context.Background()
	site, err := h.Construct(ctx, hosttest.ConstructRequest{
		Type: components.SiteType, Name: "s", Inputs: siteInputs(property.New(property.Computed)),
	})
	if err != nil {
		t.Fatal(err)
	}
	m, err := h.Construct(ctx, hosttest.ConstructRequest{Type: components.MirrorType, Name: "m",
		Inputs: property.NewMap(map[string]property.Value{"source": property.New(property.ResourceReference{URN: site.URN})})})
	if err != nil {
		t.Fatal(err)
	}
	if src := m.Outputs.Get("sourceUrl"); !src.IsComputed() {
		t.Errorf("sourceUrl = %v in a preview, want unknown", src)
	}
	if c := registration(t, h, "m-index").Inputs.Get("content"); !c.IsComputed() {
		t.Errorf("mirror index content = %v in a preview, want unknown", c)
	}
}

// registration is the child registered under name; the test stops if
// there is none.
func registration(t *testing.T, h *hosttest.Harness, name string) hosttest.Registration {
	t.Helper()
	var names []string
	for _, r := range h.Monitor.Registrations() {
		if r.Name == name {
			return r
		}
		names = append(names, r.Name)
	}
	t.Fatalf("nothing registered as %s; registered: %q", name, names)
	return hosttest.Registration{}
}

func bucketURN(h *hosttest.Harness, name string) urn.URN {
	for _, r := range h.Monitor.Registrations() {
		if r.Name == name {
			return r.URN
		}
	}
	return ""
}

// Page names that are no plain file name are a user's mistake naming the
// page: "." would store the page over the pages directory itself, and
// break every other page.
func TestBadPageNames(t *testing.T) {
	t.Parallel()
	h := harness(t)
	ctx := context.Background()
	for i, name := range []string{".", "..", "", "a/b", `a\b`, "x\x00", "line\nbreak", strings.Repeat("p", 256)} {
		_, err := h.Construct(ctx, hosttest.ConstructRequest{Type: components.SiteType, Name: fmt.Sprintf("s%d", i),
			Inputs: property.NewMap(map[string]property.Value{
				"indexContent": property.New("hi"),
				"pages":        property.New(map[string]property.Value{name: property.New("x"), "ok.html": property.New("y")}),
			})})
		var ie *diag.InputError
		if !errors.As(err, &ie) || len(ie.Failures) != 1 || ie.Failures[0].Property != fmt.Sprintf("pages[%q]", name) {
			t.Errorf("page %q: %v, want an input error naming it", name, err)
		}
	}
	for _, r := range h.Monitor.Registrations() {
		if r.Type == components.BucketObjectType {
			t.Errorf("a Site with a bad page name registered %s", r.Name)
		}
	}

	site, err := h.Construct(ctx, hosttest.ConstructRequest{Type: components.SiteType, Name: "good", Inputs: siteInputs(property.New("hi"))})
	if err != nil {
		t.Fatal(err)
	}
	_, err = h.Call(ctx, hosttest.CallRequest{Token: components.SiteAddPageMethod, Self: site.URN,
		Args: property.NewMap(map[string]property.Value{"name": property.New("."), "content": property.New("x")})})
	var fe *monitorclient.FailuresError
	if !errors.As(err, &fe) || len(fe.Failures) != 1 || fe.Failures[0].Property != "name" {
		t.Errorf("addPage named \".\": %v, want a failure naming name", err)
	}
}
