package storage

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"sync"

	"gocloud.dev/blob"
	_ "gocloud.dev/blob/fileblob" // file:// URLs
	_ "gocloud.dev/blob/memblob"  // mem:// URLs
	"gocloud.dev/gcerrors"
)

// ErrNotFound is returned for a bucket or object that does not exist.
var ErrNotFound = errors.New("not found")

const markerKey = ".sitekit-bucket"

// Store is an opened storage root.
type Store struct {
	url   string
	root  *blob.Bucket
	dir   string   // for file:// storage, the local directory; else empty
	known sync.Map // bucket names seen to exist, to spare a read per object write
}

// Open opens the storage root named by a URL: file:///abs/dir,
// file://./dir (relative to the working directory) or mem://. A file://
// directory is created if missing.
func Open(ctx context.Context, rawURL string) (*Store, error) {
	u, err := url.Parse(rawURL)
	if err != nil {
		return nil, fmt.Errorf("storageUrl %q: %w", rawURL, err)
	}
	if u.Scheme == "file" {
		if u.Host != "" && u.Host != "." {
			// fileblob would ignore the host and write under /<path>.
			return nil, fmt.Errorf("storageUrl %q: a file URL names a directory as file:///abs/dir, or file://./dir relative to the program; %q is not part of the path", rawURL, u.Host)
		}
		q := u.Query()
		q.Set("create_dir", "true")
		u.RawQuery = q.Encode()
	}
	root, err := blob.OpenBucket(ctx, u.String())
	if err != nil {
		return nil, fmt.Errorf("storageUrl %q: %w", rawURL, err)
	}
	st := &Store{url: strings.TrimSuffix(rawURL, "/"), root: root}
	if u.Scheme == "file" {
		st.dir = filepath.FromSlash(u.Host + u.Path) // host is "" or "."
	}
	return st, nil
}

// Close releases the root.
func (s *Store) Close() error { return s.root.Close() }

// URL is the root's URL, as configured.
func (s *Store) URL() string { return s.url }

// BucketInfo is what a bucket's marker records.
type BucketInfo struct {
	Name      string            `json:"name"`
	Labels    map[string]string `json:"labels,omitempty"`
	AccessKey string            `json:"accessKey"`
}

// Endpoint is the base address of a bucket's objects.
func (s *Store) Endpoint(bucket string) string { return s.url + "/" + bucket }

// PutBucket creates or updates a bucket's marker.
func (s *Store) PutBucket(ctx context.Context, info BucketInfo) error {
	data, err := json.Marshal(info)
	if err != nil {
		return err
	}
	if err := s.root.WriteAll(ctx, info.Name+"/"+markerKey, data, nil); err != nil {
		return err
	}
	s.known.Store(info.Name, true)
	return nil
}

// GetBucket reads a bucket's marker.
func (s *Store) GetBucket(ctx context.Context, name string) (BucketInfo, error) {
	data, err := s.root.ReadAll(ctx, name+"/"+markerKey)
	if err != nil {
		return BucketInfo{}, notFound(err)
	}
	var info BucketInfo
	if err := json.Unmarshal(data, &info); err != nil {
		return BucketInfo{}, fmt.Errorf("bucket %s: corrupt marker: %w", name, err)
	}
	return info, nil
}

// DeleteBucket removes a bucket's marker. Objects left in it stay, so a
// delete never destroys data the engine still tracks.
func (s *Store) DeleteBucket(ctx context.Context, name string) error {
	s.known.Delete(name)
	if err := ignoreNotFound(s.root.Delete(ctx, name+"/"+markerKey)); err != nil {
		return err
	}
	// Only a plain name: an imported ID such as ".." must not reach outside.
	if s.dir != "" && name == filepath.Base(name) && name != "." && name != ".." {
		removeEmptyDirs(filepath.Join(s.dir, name))
	}
	return nil
}

// removeEmptyDirs removes dir and the directories under it that are empty
// once their subdirectories are gone: a file store leaves them behind
// when objects are deleted. Anything still holding a file stays.
func removeEmptyDirs(dir string) {
	var dirs []string
	_ = filepath.WalkDir(dir, func(path string, d fs.DirEntry, err error) error {
		if err == nil && d.IsDir() {
			dirs = append(dirs, path)
		}
		return nil
	})
	for i := len(dirs) - 1; i >= 0; i-- { // deepest first
		_ = os.Remove(dirs[i])
	}
}

// Object is one stored object.
type Object struct {
	Bucket, Key, Content, ContentType string
	CacheSeconds                      int // 0: no Cache-Control
}

// ETag is the content hash the store reports for an object.
func ETag(content string) string {
	sum := sha256.Sum256([]byte(content))
	return hex.EncodeToString(sum[:8])
}

// PutObject writes an object. The write is atomic: a reader sees the old
// content or the new, never a part (fileblob renames a finished temp file).
func (s *Store) PutObject(ctx context.Context, o Object) error {
	if _, ok := s.known.Load(o.Bucket); !ok {
		if _, err := s.GetBucket(ctx, o.Bucket); err != nil {
			return fmt.Errorf("bucket %q: %w", o.Bucket, err)
		}
		s.known.Store(o.Bucket, true)
	}
	opts := &blob.WriterOptions{ContentType: o.ContentType}
	if o.CacheSeconds > 0 {
		opts.CacheControl = fmt.Sprintf("max-age=%d", o.CacheSeconds)
	}
	return s.root.WriteAll(ctx, o.Bucket+"/"+o.Key, []byte(o.Content), opts)
}

// GetObject reads an object.
func (s *Store) GetObject(ctx context.Context, bucket, key string) (Object, error) {
	r, err := s.root.NewReader(ctx, bucket+"/"+key, nil)
	if err != nil {
		return Object{}, notFound(err)
	}
	defer r.Close()
	data, err := io.ReadAll(r)
	if err != nil {
		return Object{}, err
	}
	attrs, err := s.root.Attributes(ctx, bucket+"/"+key)
	if err != nil {
		return Object{}, notFound(err)
	}
	o := Object{Bucket: bucket, Key: key, Content: string(data), ContentType: r.ContentType()}
	_, _ = fmt.Sscanf(attrs.CacheControl, "max-age=%d", &o.CacheSeconds)
	return o, nil
}

// DeleteObject removes an object; a missing object is not an error.
func (s *Store) DeleteObject(ctx context.Context, bucket, key string) error {
	return ignoreNotFound(s.root.Delete(ctx, bucket+"/"+key))
}

func notFound(err error) error {
	if gcerrors.Code(err) == gcerrors.NotFound {
		return ErrNotFound
	}
	return err
}

func ignoreNotFound(err error) error {
	if err != nil && gcerrors.Code(err) == gcerrors.NotFound {
		return nil
	}
	return err
}
