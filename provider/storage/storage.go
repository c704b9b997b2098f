package storage

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"hash/fnv"
	"io"
	"io/fs"
	"net/url"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"unsafe"

	"gocloud.dev/blob"
	_ "gocloud.dev/blob/fileblob" // file:// URLs
	_ "gocloud.dev/blob/memblob"  // mem:// URLs
	"gocloud.dev/gcerrors"
)

// ErrNotFound is returned for a bucket or object that does not exist.
var ErrNotFound = errors.New("not found")

// MarkerKey is the key of a bucket's marker, which records its name,
// labels and secret access key. It is reserved: no object has it.
const MarkerKey = ".sitekit-bucket"

// Store is an opened storage root.
type Store struct {
	base  string // the root's URL without query or trailing slash, for endpoints
	root  *blob.Bucket
	dir   string   // for file:// storage, the local directory; else empty
	known sync.Map // bucket names seen to exist, to spare a read per object write
	locks keyLocks
}

// keyLocks serialises the reads, writes and deletes of one key in this
// process: fileblob writes an object's attributes file, then renames its
// content into place, so a delete between the two would leave the content
// without its attributes, and a read could see the new attributes with
// the old content.
type keyLocks [64]sync.Mutex

func (l *keyLocks) lock(key string) (unlock func()) {
	h := fnv.New32a()
	_, _ = h.Write([]byte(key))
	m := &l[h.Sum32()%uint32(len(l))]
	m.Lock()
	return m.Unlock
}

// Open opens the storage root named by a URL: file:///abs/dir,
// file://./dir (relative to the working directory) or mem://. A file://
// directory is created if missing. The URL's query may set fileblob's
// options, but not its metadata one: objects keep their content type and
// cache lifetime in fileblob's attribute files.
func Open(ctx context.Context, rawURL string) (*Store, error) {
	u, err := url.Parse(rawURL)
	if err != nil {
		return nil, fmt.Errorf("storageUrl %q: %w", rawURL, err)
	}
	if u.Scheme == "file" {
		if u.Host != "" && u.Host != "." {
			// fileblob would ignore the host and write under /<path>.
			return nil, fmt.Errorf("storageUrl %q: a file URL names a directory as file:///abs/dir, or file://./dir relative to the program, with nothing between file:// and the path's first slash", rawURL)
		}
		q := u.Query()
		if q.Has("metadata") {
			return nil, fmt.Errorf("storageUrl %q: the metadata parameter is not supported: objects keep their content type in fileblob's attribute files", rawURL)
		}
		q.Set("create_dir", "true")
		// Temp files beside their targets: a rename from TMPDIR fails
		// when it is another filesystem.
		q.Set("no_tmp_dir", "true")
		u.RawQuery = q.Encode()
	}
	root, err := blob.OpenBucket(ctx, u.String())
	if err != nil {
		return nil, fmt.Errorf("storageUrl %q: %w", rawURL, err)
	}
	st := &Store{base: baseOf(rawURL), root: root}
	if u.Scheme == "file" {
		st.dir = filepath.FromSlash(u.Host + u.Path) // host is "" or "."
	}
	return st, nil
}

// Close releases the root.
func (s *Store) Close() error { return s.root.Close() }

// BucketInfo is what a bucket's marker records.
type BucketInfo struct {
	Name      string            `json:"name"`
	Labels    map[string]string `json:"labels,omitempty"`
	AccessKey string            `json:"accessKey"`
}

// Endpoint is the base address of a bucket's objects: the root's URL
// without its query, then the bucket's name.
func (s *Store) Endpoint(bucket string) string { return s.base + "/" + bucket }

// EndpointAt is the Endpoint of a bucket in the storage root named by
// storageURL, without opening it.
func EndpointAt(storageURL, bucket string) string { return baseOf(storageURL) + "/" + bucket }

