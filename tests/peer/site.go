package peer

import (
	"fmt"
	"sort"
	"strings"

	"github.com/blang/semver"
	"github.com/pulumi/pulumi/sdk/v3/go/pulumi"
	sdkprovider "github.com/pulumi/pulumi/sdk/v3/go/pulumi/provider"

	"github.com/polyhost/polyhost/components"
	"github.com/polyhost/polyhost/host/diag"
)

// Bucket is a sitekit:index:Bucket child, with the outputs the site uses.
type Bucket struct {
	pulumi.CustomResourceState
	BucketName pulumi.StringOutput `pulumi:"bucketName"`
	Endpoint   pulumi.StringOutput `pulumi:"endpoint"`
}

// BucketObject is a sitekit:index:BucketObject child.
type BucketObject struct {
	pulumi.CustomResourceState
	ETag pulumi.StringOutput `pulumi:"etag"`
	URL  pulumi.StringOutput `pulumi:"url"`
}

// Site is the sitekit:index:Site component, with the outputs of
// components.SiteOutputs.
type Site struct {
	pulumi.ResourceState
	URL        pulumi.StringOutput   `pulumi:"url"`
	BucketName pulumi.StringOutput   `pulumi:"bucketName"`
	PageCount  pulumi.Float64Output  `pulumi:"pageCount"`
	Bucket     pulumi.ResourceOutput `pulumi:"bucket"`
}

// SiteArgs are a Site's inputs (components.SiteArgs).
type SiteArgs struct {
	IndexContent pulumi.StringInput            `pulumi:"indexContent"`
	ErrorContent pulumi.StringInput            `pulumi:"errorContent,optional"`
	Pages        map[string]pulumi.StringInput `pulumi:"pages,optional"`
}

// PageSet is the sitekit:index:PageSet component.
type PageSet struct {
	pulumi.ResourceState
	Keys  pulumi.StringArrayOutput `pulumi:"keys"`
	Count pulumi.Float64Output     `pulumi:"count"`
}

// PageSetArgs are a PageSet's inputs (components.PageSetArgs).
type PageSetArgs struct {
	Bucket pulumi.StringInput            `pulumi:"bucket"`
	Pages  map[string]pulumi.StringInput `pulumi:"pages"`
	Prefix string                        `pulumi:"prefix,optional"`
}

const defaultErrorPage = "<h1>Not found</h1>"

// construct is the provider.ConstructFunc of the peer.
func construct(ctx *pulumi.Context, typ, name string, inputs sdkprovider.ConstructInputs, opts pulumi.ResourceOption) (*sdkprovider.ConstructResult, error) {
	switch typ {
	case components.SiteType:
		var args SiteArgs
		if err := inputs.CopyTo(&args); err != nil {
			return nil, fmt.Errorf("invalid inputs for %s: %w", typ, err)
		}
		site, err := NewSite(ctx, name, args, opts)
		if err != nil {
			return nil, err
		}
		return sdkprovider.NewConstructResult(site)
	case components.PageSetType:
		var args PageSetArgs
		if err := inputs.CopyTo(&args); err != nil {
			return nil, fmt.Errorf("invalid inputs for %s: %w", typ, err)
		}
		ps, err := NewPageSet(ctx, name, args, opts)
		if err != nil {
			return nil, err
		}
		return sdkprovider.NewConstructResult(ps)
	default:
		return nil, fmt.Errorf("unknown component type %q", typ)
	}
}

// NewSite registers a Site the way components.BuildSite does: a bucket, the
// index and error pages, and a nested PageSet holding the other pages.
func NewSite(ctx *pulumi.Context, name string, args SiteArgs, opts ...pulumi.ResourceOption) (*Site, error) {
	site := &Site{}
	if err := ctx.RegisterComponentResource(components.SiteType, name, site, opts...); err != nil {
		return nil, err
	}
	bucket := &Bucket{}
	err := ctx.RegisterResource(components.BucketType, name+"-bucket", pulumi.Map{
		"labels": pulumi.StringMap{"site": pulumi.String(name)},
	}, bucket, pulumi.Parent(site))
	if err != nil {
		return nil, err
	}
	errorContent := args.ErrorContent
	if errorContent == nil {
		errorContent = pulumi.String(defaultErrorPage)
	}
	if _, err := newObject(ctx, site, name+"-index", bucket.BucketName, "index.html", args.IndexContent); err != nil {
		return nil, err
	}
	if _, err := newObject(ctx, site, name+"-error", bucket.BucketName, "error.html", errorContent); err != nil {
		return nil, err
	}
	pages, err := NewPageSet(ctx, name+"-pages", PageSetArgs{Bucket: bucket.BucketName, Pages: args.Pages, Prefix: "pages/"}, pulumi.Parent(site))
	if err != nil {
		return nil, err
	}

	site.URL = bucket.Endpoint.ApplyT(func(e string) string { return e + "/index.html" }).(pulumi.StringOutput)
	site.BucketName = bucket.BucketName
	site.PageCount = pages.Count.ApplyT(func(n float64) float64 { return n + 2 }).(pulumi.Float64Output)
	site.Bucket = pulumi.NewResourceOutput(bucket)
	err = ctx.RegisterResourceOutputs(site, pulumi.Map{
		"url": site.URL, "bucketName": site.BucketName, "pageCount": site.PageCount, "bucket": site.Bucket,
	})
	return site, err
}

