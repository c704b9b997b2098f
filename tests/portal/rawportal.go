package portal

import (
	"context"
	"fmt"
	"strings"

	"github.com/pulumi/pulumi/sdk/v3/go/common/resource/urn"
	"github.com/pulumi/pulumi/sdk/v3/go/property"

	"github.com/polyhost/polyhost/host"
	"github.com/polyhost/polyhost/host/diag"
	"github.com/polyhost/polyhost/monitorclient"
	"github.com/polyhost/polyhost/sdk/go/sitekit"
)

// RawPortalArgs are a RawPortal's inputs, as a Portal's.
type RawPortalArgs struct {
	// The landing page's heading.
	Title property.Value `pulumi:"title,type=string"`
	// The site to quote and link.
	Neighbour host.Ref[sitekit.Site] `pulumi:"neighbour"`
}

// RawPortalOutputs are a RawPortal's outputs, as a Portal's.
type RawPortalOutputs struct {
	// Address of the landing page.
	URL property.Value `pulumi:"url,type=string"`
	// The neighbour's index page, read with sitekit's getObject.
	Quoted property.Value `pulumi:"quoted,type=string"`
	// The neighbour's about page, from its pageUrl method.
	NeighbourPage property.Value `pulumi:"neighbourPage,type=string"`
	// The portal's own site.
	Site host.Ref[sitekit.Site] `pulumi:"site"`
}

// BuildRawPortal builds what NewPortal builds, on the raw path
// (portal:index:RawPortal): a sitekit Site whose index quotes the
// neighbour's index page and links its about page, with
// Component.Register (the nested Site, a remote component),
// Component.Invoke (sitekit's getObject) and Component.Call (pageUrl on
// the neighbour).
func BuildRawPortal(ctx context.Context, c *host.Component, args RawPortalArgs) (RawPortalOutputs, error) {
	neighbour, err := c.Resolve(ctx, args.Neighbour.Value)
	if err != nil {
		return RawPortalOutputs{}, diag.Errorf("neighbour", "%v", err)
	}
	bucket := property.New(property.Computed)
	if neighbour.Known {
		bucket = neighbour.State.Get("bucketName")
	}
	// As Portal does: called once the bucket's name is known, not held
	// back on the neighbour (no DependsOn), which the real engine would
	// answer with unknown for a Site that Pulumi YAML registered.
	got, err := c.Invoke(ctx, monitorclient.InvokeRequest{
		Token:     "sitekit:index:getObject",
		Args:      property.NewMap(map[string]property.Value{"bucket": bucket, "key": property.New("index.html")}),
		DependsOn: []urn.URN{},
	})
	if err != nil {
		return RawPortalOutputs{}, err
	}
	quoted := property.New(property.Computed)
	if !got.Unknown {
		quoted = got.Return.Get("content")
	}
	about, err := c.Call(ctx, monitorclient.CallRequest{
		Token: "sitekit:index:Site/pageUrl",
		Args:  property.NewMap(map[string]property.Value{"__self__": args.Neighbour.Value, "page": property.New("about.html")}),
	})
	if err != nil {
		return RawPortalOutputs{}, err
	}
	aboutURL := property.New(property.Computed)
	if !about.Unknown {
		aboutURL = about.Return.Get("url")
	}
	index := host.Apply(func(v ...property.Value) property.Value {
		return property.New(fmt.Sprintf("<h1>%s</h1><blockquote>%s</blockquote><a href=%q>about</a>", v[0].AsString(), v[1].AsString(), v[2].AsString()))
	}, args.Title, quoted, aboutURL)
	site, err := c.Register(ctx, monitorclient.RegisterResourceRequest{
		Type: "sitekit:index:Site", Name: c.Name() + "-site", Remote: true,
		Inputs: property.NewMap(map[string]property.Value{"indexContent": index}),
	})
	if err != nil {
		return RawPortalOutputs{}, err
	}
	ref := property.New(property.ResourceReference{URN: site.URN}).WithDependencies([]urn.URN{site.URN})
	return RawPortalOutputs{URL: site.Output("url"), Quoted: quoted, NeighbourPage: aboutURL, Site: host.Ref[sitekit.Site]{Value: ref}}, nil
}

type rawPageURLArgs struct {
	// The page's file name.
	Page property.Value `pulumi:"page,type=string"`
}

type rawPageURLResult struct {
	// The page's address.
	URL property.Value `pulumi:"url,type=string"`
}

// RawPageURL is the address of a page of the portal's site
// (RawPortal.pageUrl), as Portal.pageUrl.
func RawPageURL(_ context.Context, self *host.Component, args rawPageURLArgs) (rawPageURLResult, error) {
	url := host.Apply(func(v ...property.Value) property.Value {
		return property.New(strings.TrimSuffix(v[0].AsString(), "index.html") + v[1].AsString())
	}, self.State().Get("url"), args.Page)
	return rawPageURLResult{URL: url}, nil
}