// baseOf is a storage root's URL without its query, fragment or final
// slash: where its buckets' endpoints start.
func baseOf(rawURL string) string {
	base, _, _ := strings.Cut(rawURL, "#")
	base, _, _ = strings.Cut(base, "?")
	return strings.TrimSuffix(base, "/")
}

// PutBucket creates or updates a bucket's marker.
func (s *Store) PutBucket(ctx context.Context, info BucketInfo) error {
	if err := CheckBucketName(info.Name); err != nil {
		return err
	}
	data, err := json.Marshal(info)
	if err != nil {
		return err
	}
	if err := s.write(ctx, info.Name+"/"+MarkerKey, string(data), nil); err != nil {
		return fmt.Errorf("bucket %s: %w", info.Name, err)
	}
	s.known.Store(info.Name, true)
	return nil
}

// GetBucket reads a bucket's marker.
func (s *Store) GetBucket(ctx context.Context, name string) (BucketInfo, error) {
	if err := CheckBucketName(name); err != nil {
		return BucketInfo{}, err
	}
	defer s.locks.lock(name + "/" + MarkerKey)()
	data, err := s.root.ReadAll(ctx, name+"/"+MarkerKey)
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
	// The name check keeps an imported ID such as ".." inside the store.
	if err := CheckBucketName(name); err != nil {
		return err
	}
	s.known.Delete(name)
	unlock := s.locks.lock(name + "/" + MarkerKey)
	err := ignoreNotFound(s.root.Delete(ctx, name+"/"+MarkerKey))
	unlock()
	if err != nil {
		return fmt.Errorf("bucket %s: %w", name, plainErr(err))
	}
	if s.dir != "" {
		removeEmptyDirs(filepath.Join(s.dir, name))
	}
	return nil
}

// removeEmptyDirs removes dir and the directories under it that are empty
// once their subdirectories are gone: a file store leaves them behind
// when objects are deleted. The temp files of writes that were killed
// before their rename go too; anything else still holding a file stays.
func removeEmptyDirs(dir string) {
	var dirs []string
	_ = filepath.WalkDir(dir, func(path string, d fs.DirEntry, err error) error {
		switch {
		case err != nil:
		case d.IsDir():
			dirs = append(dirs, path)
		case interruptedWrite(path):
			_ = os.Remove(path)
		}
		return nil
	})
	for i := len(dirs) - 1; i >= 0; i-- { // deepest first
		_ = os.Remove(dirs[i])
	}
}

// tempName is the name of fileblob's temp file for a write: the target's,
// then the time in hex and .tmp.
var tempName = regexp.MustCompile(`^.+\.[0-9a-f]+\.tmp$`)

// interruptedWrite reports whether path is the temp file of a write that
// never reached its rename: named as one, without the attributes file an
// object has (an object whose key only looks like a temp file has one).
func interruptedWrite(path string) bool {
	if !tempName.MatchString(filepath.Base(path)) {
		return false
	}
	_, err := os.Stat(path + ".attrs")
	return errors.Is(err, fs.ErrNotExist)
}

// Object is one stored object.
type Object struct {
	Bucket, Key, Content, ContentType string
	CacheSeconds                      int // 0: no Cache-Control
}

// ETag is the content hash the store reports for an object.
func ETag(content string) string {
	h := sha256.New()
	_ = eachChunk(content, func(p []byte) error { _, err := h.Write(p); return err })
	return hex.EncodeToString(h.Sum(nil)[:8])
}

// chunkSize is how much of a string eachChunk copies at a time.
const chunkSize = 256 << 10

// eachChunk passes s to f a chunk at a time, through one small buffer:
// a large content is never copied whole ([]byte(s) would be a second
// copy of it).
func eachChunk(s string, f func([]byte) error) error {
	buf := make([]byte, min(len(s), chunkSize))
	for len(s) > 0 {
		n := copy(buf, s)
		if err := f(buf[:n]); err != nil {
			return err
		}
		s = s[n:]
	}
	return nil
}

