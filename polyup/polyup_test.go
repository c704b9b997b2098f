package polyup

import (
	"bytes"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
)

func TestCommandLine(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	cases := []struct {
		args []string
		code int
		want string // in stderr
	}{
		{[]string{"-h"}, 0, "usage: polyup"},
		{[]string{dir}, 1, `error: unknown operation "` + dir + `": want preview, up, refresh or destroy`},
		// Flags after the operation and directory are flags too.
		{[]string{"up", dir, "-stack=x", "-config=a=b"}, 1, "error: " + dir + ": no Pulumi.yaml"},
		{[]string{"up", dir, "extra"}, 1, "error: want an operation and at most one program directory"},
		{[]string{"up", dir + "/nope"}, 1, "error: " + dir + "/nope: no such program directory"},
	}
	for _, tc := range cases {
		var stdout, stderr bytes.Buffer
		if code := Main(tc.args, &stdout, &stderr); code != tc.code || !strings.Contains(stderr.String(), tc.want) {
			t.Errorf("polyup %q: exit %d, stderr %q; want exit %d and %q", tc.args, code, stderr.String(), tc.code, tc.want)
		}
	}
}

// A `secure:` value in Pulumi.<stack>.yaml needs -secret for its key: the
// flag's value is used (polyup cannot decrypt the file's).
func TestStackConfigSecure(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	path := filepath.Join(dir, "Pulumi.dev.yaml")
	file := "config:\n  greeting: hi\n  proj:news:\n    secure: v1:AAAA\n  sitekit:token:\n    secure: v1:BBBB\n"
	if err := os.WriteFile(path, []byte(file), 0o644); err != nil {
		t.Fatal(err)
	}
	cfg, keys, err := stackConfig(dir, "proj", "dev", keyValues{}, keyValues{"news": "n", "sitekit:token": "t"})
	if err != nil {
		t.Fatal(err)
	}
	if want := map[string]string{"proj:greeting": "hi", "proj:news": "n", "sitekit:token": "t"}; !reflect.DeepEqual(cfg, want) {
		t.Fatalf("config %v, want %v", cfg, want)
	}
	if want := []string{"proj:news", "sitekit:token"}; !reflect.DeepEqual(keys, want) {
		t.Fatalf("secret keys %v, want %v", keys, want)
	}

	// Without -secret (a plain -config is not enough), the error names the
	// key and the file.
	_, _, err = stackConfig(dir, "proj", "dev", keyValues{"sitekit:token": "t"}, keyValues{"news": "n"})
	want := path + `: config "sitekit:token" is encrypted (secure:), which polyup cannot decrypt; pass its value with -secret sitekit:token=VALUE`
	if err == nil || err.Error() != want {
		t.Fatalf("error %v, want %q", err, want)
	}

	// The same through the command line.
	if err := os.WriteFile(filepath.Join(dir, "Pulumi.yaml"), []byte("name: proj\nruntime: go\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	var stdout, stderr bytes.Buffer
	if code := Main([]string{"-secret", "sitekit:token=t", "preview", dir}, &stdout, &stderr); code != 1 ||
		!strings.Contains(stderr.String(), `config "proj:news" is encrypted`) || !strings.Contains(stderr.String(), path) {
		t.Fatalf("exit %d, stderr %q", code, stderr.String())
	}
}

// Before the first update a stack has no resources; ReadState, given a
// file, wants it to exist.
func TestResourcesBeforeUp(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "Pulumi.yaml"), []byte("name: p\nruntime: go\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	s, err := New(dir, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if rs, err := s.Resources(); len(rs) != 0 || err != nil {
		t.Errorf("Resources() = %v, %v before the first up, want none", rs, err)
	}
	if _, err := ReadState(filepath.Join(dir, ".polyup", "dev.json")); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("ReadState of a missing file: %v, want fs.ErrNotExist", err)
	}
}
