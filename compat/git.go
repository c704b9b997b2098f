package compat

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
)

// ErrNoRelease is returned by [LastRelease] when there is nothing to
// compare with: no release tag, or no git repository.
var ErrNoRelease = errors.New("no release")

// LastRelease returns the most recent release tag (vX.Y.Z, as Go modules
// tag their versions) reachable from HEAD in the git repository holding
// dir. Without one it returns an error wrapping [ErrNoRelease].
func LastRelease(ctx context.Context, dir string) (string, error) {
	if _, err := exec.LookPath("git"); err != nil {
		return "", fmt.Errorf("finding the last release: %w", err)
	}
	dirs, err := git(ctx, dir, "rev-parse", "--absolute-git-dir", "--git-common-dir")
	if err != nil {
		return "", fmt.Errorf("%w: %s is in no git repository", ErrNoRelease, dir)
	}
	watchRefs(dir, strings.Fields(dirs))
	tag, err := git(ctx, dir, "describe", "--tags", "--abbrev=0", "--match", "v[0-9]*")
	if err != nil {
		return "", fmt.Errorf("%w: no tag vX.Y.Z is reachable from HEAD in %s", ErrNoRelease, dir)
	}
	return strings.TrimSpace(tag), nil
}

// watchRefs opens the files git reads to find the last tag: HEAD, the
// branch it names, the packed refs and the tags. go test caches a test's
// result until a file the test opened changes, and git runs in a process
// of its own; so that a test calling LastRelease runs again once a tag is
// added or HEAD moves, the test process opens them itself.
func watchRefs(dir string, dirs []string) {
	if len(dirs) != 2 {
		return
	}
	gitDir, common := dirs[0], dirs[1]
	if !filepath.IsAbs(common) {
		common = filepath.Join(dir, common)
	}
	head, _ := os.ReadFile(filepath.Join(gitDir, "HEAD"))
	files := []string{filepath.Join(common, "packed-refs"), filepath.Join(common, "refs", "tags")}
	if ref, ok := strings.CutPrefix(strings.TrimSpace(string(head)), "ref: "); ok {
		files = append(files, filepath.Join(common, filepath.FromSlash(ref)))
	}
	for _, f := range files {
		if fh, err := os.Open(f); err == nil {
			_, _ = fh.Readdirnames(-1) // a directory; an error for a file
			fh.Close()
		}
	}
}

// ReadAt returns a file as it was at a git ref (a tag, a branch, a
// commit): file is relative to dir, which is in the repository.
func ReadAt(ctx context.Context, dir, ref, file string) ([]byte, error) {
	prefix, err := git(ctx, dir, "rev-parse", "--show-prefix")
	if err != nil {
		return nil, fmt.Errorf("reading %s at %s: %w", file, ref, err)
	}
	name := filepath.ToSlash(filepath.Join(strings.TrimSpace(prefix), file))
	if _, err := git(ctx, dir, "rev-parse", "--verify", "--quiet", ref+"^{commit}"); err != nil {
		return nil, fmt.Errorf("reading %s at %s: no such git ref", file, ref)
	}
	out, err := git(ctx, dir, "show", ref+":"+name)
	if err != nil {
		return nil, fmt.Errorf("reading %s at %s: the commit has no %s", file, ref, name)
	}
	return []byte(out), nil
}

// git runs git in dir and returns its output; an error carries its stderr.
func git(ctx context.Context, dir string, args ...string) (string, error) {
	cmd := exec.CommandContext(ctx, "git", args...)
	cmd.Dir = dir
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Run(); err != nil {
		if msg := strings.TrimSpace(stderr.String()); msg != "" {
			return "", fmt.Errorf("git %s: %s", args[0], msg)
		}
		return "", fmt.Errorf("git %s: %w", args[0], err)
	}
	return stdout.String(), nil
}
