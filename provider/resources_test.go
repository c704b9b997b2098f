package provider_test

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/pulumi/pulumi/sdk/v3/go/common/resource"
	"github.com/pulumi/pulumi/sdk/v3/go/common/resource/plugin"
	pulumirpc "github.com/pulumi/pulumi/sdk/v3/proto/go"
	"google.golang.org/protobuf/types/known/structpb"

	"github.com/polyhost/polyhost/host/hosttest"
	"github.com/polyhost/polyhost/internal/testfs"
	"github.com/polyhost/polyhost/provider"
	"github.com/polyhost/polyhost/provider/storage"
)

const (
	bucketType = "sitekit:index:Bucket"
	objectType = "sitekit:index:BucketObject"
)

// backendFixture is the sitekit provider served in-process, configured with
// file storage in a temporary directory, plus direct access to that storage
// for changes made behind the provider's back.
type backendFixture struct {
	t     *testing.T
	srv   pulumirpc.ResourceProviderServer
	dir   string
	url   string
	store *storage.Store
}

func newBackend(t *testing.T) *backendFixture {
	t.Helper()
	return newBackendWith(t, func(url string) resource.PropertyValue { return resource.NewProperty(url) })
}

// newBackendWith configures the provider with storageUrl(url) for the
// fixture's file URL: a secret one, or one with a query.
func newBackendWith(t *testing.T, storageURL func(url string) resource.PropertyValue) *backendFixture {
	t.Helper()
	p, err := provider.New("1.0.0")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = p.Close() })
	f := &backendFixture{t: t, srv: hosttest.NewServer(p), dir: t.TempDir()}
	f.url = "file://" + f.dir
	if _, err := f.srv.Configure(context.Background(), &pulumirpc.ConfigureRequest{
		Args: f.wire(resource.PropertyMap{"storageUrl": storageURL(f.url)}), AcceptSecrets: true,
	}); err != nil {
		t.Fatalf("configure: %v", err)
	}
	if f.store, err = storage.Open(context.Background(), f.url); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = f.store.Close() })
	return f
}

var wireOpts = plugin.MarshalOptions{KeepUnknowns: true, KeepSecrets: true, KeepResources: true}

func (f *backendFixture) wire(m resource.PropertyMap) *structpb.Struct {
	f.t.Helper()
	s, err := plugin.MarshalProperties(m, wireOpts)
	if err != nil {
		f.t.Fatal(err)
	}
	return s
}

func (f *backendFixture) unwire(s *structpb.Struct) resource.PropertyMap {
	f.t.Helper()
	m, err := plugin.UnmarshalProperties(s, wireOpts)
	if err != nil {
		f.t.Fatal(err)
	}
	return m
}

func urnOf(typ, name string) string {
	return "urn:pulumi:dev::proj::" + typ + "::" + name
}

// check runs Check on fresh inputs; it fails the test on a gRPC error.
func (f *backendFixture) check(typ string, news resource.PropertyMap) (resource.PropertyMap, []*pulumirpc.CheckFailure) {
	f.t.Helper()
	resp, err := f.srv.Check(context.Background(), &pulumirpc.CheckRequest{
		Urn: urnOf(typ, "r"), Name: "r", Type: typ, News: f.wire(news), RandomSeed: []byte("seed"),
	})
	if err != nil {
		f.t.Fatalf("Check must report bad input as failures, not a gRPC error: %v", err)
	}
	return f.unwire(resp.GetInputs()), resp.GetFailures()
}

func (f *backendFixture) create(typ, name string, inputs resource.PropertyMap) (string, resource.PropertyMap) {
	f.t.Helper()
	resp, err := f.srv.Create(context.Background(), &pulumirpc.CreateRequest{
		Urn: urnOf(typ, name), Name: name, Type: typ, Properties: f.wire(inputs),
	})
	if err != nil {
		f.t.Fatalf("create %s: %v", name, err)
	}
	return resp.GetId(), f.unwire(resp.GetProperties())
}

