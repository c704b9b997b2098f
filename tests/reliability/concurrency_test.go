package reliability

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/pulumi/pulumi/sdk/v3/go/common/resource"
	"github.com/pulumi/pulumi/sdk/v3/go/common/resource/urn"
	"github.com/pulumi/pulumi/sdk/v3/go/property"
	pulumirpc "github.com/pulumi/pulumi/sdk/v3/proto/go"

	"github.com/polyhost/polyhost/host/hosttest"
	"github.com/polyhost/polyhost/provider"
)

// fakeSitekit answers child registrations as the engine would with the
// sitekit provider behind it.
func fakeSitekit(r hosttest.Registration) (resource.ID, property.Map, error) {
	switch r.Type {
	case "sitekit:index:Bucket":
		name := r.Name + "-0000"
		return resource.ID(name), r.Inputs.Set("bucketName", property.New(name)).
			Set("endpoint", property.New("mem://"+name)).
			Set("accessKey", property.New("key").WithSecret(true)), nil
	case "sitekit:index:BucketObject":
		return resource.ID("obj-" + r.Name), r.Inputs.Set("etag", property.New("etag")).Set("url", property.New("mem://"+r.Name)), nil
	}
	return "", r.Inputs, nil
}

// 50 programs at once construct a Site each and call both of its methods,
// against one provider served in this process (run with -race).
func TestConcurrentConstructsAndCalls(t *testing.T) {
	t.Parallel()
	const n = 50
	mon := hosttest.Start(t, hosttest.WithRegisterHook(fakeSitekit))
	p, err := provider.New("1.0.0")
	if err != nil {
		t.Fatal(err)
	}
	c := serve(t, p, mon.Addr()).client
	ctx := context.Background()

	var wg sync.WaitGroup
	errs := make(chan error, n)
	for i := range n {
		wg.Go(func() {
			if err := siteAndCalls(ctx, t, c, mon.Addr(), fmt.Sprintf("site%02d", i)); err != nil {
				errs <- err
			}
		})
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Error(err)
	}

	// Each site: itself, bucket, index, error, page set, one page, one added page.
	regs := mon.Registrations()
	if len(regs) != 7*n {
		t.Errorf("%d registrations, want %d", len(regs), 7*n)
	}
	seen := map[urn.URN]bool{}
	for _, r := range regs {
		if seen[r.URN] {
			t.Errorf("%s registered twice", r.URN)
		}
		seen[r.URN] = true
	}
}

func siteAndCalls(ctx context.Context, t *testing.T, c pulumirpc.ResourceProviderClient, monitor, name string) error {
	site, err := c.Construct(ctx, &pulumirpc.ConstructRequest{
		Project: project, Stack: stack, MonitorEndpoint: monitor, Parallel: 4,
		Type: "sitekit:index:Site", Name: name, Parent: stackURN,
		Inputs: mustStruct(t, resource.PropertyMap{
			"indexContent": resource.NewProperty("index of " + name),
			"pages":        resource.NewProperty(resource.PropertyMap{"a.html": resource.NewProperty("a")}),
		}),
	})
	if err != nil {
		return fmt.Errorf("%s: construct: %w", name, err)
	}
	if got := site.GetState().GetFields()["url"].GetStringValue(); got != "mem://"+name+"-bucket-0000/index.html" {
		return fmt.Errorf("%s: url = %q", name, got)
	}
	self := resource.PropertyMap{"__self__": resource.MakeComponentResourceReference(resource.URN(site.GetUrn()), "")}
	call := func(tok string, args resource.PropertyMap) (string, error) {
		for k, v := range self {
			args[k] = v
		}
		resp, err := c.Call(ctx, &pulumirpc.CallRequest{
			Tok: tok, Args: mustStruct(t, args), Project: project, Stack: stack, MonitorEndpoint: monitor, Parallel: 4,
		})
		if err != nil || len(resp.GetFailures()) > 0 {
			return "", fmt.Errorf("%s: %s: %v %v", name, tok, resp.GetFailures(), err)
		}
		return resp.GetReturn().GetFields()["url"].GetStringValue(), nil
	}
	url, err := call("sitekit:index:Site/pageUrl", resource.PropertyMap{"page": resource.NewProperty("a.html")})
	if err != nil {
		return err
	}
	if url != "mem://"+name+"-bucket-0000/pages/a.html" {
		return fmt.Errorf("%s: pageUrl = %q", name, url)
	}
	url, err = call("sitekit:index:Site/addPage", resource.PropertyMap{
		"name": resource.NewProperty("extra.html"), "content": resource.NewProperty("more"),
	})
	if err != nil {
		return err
	}
	if !strings.HasSuffix(url, name+"-extra-extra.html") {
		return fmt.Errorf("%s: addPage url = %q", name, url)
	}
	return nil
}

