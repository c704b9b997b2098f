package reliability

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/pulumi/pulumi/sdk/v3/go/common/resource"

	"github.com/polyhost/polyhost/internal/engine"
	"github.com/polyhost/polyhost/internal/testfs"
)

// pagesProgram registers a bucket and n objects in it, each holding size
// bytes of fill.
func pagesProgram(n, size int, fill byte) program {
	return func(ctx context.Context, p *programClient) error {
		b, err := p.register(ctx, "sitekit:index:Bucket", "b", true, false, resource.PropertyMap{})
		if err != nil {
			return err
		}
		for i := range n {
			if _, err := p.register(ctx, "sitekit:index:BucketObject", fmt.Sprintf("page%d", i), true, false, resource.PropertyMap{
				"bucket":  b.Outputs["bucketName"],
				"key":     resource.NewProperty(fmt.Sprintf("pages/page%d.html", i)),
				"content": resource.NewProperty(strings.Repeat(string(fill), size)),
			}); err != nil {
				return err
			}
		}
		return nil
	}
}

// checkStoredPages fails t unless storage holds the bucket's marker and
// exactly the n pages, each whole: size bytes of fill.
func checkStoredPages(t *testing.T, s *stackFixture, n, size int, fill byte) {
	t.Helper()
	buckets := s.live(t, "sitekit:index:Bucket")
	if len(buckets) != 1 {
		t.Fatalf("%d buckets in the state, want 1", len(buckets))
	}
	b := buckets[0].ID
	want := []string{filepath.Join(b, ".sitekit-bucket")}
	for i := range n {
		want = append(want, filepath.Join(b, "pages", fmt.Sprintf("page%d.html", i)))
	}
	slices.Sort(want)
	if got := s.storedFiles(t); !slices.Equal(got, want) {
		t.Errorf("storage holds %q, want %q (no temp file)", got, want)
	}
	whole := bytes.Repeat([]byte{fill}, size)
	for _, f := range want[1:] {
		data, err := os.ReadFile(filepath.Join(s.storage, f))
		if err != nil || !bytes.Equal(data, whole) {
			t.Errorf("%s: %d bytes starting %.8q, %v; want %d bytes of %q", f, len(data), data, err, size, fill)
		}
	}
}

// Storage on a disk that fills up (a small tmpfs, which is also another
// filesystem than TMPDIR): an up that grows the pages fails naming an
// object and the cause, every object stays whole (none truncated), and
// once there is room the next up converges and a third has nothing to do.
func TestFullDisk(t *testing.T) {
	skipUnderRace(t)
	t.Parallel()
	mnt := testfs.Tmpfs(t, 2<<20)
	store := filepath.Join(mnt, "store")
	s := newStack(t, pluginBin, map[string]string{"sitekit:storageUrl": "file://" + store})
	s.storage = store
	ctx := context.Background()
	const n = 4
	if _, err := s.eng.Up(ctx, pagesProgram(n, 64<<10, 'a')); err != nil {
		t.Fatalf("the first up, storage on a tmpfs: %v", err)
	}
	checkStoredPages(t, s, n, 64<<10, 'a')

	free := testfs.Fill(t, mnt, 96<<10)
	_, err := s.eng.Up(ctx, pagesProgram(n, 256<<10, 'b'))
	if err == nil {
		t.Fatal("an up that grows four pages by 768 KiB on a disk with 96 KiB free succeeded")
	}
	t.Logf("the up on a full disk: %v", err)
	for _, want := range []string{"sitekit:index:BucketObject::page", "no space left on device"} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("the error does not say %q: %v", want, err)
		}
	}
	checkStoredPages(t, s, n, 64<<10, 'a')

	free()
	if _, err := s.eng.Up(ctx, pagesProgram(n, 256<<10, 'b')); err != nil {
		t.Fatalf("the up once there is room: %v", err)
	}
	checkStoredPages(t, s, n, 256<<10, 'b')
	res, err := s.eng.Up(ctx, pagesProgram(n, 256<<10, 'b'))
	if err != nil {
		t.Fatal(err)
	}
	for _, st := range res.Steps {
		if st.Op != engine.OpSame {
			t.Errorf("the next up did %s %s, want nothing to do", st.Op, st.URN)
		}
	}
}