// read reads by ID alone, as an import or a refresh of a lost state does.
func (f *backendFixture) read(typ, id string) (*pulumirpc.ReadResponse, error) {
	return f.srv.Read(context.Background(), &pulumirpc.ReadRequest{
		Urn: urnOf(typ, "r"), Name: "r", Type: typ, Id: id,
	})
}

func (f *backendFixture) mustRead(typ, id string) (string, resource.PropertyMap, resource.PropertyMap) {
	f.t.Helper()
	resp, err := f.read(typ, id)
	if err != nil {
		f.t.Fatalf("read %s: %v", id, err)
	}
	return resp.GetId(), f.unwire(resp.GetInputs()), f.unwire(resp.GetProperties())
}

func (f *backendFixture) update(typ, id string, olds, news resource.PropertyMap) resource.PropertyMap {
	f.t.Helper()
	resp, err := f.srv.Update(context.Background(), &pulumirpc.UpdateRequest{
		Urn: urnOf(typ, "r"), Name: "r", Type: typ, Id: id,
		Olds: f.wire(olds), OldInputs: f.wire(olds), News: f.wire(news),
	})
	if err != nil {
		f.t.Fatalf("update %s: %v", id, err)
	}
	return f.unwire(resp.GetProperties())
}

func (f *backendFixture) delete(typ, id string, outputs resource.PropertyMap) {
	f.t.Helper()
	if _, err := f.srv.Delete(context.Background(), &pulumirpc.DeleteRequest{
		Urn: urnOf(typ, "r"), Name: "r", Type: typ, Id: id, Properties: f.wire(outputs),
	}); err != nil {
		f.t.Fatalf("delete %s: %v", id, err)
	}
}

func str(m resource.PropertyMap, k string) string {
	v := m[resource.PropertyKey(k)]
	if v.IsSecret() {
		v = v.SecretValue().Element
	}
	if !v.IsString() {
		return ""
	}
	return v.StringValue()
}

func labels(kv ...string) resource.PropertyValue {
	m := resource.PropertyMap{}
	for i := 0; i+1 < len(kv); i += 2 {
		m[resource.PropertyKey(kv[i])] = resource.NewProperty(kv[i+1])
	}
	return resource.NewProperty(m)
}

func TestBucketBackend(t *testing.T) {
	t.Parallel()
	f := newBackend(t)

	id, out := f.create(bucketType, "My_Site", resource.PropertyMap{"labels": labels("env", "test")})
	if !regexp.MustCompile(`^my-site-[0-9a-f]{8}$`).MatchString(id) || str(out, "bucketName") != id {
		t.Fatalf("bucket id %q, bucketName %q: want the resource name, lowercased and suffixed", id, str(out, "bucketName"))
	}
	if str(out, "endpoint") != f.url+"/"+id {
		t.Errorf("endpoint = %q", str(out, "endpoint"))
	}
	key := out["accessKey"]
	if !key.IsSecret() || len(str(out, "accessKey")) != 32 {
		t.Errorf("accessKey = %v, want a generated secret", key)
	}
	if _, err := os.Stat(filepath.Join(f.dir, id, ".sitekit-bucket")); err != nil {
		t.Fatalf("no bucket marker: %v", err)
	}

	// Read by ID alone returns the same state, and the inputs to import it with.
	gotID, ins, state := f.mustRead(bucketType, id)
	if gotID != id || !state.DeepEquals(out) {
		t.Errorf("read = %s %v, want %s %v", gotID, state, id, out)
	}
	if !ins.DeepEquals(resource.PropertyMap{"labels": labels("env", "test")}) {
		t.Errorf("read inputs = %v", ins)
	}

	// Update rewrites the labels and keeps the generated key.
	newIns := resource.PropertyMap{"labels": labels("env", "prod", "team", "web")}
	upd := f.update(bucketType, id, resource.PropertyMap{"labels": labels("env", "test")}, newIns)
	if !upd["labels"].DeepEquals(newIns["labels"]) || str(upd, "accessKey") != str(out, "accessKey") {
		t.Errorf("update outputs = %v", upd)
	}
	if _, ins, _ = f.mustRead(bucketType, id); !ins.DeepEquals(newIns) {
		t.Errorf("labels after update = %v", ins)
	}

	// Delete removes it; a read then reports it gone, and a second delete is fine.
	f.delete(bucketType, id, upd)
	if gotID, _, _ := f.mustRead(bucketType, id); gotID != "" {
		t.Errorf("read of a deleted bucket returned id %q, want gone", gotID)
	}
	f.delete(bucketType, id, upd)
}

