package bench

import (
	"context"
	"fmt"
	"sort"
	"sync"
	"time"

	"github.com/pulumi/pulumi/sdk/v3/go/common/providers"
	"github.com/pulumi/pulumi/sdk/v3/go/common/resource/urn"
	"github.com/pulumi/pulumi/sdk/v3/go/property"
	"golang.org/x/sync/errgroup"

	"github.com/polyhost/polyhost/components"
	"github.com/polyhost/polyhost/monitorclient"
	"github.com/polyhost/polyhost/tests/engine"
)

// program is a consumer program written directly against the monitor, so
// no language SDK runs in the measured path. It registers the stack and an
// explicit sitekit provider (so the plugin starts before the clock does),
// then Sites with Pages pages each, all at once, and times that from the
// first request to the last answer. With Floor it sends every registration
// a Site's Construct would send itself; otherwise each Site is one remote
// registration. Calls > 0 then calls Site.pageUrl on the first site that
// many times, one after the other, timing each.
type program struct {
	Impl  Impl
	Sites int
	Pages int
	Calls int

	// Results.
	Wall        time.Duration
	CallTimes   []time.Duration
	CallReturns []property.Map
	Outputs     []property.Map // per site, as the program saw them
}

var _ engine.Program = (*program)(nil)

func (p *program) Run(ctx context.Context, info engine.RunInfo) error {
	c, err := monitorclient.Dial(ctx, info.MonitorAddr)
	if err != nil {
		return err
	}
	defer func() { _ = c.Close() }()
	stack, err := c.RegisterResource(ctx, monitorclient.RegisterResourceRequest{
		Type: "pulumi:pulumi:Stack", Name: info.Project + "-" + info.Stack,
	})
	if err != nil {
		return err
	}
	prov, err := c.RegisterResource(ctx, monitorclient.RegisterResourceRequest{
		Type: "pulumi:providers:sitekit", Name: "bench", Custom: true, Parent: stack.URN,
		Inputs: property.NewMap(map[string]property.Value{"storageUrl": property.New("mem://")}),
	})
	if err != nil {
		return err
	}
	id := prov.ID
	if id == "" {
		id = providers.UnknownID
	}
	ref := prov.URN + "::" + id

	p.Outputs = make([]property.Map, p.Sites)
	siteURNs := make([]string, p.Sites)
	start := time.Now()
	g, gctx := errgroup.WithContext(ctx)
	for i := range p.Sites {
		name := "site"
		if p.Sites > 1 {
			name = fmt.Sprintf("site%02d", i)
		}
		g.Go(func() error {
			var err error
			if p.Impl == Floor {
				siteURNs[i], p.Outputs[i], err = floorSite(gctx, c, stack.URN, ref, name, p.Pages)
			} else {
				siteURNs[i], p.Outputs[i], err = remoteSite(gctx, c, stack.URN, ref, name, p.Pages)
			}
			return err
		})
	}
	if err := g.Wait(); err != nil {
		return err
	}
	p.Wall = time.Since(start)

	for range p.Calls {
		t0 := time.Now()
		ret, err := c.Call(ctx, monitorclient.CallRequest{
			Token: components.SitePageURLMethod,
			// Explicit, so the call goes to the plugin under test and not
			// to a default provider started for it.
			Provider: ref,
			Args: property.NewMap(map[string]property.Value{
				"__self__": property.New(property.ResourceReference{URN: urn.URN(siteURNs[0])}),
				"page":     property.New("about.html"),
			}),
		})
		if err != nil {
			return err
		}
		p.CallTimes = append(p.CallTimes, time.Since(t0))
		p.CallReturns = append(p.CallReturns, ret.Return)
	}
	_, err = c.RegisterResourceOutputs(ctx, monitorclient.RegisterResourceOutputsRequest{URN: stack.URN})
	return err
}

func pageNames(n int) []string {
	names := make([]string, n)
	for i := range names {
		names[i] = fmt.Sprintf("p%04d.html", i)
	}
	return names
}

