//go:build linux

package testfs

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"syscall"
	"testing"
)

// Tmpfs mounts a tmpfs of size bytes on a fresh directory and returns it;
// it is unmounted when the test ends. It skips the test where mounting is
// not allowed (not root, or no CAP_SYS_ADMIN).
func Tmpfs(t testing.TB, size int) string {
	t.Helper()
	dir := t.TempDir()
	if err := syscall.Mount("tmpfs", dir, "tmpfs", 0, fmt.Sprintf("size=%d,mode=0755", size)); err != nil {
		t.Skipf("needs a small tmpfs, and this machine refuses mount(2): %v", err)
	}
	t.Cleanup(func() {
		if err := syscall.Unmount(dir, syscall.MNT_DETACH); err != nil {
			t.Errorf("unmounting %s: %v", dir, err)
		}
	})
	return dir
}

// OtherFilesystem returns a fresh directory on another filesystem than
// dir's: under /dev/shm when that is one, else on a tmpfs it mounts.
func OtherFilesystem(t testing.TB, dir string) string {
	t.Helper()
	if shm, err := os.MkdirTemp("/dev/shm", "testfs-"); err == nil {
		t.Cleanup(func() { _ = os.RemoveAll(shm) })
		if !sameDevice(t, shm, dir) {
			return shm
		}
	}
	return Tmpfs(t, 16<<20)
}

func sameDevice(t testing.TB, a, b string) bool {
	t.Helper()
	var sa, sb syscall.Stat_t
	if err := syscall.Stat(a, &sa); err != nil {
		t.Fatal(err)
	}
	if err := syscall.Stat(b, &sb); err != nil {
		t.Fatal(err)
	}
	return sa.Dev == sb.Dev
}

// Fill writes files into dir until the filesystem is full, then frees
// leave bytes (rounded up to the chunks it wrote), so the next write that
// needs more than that fails part way, as on a disk that fills up. free
// removes the rest.
func Fill(t testing.TB, dir string, leave int) (free func()) {
	t.Helper()
	const chunk = 16 << 10
	buf := make([]byte, chunk)
	var written []string
	for i := 0; ; i++ {
		name := filepath.Join(dir, fmt.Sprintf("filler-%d", i))
		err := os.WriteFile(name, buf, 0o644)
		if err == nil {
			written = append(written, name)
			continue
		}
		if !errors.Is(err, syscall.ENOSPC) {
			t.Fatalf("filling %s: %v", dir, err)
		}
		_ = os.Remove(name) // a part of a chunk
		break
	}
	for freed := 0; freed < leave && len(written) > 0; freed += chunk {
		last := written[len(written)-1]
		written = written[:len(written)-1]
		if err := os.Remove(last); err != nil {
			t.Fatal(err)
		}
	}
	return func() {
		for _, name := range written {
			if err := os.Remove(name); err != nil {
				t.Error(err)
			}
		}
	}
}