// A bucket made outside Pulumi is imported by its name.
func TestBucketImportByName(t *testing.T) {
	t.Parallel()
	f := newBackend(t)
	if err := f.store.PutBucket(context.Background(), storage.BucketInfo{
		Name: "legacy", Labels: map[string]string{"team": "web"}, AccessKey: "oob-key",
	}); err != nil {
		t.Fatal(err)
	}
	id, ins, out := f.mustRead(bucketType, "legacy")
	if id != "legacy" || str(out, "bucketName") != "legacy" || str(out, "endpoint") != f.url+"/legacy" {
		t.Fatalf("import read: id %q outputs %v", id, out)
	}
	if !out["accessKey"].IsSecret() || str(out, "accessKey") != "oob-key" {
		t.Errorf("accessKey = %v, want the stored key, secret", out["accessKey"])
	}
	// The imported inputs pass Check unchanged, so an import with them has no diff.
	checked, failures := f.check(bucketType, ins)
	if len(failures) > 0 || !checked.DeepEquals(ins) {
		t.Errorf("check of imported inputs: %v, failures %v", checked, failures)
	}
}

// putObject writes an object behind the provider's back.
func (f *backendFixture) putObject(bucket, key, content, contentType string) {
	f.t.Helper()
	ctx := context.Background()
	if _, err := f.store.GetBucket(ctx, bucket); err != nil {
		if err := f.store.PutBucket(ctx, storage.BucketInfo{Name: bucket, AccessKey: "k"}); err != nil {
			f.t.Fatal(err)
		}
	}
	if err := f.store.PutObject(ctx, storage.Object{Bucket: bucket, Key: key, Content: content, ContentType: contentType}); err != nil {
		f.t.Fatal(err)
	}
}

func objectInputs(bucket, key, content string) resource.PropertyMap {
	return resource.PropertyMap{
		"bucket": resource.NewProperty(bucket), "key": resource.NewProperty(key), "content": resource.NewProperty(content),
	}
}

