package floor

import (
	"context"
	"sort"
	"sync"

	"github.com/pulumi/pulumi/sdk/v3/go/common/providers"
	"github.com/pulumi/pulumi/sdk/v3/go/common/resource/urn"
	"github.com/pulumi/pulumi/sdk/v3/go/property"
	"golang.org/x/sync/errgroup"

	"github.com/polyhost/polyhost/components"
	"github.com/polyhost/polyhost/monitorclient"
)

// Page is one page of a Site.
type Page struct{ Name, Content string }

// Site sends what ours sends for a Site (components.BuildSite): the Site
// and its PageSet, the bucket, the index and error objects, one object per
// page and the two components' outputs, with the same dependencies between
// them, every independent registration at once (a goroutine each, as the
// Go SDK does), or at most inFlight at once if inFlight > 0. Custom
// children use the provider ref. It returns the Site's URN and outputs.
func Site(ctx context.Context, c *monitorclient.Client, inFlight int, parent urn.URN, ref providers.Reference, name string, pages []Page) (urn.URN, property.Map, error) {
	register := c.RegisterResource
	if inFlight > 0 {
		sem := make(chan struct{}, inFlight)
		register = func(ctx context.Context, req monitorclient.RegisterResourceRequest) (monitorclient.RegisterResourceResponse, error) {
			sem <- struct{}{}
			defer func() { <-sem }()
			return c.RegisterResource(ctx, req)
		}
	}
	site, err := register(ctx, monitorclient.RegisterResourceRequest{
		Type: components.SiteType, Name: name, Parent: parent,
		ResourceOptions: monitorclient.ResourceOptions{Providers: map[string]providers.Reference{"sitekit": ref}},
	})
	if err != nil {
		return "", property.Map{}, err
	}
	bucket, err := register(ctx, monitorclient.RegisterResourceRequest{
		Type: components.BucketType, Name: name + "-bucket", Custom: true, Parent: site.URN, Provider: ref,
		Inputs: property.NewMap(map[string]property.Value{
			"labels": property.New(map[string]property.Value{"site": property.New(name)}),
		}),
	})
	if err != nil {
		return "", property.Map{}, err
	}
	bucketDep := []urn.URN{bucket.URN}
	bucketName := bucket.Outputs.Get("bucketName").WithDependencies(bucketDep)
	object := func(ctx context.Context, parent urn.URN, name, key string, content property.Value) (monitorclient.RegisterResourceResponse, error) {
		return register(ctx, monitorclient.RegisterResourceRequest{
			Type: components.BucketObjectType, Name: name, Custom: true, Parent: parent, Provider: ref,
			Inputs: property.NewMap(map[string]property.Value{
				"bucket": bucketName, "key": property.New(key), "content": content,
				"contentType": property.New("text/html"),
			}),
		})
	}

	var (
		mu        sync.Mutex
		pageDeps  []urn.URN
		pageCount = float64(len(pages))
	)
	g, gctx := errgroup.WithContext(ctx)
	g.Go(func() error {
		_, err := object(gctx, site.URN, name+"-index", "index.html", property.New("<h1>bench</h1>"))
		return err
	})
	g.Go(func() error {
		_, err := object(gctx, site.URN, name+"-error", "error.html", property.New("<h1>Not found</h1>"))
		return err
	})
	g.Go(func() error {
		psName := name + "-pages"
		ps, err := register(gctx, monitorclient.RegisterResourceRequest{
			Type: components.PageSetType, Name: psName, Parent: site.URN,
		})
		if err != nil {
			return err
		}
		keys := make([]property.Value, len(pages))
		pg, pctx := errgroup.WithContext(gctx)
		if inFlight > 0 {
			pg.SetLimit(inFlight) // no goroutine parked per waiting page
		}
		for i, page := range pages {
			keys[i] = property.New("pages/" + page.Name)
			pg.Go(func() error {
				obj, err := object(pctx, ps.URN, psName+"-"+page.Name, "pages/"+page.Name, property.New(page.Content))
				if err == nil {
					mu.Lock()
					pageDeps = append(pageDeps, obj.URN)
					mu.Unlock()
				}
				return err
			})
		}
		if err := pg.Wait(); err != nil {
			return err
		}
		sort.Slice(pageDeps, func(i, j int) bool { return pageDeps[i] < pageDeps[j] })
		_, err = c.RegisterResourceOutputs(gctx, monitorclient.RegisterResourceOutputsRequest{URN: ps.URN,
			Outputs: property.NewMap(map[string]property.Value{
				"keys":  property.New(keys),
				"count": property.New(pageCount).WithDependencies(pageDeps),
			})})
		return err
	})
	if err := g.Wait(); err != nil {
		return "", property.Map{}, err
	}
	url := property.New(property.Computed)
	if e := bucket.Outputs.Get("endpoint"); e.IsString() {
		url = property.New(e.AsString() + "/index.html")
	}
	bucketID := property.New(property.Computed)
	if bucket.ID != "" {
		bucketID = property.New(string(bucket.ID))
	}
	outputs := property.NewMap(map[string]property.Value{
		"url":        url.WithDependencies(bucketDep),
		"bucketName": bucketName,
		"pageCount":  property.New(pageCount + 2).WithDependencies(pageDeps),
		"bucket":     property.New(property.ResourceReference{URN: bucket.URN, ID: bucketID}).WithDependencies(bucketDep),
	})
	_, err = c.RegisterResourceOutputs(ctx, monitorclient.RegisterResourceOutputsRequest{URN: site.URN, Outputs: outputs})
	return site.URN, outputs, err
}
