package provider

import (
	"context"
	"fmt"
	"syscall"
	"testing"
	"time"

	"github.com/pulumi/pulumi/sdk/v3/go/common/resource"
	"github.com/pulumi/pulumi/sdk/v3/go/property"

	"github.com/polyhost/polyhost/components"
	"github.com/polyhost/polyhost/host"
	"github.com/polyhost/polyhost/host/custom"
	"github.com/polyhost/polyhost/host/hosttest"
	"github.com/polyhost/polyhost/provider/storage"
)

// cpuTime is the CPU (user and system) this process has used so far.
func cpuTime() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// BenchmarkObjectCRUD is the whole life of 1,000 BucketObjects, as the
// engine drives it through the plugin's server (hosttest, in process, over
// no network): for each, Check and Create, Check, Diff and Update of new
// content, Read, and Delete, against mem:// storage. "typed" is sitekit's
// BucketObject, a custom.TypedResource; "raw" the same backend written on
// property maps by hand (rawObject). docs/performance.md has typed over
// raw.
func BenchmarkObjectCRUD(b *testing.B) {
	for _, kind := range []string{"typed", "raw"} {
		b.Run(kind, func(b *testing.B) {
			bk := &backend{}
			object := host.WithTypedResource(components.BucketObjectType, BucketObject{bk})
			if kind == "raw" {
				object = host.WithRawResource[BucketObjectArgs, BucketObjectState](components.BucketObjectType, rawObject{bk})
			}
			p, err := host.New(Name, host.WithConfig(bk.configure),
				host.WithTypedResource(components.BucketType, Bucket{bk}), object)
			if err != nil {
				b.Fatal(err)
			}
			h := hosttest.New(b, p)
			ctx := context.Background()
			if err := h.Configure(ctx, property.NewMap(map[string]property.Value{"storageUrl": property.New("mem://")})); err != nil {
				b.Fatal(err)
			}
			bucket, err := h.Create(ctx, hosttest.CreateRequest{Type: components.BucketType, Name: "b"})
			if err != nil {
				b.Fatal(err)
			}
			name := bucket.Outputs.Get("bucketName")
			inputs := func(i int, content string) property.Map {
				return property.NewMap(map[string]property.Value{"bucket": name,
					"key": property.New(fmt.Sprintf("pages/p%04d.html", i)), "content": property.New(content)})
			}
			before := cpuTime()
			for b.Loop() {
				for i := range 1000 {
					o, err := h.Create(ctx, hosttest.CreateRequest{Type: components.BucketObjectType, Name: fmt.Sprintf("o%d", i), Inputs: inputs(i, "<p>one</p>")})
					if err != nil {
						b.Fatal(err)
					}
					next := hosttest.UpdateRequest{Resource: o, Inputs: inputs(i, "<p>two</p>")}
					if d, err := h.Diff(ctx, next); err != nil || !d.HasChanges {
						b.Fatal(d, err)
					}
					if o, err = h.Update(ctx, next); err != nil {
						b.Fatal(err)
					}
					if o, err = h.Read(ctx, o); err != nil || o.ID == "" {
						b.Fatal(o, err)
					}
					if err := h.Delete(ctx, o); err != nil {
						b.Fatal(err)
					}
				}
			}
			b.ReportMetric(float64(cpuTime()-before)/float64(b.N), "cpu-ns/op")
		})
	}
}

// rawObject is BucketObject on property maps, for BenchmarkObjectCRUD:
// the same storage calls and outputs, its values read and written by
// hand.
type rawObject struct{ b *backend }

func (rawObject) ExactSecrets() bool { return true }

func (r rawObject) write(ctx context.Context, in property.Map) (property.Map, error) {
	st, release, err := r.b.get()
	if err != nil {
		return property.Map{}, err
	}
	defer release()
	bucket, key, content := in.Get("bucket"), in.Get("key"), in.Get("content")
	if err := checkObjectNames(bucket.AsString(), key.AsString(), "bucket", "key"); err != nil {
		return property.Map{}, err
	}
	ct := ContentTypeHTML
	if v := in.Get("contentType"); v.IsString() {
		ct = ContentType(v.AsString())
	}
	o := storage.Object{Bucket: bucket.AsString(), Key: key.AsString(), Content: content.AsString(), ContentType: string(ct)}
	if v := in.Get("cacheSeconds"); v.IsNumber() {
		o.CacheSeconds = int(v.AsNumber())
	}
	if err := st.PutObject(ctx, o); err != nil {
		return property.Map{}, err
	}
	return rawState(st, o, content.Secret(), bucket.Secret() || key.Secret()), nil
}

func rawState(st *store, o storage.Object, secretContent, secretName bool) property.Map {
	out := map[string]property.Value{
		"bucket": property.New(o.Bucket), "key": property.New(o.Key), "content": property.New(o.Content),
		"contentType": property.New(o.ContentType),
		"etag":        property.New(storage.ETag(o.Content)).WithSecret(secretContent),
		"size":        property.New(float64(len(o.Content))).WithSecret(secretContent),
		"url":         st.address(o.Bucket, o.Key, secretName),
	}
	if o.CacheSeconds != 0 {
		out["cacheSeconds"] = property.New(float64(o.CacheSeconds))
	}
	return property.NewMap(out)
}

func (r rawObject) Create(ctx context.Context, req custom.CreateRequest) (custom.CreateResponse, error) {
	out, err := r.write(ctx, req.Inputs)
	if err != nil {
		return custom.CreateResponse{}, err
	}
	id := resource.ID(out.Get("bucket").AsString() + "/" + out.Get("key").AsString())
	return custom.CreateResponse{ID: id, Outputs: out}, nil
}

func (r rawObject) Update(ctx context.Context, req custom.UpdateRequest) (custom.UpdateResponse, error) {
	out, err := r.write(ctx, req.Inputs)
	return custom.UpdateResponse{Outputs: out}, err
}

func (r rawObject) Read(ctx context.Context, req custom.ReadRequest) (custom.ReadResponse, error) {
	st, release, err := r.b.get()
	if err != nil {
		return custom.ReadResponse{}, err
	}
	defer release()
	bucket, key, err := objectAddress(req.ID, BucketObjectState{})
	if err != nil {
		return custom.ReadResponse{}, err
	}
	o, err := st.GetObject(ctx, bucket, key)
	if err != nil {
		return custom.ReadResponse{}, err
	}
	out := rawState(st, o, req.Inputs.Get("content").Secret(), false)
	ins := property.NewMap(map[string]property.Value{"bucket": out.Get("bucket"), "key": out.Get("key"),
		"content": out.Get("content"), "contentType": out.Get("contentType")})
	return custom.ReadResponse{ID: req.ID, Inputs: ins, Outputs: out}, nil
}

func (r rawObject) Delete(ctx context.Context, req custom.DeleteRequest) (custom.DeleteResponse, error) {
	st, release, err := r.b.get()
	if err != nil {
		return custom.DeleteResponse{}, err
	}
	defer release()
	bucket, key, err := objectAddress(req.ID, BucketObjectState{})
	if err != nil {
		return custom.DeleteResponse{}, err
	}
	return custom.DeleteResponse{}, st.DeleteObject(ctx, bucket, key)
}