func siteInputs(pages int) property.Map {
	m := map[string]property.Value{}
	for _, n := range pageNames(pages) {
		m[n] = property.New("<p>" + n + "</p>")
	}
	return property.NewMap(map[string]property.Value{
		"indexContent": property.New("<h1>bench</h1>"),
		"pages":        property.New(m),
	})
}

// remoteSite registers one Site as a remote component: one Construct.
func remoteSite(ctx context.Context, c *monitorclient.Client, stack, ref, name string, pages int) (string, property.Map, error) {
	resp, err := c.RegisterResource(ctx, monitorclient.RegisterResourceRequest{
		Type: components.SiteType, Name: name, Parent: stack, Remote: true,
		Providers: map[string]string{"sitekit": ref},
		Inputs:    siteInputs(pages),
	})
	return resp.URN, resp.Outputs, err
}

// floorSite sends what a Site's Construct sends (components.BuildSite): the
// Site and PageSet as local components, the bucket, the index and error
// objects, one object per page and the two components' outputs, with the
// same dependencies between them, every independent registration at once
// (a goroutine each, as the Go SDK does). It does nothing else.
func floorSite(ctx context.Context, c *monitorclient.Client, stack, ref, name string, pages int) (string, property.Map, error) {
	providers := map[string]string{"sitekit": ref}
	site, err := c.RegisterResource(ctx, monitorclient.RegisterResourceRequest{
		Type: components.SiteType, Name: name, Parent: stack, Providers: providers,
	})
	if err != nil {
		return "", property.Map{}, err
	}
	bucket, err := c.RegisterResource(ctx, monitorclient.RegisterResourceRequest{
		Type: components.BucketType, Name: name + "-bucket", Custom: true, Parent: site.URN, Provider: ref,
		Inputs: property.NewMap(map[string]property.Value{
			"labels": property.New(map[string]property.Value{"site": property.New(name)}),
		}),
	})
	if err != nil {
		return "", property.Map{}, err
	}
	bucketDep := []urn.URN{urn.URN(bucket.URN)}
	bucketName := bucket.Outputs.Get("bucketName").WithDependencies(bucketDep)
	object := func(ctx context.Context, parent, name, key string, content property.Value) (monitorclient.RegisterResourceResponse, error) {
		return c.RegisterResource(ctx, monitorclient.RegisterResourceRequest{
			Type: components.ObjectType, Name: name, Custom: true, Parent: parent, Provider: ref,
			Inputs: property.NewMap(map[string]property.Value{
				"bucket": bucketName, "key": property.New(key), "content": content,
				"contentType": property.New("text/html"),
			}),
		})
	}

	var (
		mu        sync.Mutex
		pageDeps  []urn.URN
		pageCount = float64(pages)
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
		ps, err := c.RegisterResource(gctx, monitorclient.RegisterResourceRequest{
			Type: components.PageSetType, Name: psName, Parent: site.URN,
		})
		if err != nil {
			return err
		}
		names := pageNames(pages)
		keys := make([]property.Value, len(names))
		pg, pctx := errgroup.WithContext(gctx)
		for i, n := range names {
			keys[i] = property.New("pages/" + n)
			pg.Go(func() error {
				obj, err := object(pctx, ps.URN, psName+"-"+n, "pages/"+n, property.New("<p>"+n+"</p>"))
				if err == nil {
					mu.Lock()
					pageDeps = append(pageDeps, urn.URN(obj.URN))
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
		bucketID = property.New(bucket.ID)
	}
	outputs := property.NewMap(map[string]property.Value{
		"url":        url.WithDependencies(bucketDep),
		"bucketName": bucketName,
		"pageCount":  property.New(pageCount + 2).WithDependencies(pageDeps),
		"bucket":     property.New(property.ResourceReference{URN: urn.URN(bucket.URN), ID: bucketID}).WithDependencies(bucketDep),
	})
	_, err = c.RegisterResourceOutputs(ctx, monitorclient.RegisterResourceOutputsRequest{URN: site.URN, Outputs: outputs})
	return site.URN, outputs, err
}
