package provider

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"strings"
	"sync"

	"github.com/pulumi/pulumi/sdk/v3/go/common/resource"
	"github.com/pulumi/pulumi/sdk/v3/go/property"

	"github.com/polyhost/polyhost/host"
	"github.com/polyhost/polyhost/host/custom"
	"github.com/polyhost/polyhost/host/diag"
	"github.com/polyhost/polyhost/provider/storage"
)

// backend is the storage the provider instance was configured with.
type backend struct {
	mu    sync.Mutex
	store *store
}

// store is an opened storage root; secretURL says its storageUrl was
// secret, and so is every address built from it.
type store struct {
	*storage.Store
	secretURL bool
	// users are the requests holding the store (backend.get); a store a
	// reconfigure retired closes when the last one releases it.
	users   int
	retired bool
}

// address is a bucket's endpoint, or with a key an object's url: secret
// when the storage URL is, or secretName says the bucket or key is.
func (st *store) address(bucket, key string, secretName bool) property.Value {
	a := st.Endpoint(bucket)
	if key != "" {
		a += "/" + key
	}
	return property.New(a).WithSecret(st.secretURL || secretName)
}

// Config is the provider's configuration: its variables, set with
// `pulumi config set sitekit:<name>`, and its inputs.
type Config struct {
	// Where buckets live, as a gocloud.dev/blob URL prefix: `file:///abs/dir`,
	// `file://./dir` (relative to the program's directory) or `mem://`.
	// Changing it replaces the provider and every resource it manages,
	// because the old objects cannot be reached from the new place.
	StorageURL property.Value `pulumi:"storageUrl,optional,type=string"` // unknown in some previews
	// Credential for the storage backend. Changing it updates the provider
	// in place.
	AccessToken string `pulumi:"accessToken,optional,secret"`
}

// configure opens the storage named by the storageUrl configuration. During
// a preview the URL may be unknown; the store then stays closed, which is
// fine because previews do not reach the backend.
func (b *backend) configure(ctx context.Context, config Config) error {
	u := config.StorageURL
	switch {
	case u.IsComputed():
		return nil
	case !u.IsString():
		return diag.Errorf("storageUrl", "must be a string")
	}
	st, err := storage.Open(ctx, u.AsString())
	if err != nil {
		return diag.Errorf("storageUrl", "%v", err)
	}
	b.mu.Lock()
	old := b.store
	b.store = &store{Store: st, secretURL: u.Secret()}
	closeOld := old != nil && old.users == 0
	if old != nil {
		old.retired = true
	}
	b.mu.Unlock()
	if closeOld {
		_ = old.Close()
	}
	return nil
}

// get is the store a request works on, and the release it must call when
// done: a reconfigure closes the store it replaces only once no request
// holds it.
func (b *backend) get() (*store, func(), error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.store == nil {
		return nil, nil, errors.New("the provider has no storage configured (storageUrl)")
	}
	st := b.store
	st.users++
	return st, func() { b.release(st) }, nil
}

func (b *backend) release(st *store) {
	b.mu.Lock()
	st.users--
	closeNow := st.retired && st.users == 0
	b.mu.Unlock()
	if closeNow {
		_ = st.Close()
	}
}

// Bucket is a storage bucket.
//
// Its name gets a random suffix at create time, so it is only known after
// create.
type Bucket struct{ b *backend }

var _ interface {
	custom.TypedResource[BucketArgs, BucketState]
	custom.TypedResourceWithRead[BucketArgs, BucketState]
	custom.TypedResourceWithUpdate[BucketArgs, BucketState]
	custom.TypedResourceWithDelete[BucketArgs, BucketState]
} = Bucket{}

// BucketArgs are a Bucket's inputs.
type BucketArgs struct {
	// Free-form labels.
	Labels map[string]string `pulumi:"labels,optional"`
}

// BucketState is a Bucket's outputs.
type BucketState struct {
	// The bucket's name, derived from the resource name at create time.
	BucketName string `pulumi:"bucketName"`
	// Base address of the bucket's objects.
	Endpoint property.Value `pulumi:"endpoint,type=string"` // secret when storageUrl is
	// Free-form labels, as given.
	Labels map[string]string `pulumi:"labels,optional"`
	// Key for reading the bucket, generated when the bucket is created.
	// Always secret.
	AccessKey string `pulumi:"accessKey,secret"`
}

