package sitekit

import (
	"reflect"

	"github.com/pulumi/pulumi/sdk/v3/go/pulumi"
)

// BucketArgs are the inputs of a Bucket.
type BucketArgs struct {
	Labels pulumi.StringMapInput
}

type bucketArgs struct {
	Labels map[string]string `pulumi:"labels"`
}

// ElementType implements pulumi.Input.
func (BucketArgs) ElementType() reflect.Type { return reflect.TypeOf((*bucketArgs)(nil)).Elem() }

// NewBucket creates a Bucket.
func NewBucket(ctx *pulumi.Context, name string, args *BucketArgs, opts ...pulumi.ResourceOption) (*Bucket, error) {
	if args == nil {
		args = &BucketArgs{}
	}
	opts = append([]pulumi.ResourceOption{pulumi.AdditionalSecretOutputs([]string{"accessKey"})}, opts...)
	var r Bucket
	if err := ctx.RegisterResource("sitekit:index:Bucket", name, args, &r, opts...); err != nil {
		return nil, err
	}
	return &r, nil
}

// BucketObject is one object in a bucket.
type BucketObject struct {
	pulumi.CustomResourceState

	Bucket       pulumi.StringOutput `pulumi:"bucket"`
	Key          pulumi.StringOutput `pulumi:"key"`
	Content      pulumi.StringOutput `pulumi:"content"`
	ContentType  pulumi.StringOutput `pulumi:"contentType"`
	CacheSeconds pulumi.IntOutput    `pulumi:"cacheSeconds"`
	Etag         pulumi.StringOutput `pulumi:"etag"`
	Size         pulumi.IntOutput    `pulumi:"size"`
	Url          pulumi.StringOutput `pulumi:"url"`
}

// BucketObjectArgs are the inputs of a BucketObject.
type BucketObjectArgs struct {
	Bucket       pulumi.StringInput
	Key          pulumi.StringInput
	Content      pulumi.StringInput
	ContentType  pulumi.StringPtrInput
	CacheSeconds pulumi.IntPtrInput
}

type bucketObjectArgs struct {
	Bucket       string  `pulumi:"bucket"`
	Key          string  `pulumi:"key"`
	Content      string  `pulumi:"content"`
	ContentType  *string `pulumi:"contentType"`
	CacheSeconds *int    `pulumi:"cacheSeconds"`
}

// ElementType implements pulumi.Input.
func (BucketObjectArgs) ElementType() reflect.Type {
	return reflect.TypeOf((*bucketObjectArgs)(nil)).Elem()
}

// NewBucketObject creates a BucketObject.
func NewBucketObject(ctx *pulumi.Context, name string, args *BucketObjectArgs, opts ...pulumi.ResourceOption) (*BucketObject, error) {
	var r BucketObject
	if err := ctx.RegisterResource("sitekit:index:BucketObject", name, args, &r, opts...); err != nil {
		return nil, err
	}
	return &r, nil
}

// Provider is an explicitly configured sitekit provider.
type Provider struct {
	pulumi.ProviderResourceState
}

// ProviderArgs configure a Provider.
type ProviderArgs struct {
	StorageUrl  pulumi.StringPtrInput
	AccessToken pulumi.StringPtrInput
}

type providerArgs struct {
	StorageUrl  *string `pulumi:"storageUrl"`
	AccessToken *string `pulumi:"accessToken"`
}

// ElementType implements pulumi.Input.
func (ProviderArgs) ElementType() reflect.Type { return reflect.TypeOf((*providerArgs)(nil)).Elem() }

// NewProvider creates an explicit sitekit provider.
func NewProvider(ctx *pulumi.Context, name string, args *ProviderArgs, opts ...pulumi.ResourceOption) (*Provider, error) {
	if args == nil {
		args = &ProviderArgs{}
	}
	if args.AccessToken != nil {
		args.AccessToken = pulumi.ToSecret(args.AccessToken).(pulumi.StringPtrInput)
	}
	var r Provider
	if err := ctx.RegisterResource("pulumi:providers:sitekit", name, args, &r, opts...); err != nil {
		return nil, err
	}
	return &r, nil
}