func TestObjectBackend(t *testing.T) {
	t.Parallel()
	f := newBackend(t)
	bucket, _ := f.create(bucketType, "site", resource.PropertyMap{})
	path := filepath.Join(f.dir, bucket, "pages", "a.html")

	ins := objectInputs(bucket, "pages/a.html", "<p>v1</p>")
	id, out := f.create(objectType, "a", ins)
	if id != bucket+"/pages/a.html" {
		t.Fatalf("object id = %q, want bucket/key", id)
	}
	want := map[string]string{
		"content": "<p>v1</p>", "contentType": "text/html", "etag": "b599dba3023a7979",
		"url": f.url + "/" + bucket + "/pages/a.html",
	}
	for k, v := range want {
		if str(out, k) != v {
			t.Errorf("create output %s = %q, want %q", k, str(out, k), v)
		}
	}
	if out["size"].NumberValue() != 9 {
		t.Errorf("size = %v", out["size"])
	}
	if data, err := os.ReadFile(path); err != nil || string(data) != "<p>v1</p>" {
		t.Fatalf("stored object = %q, %v", data, err)
	}

	// Read by ID alone (import, or refresh) sees what is stored.
	gotID, readIns, state := f.mustRead(objectType, id)
	wantIns := objectInputs(bucket, "pages/a.html", "<p>v1</p>")
	wantIns["contentType"] = resource.NewProperty("text/html")
	if gotID != id || !readIns.DeepEquals(wantIns) || str(state, "etag") != str(out, "etag") {
		t.Errorf("read = %s %v %v", gotID, readIns, state)
	}

	// Update rewrites the content; the etag follows.
	news := objectInputs(bucket, "pages/a.html", "<p>version two</p>")
	news["contentType"] = resource.NewProperty("text/plain")
	news["cacheSeconds"] = resource.NewProperty(60.0)
	upd := f.update(objectType, id, ins, news)
	if str(upd, "etag") != "0ced10e8eead7d63" || str(upd, "contentType") != "text/plain" || upd["size"].NumberValue() != 18 {
		t.Errorf("update outputs = %v", upd)
	}
	if data, _ := os.ReadFile(path); string(data) != "<p>version two</p>" {
		t.Errorf("stored after update = %q", data)
	}
	_, readIns, state = f.mustRead(objectType, id)
	if str(state, "contentType") != "text/plain" {
		t.Errorf("content type after update = %q", str(state, "contentType"))
	}
	if readIns["cacheSeconds"].NumberValue() != 60 || state["cacheSeconds"].NumberValue() != 60 {
		t.Errorf("cacheSeconds read back as %v / %v, want 60", readIns["cacheSeconds"], state["cacheSeconds"])
	}

	// An out-of-band change shows in a read.
	if err := os.WriteFile(path, []byte("tampered"), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, _, state = f.mustRead(objectType, id); str(state, "content") != "tampered" || str(state, "etag") != "d121be3103007b41" {
		t.Errorf("read after tampering = %v", state)
	}

	// Delete removes it; deleting again is not an error.
	f.delete(objectType, id, upd)
	if _, err := os.Stat(path); !os.IsNotExist(err) {
		t.Errorf("object still stored after delete: %v", err)
	}
	f.delete(objectType, id, upd)
}

// A refresh of an object whose content is secret (the examples' `news`
// page) keeps it secret, and what is computed from it (etag, size): the
// engine stores the Read answer as is.
func TestObjectRefreshKeepsSecretContent(t *testing.T) {
	t.Parallel()
	f := newBackend(t)
	bucket, _ := f.create(bucketType, "site", resource.PropertyMap{})
	ins := objectInputs(bucket, "extra/news.html", "<p>Big news</p>")
	ins["content"] = resource.MakeSecret(ins["content"])
	id, out := f.create(objectType, "news", ins)
	if !out["content"].IsSecret() || !out["etag"].IsSecret() || !out["size"].IsSecret() || out["url"].IsSecret() {
		t.Fatalf("create outputs = %v, want content, etag and size secret, and only those", out)
	}
	resp, err := f.srv.Read(context.Background(), &pulumirpc.ReadRequest{
		Urn: urnOf(objectType, "news"), Name: "news", Type: objectType, Id: id,
		Inputs: f.wire(ins), Properties: f.wire(out),
	})
	if err != nil {
		t.Fatal(err)
	}
	readIns, state := f.unwire(resp.GetInputs()), f.unwire(resp.GetProperties())
	for what, m := range map[string]resource.PropertyMap{"inputs": readIns, "outputs": state} {
		for k, v := range m {
			fromContent := k == "content" || (what == "outputs" && (k == "etag" || k == "size"))
			if v.IsSecret() != fromContent {
				t.Errorf("refreshed %s %s = %v, want only content and what is computed from it secret", what, k, v)
			}
		}
	}
	if !state.DeepEquals(out) {
		t.Errorf("refreshed outputs = %v, want %v (no drift)", state, out)
	}
}

func TestObjectReadVanished(t *testing.T) {
	t.Parallel()
	f := newBackend(t)
	f.putObject("b", "k.txt", "x", "text/plain")
	if err := os.Remove(filepath.Join(f.dir, "b", "k.txt")); err != nil {
		t.Fatal(err)
	}
	resp, err := f.read(objectType, "b/k.txt")
	if err != nil {
		t.Fatalf("read of a vanished object: %v", err)
	}
	if resp.GetId() != "" || resp.GetProperties() != nil {
		t.Errorf("read of a vanished object = %v, want an empty response (gone)", resp)
	}
	// So is one in a bucket that does not exist.
	if resp, err := f.read(objectType, "nobucket/k.txt"); err != nil || resp.GetId() != "" {
		t.Errorf("read in a missing bucket = %v, %v", resp, err)
	}
}

func TestObjectImportByID(t *testing.T) {
	t.Parallel()
	f := newBackend(t)
	f.putObject("legacy", "docs/page.txt", "hello", "text/plain")
	id, ins, out := f.mustRead(objectType, "legacy/docs/page.txt")
	if id != "legacy/docs/page.txt" {
		t.Fatalf("import id = %q", id)
	}
	wantIns := objectInputs("legacy", "docs/page.txt", "hello")
	wantIns["contentType"] = resource.NewProperty("text/plain")
	if !ins.DeepEquals(wantIns) {
		t.Errorf("import inputs = %v, want %v", ins, wantIns)
	}
	if str(out, "etag") != "2cf24dba5fb0a30e" || str(out, "url") != f.url+"/legacy/docs/page.txt" {
		t.Errorf("import outputs = %v", out)
	}
	checked, failures := f.check(objectType, ins)
	if len(failures) > 0 || !checked.DeepEquals(ins) {
		t.Errorf("check of imported inputs: %v, failures %v", checked, failures)
	}

	// An ID without a key is refused, naming the form IDs take.
	_, err := f.read(objectType, "no-key")
	if err == nil || !strings.Contains(err.Error(), "bucket/key") {
		t.Errorf("read of a malformed id: %v", err)
	}
}

func TestObjectCreateInMissingBucket(t *testing.T) {
	t.Parallel()
	f := newBackend(t)
	_, err := f.srv.Create(context.Background(), &pulumirpc.CreateRequest{
		Urn: urnOf(objectType, "o"), Name: "o", Type: objectType, Properties: f.wire(objectInputs("nope", "k", "x")),
	})
	if err == nil || !strings.Contains(err.Error(), "bucket nope: not found") {
		t.Fatalf("create in a missing bucket: %v", err)
	}
}

// Bad inputs come back from Check as failures naming the property, never as
// a gRPC error.
func TestCheckBadInputs(t *testing.T) {
	t.Parallel()
	f := newBackend(t)
	with := func(k string, v any) resource.PropertyMap {
		m := objectInputs("b", "k", "x")
		m[resource.PropertyKey(k)] = resource.NewPropertyValue(v)
		return m
	}
	without := func(k string) resource.PropertyMap {
		m := objectInputs("b", "k", "x")
		delete(m, resource.PropertyKey(k))
		return m
	}
	cases := []struct {
		name   string
		typ    string
		inputs resource.PropertyMap
		path   string
		want   string
	}{
		{"wrong type", objectType, with("content", 42.0), "content", "expected a string, got the number 42"},
		{"missing required", objectType, without("key"), "key", `missing required property "key"`},
		{"below minimum", objectType, with("cacheSeconds", -1.0), "cacheSeconds", "-1 is below the minimum 0"},
		{"above maximum", objectType, with("cacheSeconds", 31536001.0), "cacheSeconds", "is above the maximum"},
		{"not an integer", objectType, with("cacheSeconds", 1.5), "cacheSeconds", "expected an integer"},
		{"unknown enum value", objectType, with("contentType", "image/png"), "contentType", `"image/png" is not a valid sitekit:index:ContentType`},
		{"unknown property", objectType, with("colour", "red"), "colour", `unknown property "colour"`},
		{"wrong label type", bucketType, resource.PropertyMap{"labels": resource.NewProperty(resource.PropertyMap{"a": resource.NewProperty(true)})}, `labels["a"]`, "expected a string"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			_, failures := f.check(tc.typ, tc.inputs)
			if len(failures) != 1 || failures[0].GetProperty() != tc.path || !strings.Contains(failures[0].GetReason(), tc.want) {
				t.Errorf("failures = %v, want one at %s saying %q", failures, tc.path, tc.want)
			}
		})
	}

	// The edges of the range, every enum value and unknowns pass.
	for _, ok := range []resource.PropertyMap{
		with("cacheSeconds", 0.0), with("cacheSeconds", 31536000.0),
		with("contentType", "text/html"), with("contentType", "text/plain"), with("contentType", "application/json"),
		with("content", resource.MakeComputed(resource.NewProperty(""))),
		with("content", resource.MakeSecret(resource.NewProperty("s"))),
	} {
		checked, failures := f.check(objectType, ok)
		if len(failures) > 0 || !checked.HasValue("contentType") {
			t.Errorf("check %v: %v, failures %v", ok, checked, failures)
		}
		for k := range ok {
			if _, kept := checked[k]; !kept {
				t.Errorf("check %v dropped %s", ok, k)
			}
		}
	}
}