func (r Bucket) state(st *store, info storage.BucketInfo) BucketState {
	return BucketState{BucketName: info.Name, Endpoint: st.address(info.Name, "", false), Labels: info.Labels, AccessKey: info.AccessKey}
}

// bucketID checks a bucket's ID (an imported one may be anything).
func bucketID(id resource.ID) (string, error) {
	if err := storage.CheckBucketName(string(id)); err != nil {
		return "", diag.Errorf("id", "%v", err)
	}
	return string(id), nil
}

// Create makes a new bucket named after the resource.
func (r Bucket) Create(ctx context.Context, req custom.TypedCreateRequest[BucketArgs]) (custom.TypedCreateResponse[BucketState], error) {
	st, release, err := r.b.get()
	if err != nil {
		return custom.TypedCreateResponse[BucketState]{}, err
	}
	defer release()
	info := storage.BucketInfo{Name: bucketName(req.Name) + "-" + randomHex(4), Labels: req.Inputs.Labels, AccessKey: randomHex(16)}
	if err := st.PutBucket(ctx, info); err != nil {
		return custom.TypedCreateResponse[BucketState]{}, err // it names the bucket
	}
	return custom.TypedCreateResponse[BucketState]{ID: resource.ID(info.Name), Outputs: r.state(st, info)}, nil
}

// Read returns the bucket's live state; it also serves import by name.
func (r Bucket) Read(ctx context.Context, req custom.TypedReadRequest[BucketArgs, BucketState]) (custom.TypedReadResponse[BucketArgs, BucketState], error) {
	type response = custom.TypedReadResponse[BucketArgs, BucketState]
	st, release, err := r.b.get()
	if err != nil {
		return response{}, err
	}
	defer release()
	name, err := bucketID(req.ID)
	if err != nil {
		return response{}, err
	}
	info, err := st.GetBucket(ctx, name)
	if errors.Is(err, storage.ErrNotFound) {
		return response{}, nil
	}
	if err != nil {
		return response{}, err
	}
	return response{ID: req.ID, Inputs: BucketArgs{Labels: info.Labels}, Outputs: r.state(st, info)}, nil
}

// Update rewrites the bucket's labels.
func (r Bucket) Update(ctx context.Context, req custom.TypedUpdateRequest[BucketArgs, BucketState]) (custom.TypedUpdateResponse[BucketState], error) {
	type response = custom.TypedUpdateResponse[BucketState]
	st, release, err := r.b.get()
	if err != nil {
		return response{}, err
	}
	defer release()
	name, err := bucketID(req.ID)
	if err != nil {
		return response{}, err
	}
	info, err := st.GetBucket(ctx, name)
	if err != nil {
		return response{}, fmt.Errorf("bucket %s: %w", name, err)
	}
	info.Labels = req.Inputs.Labels
	if err := st.PutBucket(ctx, info); err != nil {
		return response{}, err // it names the bucket
	}
	return response{Outputs: r.state(st, info)}, nil
}

// Delete removes the bucket.
func (r Bucket) Delete(ctx context.Context, req custom.TypedDeleteRequest[BucketArgs, BucketState]) (custom.DeleteResponse, error) {
	st, release, err := r.b.get()
	if err != nil {
		return custom.DeleteResponse{}, err
	}
	defer release()
	name, err := bucketID(req.ID)
	if err != nil {
		return custom.DeleteResponse{}, err
	}
	return custom.DeleteResponse{}, st.DeleteBucket(ctx, name)
}

func randomHex(n int) string {
	b := make([]byte, n)
	_, _ = rand.Read(b)
	return hex.EncodeToString(b)
}

// bucketName turns a resource name into a bucket name.
func bucketName(name string) string {
	name = strings.ToLower(name)
	var b strings.Builder
	for _, r := range name {
		if (r >= 'a' && r <= 'z') || (r >= '0' && r <= '9') || r == '-' {
			b.WriteRune(r)
		} else {
			b.WriteRune('-')
		}
	}
	return b.String()
}

// BucketObject is one object in a bucket.
type BucketObject struct{ b *backend }

var _ interface {
	custom.TypedResource[BucketObjectArgs, BucketObjectState]
	custom.TypedResourceWithRead[BucketObjectArgs, BucketObjectState]
	custom.TypedResourceWithUpdate[BucketObjectArgs, BucketObjectState]
	custom.TypedResourceWithDelete[BucketObjectArgs, BucketObjectState]
} = BucketObject{}

