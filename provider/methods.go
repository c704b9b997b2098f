package provider

import (
	"context"

	"github.com/pulumi/pulumi/sdk/v3/go/property"

	"github.com/polyhost/polyhost/host"
	"github.com/polyhost/polyhost/host/diag"
	"github.com/polyhost/polyhost/provider/storage"
)

// BucketEndpointMethod is the token of the provider resource's
// bucketEndpoint method.
const BucketEndpointMethod = "pulumi:providers:" + Name + "/bucketEndpoint"

// BucketEndpointArgs are the arguments of the provider's bucketEndpoint.
type BucketEndpointArgs struct {
	// Name of a bucket, as a Bucket's bucketName output gives it.
	BucketName property.Value `pulumi:"bucketName,type=string"`
}

// BucketEndpointResult is what bucketEndpoint returns.
type BucketEndpointResult struct {
	// Base address of the bucket's objects.
	Endpoint property.Value `pulumi:"endpoint,type=string"` // secret when storageUrl is
}

// BucketEndpoint gives where a bucket of that name lives in this
// provider's storage: the endpoint a Bucket it manages reports, secret
// when storageUrl is.
//
// It is a method of the provider resource, whose state is its
// configuration.
func BucketEndpoint(ctx context.Context, self *host.Component, args BucketEndpointArgs) (BucketEndpointResult, error) {
	if name := args.BucketName; name.IsString() {
		if err := storage.CheckBucketName(name.AsString()); err != nil {
			return BucketEndpointResult{}, diag.Errorf("bucketName", "%v", err)
		}
	}
	root := self.State().Get("storageUrl")
	if root.IsNull() {
		root = property.New(DefaultStorageURL)
	}
	return BucketEndpointResult{Endpoint: host.Apply(func(v ...property.Value) property.Value {
		return property.New(storage.EndpointAt(v[0].AsString(), v[1].AsString()))
	}, root, args.BucketName)}, nil
}