func (f *backendFixture) invoke(args resource.PropertyMap) (resource.PropertyMap, []*pulumirpc.CheckFailure) {
	f.t.Helper()
	resp, err := f.srv.Invoke(context.Background(), &pulumirpc.InvokeRequest{Tok: provider.GetObjectToken, Args: f.wire(args)})
	if err != nil {
		f.t.Fatalf("invoke must report bad arguments as failures, not a gRPC error: %v", err)
	}
	return f.unwire(resp.GetReturn()), resp.GetFailures()
}

func TestGetObject(t *testing.T) {
	t.Parallel()
	f := newBackend(t)
	f.putObject("b", "note.txt", "a note", "text/plain")
	args := func(bucket, key resource.PropertyValue) resource.PropertyMap {
		return resource.PropertyMap{"bucket": bucket, "key": key}
	}
	s := resource.NewProperty[string]

	ret, failures := f.invoke(args(s("b"), s("note.txt")))
	if len(failures) > 0 || str(ret, "content") != "a note" || str(ret, "contentType") != "text/plain" ||
		str(ret, "etag") != "f63e34a034f19a24" {
		t.Fatalf("getObject = %v, failures %v", ret, failures)
	}

	// A secret argument reaches a plain field: every result is secret.
	ret, failures = f.invoke(args(resource.MakeSecret(s("b")), s("note.txt")))
	if len(failures) > 0 || len(ret) == 0 {
		t.Fatalf("getObject with a secret bucket = %v, failures %v", ret, failures)
	}
	for k, v := range ret {
		if !v.IsSecret() {
			t.Errorf("getObject with a secret bucket: %s = %v, want secret", k, v)
		}
	}

	cases := []struct {
		name string
		args resource.PropertyMap
		path string
		want string
	}{
		{"missing object", args(s("b"), s("gone.txt")), "key", `no object with that key in bucket "b"`},
		{"missing bucket", args(s("nope"), s("note.txt")), "key", `no object with that key in bucket "nope"`},
		{"missing argument", resource.PropertyMap{"bucket": s("b")}, "key", `missing required property "key"`},
		{"wrong type", args(resource.NewProperty(1.0), s("note.txt")), "bucket", "expected a string"},
		{"unknown argument", args(s("b"), resource.MakeComputed(s(""))), "key", "must be known"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			ret, failures := f.invoke(tc.args)
			if len(failures) != 1 || failures[0].GetProperty() != tc.path || !strings.Contains(failures[0].GetReason(), tc.want) {
				t.Errorf("failures = %v, want one at %s saying %q", failures, tc.path, tc.want)
			}
			if len(ret) != 0 {
				t.Errorf("a failed invoke returned %v", ret)
			}
		})
	}
}