// BucketObjectArgs are a BucketObject's inputs. Bucket, Key and Content
// are property.Values, strings that keep their secret marker: what is
// computed from a secret one is secret, and only that.
type BucketObjectArgs struct {
	// Name of the bucket.
	Bucket property.Value `pulumi:"bucket,replaceOnChanges,type=string"`
	// Object key.
	Key property.Value `pulumi:"key,replaceOnChanges,type=string"`
	// Object body.
	Content property.Value `pulumi:"content,type=string"`
	// Media type.
	ContentType ContentType `pulumi:"contentType,optional"`
	// How long readers may cache the object, in seconds (at most a year).
	CacheSeconds int `pulumi:"cacheSeconds,optional"`
}

// BucketObjectState is a BucketObject's outputs: its inputs as stored, and
// what is computed from them.
type BucketObjectState struct {
	// Name of the bucket.
	Bucket string `pulumi:"bucket"`
	// Object key.
	Key string `pulumi:"key"`
	// Object body, as stored.
	Content string `pulumi:"content"`
	// Media type.
	ContentType ContentType `pulumi:"contentType,optional"`
	// Cache lifetime in seconds; absent when not set.
	CacheSeconds int `pulumi:"cacheSeconds,optional"`
	// Hash of the content.
	ETag property.Value `pulumi:"etag,type=string"` // secret when the content is
	// Size of the content in bytes.
	Size property.Value `pulumi:"size,type=integer"` // secret when the content is
	// Address of the object.
	URL property.Value `pulumi:"url,type=string"` // secret when storageUrl, bucket or key is
}

// ContentType is the media type of an object.
type ContentType string

// The media types an object may have.
const (
	ContentTypeHTML ContentType = "text/html"
	ContentTypeText ContentType = "text/plain"
	ContentTypeJSON ContentType = "application/json"
)

// Values lists ContentType's values, for the schema.
func (ContentType) Values() []host.EnumValue[ContentType] {
	return []host.EnumValue[ContentType]{
		{Name: "Html", Value: ContentTypeHTML},
		{Name: "Text", Value: ContentTypeText},
		{Name: "Json", Value: ContentTypeJSON},
	}
}

// Secret BucketObject's etag and size are computed from content and are
// secret when it is; its url from the storage URL, bucket and key, and is
// secret when one of them is. The host adds the rest: an output is secret
// where its same-named input is.

// secretName says whether an object's bucket or key is secret.
func (a BucketObjectArgs) secretName() bool { return a.Bucket.Secret() || a.Key.Secret() }

func (r BucketObject) write(ctx context.Context, args BucketObjectArgs) (BucketObjectState, error) {
	st, release, err := r.b.get()
	if err != nil {
		return BucketObjectState{}, err
	}
	defer release()
	bucket, key := args.Bucket.AsString(), args.Key.AsString()
	if err := checkObjectNames(bucket, key, "bucket", "key"); err != nil {
		return BucketObjectState{}, err
	}
	if args.ContentType == "" {
		args.ContentType = ContentTypeHTML
	}
	err = st.PutObject(ctx, storage.Object{Bucket: bucket, Key: key, Content: args.Content.AsString(),
		ContentType: string(args.ContentType), CacheSeconds: args.CacheSeconds})
	if err != nil {
		return BucketObjectState{}, err
	}
	return objectState(st, args, args.Content.Secret(), args.secretName()), nil
}

// checkObjectNames refuses a bucket name or key that would not stay in its
// place in the store, naming the property it came from.
func checkObjectNames(bucket, key, bucketProp, keyProp string) error {
	if err := storage.CheckBucketName(bucket); err != nil {
		return diag.Errorf(bucketProp, "%v", err)
	}
	if err := storage.CheckKey(key); err != nil {
		return diag.Errorf(keyProp, "%v", err)
	}
	return nil
}

// objectState is an object's outputs; etag and size are secret when the
// content they are computed from is, url when the bucket or key is (or
// the storage URL).
func objectState(st *store, args BucketObjectArgs, secretContent, secretName bool) BucketObjectState {
	bucket, key, content := args.Bucket.AsString(), args.Key.AsString(), args.Content.AsString()
	return BucketObjectState{
		Bucket: bucket, Key: key, Content: content,
		ContentType: args.ContentType, CacheSeconds: args.CacheSeconds,
		ETag: property.New(storage.ETag(content)).WithSecret(secretContent),
		Size: property.New(float64(len(content))).WithSecret(secretContent),
		URL:  st.address(bucket, key, secretName),
	}
}

