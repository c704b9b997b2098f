package storage_test

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/polyhost/polyhost/internal/testfs"
	"github.com/polyhost/polyhost/provider/storage"
)

func open(t *testing.T, url string) *storage.Store {
	t.Helper()
	s, err := storage.Open(context.Background(), url)
	if err != nil {
		t.Fatalf("Open(%s): %v", url, err)
	}
	t.Cleanup(func() { _ = s.Close() })
	return s
}

// fileStore opens file storage in a fresh directory with one bucket, b.
func fileStore(t *testing.T) (*storage.Store, string) {
	t.Helper()
	dir := filepath.Join(t.TempDir(), "store")
	s := open(t, "file://"+dir)
	if err := s.PutBucket(context.Background(), storage.BucketInfo{Name: "b", AccessKey: "marker-key"}); err != nil {
		t.Fatal(err)
	}
	return s, dir
}

// ETags are the first 8 bytes of the content's SHA-256, in hex; the
// answers come from sha256sum, not from the function under test.
func TestETagKnownAnswers(t *testing.T) {
	for content, want := range map[string]string{
		"":                   "e3b0c44298fc1c14",
		"hello":              "2cf24dba5fb0a30e",
		"<p>version two</p>": "0ced10e8eead7d63",
	} {
		if got := storage.ETag(content); got != want {
			t.Errorf("ETag(%q) = %s, want %s", content, got, want)
		}
	}
}

func TestObjectRoundTrip(t *testing.T) {
	ctx := context.Background()
	for _, url := range []string{"mem://", "file://" + t.TempDir()} {
		s := open(t, url)
		if err := s.PutBucket(ctx, storage.BucketInfo{Name: "b", Labels: map[string]string{"a": "1"}, AccessKey: "k"}); err != nil {
			t.Fatal(err)
		}
		want := storage.Object{Bucket: "b", Key: "pages/a.html", Content: "<p>a</p>", ContentType: "text/html", CacheSeconds: 60}
		if err := s.PutObject(ctx, want); err != nil {
			t.Fatalf("%s: put: %v", url, err)
		}
		got, err := s.GetObject(ctx, "b", "pages/a.html")
		if err != nil || got != want {
			t.Errorf("%s: got %+v, %v; want %+v", url, got, err, want)
		}
		if _, err := s.GetObject(ctx, "b", "pages/none.html"); !errors.Is(err, storage.ErrNotFound) {
			t.Errorf("%s: a missing object: %v, want ErrNotFound", url, err)
		}
		if err := s.DeleteObject(ctx, "b", "pages/a.html"); err != nil {
			t.Fatal(err)
		}
		if _, err := s.GetObject(ctx, "b", "pages/a.html"); !errors.Is(err, storage.ErrNotFound) {
			t.Errorf("%s: a deleted object: %v, want ErrNotFound", url, err)
		}
		if err := s.DeleteObject(ctx, "b", "pages/a.html"); err != nil {
			t.Errorf("%s: deleting a missing object: %v", url, err)
		}
		if err := s.PutObject(ctx, storage.Object{Bucket: "nope", Key: "k"}); !errors.Is(err, storage.ErrNotFound) {
			t.Errorf("%s: an object in a missing bucket: %v, want ErrNotFound", url, err)
		}
	}
}

// The bucket's marker (which holds its secret access key) is not an
// object: it cannot be read, overwritten or deleted as one.
func TestMarkerIsReserved(t *testing.T) {
	ctx := context.Background()
	s, _ := fileStore(t)
	const marker = ".sitekit-bucket"
	if o, err := s.GetObject(ctx, "b", marker); !errors.Is(err, storage.ErrInvalidName) {
		t.Errorf("reading the marker as an object: %+v, %v; want ErrInvalidName", o, err)
	}
	if err := s.PutObject(ctx, storage.Object{Bucket: "b", Key: marker, Content: `{"name":"b","accessKey":"chosen"}`}); !errors.Is(err, storage.ErrInvalidName) {
		t.Errorf("writing the marker as an object: %v, want ErrInvalidName", err)
	}
	if err := s.DeleteObject(ctx, "b", marker); !errors.Is(err, storage.ErrInvalidName) {
		t.Errorf("deleting the marker as an object: %v, want ErrInvalidName", err)
	}
	info, err := s.GetBucket(ctx, "b")
	if err != nil || info.AccessKey != "marker-key" {
		t.Errorf("the marker after the attempts: %+v, %v; want it unchanged", info, err)
	}
	// A key that only ends in the marker's name is an ordinary object.
	if err := s.PutObject(ctx, storage.Object{Bucket: "b", Key: "sub/" + marker, Content: "x"}); err != nil {
		t.Errorf("sub/%s: %v", marker, err)
	}
}

