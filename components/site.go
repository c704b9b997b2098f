package components

import (
	"context"
	"fmt"
	"maps"
	"slices"
	"sort"
	"strings"
	"unicode"

	"github.com/pulumi/pulumi/sdk/v3/go/property"

	"github.com/polyhost/polyhost/host"
	"github.com/polyhost/polyhost/host/diag"
	"github.com/polyhost/polyhost/monitorclient"
)

// Type tokens of the sitekit package.
const (
	SiteType         = "sitekit:index:Site"
	PageSetType      = "sitekit:index:PageSet"
	BucketType       = "sitekit:index:Bucket"
	BucketObjectType = "sitekit:index:BucketObject"
)

// SiteArgs are the inputs of a Site. Contents are raw values so that secret
// or unknown page bodies pass to the objects unchanged.
type SiteArgs struct {
	// Body of index.html.
	IndexContent property.Value `pulumi:"indexContent,type=string"`
	// Body of error.html. Defaults to a short "not found" page.
	ErrorContent property.Value `pulumi:"errorContent,optional,type=string"`
	// Further pages, file name to body.
	Pages map[string]property.Value `pulumi:"pages,optional,type=map[string]string"`
}

// SiteOutputs are the outputs of a Site.
type SiteOutputs struct {
	// Address of the site's index page.
	URL property.Value `pulumi:"url,type=string"`
	// Name of the bucket holding the site.
	BucketName property.Value `pulumi:"bucketName,type=string"`
	// How many pages the site serves, index and error page included.
	PageCount property.Value `pulumi:"pageCount,type=integer"`
	// The site's bucket, as a resource. It is a resource reference, so
	// programs get a real Bucket resource object.
	Bucket property.Value `pulumi:"bucket,type=sitekit:index:Bucket"`
}

const defaultErrorPage = "<h1>Not found</h1>"

// BuildSite builds a static website: a bucket, an index page, an error
// page and a set of further pages (a nested PageSet component).
func BuildSite(ctx context.Context, c *host.Component, args SiteArgs) (SiteOutputs, error) {
	if err := checkPageNames("pages", args.Pages); err != nil {
		return SiteOutputs{}, err
	}
	bucket, err := c.Register(ctx, monitorclient.RegisterResourceRequest{
		Type: BucketType, Name: c.Name() + "-bucket", Custom: true,
		Inputs: property.NewMap(map[string]property.Value{
			"labels": property.New(map[string]property.Value{"site": property.New(c.Name())}),
		}),
	})
	if err != nil {
		return SiteOutputs{}, err
	}
	bucketName := bucket.Output("bucketName")
	errorContent := args.ErrorContent
	if errorContent.IsNull() {
		errorContent = property.New(defaultErrorPage)
	}

	var pages PageSetOutputs
	g, gctx := c.Group(ctx)
	g.Go(func() error {
		_, err := registerObject(gctx, c, c.Name()+"-index", bucketName, "index.html", args.IndexContent)
		return err
	})
	g.Go(func() error {
		_, err := registerObject(gctx, c, c.Name()+"-error", bucketName, "error.html", errorContent)
		return err
	})
	pagesInput := c.Inputs().Get("pages")
	if !pagesInput.IsComputed() {
		g.Go(func() error {
			var err error
			pages, err = host.Nested(gctx, c, PageSetType, c.Name()+"-pages",
				PageSetArgs{Bucket: bucketName, Pages: args.Pages, Prefix: "pages/"}, BuildPageSet)
			return err
		})
	}
	if err := g.Wait(); err != nil {
		return SiteOutputs{}, err
	}

	count := property.New(property.Computed)
	if !pagesInput.IsComputed() {
		count = host.Apply(func(v ...property.Value) property.Value {
			return property.New(v[0].AsNumber() + 2)
		}, pages.Count)
	}
	return SiteOutputs{
		URL: host.Apply(func(v ...property.Value) property.Value {
			return property.New(v[0].AsString() + "/index.html")
		}, bucket.Output("endpoint")),
		BucketName: bucketName,
		PageCount:  count,
		Bucket:     bucket.Reference(),
	}, nil
}

