// Package tftest builds the Terraform provider binaries the backend's
// tests run, once per test binary: terraform-provider-time v0.14.2
// (protocol 5), from the tools module tests/tools/tfprovidertime, and the
// kv test provider (protocol 6), internal/tfprov6's command. The Go build
// cache makes rebuilds fast. A TestMain calls [Cleanup] after its tests.
package tftest

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"sync"
	"testing"
)

type build struct {
	once sync.Once
	path string
	err  error
}

var (
	mu     sync.Mutex
	dir    string
	builds = map[string]*build{}
)

// TimeProvider is the path of a built terraform-provider-time.
func TimeProvider(t testing.TB) string {
	return binary(t, "terraform-provider-time", filepath.Join("tests", "tools", "tfprovidertime"), "github.com/hashicorp/terraform-provider-time")
}

// KVProvider is the path of a built terraform-provider-kv.
func KVProvider(t testing.TB) string {
	return binary(t, "terraform-provider-kv", ".", "./internal/tfprov6/cmd/terraform-provider-kv")
}

// Cleanup removes the binaries built.
func Cleanup() {
	mu.Lock()
	defer mu.Unlock()
	if dir != "" {
		_ = os.RemoveAll(dir)
	}
}

func binary(t testing.TB, name, moduleDir, pkg string) string {
	t.Helper()
	mu.Lock()
	b := builds[name]
	if b == nil {
		b = &build{}
		builds[name] = b
	}
	mu.Unlock()
	b.once.Do(func() {
		d, err := buildDir()
		if err != nil {
			b.err = err
			return
		}
		b.path = filepath.Join(d, name)
		cmd := exec.Command("go", "build", "-o", b.path, pkg)
		cmd.Dir = filepath.Join(repoRoot(), moduleDir)
		if out, err := cmd.CombinedOutput(); err != nil {
			b.err = fmt.Errorf("build %s: %v\n%s", name, err, out)
		}
	})
	if b.err != nil {
		t.Fatal(b.err)
	}
	return b.path
}

func buildDir() (string, error) {
	mu.Lock()
	defer mu.Unlock()
	if dir == "" {
		d, err := os.MkdirTemp("", "tftest")
		if err != nil {
			return "", err
		}
		dir = d
	}
	return dir, nil
}

// repoRoot is the module's root, four folders above this file.
func repoRoot() string {
	_, file, _, _ := runtime.Caller(0)
	return filepath.Join(filepath.Dir(file), "..", "..", "..", "..")
}
