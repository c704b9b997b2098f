package polytest

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"sync"

	"github.com/polyhost/polyhost/polyup"
)

// pluginPrefix starts the name of a provider plugin, and of its folder.
const pluginPrefix = "pulumi-resource-"

// errNoMain is Params called from a test binary whose TestMain does not
// call Main.
var errNoMain = errors.New("polytest: TestMain must call polytest.Main, which registers polyup and builds each plugin once")

// builds holds the plugins built so far by this test binary, by source
// folder, in a directory that Main keeps for the binary's life.
var builds struct {
	mu   sync.Mutex
	dir  string
	bins map[string]string
}

// moduleRoot is the folder of the go.mod above the working directory (the
// test's package).
func moduleRoot() (string, error) {
	dir, err := os.Getwd()
	if err != nil {
		return "", err
	}
	for d := dir; ; d = filepath.Dir(d) {
		if _, err := os.Stat(filepath.Join(d, "go.mod")); err == nil {
			return d, nil
		}
		if filepath.Dir(d) == d {
			return "", fmt.Errorf("polytest: no go.mod in %s or above it", dir)
		}
	}
}

// findPlugins returns the folders of the module named pulumi-resource-*
// that hold Go code, as an author lays them out (cmd/pulumi-resource-x,
// provider/cmd/pulumi-resource-x, ...), leaving out testdata, vendor,
// hidden folders and modules of their own.
func findPlugins(module string) ([]string, error) {
	var found []string
	err := filepath.WalkDir(module, func(path string, d fs.DirEntry, err error) error {
		if err != nil || !d.IsDir() || path == module {
			return err
		}
		name := d.Name()
		if name == "testdata" || name == "vendor" || name == "node_modules" || strings.HasPrefix(name, ".") || strings.HasPrefix(name, "_") {
			return filepath.SkipDir
		}
		if _, err := os.Stat(filepath.Join(path, "go.mod")); err == nil {
			return filepath.SkipDir
		}
		if strings.HasPrefix(name, pluginPrefix) && hasGoCode(path) {
			found = append(found, path)
		}
		return nil
	})
	if err == nil && len(found) == 0 {
		err = fmt.Errorf("polytest: no folder named %s<pkg> with Go code in the module %s: name the plugins' main packages with polytest.WithPlugins", pluginPrefix, module)
	}
	return found, err
}

func hasGoCode(dir string) bool {
	entries, _ := os.ReadDir(dir)
	for _, e := range entries {
		if n := e.Name(); strings.HasSuffix(n, ".go") && !strings.HasSuffix(n, "_test.go") {
			return true
		}
	}
	return false
}

// buildPlugins builds each plugin whose main package is in srcs, unless
// this test binary built it before, and links the binaries into dir.
func buildPlugins(srcs []string, dir string) error {
	builds.mu.Lock()
	defer builds.mu.Unlock()
	if builds.dir == "" {
		return errNoMain
	}
	if builds.bins == nil {
		builds.bins = map[string]string{}
	}
	names := map[string]string{}
	for _, src := range srcs {
		abs, err := filepath.Abs(src)
		if err != nil {
			return err
		}
		name := filepath.Base(abs)
		if other, ok := names[name]; ok && other != abs {
			return fmt.Errorf("polytest: two plugins named %s: %s and %s", name, other, abs)
		}
		names[name] = abs
		bin, ok := builds.bins[abs]
		if !ok {
			out := filepath.Join(builds.dir, fmt.Sprint(len(builds.bins)))
			if err := os.Mkdir(out, 0o755); err != nil {
				return err
			}
			if bin, err = polyup.BuildPlugin(context.Background(), abs, out); err != nil {
				return err
			}
			builds.bins[abs] = bin
		}
		if err := linkOrCopy(bin, filepath.Join(dir, name)); err != nil {
			return err
		}
	}
	return nil
}

func linkOrCopy(src, dst string) error {
	if os.Link(src, dst) == nil {
		return nil
	}
	data, err := os.ReadFile(src)
	if err != nil {
		return err
	}
	return os.WriteFile(dst, data, 0o755)
}
