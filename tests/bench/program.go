package bench

import (
	"context"
	"fmt"
	"time"

	"github.com/pulumi/pulumi/sdk/v3/go/common/providers"
	"github.com/pulumi/pulumi/sdk/v3/go/common/resource/urn"
	"github.com/pulumi/pulumi/sdk/v3/go/property"
	"golang.org/x/sync/errgroup"

	"github.com/polyhost/polyhost/components"
	"github.com/polyhost/polyhost/internal/engine"
	"github.com/polyhost/polyhost/monitorclient"
)

// program is a consumer program written directly against the monitor, so
// no language SDK runs in the measured path. It registers the stack and two
// explicit sitekit providers (so the plugins start before the clock does),
// then Sites with Pages pages each, all at once, as remote components, and
// times that from the first request to the last answer. Calls > 0 then
// calls Site.pageUrl on the first site that many times, one after the
// other, timing each.
type program struct {
	// Package serves the Site: sitekit, or a component host's package.
	Package string
	Sites   int
	Pages   int
	Calls   int

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
	// Two explicit sitekit providers, hence two plugin processes, started
	// in this order: the component provider serves Construct and Call, the
	// children's provider the CRUD of the Site's custom children, which
	// get it through the Site's providers map. So the component provider's
	// CPU and RSS are those of Construct alone, as with a real component
	// package whose children belong to other packages.
	componentRef, err := registerProvider(ctx, c, stack.URN, p.Package, "bench")
	if err != nil {
		return err
	}
	childrenRef, err := registerProvider(ctx, c, stack.URN, "sitekit", "bench-children")
	if err != nil {
		return err
	}

	p.Outputs = make([]property.Map, p.Sites)
	siteURNs := make([]urn.URN, p.Sites)
	start := time.Now()
	g, gctx := errgroup.WithContext(ctx)
	for i := range p.Sites {
		name := "site"
		if p.Sites > 1 {
			name = fmt.Sprintf("site%02d", i)
		}
		g.Go(func() error {
			var err error
			siteURNs[i], p.Outputs[i], err = remoteSite(gctx, c, stack.URN, componentRef, childrenRef, p.Package+":index:Site", name, p.Pages)
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
			Provider: componentRef,
			Args: property.NewMap(map[string]property.Value{
				"__self__": property.New(property.ResourceReference{URN: siteURNs[0]}),
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

// registerProvider registers an explicit provider of pkg (sitekit's with
// mem:// storage) and returns its reference.
func registerProvider(ctx context.Context, c *monitorclient.Client, stack urn.URN, pkg, name string) (providers.Reference, error) {
	inputs := property.Map{}
	if pkg == "sitekit" {
		inputs = property.NewMap(map[string]property.Value{"storageUrl": property.New("mem://")})
	}
	prov, err := c.RegisterResource(ctx, monitorclient.RegisterResourceRequest{
		Type: "pulumi:providers:" + pkg, Name: name, Custom: true, Parent: stack,
		Inputs: inputs,
	})
	if err != nil {
		return providers.Reference{}, err
	}
	return providers.NewReference(prov.URN, prov.ID) // an empty ID is providers.UnknownID
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

// remoteSite registers one Site as a remote component: one Construct, by
// the component provider, whose custom children use the children's.
func remoteSite(ctx context.Context, c *monitorclient.Client, stack urn.URN, componentRef, childrenRef providers.Reference, typ, name string, pages int) (urn.URN, property.Map, error) {
	resp, err := c.RegisterResource(ctx, monitorclient.RegisterResourceRequest{
		Type: typ, Name: name, Parent: stack, Remote: true,
		Provider:        componentRef,
		ResourceOptions: monitorclient.ResourceOptions{Providers: map[string]providers.Reference{"sitekit": childrenRef}},
		Inputs:          siteInputs(pages),
	})
	return resp.URN, resp.Outputs, err
}