// PutObject writes an object. The write is atomic: a reader sees the old
// content or the new, never a part, and a failed write leaves the old one.
func (s *Store) PutObject(ctx context.Context, o Object) error {
	if err := checkObject(o.Bucket, o.Key); err != nil {
		return err
	}
	if _, ok := s.known.Load(o.Bucket); !ok {
		if _, err := s.GetBucket(ctx, o.Bucket); err != nil {
			return fmt.Errorf("bucket %s: %w", o.Bucket, err)
		}
		s.known.Store(o.Bucket, true)
	}
	opts := &blob.WriterOptions{ContentType: o.ContentType}
	if o.CacheSeconds > 0 {
		opts.CacheControl = fmt.Sprintf("max-age=%d", o.CacheSeconds)
	}
	if err := s.write(ctx, o.Bucket+"/"+o.Key, o.Content, opts); err != nil {
		return fmt.Errorf("object %s/%s: %w", o.Bucket, o.Key, err)
	}
	return nil
}

// write writes data at key. fileblob writes a temp file beside the target
// and renames it into place on Close; the write is aborted (the temp file
// removed, the target untouched) if the writer's context ends before
// Close. blob.WriteAll does not do that when a Write fails, so a disk
// that fills part way would get its partial file renamed over the old
// one.
//
// What fileblob writes in place is the object's small attributes file,
// once the new content is complete; if only that fails, the object keeps
// its old content.
func (s *Store) write(ctx context.Context, key string, data string, opts *blob.WriterOptions) error {
	if opts == nil {
		opts = &blob.WriterOptions{ContentType: "application/json"}
	}
	defer s.locks.lock(key)()
	wctx, abort := context.WithCancel(ctx)
	defer abort()
	w, err := s.root.NewWriter(wctx, key, opts)
	if err != nil {
		return plainErr(err)
	}
	// One Write of the whole: mem:// keeps what it is given in a buffer
	// that, written a chunk at a time, doubled as it grew (up to twice
	// the content, and the old and new buffer at once); given all of it,
	// it makes room once. The string's memory is passed as it is, which
	// io.Writer's contract forbids the writer to modify or keep.
	if _, err := w.Write(unsafe.Slice(unsafe.StringData(data), len(data))); err != nil {
		abort()
		_ = w.Close()
		return plainErr(err)
	}
	return plainErr(w.Close())
}

// GetObject reads an object.
func (s *Store) GetObject(ctx context.Context, bucket, key string) (Object, error) {
	if err := checkObject(bucket, key); err != nil {
		return Object{}, err
	}
	defer s.locks.lock(bucket + "/" + key)()
	r, err := s.root.NewReader(ctx, bucket+"/"+key, nil)
	if err != nil {
		return Object{}, notFound(err)
	}
	defer r.Close()
	data, err := io.ReadAll(r)
	if err != nil {
		return Object{}, fmt.Errorf("object %s/%s: %w", bucket, key, plainErr(err))
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
	if err := checkObject(bucket, key); err != nil {
		return err
	}
	defer s.locks.lock(bucket + "/" + key)()
	if err := ignoreNotFound(s.root.Delete(ctx, bucket+"/"+key)); err != nil {
		return fmt.Errorf("object %s/%s: %w", bucket, key, plainErr(err))
	}
	return nil
}

func notFound(err error) error {
	if gcerrors.Code(err) == gcerrors.NotFound {
		return ErrNotFound
	}
	return plainErr(err)
}

func ignoreNotFound(err error) error {
	if err != nil && gcerrors.Code(err) == gcerrors.NotFound {
		return nil
	}
	return err
}

// plainErr keeps the cause of a file error (say, "no space left on
// device") without its paths: they hold the storage directory, which a
// secret storageUrl hides. Callers name the bucket and key instead.
func plainErr(err error) error {
	var pe *fs.PathError
	if errors.As(err, &pe) {
		return fmt.Errorf("%s: %w", pe.Op, pe.Err)
	}
	var le *os.LinkError
	if errors.As(err, &le) {
		return fmt.Errorf("%s: %w", le.Op, le.Err)
	}
	return err
}