// Create and Delete of one object sent at once, round after round, to one
// provider with file storage (in process, so -race sees the backend):
// every call succeeds, and after each round the object is gone or whole,
// its attributes with it, and no temp file is left.
func TestConcurrentCreateDeleteOneObject(t *testing.T) {
	t.Parallel()
	const rounds = 100
	mon := hosttest.Start(t)
	p, err := provider.New("1.0.0")
	if err != nil {
		t.Fatal(err)
	}
	c := serve(t, p, mon.Addr()).client
	ctx := context.Background()
	dir := t.TempDir()
	if _, err := c.Configure(ctx, &pulumirpc.ConfigureRequest{Args: rawStruct(t, map[string]any{"storageUrl": "file://" + dir})}); err != nil {
		t.Fatal(err)
	}
	b, err := c.Create(ctx, &pulumirpc.CreateRequest{Urn: bucketURN, Name: "b", Type: "sitekit:index:Bucket", Properties: rawStruct(t, nil)})
	if err != nil {
		t.Fatal(err)
	}
	bucket := b.GetId()
	content := strings.Repeat("c", 64<<10)
	obj := rawStruct(t, map[string]any{"bucket": bucket, "key": "o.html", "content": content, "contentType": "text/plain"})
	seen := map[bool]int{}
	for round := range rounds {
		var wg sync.WaitGroup
		var createErr, deleteErr error
		wg.Add(2)
		go func() {
			defer wg.Done()
			_, createErr = c.Create(ctx, &pulumirpc.CreateRequest{Urn: objectURN, Name: "o", Type: "sitekit:index:BucketObject", Properties: obj})
		}()
		go func() {
			defer wg.Done()
			_, deleteErr = c.Delete(ctx, &pulumirpc.DeleteRequest{Urn: objectURN, Name: "o", Type: "sitekit:index:BucketObject", Id: bucket + "/o.html", Properties: obj})
		}()
		wg.Wait()
		if createErr != nil || deleteErr != nil {
			t.Fatalf("round %d: create: %v; delete: %v", round, createErr, deleteErr)
		}
		entries, err := os.ReadDir(filepath.Join(dir, bucket))
		if err != nil {
			t.Fatal(err)
		}
		var names []string
		for _, e := range entries {
			names = append(names, e.Name())
		}
		exists := slices.Contains(names, "o.html")
		seen[exists]++
		want := []string{".sitekit-bucket", ".sitekit-bucket.attrs"}
		if exists {
			want = append(want, "o.html", "o.html.attrs")
		}
		if !slices.Equal(names, want) {
			t.Fatalf("round %d: the bucket holds %q, want %q", round, names, want)
		}
		if exists {
			resp, err := c.Read(ctx, &pulumirpc.ReadRequest{Urn: objectURN, Name: "o", Type: "sitekit:index:BucketObject", Id: bucket + "/o.html"})
			if err != nil {
				t.Fatal(err)
			}
			got := resp.GetProperties().AsMap()
			if got["content"] != content || got["contentType"] != "text/plain" {
				t.Fatalf("round %d: the object reads back %d bytes of %q, want %d of text/plain",
					round, len(fmt.Sprint(got["content"])), got["contentType"], len(content))
			}
		}
	}
	t.Logf("after %d rounds: the object was there %d times, gone %d times", rounds, seen[true], seen[false])
}