// TMPDIR on another filesystem (a tmpfs) than the storage: ups that
// create, update and delete objects pass.
func TestTmpdirOnAnotherFilesystem(t *testing.T) {
	skipUnderRace(t)
	// Not parallel: TMPDIR reaches the plugin through this process's
	// environment.
	s := newStack(t, pluginBin, nil)
	if err := os.MkdirAll(s.storage, 0o755); err != nil {
		t.Fatal(err)
	}
	t.Setenv("TMPDIR", testfs.OtherFilesystem(t, s.storage))
	ctx := context.Background()
	for _, step := range []struct {
		n, size int
		fill    byte
	}{{3, 1 << 10, 'a'}, {3, 2 << 10, 'b'}, {1, 2 << 10, 'b'}} {
		if _, err := s.eng.Up(ctx, pagesProgram(step.n, step.size, step.fill)); err != nil {
			t.Fatalf("up of %d pages of %q: %v", step.n, step.fill, err)
		}
		checkStoredPages(t, s, step.n, step.size, step.fill)
	}
	if _, err := s.eng.Destroy(ctx); err != nil {
		t.Fatalf("destroy: %v", err)
	}
	if got := s.storedFiles(t); len(got) != 0 {
		t.Errorf("storage after destroy holds %q", got)
	}
}

// The full disk under the real pulumi CLI, from a YAML program: a Site
// whose pages are read from files. An up that grows them past the room
// left fails naming the page and the cause, every stored page stays
// whole, and once there is room the next up converges.
func TestFullDiskRealCLI(t *testing.T) {
	skipUnderRace(t)
	t.Parallel()
	mnt := testfs.Tmpfs(t, 2<<20)
	store := filepath.Join(mnt, "store")
	c := newRealCLI(t, `resources:
  site:
    type: sitekit:index:Site
    properties:
      indexContent: <h1>hi</h1>
      pages:
        a.html:
          fn::readFile: ./a.html
        b.html:
          fn::readFile: ./b.html
`, t.TempDir())
	c.must("config", "set", "sitekit:storageUrl", "file://"+store)
	writePages := func(size int, fill byte) {
		for _, p := range []string{"a.html", "b.html"} {
			if err := os.WriteFile(filepath.Join(c.prog, p), bytes.Repeat([]byte{fill}, size), 0o644); err != nil {
				t.Fatal(err)
			}
		}
	}
	checkPages := func(size int, fill byte) {
		t.Helper()
		m, _ := filepath.Glob(filepath.Join(store, "*", "pages", "*.html"))
		if len(m) != 2 {
			t.Fatalf("stored pages: %q, want a.html and b.html", m)
		}
		for _, f := range m {
			if data, err := os.ReadFile(f); err != nil || !bytes.Equal(data, bytes.Repeat([]byte{fill}, size)) {
				t.Errorf("%s: %d bytes starting %.8q, %v; want %d bytes of %q", f, len(data), data, err, size, fill)
			}
		}
		if tmp, _ := filepath.Glob(filepath.Join(store, "*", "pages", "*.tmp")); len(tmp) > 0 {
			t.Errorf("temp files left: %q", tmp)
		}
	}

	writePages(64<<10, 'a')
	c.must("up", "--yes", "--skip-preview")
	checkPages(64<<10, 'a')

	free := testfs.Fill(t, mnt, 96<<10)
	writePages(512<<10, 'b')
	out, err := c.run("up", "--yes", "--skip-preview")
	if err == nil {
		t.Fatalf("an up that grows two pages by 896 KiB on a disk with 96 KiB free succeeded:\n%s", out)
	}
	for _, want := range []string{"site-pages-", "no space left on device"} {
		if !strings.Contains(out, want) {
			t.Errorf("the failed up does not say %q:\n%s", want, out)
		}
	}
	checkPages(64<<10, 'a')

	free()
	c.must("up", "--yes", "--skip-preview")
	checkPages(512<<10, 'b')
	c.must("preview", "--expect-no-changes")
}
