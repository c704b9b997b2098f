package compat_test

import (
	"context"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/polyhost/polyhost/compat"
)

// A module in a subdirectory of a repository: the last vX.Y.Z tag, and a
// file as it was there, named relative to the module.
func TestLastReleaseAndReadAt(t *testing.T) {
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("no git")
	}
	ctx := context.Background()
	repo := t.TempDir()
	mod := filepath.Join(repo, "greet")
	if err := os.MkdirAll(mod, 0o755); err != nil {
		t.Fatal(err)
	}
	git := func(args ...string) {
		t.Helper()
		cmd := exec.Command("git", args...)
		cmd.Dir = repo
		cmd.Env = append(os.Environ(), "GIT_AUTHOR_NAME=a", "GIT_AUTHOR_EMAIL=a@example.com",
			"GIT_COMMITTER_NAME=a", "GIT_COMMITTER_EMAIL=a@example.com", "GIT_CONFIG_GLOBAL=/dev/null")
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("git %s: %v\n%s", strings.Join(args, " "), err, out)
		}
	}
	write := func(s string) {
		t.Helper()
		if err := os.WriteFile(filepath.Join(mod, "schema.yaml"), []byte(s), 0o644); err != nil {
			t.Fatal(err)
		}
	}

	if _, err := compat.LastRelease(ctx, mod); !errors.Is(err, compat.ErrNoRelease) || !strings.Contains(err.Error(), "in no git repository") {
		t.Errorf("outside a repository: %v, want ErrNoRelease", err)
	}
	git("init", "-q")
	write("name: greet\nversion: 0.1.0\n")
	git("add", "-A")
	git("commit", "-q", "-m", "one")
	if _, err := compat.LastRelease(ctx, mod); !errors.Is(err, compat.ErrNoRelease) || !strings.Contains(err.Error(), "no tag vX.Y.Z") {
		t.Errorf("untagged: %v, want ErrNoRelease", err)
	}
	git("tag", "v0.1.0")
	git("tag", "nightly") // not a release
	write("name: greet\nversion: 0.2.0\n")
	git("commit", "-q", "-am", "two")

	tag, err := compat.LastRelease(ctx, mod)
	if err != nil || tag != "v0.1.0" {
		t.Fatalf("LastRelease = %q, %v; want v0.1.0", tag, err)
	}
	got, err := compat.ReadAt(ctx, mod, tag, "schema.yaml")
	if err != nil || string(got) != "name: greet\nversion: 0.1.0\n" {
		t.Errorf("ReadAt(v0.1.0) = %q, %v", got, err)
	}
	if _, err := compat.ReadAt(ctx, mod, "v9.9.9", "schema.yaml"); err == nil || err.Error() != "reading schema.yaml at v9.9.9: no such git ref" {
		t.Errorf("unknown ref: %v", err)
	}
	if _, err := compat.ReadAt(ctx, mod, tag, "other.yaml"); err == nil || err.Error() != "reading other.yaml at v0.1.0: the commit has no greet/other.yaml" {
		t.Errorf("unknown file: %v", err)
	}
}
