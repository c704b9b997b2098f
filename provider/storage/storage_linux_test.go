package storage_test

import (
	"context"
	"errors"
	"os/signal"
	"slices"
	"strings"
	"syscall"
	"testing"

	"github.com/polyhost/polyhost/internal/testfs"
	"github.com/polyhost/polyhost/provider/storage"
)

// checkIntact fails t unless the store holds exactly the files it held
// before (no temp file left) and the object reads back as want.
func checkIntact(t *testing.T, s *storage.Store, dir string, before []string, want storage.Object) {
	t.Helper()
	got, err := s.GetObject(context.Background(), want.Bucket, want.Key)
	if err != nil || got != want {
		t.Errorf("after the failed write the object is %d bytes %q (cache %d), %v; want the original %d bytes %q (cache %d)",
			len(got.Content), got.ContentType, got.CacheSeconds, err, len(want.Content), want.ContentType, want.CacheSeconds)
	}
	if after := testfs.Files(t, dir); !slices.Equal(after, before) {
		t.Errorf("the failed write left the store holding %q, was %q", after, before)
	}
}

func bigObject(content byte, size int) storage.Object {
	return storage.Object{Bucket: "b", Key: "pages/big.html", Content: strings.Repeat(string(content), size),
		ContentType: "text/plain", CacheSeconds: 30}
}

// A write that fails part way leaves the object as it was, attributes
// included, and no temp file. The kernel fails it: the process's file
// size limit (RLIMIT_FSIZE) stops the new content half way, as a full disk
// would, without privileges.
func TestFailedWriteKeepsObject(t *testing.T) {
	// Not parallel: the limit is the whole process's.
	ctx := context.Background()
	s, dir := fileStore(t)
	orig := bigObject('a', 64<<10)
	if err := s.PutObject(ctx, orig); err != nil {
		t.Fatal(err)
	}
	before := testfs.Files(t, dir)

	signal.Ignore(syscall.SIGXFSZ) // EFBIG instead of the signal
	defer signal.Reset(syscall.SIGXFSZ)
	var old syscall.Rlimit
	if err := syscall.Getrlimit(syscall.RLIMIT_FSIZE, &old); err != nil {
		t.Fatal(err)
	}
	if err := syscall.Setrlimit(syscall.RLIMIT_FSIZE, &syscall.Rlimit{Cur: 128 << 10, Max: old.Max}); err != nil {
		t.Fatal(err)
	}
	newer := bigObject('b', 256<<10)
	newer.ContentType, newer.CacheSeconds = "text/html", 0
	err := s.PutObject(ctx, newer)
	if rerr := syscall.Setrlimit(syscall.RLIMIT_FSIZE, &old); rerr != nil {
		t.Fatal(rerr)
	}
	if !errors.Is(err, syscall.EFBIG) {
		t.Fatalf("a write past the file size limit: %v, want EFBIG", err)
	}
	t.Logf("the failed write: %v", err)
	checkIntact(t, s, dir, before, orig)
}

// The same on a disk that is really full: a tmpfs with too little room
// left for the new content.
func TestFullDiskKeepsObject(t *testing.T) {
	ctx := context.Background()
	mnt := testfs.Tmpfs(t, 1<<20)
	dir := mnt + "/store"
	s := open(t, "file://"+dir)
	if err := s.PutBucket(ctx, storage.BucketInfo{Name: "b", AccessKey: "k"}); err != nil {
		t.Fatal(err)
	}
	orig := bigObject('a', 256<<10)
	if err := s.PutObject(ctx, orig); err != nil {
		t.Fatal(err)
	}
	before := testfs.Files(t, dir)
	free := testfs.Fill(t, mnt, 64<<10)

	newer := bigObject('b', 256<<10)
	err := s.PutObject(ctx, newer)
	if !errors.Is(err, syscall.ENOSPC) {
		t.Fatalf("a write to a full disk: %v, want ENOSPC", err)
	}
	t.Logf("the failed write: %v", err)
	if strings.Contains(err.Error(), mnt) {
		t.Errorf("the error names the storage directory (a secret storageUrl would show): %v", err)
	}
	checkIntact(t, s, dir, before, orig)

	// Once there is room, the same write succeeds.
	free()
	if err := s.PutObject(ctx, newer); err != nil {
		t.Fatal(err)
	}
	if got, err := s.GetObject(ctx, "b", newer.Key); err != nil || got != newer {
		t.Errorf("after freeing space: %d bytes, %v; want the new %d bytes", len(got.Content), err, len(newer.Content))
	}
}

// Storage on another filesystem than TMPDIR is written: the temp file is
// made beside its target, so the rename never crosses devices.
func TestTmpdirOnAnotherFilesystem(t *testing.T) {
	ctx := context.Background()
	s, dir := fileStore(t)
	t.Setenv("TMPDIR", testfs.OtherFilesystem(t, dir))
	o := storage.Object{Bucket: "b", Key: "index.html", Content: "<h1>hi</h1>", ContentType: "text/html"}
	if err := s.PutObject(ctx, o); err != nil {
		t.Fatalf("write with TMPDIR on another filesystem: %v", err)
	}
	if err := s.PutBucket(ctx, storage.BucketInfo{Name: "c", AccessKey: "k"}); err != nil {
		t.Fatalf("bucket with TMPDIR on another filesystem: %v", err)
	}
	if got, err := s.GetObject(ctx, "b", "index.html"); err != nil || got != o {
		t.Errorf("read back %+v, %v", got, err)
	}
}
