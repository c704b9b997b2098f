package runner

import (
	"os"
	"path/filepath"
	"reflect"
	"testing"

	"github.com/polyhost/polyhost/tests/engine"
)

func TestRequiredPackages(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	files := map[string]string{
		// Not resource packages.
		"node_modules/@pulumi/pulumi/package.json": `{"name": "@pulumi/pulumi", "version": "3.200.0"}`,
		"node_modules/left-pad/package.json":       `{"name": "left-pad", "version": "1.0.0", "pulumi": {}}`,
		"node_modules/broken/package.json":         `{`,
		// A generated SDK: name and version from the "pulumi" section.
		"node_modules/@acme/sitekit/package.json": `{"name": "@acme/sitekit", "version": "9.9.9",
			"pulumi": {"resource": true, "name": "sitekit", "version": "0.1.0"}}`,
		// Name from the package, version from the package, nested.
		"node_modules/left-pad/node_modules/@pulumi/random/package.json": `{"name": "@pulumi/random", "version": "4.1.0",
			"pulumi": {"resource": true, "server": "https://example.com/"}}`,
		"node_modules/@other/thing/package.json": `{"name": "@other/thing", "version": "v2.0.0", "pulumi": {"resource": true}}`,
		// Outside node_modules: not a dependency.
		"sdk/package.json": `{"name": "sdk", "version": "1.0.0", "pulumi": {"resource": true}}`,
	}
	for name, body := range files {
		path := filepath.Join(dir, name)
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	// A link back to the top node_modules is read once.
	loop := filepath.Join(dir, "node_modules", "left-pad", "node_modules", "loop")
	if err := os.MkdirAll(loop, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(filepath.Join(dir, "node_modules"), filepath.Join(loop, "node_modules")); err != nil {
		t.Fatal(err)
	}
	got, err := RequiredPackages(dir)
	if err != nil {
		t.Fatal(err)
	}
	want := []engine.Package{
		{Name: "other/thing", Version: "v2.0.0"},
		{Name: "random", Version: "4.1.0", PluginDownloadURL: "https://example.com/"},
		{Name: "sitekit", Version: "0.1.0"},
	}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("RequiredPackages = %+v, want %+v", got, want)
	}

	// No node_modules: nothing.
	if got, err := RequiredPackages(t.TempDir()); err != nil || len(got) != 0 {
		t.Fatalf("empty dir: %v, %v", got, err)
	}
}
