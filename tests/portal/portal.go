package portal

import (
	_ "embed"
	"strings"

	"github.com/pulumi/pulumi/sdk/v3/go/pulumi"

	"github.com/polyhost/polyhost/host"
	"github.com/polyhost/polyhost/host/gosdk"
	"github.com/polyhost/polyhost/sdk/go/sitekit"
)

// Schema is the portal package schema, generated from the Go types of
// [Registrations] and schema.overlay.yaml (cmd/gen-schema; TestSchemaIsGenerated
// fails when it is stale).
//
//go:embed schema.yaml
var Schema []byte

//go:generate go run ./cmd/gen-schema -o schema.yaml -overlay schema.overlay.yaml

// PortalArgs are a Portal's inputs.
type PortalArgs struct {
	// The landing page's heading.
	Title pulumi.StringInput `pulumi:"title"`
	// The site to quote and link.
	Neighbour *sitekit.Site `pulumi:"neighbour"`
}

// Portal is the portal:index:Portal component.
type Portal struct {
	pulumi.ResourceState
	// Address of the landing page.
	URL pulumi.StringOutput `pulumi:"url"`
	// The neighbour's index page, read with sitekit's getObject.
	Quoted pulumi.StringOutput `pulumi:"quoted"`
	// The neighbour's about page, from its pageUrl method.
	NeighbourPage pulumi.StringOutput `pulumi:"neighbourPage"`
	// The portal's own site.
	Site sitekit.SiteOutput `pulumi:"site"`
}

// NewPortal builds a site with a landing page that quotes and links a
// neighbouring site: a sitekit Site whose index quotes the neighbour's
// index page and links its about page.
func NewPortal(ctx *pulumi.Context, name string, args *PortalArgs, opts ...pulumi.ResourceOption) (*Portal, error) {
	p := &Portal{}
	if err := ctx.RegisterComponentResource("portal:index:Portal", name, p, opts...); err != nil {
		return nil, err
	}
	// The function is called directly, once the bucket's name is known,
	// rather than in its output form: the real engine answers an output-form
	// call that depends on a component registered by Pulumi YAML (which
	// registers remote components as custom) with unknown, even in an update.
	// Parent(p): with the providers the program gave the portal.
	quoted := args.Neighbour.BucketName.ApplyT(func(bucket string) (string, error) {
		obj, err := sitekit.GetObject(ctx, &sitekit.GetObjectArgs{Bucket: bucket, Key: "index.html"}, pulumi.Parent(p))
		if err != nil {
			return "", err
		}
		return obj.Content, nil
	}).(pulumi.StringOutput)
	about, err := args.Neighbour.PageUrl(ctx, &sitekit.SitePageUrlArgs{Page: pulumi.String("about.html")})
	if err != nil {
		return nil, err
	}
	site, err := sitekit.NewSite(ctx, name+"-site", &sitekit.SiteArgs{
		IndexContent: pulumi.Sprintf("<h1>%s</h1><blockquote>%s</blockquote><a href=%q>about</a>", args.Title, quoted, about.Url()),
	}, pulumi.Parent(p))
	if err != nil {
		return nil, err
	}
	p.URL, p.Quoted, p.NeighbourPage = site.Url, quoted, about.Url()
	p.Site = site.ToSiteOutput()
	return p, ctx.RegisterResourceOutputs(p, pulumi.Map{
		"url": p.URL, "quoted": p.Quoted, "neighbourPage": p.NeighbourPage, "site": p.Site,
	})
}

type pageURLArgs struct {
	// The page's file name.
	Page pulumi.StringInput `pulumi:"page"`
}

type pageURLResult struct {
	// The page's address.
	URL pulumi.StringOutput `pulumi:"url"`
}

// PageURL is the address of a page of the portal's site (Portal.pageUrl).
func PageURL(ctx *pulumi.Context, self *Portal, args pageURLArgs) (pageURLResult, error) {
	url := pulumi.All(self.URL, args.Page).ApplyT(func(v []any) string {
		return strings.TrimSuffix(v[0].(string), "index.html") + v[1].(string)
	}).(pulumi.StringOutput)
	return pageURLResult{URL: url}, nil
}

// Options serve the portal package, with its generated schema.
func Options(version string) []host.Option {
	return append([]host.Option{host.WithSchema(Schema)}, Registrations(version)...)
}

// Registrations are the package without its schema: their Go types make
// it.
func Registrations(version string) []host.Option {
	return []host.Option{
		host.WithVersion(version),
		gosdk.Component("portal:index:Portal", NewPortal),
		gosdk.Method("portal:index:Portal/pageUrl", PageURL),
		// Fields of type *sitekit.Site (and sitekit.SiteOutput) refer to
		// sitekit's Site.
		host.WithResourceRef[sitekit.Site]("/sitekit/v0.1.0/schema.json#/resources/sitekit:index:Site"),
		host.WithRawResource[GateArgs, GateArgs](GateType, Gate{}),
		host.WithComponent("portal:index:RawPortal", BuildRawPortal),
		host.WithMethod("portal:index:RawPortal/pageUrl", RawPageURL),
		host.WithComponent("portal:index:Door", BuildDoor),
		host.WithMethod("portal:index:Door/openGate", DoorGate),
	}
}