// Without storage configured the backends fail with a clear error rather
// than panicking.
func TestBackendUnconfigured(t *testing.T) {
	t.Parallel()
	p, err := provider.New("1.0.0")
	if err != nil {
		t.Fatal(err)
	}
	srv := hosttest.NewServer(p)
	_, err = srv.Read(context.Background(), &pulumirpc.ReadRequest{Urn: urnOf(bucketType, "b"), Name: "b", Type: bucketType, Id: "x"})
	if err == nil || !strings.Contains(err.Error(), "storageUrl") {
		t.Fatalf("read without storage: %v", err)
	}
}

// tryCreate runs Create and returns its error.
func (f *backendFixture) tryCreate(typ, name string, inputs resource.PropertyMap) error {
	f.t.Helper()
	_, err := f.srv.Create(context.Background(), &pulumirpc.CreateRequest{
		Urn: urnOf(typ, name), Name: name, Type: typ, Properties: f.wire(inputs),
	})
	return err
}

// The bucket's marker holds its secret access key: getObject cannot read
// it and no BucketObject can be written over it, each refused naming the
// key.
func TestMarkerIsNoObject(t *testing.T) {
	t.Parallel()
	f := newBackend(t)
	id, out := f.create(bucketType, "site", resource.PropertyMap{})
	accessKey := str(out, "accessKey")

	ret, failures := f.invoke(resource.PropertyMap{"bucket": resource.NewProperty(id), "key": resource.NewProperty(".sitekit-bucket")})
	if len(failures) != 1 || failures[0].GetProperty() != "key" || !strings.Contains(failures[0].GetReason(), "reserved") {
		t.Errorf("getObject of the marker: failures %v, want one at key saying it is reserved", failures)
	}
	if strings.Contains(fmt.Sprint(ret), accessKey) {
		t.Errorf("getObject of the marker returned the access key: %v", ret)
	}

	err := f.tryCreate(objectType, "m", objectInputs(id, ".sitekit-bucket", `{"name":"x","accessKey":"chosen"}`))
	if err == nil || !strings.Contains(err.Error(), "key: .sitekit-bucket is reserved") {
		t.Errorf("an object at the marker's key: %v, want refused naming key", err)
	}
	if _, err := f.read(objectType, id+"/.sitekit-bucket"); err == nil || !strings.Contains(err.Error(), "id") {
		t.Errorf("importing the marker as an object: %v, want refused naming id", err)
	}
	if _, _, state := f.mustRead(bucketType, id); str(state, "accessKey") != accessKey {
		t.Errorf("the bucket's access key is now %q, want %q", str(state, "accessKey"), accessKey)
	}
}