// NewPageSet registers a PageSet: one object per page.
func NewPageSet(ctx *pulumi.Context, name string, args PageSetArgs, opts ...pulumi.ResourceOption) (*PageSet, error) {
	ps := &PageSet{}
	if err := ctx.RegisterComponentResource(components.PageSetType, name, ps, opts...); err != nil {
		return nil, err
	}
	names := make([]string, 0, len(args.Pages))
	for n := range args.Pages {
		names = append(names, n)
	}
	sort.Strings(names)
	keys := make(pulumi.StringArray, len(names))
	objects := make([]pulumi.Resource, len(names))
	for i, n := range names {
		keys[i] = pulumi.String(args.Prefix + n)
		obj, err := newObject(ctx, ps, name+"-"+n, args.Bucket, args.Prefix+n, args.Pages[n])
		if err != nil {
			return nil, err
		}
		objects[i] = obj
	}
	ps.Keys = keys.ToStringArrayOutput()
	// Known as soon as the names are, but depending on every page object,
	// like components.BuildPageSet's count.
	ps.Count = pulumi.OutputWithDependencies(ctx.Context(),
		pulumi.Float64(float64(len(names))).ToFloat64Output(), objects...).(pulumi.Float64Output)
	err := ctx.RegisterResourceOutputs(ps, pulumi.Map{"keys": ps.Keys, "count": ps.Count})
	return ps, err
}

func newObject(ctx *pulumi.Context, parent pulumi.Resource, name string, bucket pulumi.StringInput, key string, content pulumi.StringInput) (*BucketObject, error) {
	obj := &BucketObject{}
	err := ctx.RegisterResource(components.BucketObjectType, name, pulumi.Map{
		"bucket":      bucket,
		"key":         pulumi.String(key),
		"content":     content,
		"contentType": pulumi.String("text/html"),
	}, obj, pulumi.Parent(parent))
	return obj, err
}

// PageURLArgs are Site.pageUrl's arguments.
type PageURLArgs struct {
	Page pulumi.StringInput `pulumi:"page"`
}

// URLResult is Site.pageUrl's result.
type URLResult struct {
	URL pulumi.StringOutput `pulumi:"url"`
}

// call is the provider.CallFunc of the peer: Site.pageUrl as
// components.PageURL computes it.
func call(ctx *pulumi.Context, tok string, args sdkprovider.CallArgs) (*sdkprovider.CallResult, error) {
	if tok != components.SitePageURLMethod {
		return nil, fmt.Errorf("unknown method %q", tok)
	}
	var a PageURLArgs
	self, err := args.CopyTo(&a)
	if err != nil {
		return nil, err
	}
	site, ok := self.(*siteState)
	if !ok {
		return &sdkprovider.CallResult{Failures: []sdkprovider.CallFailure{{Property: "__self__", Reason: fmt.Sprintf("want a Site, got %T", self)}}}, nil
	}
	if p, ok := a.Page.(pulumi.String); ok && strings.Contains(string(p), "..") {
		return &sdkprovider.CallResult{Failures: []sdkprovider.CallFailure{{Property: "page", Reason: `must not contain ".."`}}}, nil
	}
	r := pageURL(site.URL, a.Page)
	return sdkprovider.NewCallResult(&r)
}

// PageURL is Site.pageUrl for host/gosdk (tests/bench/cmd/sitekit-gosdk).
func PageURL(ctx *pulumi.Context, self *Site, args PageURLArgs) (URLResult, error) {
	if p, ok := args.Page.(pulumi.String); ok && strings.Contains(string(p), "..") {
		return URLResult{}, diag.Errorf("page", `must not contain ".."`)
	}
	return pageURL(self.URL, args.Page), nil
}

func pageURL(siteURL pulumi.StringOutput, page pulumi.StringInput) URLResult {
	return URLResult{URL: pulumi.All(siteURL, page).ApplyT(func(v []any) string {
		return strings.TrimSuffix(v[0].(string), "index.html") + "pages/" + v[1].(string)
	}).(pulumi.StringOutput)}
}

// siteState is a Site rehydrated from a resource reference (a method's
// __self__): only the outputs methods read.
type siteState struct {
	pulumi.ResourceState
	URL pulumi.StringOutput `pulumi:"url"`
}

// module rehydrates sitekit resources from references, as a generated Go
// SDK's resource module does (through pulumi:pulumi:getResource).
type module struct{}

func (module) Version() semver.Version { return semver.Version{} }

func (module) Construct(ctx *pulumi.Context, name, typ, urn string) (pulumi.Resource, error) {
	var r pulumi.Resource
	switch typ {
	case components.SiteType:
		r = &siteState{}
	case components.BucketType:
		r = &Bucket{}
	case components.BucketObjectType:
		r = &BucketObject{}
	default:
		return nil, fmt.Errorf("unknown resource type %q", typ)
	}
	err := ctx.RegisterResource(typ, name, nil, r, pulumi.URN_(urn))
	return r, err
}

func init() {
	pulumi.RegisterResourceModule("sitekit", "index", module{})
}