// Bucket names are one path segment and keys stay inside their bucket:
// each bad name is refused naming the rule, and nothing is written.
func TestNamesStayInTheirBucket(t *testing.T) {
	ctx := context.Background()
	s, dir := fileStore(t)
	s2, _ := fileStore(t)
	if err := s2.PutBucket(ctx, storage.BucketInfo{Name: "sub"}); err != nil {
		t.Fatal(err)
	}
	before := testfs.Files(t, dir)
	for _, bucket := range []string{"", ".", "..", "b/sub", "b\\sub", "b\x00", "b\n", strings.Repeat("x", 256)} {
		err := s.PutObject(ctx, storage.Object{Bucket: bucket, Key: "k", Content: "x"})
		if !errors.Is(err, storage.ErrInvalidName) {
			t.Errorf("bucket %q: %v, want ErrInvalidName", bucket, err)
		}
		if err := storage.CheckBucketName(bucket); !errors.Is(err, storage.ErrInvalidName) {
			t.Errorf("CheckBucketName(%q) = %v, want ErrInvalidName", bucket, err)
		}
		if err := s.PutBucket(ctx, storage.BucketInfo{Name: bucket}); !errors.Is(err, storage.ErrInvalidName) {
			t.Errorf("PutBucket(%q) = %v, want ErrInvalidName", bucket, err)
		}
	}
	for _, key := range []string{"", "/", "/a", "a/", "a//b", ".", "..", "a/.", "./a", "a/../b", "a\\b", "a\x00", "tab\tkey",
		"x.attrs", "sub/x.attrs", strings.Repeat("y", 256)} {
		err := s.PutObject(ctx, storage.Object{Bucket: "b", Key: key, Content: "x"})
		if !errors.Is(err, storage.ErrInvalidName) {
			t.Errorf("key %q: %v, want ErrInvalidName", key, err)
		}
		if _, err := s.GetObject(ctx, "b", key); !errors.Is(err, storage.ErrInvalidName) {
			t.Errorf("GetObject key %q: %v, want ErrInvalidName", key, err)
		}
		if err := storage.CheckKey(key); !errors.Is(err, storage.ErrInvalidName) {
			t.Errorf("CheckKey(%q) = %v, want ErrInvalidName", key, err)
		}
	}
	if after := testfs.Files(t, dir); !slices.Equal(after, before) {
		t.Errorf("refused writes changed the store: %q, was %q", after, before)
	}
	for _, ok := range []string{"index.html", "pages/a.html", "a.b/c-d_e", "ünïcode.html", "x.attrs.html", "...a"} {
		if err := storage.CheckKey(ok); err != nil {
			t.Errorf("CheckKey(%q) = %v, want it accepted", ok, err)
		}
	}
}

// Endpoints are the URL's scheme and path, whatever its query says.
func TestEndpointIgnoresQuery(t *testing.T) {
	dir := t.TempDir()
	for url, want := range map[string]string{
		"file://" + dir:                        "file://" + dir + "/b",
		"file://" + dir + "/":                  "file://" + dir + "/b",
		"file://" + dir + "?no_tmp_dir=1":      "file://" + dir + "/b",
		"file://" + dir + "/?create_dir=true":  "file://" + dir + "/b",
		"file://" + dir + "?no_tmp_dir=1#frag": "file://" + dir + "/b",
		"mem://":                               "mem://b",
		"mem://?":                              "mem://b",
	} {
		if got := open(t, url).Endpoint("b"); got != want {
			t.Errorf("Open(%s).Endpoint(b) = %s, want %s", url, got, want)
		}
	}
}

// A file URL whose first path segment sits in the host slot would make the
// storage write under the filesystem root; it is refused, and so is a query
// that would drop the objects' attributes.
func TestStorageURLHostRefused(t *testing.T) {
	if _, err := storage.Open(context.Background(), "file://relative/dir"); err == nil ||
		!strings.Contains(err.Error(), "file:///abs/dir") {
		t.Fatalf("Open(file://relative/dir) = %v, want the host refused, saying how to write the URL", err)
	}
	// Nor may the query drop the attribute files objects keep their
	// content type in.
	if _, err := storage.Open(context.Background(), "file://"+t.TempDir()+"?metadata=skip"); err == nil ||
		!strings.Contains(err.Error(), "metadata") {
		t.Errorf("Open(...?metadata=skip) = %v, want the parameter refused", err)
	}
	dir := t.TempDir()
	t.Chdir(dir)
	s := open(t, "file://./store")
	if err := s.PutBucket(context.Background(), storage.BucketInfo{Name: "b"}); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(filepath.Join(dir, "store", "b", ".sitekit-bucket")); err != nil {
		t.Fatalf("file://./store is not ./store: %v", err)
	}
}