// An object's bucket is one name and its key stays inside it: the empty
// key, ".", and a bucket "b/sub" that would make a sub-bucket of b are
// refused naming the property, and nothing is written.
func TestObjectNamesStayInBucket(t *testing.T) {
	t.Parallel()
	f := newBackend(t)
	id, _ := f.create(bucketType, "site", resource.PropertyMap{})
	before := testfs.Files(t, f.dir)
	for _, tc := range []struct{ bucket, key, names string }{
		{id, "", "key"},
		{id, ".", "key"},
		{id, "pages/../x", "key"},
		{id, "a//b", "key"},
		{id + "/sub", "k", "bucket"},
		{"..", "k", "bucket"},
	} {
		err := f.tryCreate(objectType, "o", objectInputs(tc.bucket, tc.key, "x"))
		if err == nil || !strings.Contains(err.Error(), "invalid input: "+tc.names+": ") {
			t.Errorf("object %q in bucket %q: %v, want refused naming %s", tc.key, tc.bucket, err, tc.names)
		}
	}
	if after := testfs.Files(t, f.dir); !slices.Equal(after, before) {
		t.Errorf("refused objects changed the store: %q, was %q", after, before)
	}
}

// A secret bucket name or key is kept out of what is computed from it:
// the url is secret and the ID (which the engine never hides) holds
// neither. Refresh and delete still find the object.
func TestSecretObjectNames(t *testing.T) {
	t.Parallel()
	f := newBackend(t)
	bucket, _ := f.create(bucketType, "site", resource.PropertyMap{})
	for _, tc := range []struct {
		what   string
		inputs resource.PropertyMap
		hidden string
		secret string // the input that is secret
	}{
		{"secret key", resource.PropertyMap{"bucket": resource.NewProperty(bucket),
			"key": resource.MakeSecret(resource.NewProperty("hidden-key-5f.html")), "content": resource.NewProperty("x")}, "hidden-key-5f", "key"},
		{"secret bucket", resource.PropertyMap{"bucket": resource.MakeSecret(resource.NewProperty(bucket)),
			"key": resource.NewProperty("plain.html"), "content": resource.NewProperty("x")}, bucket, "bucket"},
	} {
		t.Run(tc.what, func(t *testing.T) {
			id, out := f.create(objectType, "o", tc.inputs)
			if strings.Contains(id, tc.hidden) {
				t.Errorf("id %q holds the secret", id)
			}
			for k, v := range out {
				if want := k == "url" || string(k) == tc.secret; v.IsSecret() != want {
					t.Errorf("%s = %v, want secret: %v (only url and %s are computed from the secret)", k, v, want, tc.secret)
				}
			}
			path := filepath.Join(f.dir, bucket, str(tc.inputs, "key"))
			if _, err := os.Stat(path); err != nil {
				t.Fatalf("the object is not stored: %v", err)
			}
			resp, err := f.srv.Read(context.Background(), &pulumirpc.ReadRequest{
				Urn: urnOf(objectType, "o"), Name: "o", Type: objectType, Id: id,
				Inputs: f.wire(tc.inputs), Properties: f.wire(out),
			})
			if err != nil || resp.GetId() != id || !f.unwire(resp.GetProperties()).DeepEquals(out) {
				t.Errorf("refresh = %v, %v; want the same id and outputs", resp, err)
			}
			f.delete(objectType, id, out)
			if _, err := os.Stat(path); !os.IsNotExist(err) {
				t.Errorf("the object is still stored after delete: %v", err)
			}
		})
	}
}

