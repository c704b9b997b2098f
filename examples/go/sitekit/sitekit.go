package sitekit

import (
	"reflect"

	"github.com/blang/semver"
	"github.com/pulumi/pulumi/sdk/v3/go/pulumi"
)

// Site is a static website: a bucket, an index and error page, and pages.
type Site struct {
	pulumi.ResourceState

	Url        pulumi.StringOutput `pulumi:"url"`
	BucketName pulumi.StringOutput `pulumi:"bucketName"`
	PageCount  pulumi.IntOutput    `pulumi:"pageCount"`
	Bucket     BucketOutput        `pulumi:"bucket"`
}

// SiteArgs are the inputs of a Site.
type SiteArgs struct {
	IndexContent pulumi.StringInput
	ErrorContent pulumi.StringPtrInput
	Pages        pulumi.StringMapInput
}

type siteArgs struct {
	IndexContent string            `pulumi:"indexContent"`
	ErrorContent *string           `pulumi:"errorContent"`
	Pages        map[string]string `pulumi:"pages"`
}

// ElementType implements pulumi.Input.
func (SiteArgs) ElementType() reflect.Type { return reflect.TypeOf((*siteArgs)(nil)).Elem() }

// NewSite builds a Site in the sitekit provider.
func NewSite(ctx *pulumi.Context, name string, args *SiteArgs, opts ...pulumi.ResourceOption) (*Site, error) {
	var r Site
	if err := ctx.RegisterRemoteComponentResource("sitekit:index:Site", name, args, &r, opts...); err != nil {
		return nil, err
	}
	return &r, nil
}

// SitePageUrlArgs are the arguments of Site.PageUrl.
type SitePageUrlArgs struct {
	Page pulumi.StringInput
}

type sitePageUrlArgs struct {
	Page string `pulumi:"page"`
}

// ElementType implements pulumi.Input.
func (SitePageUrlArgs) ElementType() reflect.Type {
	return reflect.TypeOf((*sitePageUrlArgs)(nil)).Elem()
}

// URLResult is the result of Site.PageUrl and Site.AddPage.
type URLResult struct {
	Url string `pulumi:"url"`
}

// URLResultOutput is an output of URLResult.
type URLResultOutput struct{ *pulumi.OutputState }

// ElementType implements pulumi.Output.
func (URLResultOutput) ElementType() reflect.Type { return reflect.TypeOf((*URLResult)(nil)).Elem() }

// Url is the address in the result.
func (o URLResultOutput) Url() pulumi.StringOutput {
	return o.ApplyT(func(r URLResult) string { return r.Url }).(pulumi.StringOutput)
}

// PageUrl asks the provider for one page's address.
func (r *Site) PageUrl(ctx *pulumi.Context, args *SitePageUrlArgs) (pulumi.StringOutput, error) {
	out, err := ctx.Call("sitekit:index:Site/pageUrl", args, URLResultOutput{}, r)
	if err != nil {
		return pulumi.StringOutput{}, err
	}
	return out.(URLResultOutput).Url(), nil
}

// SiteAddPageArgs are the arguments of Site.AddPage.
type SiteAddPageArgs struct {
	Name    pulumi.StringInput
	Content pulumi.StringInput
}

type siteAddPageArgs struct {
	Name    string `pulumi:"name"`
	Content string `pulumi:"content"`
}

// ElementType implements pulumi.Input.
func (SiteAddPageArgs) ElementType() reflect.Type {
	return reflect.TypeOf((*siteAddPageArgs)(nil)).Elem()
}

// AddPage stores one more page; the page becomes a child of the site.
func (r *Site) AddPage(ctx *pulumi.Context, args *SiteAddPageArgs) (pulumi.StringOutput, error) {
	out, err := ctx.Call("sitekit:index:Site/addPage", args, URLResultOutput{}, r)
	if err != nil {
		return pulumi.StringOutput{}, err
	}
	return out.(URLResultOutput).Url(), nil
}

// Mirror is a bucket whose index page redirects to a source Site.
type Mirror struct {
	pulumi.ResourceState

	Url       pulumi.StringOutput `pulumi:"url"`
	SourceUrl pulumi.StringOutput `pulumi:"sourceUrl"`
}

// SiteInput is an input of *Site.
type SiteInput interface {
	pulumi.Input
	ToSiteOutput() SiteOutput
}