// Deleting a file-stored bucket removes the directories its objects left
// behind, but never a file.
func TestDeleteBucketRemovesEmptyDirs(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	s := open(t, "file://"+dir)
	for _, b := range []string{"empty", "full"} {
		if err := s.PutBucket(ctx, storage.BucketInfo{Name: b}); err != nil {
			t.Fatal(err)
		}
		if err := s.PutObject(ctx, storage.Object{Bucket: b, Key: "pages/a.html", Content: "a"}); err != nil {
			t.Fatal(err)
		}
	}
	if err := s.DeleteObject(ctx, "empty", "pages/a.html"); err != nil {
		t.Fatal(err)
	}
	for _, b := range []string{"empty", "full"} {
		if err := s.DeleteBucket(ctx, b); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := os.Stat(filepath.Join(dir, "empty")); !os.IsNotExist(err) {
		t.Errorf("the emptied bucket's directory is still there: %v", err)
	}
	if _, err := os.Stat(filepath.Join(dir, "full", "pages", "a.html")); err != nil {
		t.Errorf("an object left in a deleted bucket was removed: %v", err)
	}
}

// DeleteBucket of "." or ".." (an imported ID, say) touches nothing: not
// the empty directories of other buckets, nor an empty folder beside the
// store.
func TestDeleteBucketStaysInTheStore(t *testing.T) {
	ctx := context.Background()
	parent := t.TempDir()
	s := open(t, "file://"+filepath.Join(parent, "store"))
	if err := s.PutBucket(ctx, storage.BucketInfo{Name: "other"}); err != nil {
		t.Fatal(err)
	}
	empty := []string{filepath.Join(parent, "beside"), filepath.Join(parent, "store", "other", "emptied")}
	for _, d := range empty {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	for _, name := range []string{".", "..", "other/emptied", "../beside"} {
		if err := s.DeleteBucket(ctx, name); !errors.Is(err, storage.ErrInvalidName) {
			t.Errorf("DeleteBucket(%q) = %v, want ErrInvalidName", name, err)
		}
	}
	for _, d := range empty {
		if _, err := os.Stat(d); err != nil {
			t.Errorf("%s was removed: %v", d, err)
		}
	}
}

// A write killed between its temp file and the rename (SIGKILL) leaves
// <key>.<hex>.tmp beside the key; deleting the bucket removes it with the
// empty directories (issue 38, item 8). An object whose key only looks
// like one (it has its attributes file) stays.
func TestDeleteBucketRemovesInterruptedWrites(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	s := open(t, "file://"+dir)
	if err := s.PutBucket(ctx, storage.BucketInfo{Name: "b"}); err != nil {
		t.Fatal(err)
	}
	if err := s.PutObject(ctx, storage.Object{Bucket: "b", Key: "pages/a.html", Content: "a"}); err != nil {
		t.Fatal(err)
	}
	leftover := filepath.Join(dir, "b", "pages", "a.html.18bf2a3c4d5e6f70.tmp")
	if err := os.WriteFile(leftover, []byte("half"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := s.DeleteObject(ctx, "b", "pages/a.html"); err != nil {
		t.Fatal(err)
	}
	if err := s.DeleteBucket(ctx, "b"); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(filepath.Join(dir, "b")); !os.IsNotExist(err) {
		t.Errorf("the bucket's directory, holding only an interrupted write, is still there: %v", err)
	}

	if err := s.PutBucket(ctx, storage.BucketInfo{Name: "c"}); err != nil {
		t.Fatal(err)
	}
	if err := s.PutObject(ctx, storage.Object{Bucket: "c", Key: "notes.1f.tmp", Content: "kept"}); err != nil {
		t.Fatal(err)
	}
	if err := s.DeleteBucket(ctx, "c"); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(filepath.Join(dir, "c", "notes.1f.tmp")); err != nil {
		t.Errorf("an object named like a temp file was removed: %v", err)
	}
}