// objectID is an object's ID: bucket/key, which import takes too. The
// engine never hides an ID, so an object whose bucket or key is secret
// gets a random one instead, and is found by its recorded outputs.
func objectID(out BucketObjectState, secretName bool) resource.ID {
	if secretName {
		return resource.ID(secretIDPrefix + randomHex(8))
	}
	return resource.ID(out.Bucket + "/" + out.Key)
}

const secretIDPrefix = "secret-"

// objectAddress finds an object's bucket and key: from its ID, or, for
// one with a secret name, from its recorded outputs.
func objectAddress(id resource.ID, recorded BucketObjectState) (bucket, key string, err error) {
	if b, k, ok := strings.Cut(string(id), "/"); ok {
		bucket, key = b, k
	} else if strings.HasPrefix(string(id), secretIDPrefix) {
		bucket, key = recorded.Bucket, recorded.Key
	}
	if bucket == "" && key == "" {
		return "", "", diag.Errorf("id", "object IDs have the form bucket/key, got %q", id)
	}
	return bucket, key, checkObjectNames(bucket, key, "id", "id")
}

// Create writes the object.
func (r BucketObject) Create(ctx context.Context, req custom.TypedCreateRequest[BucketObjectArgs]) (custom.TypedCreateResponse[BucketObjectState], error) {
	out, err := r.write(ctx, req.Inputs)
	if err != nil {
		return custom.TypedCreateResponse[BucketObjectState]{}, err
	}
	id := objectID(out, req.Inputs.secretName())
	if injectFault != nil {
		if err := injectFault(ctx, "object-create", string(id)); err != nil {
			// The object exists: report it so the engine records it.
			return custom.TypedCreateResponse[BucketObjectState]{}, &custom.TypedPartialError[BucketObjectState]{ID: id, Outputs: out, Err: err}
		}
	}
	return custom.TypedCreateResponse[BucketObjectState]{ID: id, Outputs: out}, nil
}

// Update rewrites the object.
func (r BucketObject) Update(ctx context.Context, req custom.TypedUpdateRequest[BucketObjectArgs, BucketObjectState]) (custom.TypedUpdateResponse[BucketObjectState], error) {
	out, err := r.write(ctx, req.Inputs)
	return custom.TypedUpdateResponse[BucketObjectState]{Outputs: out}, err
}

// Read returns the object as stored, so refresh sees out-of-band changes;
// with only an ID ("bucket/key") it imports the object.
func (r BucketObject) Read(ctx context.Context, req custom.TypedReadRequest[BucketObjectArgs, BucketObjectState]) (custom.TypedReadResponse[BucketObjectArgs, BucketObjectState], error) {
	type response = custom.TypedReadResponse[BucketObjectArgs, BucketObjectState]
	st, release, err := r.b.get()
	if err != nil {
		return response{}, err
	}
	defer release()
	bucket, key, err := objectAddress(req.ID, req.Outputs)
	if err != nil {
		return response{}, err
	}
	o, err := st.GetObject(ctx, bucket, key)
	if errors.Is(err, storage.ErrNotFound) {
		return response{}, nil
	}
	if err != nil {
		return response{}, err
	}
	// Secret as recorded: the host keeps each recorded secret's key secret.
	args := BucketObjectArgs{Bucket: property.New(bucket).WithSecret(req.Inputs.Bucket.Secret()),
		Key: property.New(key).WithSecret(req.Inputs.Key.Secret()), Content: property.New(o.Content).WithSecret(req.Inputs.Content.Secret()),
		ContentType: ContentType(o.ContentType), CacheSeconds: o.CacheSeconds}
	out := objectState(st, args, args.Content.Secret(), args.secretName() || strings.HasPrefix(string(req.ID), secretIDPrefix))
	return response{ID: req.ID, Inputs: args, Outputs: out}, nil
}

// Delete removes the object.
func (r BucketObject) Delete(ctx context.Context, req custom.TypedDeleteRequest[BucketObjectArgs, BucketObjectState]) (custom.DeleteResponse, error) {
	st, release, err := r.b.get()
	if err != nil {
		return custom.DeleteResponse{}, err
	}
	defer release()
	bucket, key, err := objectAddress(req.ID, req.Outputs)
	if err != nil {
		return custom.DeleteResponse{}, err
	}
	return custom.DeleteResponse{}, st.DeleteObject(ctx, bucket, key)
}