// PageSetArgs are the inputs of a PageSet.
type PageSetArgs struct {
	// Name of the bucket to store the pages in.
	Bucket property.Value `pulumi:"bucket,type=string"`
	// File name to body.
	Pages map[string]property.Value `pulumi:"pages,type=map[string]string"`
	// Key prefix for every page.
	Prefix string `pulumi:"prefix,optional"`
}

// PageSetOutputs are the outputs of a PageSet.
type PageSetOutputs struct {
	// Object keys of the pages, sorted.
	Keys []string `pulumi:"keys"`
	// Number of pages.
	Count property.Value `pulumi:"count,type=integer"`
}

// BuildPageSet builds a set of pages stored as objects in one bucket.
func BuildPageSet(ctx context.Context, c *host.Component, args PageSetArgs) (PageSetOutputs, error) {
	// The objects are registered concurrently.
	if err := checkPageNames("pages", args.Pages); err != nil {
		return PageSetOutputs{}, err
	}
	names := make([]string, 0, len(args.Pages))
	for name := range args.Pages {
		names = append(names, name)
	}
	sort.Strings(names)
	keys := make([]string, len(names))
	deps := make([]property.Value, len(names))
	g, gctx := c.Group(ctx)
	for i, name := range names {
		keys[i] = args.Prefix + name
		g.Go(func() error {
			obj, err := registerObject(gctx, c, fmt.Sprintf("%s-%s", c.Name(), name), args.Bucket, keys[i], args.Pages[name])
			deps[i] = obj.Output("etag")
			return err
		})
	}
	if err := g.Wait(); err != nil {
		return PageSetOutputs{}, err
	}
	// The count is known as soon as the names are, but it depends on every
	// page object, so a consumer waiting on it waits for the pages.
	count := host.Apply(func(...property.Value) property.Value {
		return property.New(float64(len(names)))
	}, withoutUnknowns(deps)...)
	return PageSetOutputs{Keys: keys, Count: count}, nil
}

// checkPageNames refuses page names that are not plain file names, as
// addPage does: a page is stored under its set's prefix, and a slash or
// ".." would put it elsewhere in the bucket.
func checkPageNames(path string, pages map[string]property.Value) error {
	ie := &diag.InputError{Message: "invalid page names"}
	for _, name := range slices.Sorted(maps.Keys(pages)) {
		if !validPageName(name) {
			ie.Failures = append(ie.Failures, diag.CheckFailure{
				Property: fmt.Sprintf("%s[%q]", path, name), Reason: pageNameRule,
			})
		}
	}
	if len(ie.Failures) > 0 {
		return ie
	}
	return nil
}

const pageNameRule = "must be a file name: not empty or \".\", at most 255 bytes, without slashes, \"..\" or control characters"

func validPageName(name string) bool {
	return name != "" && name != "." && len(name) <= 255 && !strings.ContainsAny(name, "/\\") &&
		!strings.Contains(name, "..") && !strings.ContainsFunc(name, unicode.IsControl)
}

// withoutUnknowns keeps the dependencies of vals but not their values, so
// an Apply over them is never unknown for their sake.
func withoutUnknowns(vals []property.Value) []property.Value {
	out := make([]property.Value, len(vals))
	for i, v := range vals {
		out[i] = property.New(property.Null).WithDependencies(v.Dependencies())
	}
	return out
}

func registerObject(ctx context.Context, c *host.Component, name string, bucket property.Value, key string, content property.Value) (monitorclient.RegisterResourceResponse, error) {
	return c.Register(ctx, monitorclient.RegisterResourceRequest{
		Type: BucketObjectType, Name: name, Custom: true,
		Inputs: property.NewMap(map[string]property.Value{
			"bucket":      bucket,
			"key":         property.New(key),
			"content":     content,
			"contentType": property.New("text/html"),
		}),
	})
}