// A secret storageUrl keeps every address built from it secret: the
// bucket's endpoint and the object's url, on create and on read.
func TestSecretStorageURL(t *testing.T) {
	t.Parallel()
	f := newBackendWith(t, func(url string) resource.PropertyValue { return resource.MakeSecret(resource.NewProperty(url)) })
	id, out := f.create(bucketType, "site", resource.PropertyMap{})
	if v := out["endpoint"]; !v.IsSecret() || str(out, "endpoint") != f.url+"/"+id {
		t.Errorf("endpoint = %v, want the secret %s/%s", v, f.url, id)
	}
	if _, _, state := f.mustRead(bucketType, id); !state["endpoint"].IsSecret() {
		t.Errorf("endpoint read back = %v, want secret", state["endpoint"])
	}
	oid, obj := f.create(objectType, "o", objectInputs(id, "a.html", "x"))
	if v := obj["url"]; !v.IsSecret() {
		t.Errorf("object url = %v, want secret", v)
	}
	if _, _, state := f.mustRead(objectType, oid); !state["url"].IsSecret() {
		t.Errorf("object url read back = %v, want secret", state["url"])
	}
	if obj["etag"].IsSecret() || obj["content"].IsSecret() {
		t.Errorf("etag %v, content %v: want them plain, nothing secret went into them", obj["etag"], obj["content"])
	}
}

// Whatever the storage URL's query says, endpoints are its directory.
func TestStorageURLQueryLeavesEndpoints(t *testing.T) {
	t.Parallel()
	f := newBackendWith(t, func(url string) resource.PropertyValue { return resource.NewProperty(url + "?no_tmp_dir=1") })
	id, out := f.create(bucketType, "site", resource.PropertyMap{})
	if got := str(out, "endpoint"); got != f.url+"/"+id {
		t.Errorf("endpoint = %s, want %s/%s", got, f.url, id)
	}
	_, obj := f.create(objectType, "o", objectInputs(id, "a.html", "x"))
	if got := str(obj, "url"); got != f.url+"/"+id+"/a.html" {
		t.Errorf("url = %s, want %s/%s/a.html", got, f.url, id)
	}
}
