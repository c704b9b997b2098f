package provider

import (
	"context"
	"errors"

	"github.com/polyhost/polyhost/host/diag"
	"github.com/polyhost/polyhost/provider/storage"
)

// GetObjectToken is the token of the getObject function.
const GetObjectToken = "sitekit:index:getObject"

// GetObjectArgs are getObject's arguments.
type GetObjectArgs struct {
	// Name of the bucket.
	Bucket string `pulumi:"bucket"`
	// Object key.
	Key string `pulumi:"key"`
}

// GetObjectResult is what getObject returns.
type GetObjectResult struct {
	// Object body.
	Content string `pulumi:"content"`
	// Media type.
	ContentType string `pulumi:"contentType"`
	// Hash of the content.
	ETag string `pulumi:"etag"`
}

// getObject reads an object back from storage.
func (b *backend) getObject(ctx context.Context, args GetObjectArgs) (GetObjectResult, error) {
	st, release, err := b.get()
	if err != nil {
		return GetObjectResult{}, err
	}
	defer release()
	if err := checkObjectNames(args.Bucket, args.Key, "bucket", "key"); err != nil {
		return GetObjectResult{}, err
	}
	o, err := st.GetObject(ctx, args.Bucket, args.Key)
	if errors.Is(err, storage.ErrNotFound) {
		// The key is not repeated: it may be secret, and a program's
		// language host may pass a secret argument as plain text.
		return GetObjectResult{}, diag.Errorf("key", "no object with that key in bucket %q", args.Bucket)
	}
	if err != nil {
		return GetObjectResult{}, err
	}
	return GetObjectResult{Content: o.Content, ContentType: o.ContentType, ETag: storage.ETag(o.Content)}, nil
}