// ElementType implements pulumi.Input.
func (*Site) ElementType() reflect.Type { return reflect.TypeOf((**Site)(nil)).Elem() }

// ToSiteOutput implements SiteInput.
func (r *Site) ToSiteOutput() SiteOutput { return pulumi.ToOutput(r).(SiteOutput) }

// SiteOutput is an output of *Site.
type SiteOutput struct{ *pulumi.OutputState }

// ElementType implements pulumi.Output.
func (SiteOutput) ElementType() reflect.Type { return reflect.TypeOf((**Site)(nil)).Elem() }

// MirrorArgs are the inputs of a Mirror.
type MirrorArgs struct {
	Source SiteInput
}

type mirrorArgs struct {
	Source *Site `pulumi:"source"`
}

// ElementType implements pulumi.Input.
func (MirrorArgs) ElementType() reflect.Type { return reflect.TypeOf((*mirrorArgs)(nil)).Elem() }

// NewMirror builds a Mirror of a Site.
func NewMirror(ctx *pulumi.Context, name string, args *MirrorArgs, opts ...pulumi.ResourceOption) (*Mirror, error) {
	var r Mirror
	if err := ctx.RegisterRemoteComponentResource("sitekit:index:Mirror", name, args, &r, opts...); err != nil {
		return nil, err
	}
	return &r, nil
}

// Bucket is a storage bucket. Sites expose theirs as Site.Bucket.
type Bucket struct {
	pulumi.CustomResourceState

	BucketName pulumi.StringOutput    `pulumi:"bucketName"`
	Endpoint   pulumi.StringOutput    `pulumi:"endpoint"`
	Labels     pulumi.StringMapOutput `pulumi:"labels"`
	AccessKey  pulumi.StringOutput    `pulumi:"accessKey"`
}

// BucketInput is an input of *Bucket.
type BucketInput interface {
	pulumi.Input
	ToBucketOutput() BucketOutput
}

// ElementType implements pulumi.Input.
func (*Bucket) ElementType() reflect.Type { return reflect.TypeOf((**Bucket)(nil)).Elem() }

// ToBucketOutput implements BucketInput.
func (r *Bucket) ToBucketOutput() BucketOutput {
	return pulumi.ToOutput(r).(BucketOutput)
}

// BucketOutput is an output of *Bucket.
type BucketOutput struct{ *pulumi.OutputState }

// ElementType implements pulumi.Output.
func (BucketOutput) ElementType() reflect.Type { return reflect.TypeOf((**Bucket)(nil)).Elem() }

// BucketName of the bucket.
func (o BucketOutput) BucketName() pulumi.StringOutput {
	return o.ApplyT(func(b *Bucket) pulumi.StringOutput { return b.BucketName }).(pulumi.StringOutput)
}

// GetObjectArgs are the arguments of GetObject.
type GetObjectArgs struct {
	Bucket string `pulumi:"bucket"`
	Key    string `pulumi:"key"`
}

// GetObjectResult is what GetObject returns.
type GetObjectResult struct {
	Content     string `pulumi:"content"`
	ContentType string `pulumi:"contentType"`
	Etag        string `pulumi:"etag"`
}

// GetObject reads an object back from storage.
func GetObject(ctx *pulumi.Context, args *GetObjectArgs, opts ...pulumi.InvokeOption) (*GetObjectResult, error) {
	var r GetObjectResult
	if err := ctx.Invoke("sitekit:index:getObject", args, &r, opts...); err != nil {
		return nil, err
	}
	return &r, nil
}

// module rehydrates sitekit resources from references the engine sends.
type module struct{ version semver.Version }

func (m *module) Version() semver.Version { return m.version }

func (m *module) Construct(ctx *pulumi.Context, name, typ, urn string) (pulumi.Resource, error) {
	var r pulumi.Resource
	switch typ {
	case "sitekit:index:Bucket":
		r = &Bucket{}
	case "sitekit:index:Site":
		r = &Site{}
	default:
		return nil, nil
	}
	return r, ctx.RegisterResource(typ, name, nil, r, pulumi.URN_(urn))
}

func init() {
	pulumi.RegisterOutputType(URLResultOutput{})
	pulumi.RegisterOutputType(BucketOutput{})
	pulumi.RegisterOutputType(SiteOutput{})
	pulumi.RegisterResourceModule("sitekit", "index", &module{semver.MustParse("0.1.0")})
}
