package components

import (
	"context"
	"fmt"

	"github.com/pulumi/pulumi/sdk/v3/go/property"

	"github.com/polyhost/polyhost/host"
	"github.com/polyhost/polyhost/host/diag"
	"github.com/polyhost/polyhost/monitorclient"
)

// MirrorType is the token of Mirror.
const MirrorType = "sitekit:index:Mirror"

// MirrorArgs are the inputs of a Mirror: a reference to the Site it mirrors.
type MirrorArgs struct {
	// The site to mirror.
	Source property.Value `pulumi:"source,type=sitekit:index:Site"`
}

// MirrorOutputs are the outputs of a Mirror.
type MirrorOutputs struct {
	// Address of the mirror's index page.
	URL property.Value `pulumi:"url,type=string"`
	// Address of the source site's index page.
	SourceURL property.Value `pulumi:"sourceUrl,type=string"`
}

// BuildMirror builds a mirror of a Site: its own bucket whose index page
// redirects to the source site. The source is read through the engine
// (getResource).
func BuildMirror(ctx context.Context, c *host.Component, args MirrorArgs) (MirrorOutputs, error) {
	src, err := c.Resolve(ctx, args.Source)
	if err != nil {
		return MirrorOutputs{}, diag.Errorf("source", "%v", err)
	}
	if src.Type != SiteType {
		return MirrorOutputs{}, diag.Errorf("source", "must be a %s, got a %s", SiteType, src.Type)
	}
	sourceURL := property.New(property.Computed)
	if src.Known {
		sourceURL = src.State.Get("url").WithDependencies(args.Source.Dependencies())
	}
	bucket, err := c.Register(ctx, monitorclient.RegisterResourceRequest{
		Type: BucketType, Name: c.Name() + "-bucket", Custom: true,
		Inputs: property.NewMap(map[string]property.Value{
			"labels": property.New(map[string]property.Value{"mirrorOf": property.New(string(src.URN))}),
		}),
	})
	if err != nil {
		return MirrorOutputs{}, err
	}
	redirect := host.Apply(func(v ...property.Value) property.Value {
		return property.New(fmt.Sprintf(`<meta http-equiv="refresh" content="0; url=%s">`, v[0].AsString()))
	}, sourceURL)
	index, err := registerObject(ctx, c, c.Name()+"-index", bucket.Output("bucketName"), "index.html", redirect)
	if err != nil {
		return MirrorOutputs{}, err
	}
	return MirrorOutputs{URL: index.Output("url"), SourceURL: sourceURL}, nil
}
