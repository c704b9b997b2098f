package runner

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/polyhost/polyhost/internal/engine"
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
	writeFiles(t, dir, files)
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

// writeFiles writes files (path relative to dir: content) under dir.
func writeFiles(t *testing.T, dir string, files map[string]string) {
	t.Helper()
	for name, body := range files {
		path := filepath.Join(dir, name)
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

// A Go program: the modules its go.mod requires (here local replacements)
// count by their pulumi-plugin.json, found where pulumi-language-go looks.
func TestRequiredPackagesGo(t *testing.T) {
	if _, err := exec.LookPath("go"); err != nil {
		t.Skip("no go command")
	}
	// The temporary module is in no workspace, whatever the caller uses.
	t.Setenv("GOWORK", "off")
	dir := t.TempDir()
	writeFiles(t, dir, map[string]string{
		"prog/Pulumi.yaml": "name: prog\nruntime: go\n",
		"prog/go.mod": `module example.com/prog

go 1.21

require (
	example.com/sdk v0.0.0-00010101000000-000000000000
	github.com/acme/pulumi-widgets v1.4.1-0.20240102030405-abcdef123456
	example.com/plain v1.0.0
	example.com/notres v1.0.0
	example.com/dotgo v1.5.0 // indirect
)

replace (
	example.com/sdk => ../sdk
	github.com/acme/pulumi-widgets => ../widgets
	example.com/plain => ../plain
	example.com/notres => ../notres
	example.com/dotgo => ../dotgo
)
`,
		"prog/main.go": "package main\n\nfunc main() {}\n",
		// A generated SDK: pulumi-plugin.json in a directory below the root.
		"sdk/go.mod":                     "module example.com/sdk\n\ngo 1.21\n",
		"sdk/sitekit/pulumi-plugin.json": `{"resource": true, "name": "sitekit", "version": "0.1.0", "server": "https://example.com/dl"}`,
		// No name or version: both from the module (a pseudo-version taken
		// to the release before it).
		"widgets/go.mod":             "module github.com/acme/pulumi-widgets\n\ngo 1.21\n",
		"widgets/pulumi-plugin.json": `{"resource": true}`,
		// Under go/: found there.
		"dotgo/go.mod":                "module example.com/dotgo\n\ngo 1.21\n",
		"dotgo/go/pulumi-plugin.json": `{"resource": true, "name": "dotgo"}`,
		// Not resource packages.
		"plain/go.mod":              "module example.com/plain\n\ngo 1.21\n",
		"notres/go.mod":             "module example.com/notres\n\ngo 1.21\n",
		"notres/pulumi-plugin.json": `{"resource": false, "name": "notres", "version": "1.0.0"}`,
	})
	got, err := RequiredPackages(filepath.Join(dir, "prog"))
	if err != nil {
		t.Fatal(err)
	}
	want := []engine.Package{
		{Name: "dotgo", Version: "v1.5.0"},
		{Name: "sitekit", Version: "0.1.0", PluginDownloadURL: "https://example.com/dl"},
		{Name: "widgets", Version: "v1.4.0"},
	}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("RequiredPackages = %+v, want %+v", got, want)
	}

	// The program in a subdirectory of its module: the module's go.mod.
	writeFiles(t, dir, map[string]string{"prog/sub/main.go": "package main\n\nfunc main() {}\n"})
	got, err = ProgramPackages(context.Background(), "go", filepath.Join(dir, "prog"), filepath.Join(dir, "prog", "sub"), nil)
	if err != nil || !reflect.DeepEqual(got, want) {
		t.Fatalf("program in a subdirectory: %+v, %v; want %+v", got, err, want)
	}

	// Not in a module: nothing, as with the host.
	empty := t.TempDir()
	writeFiles(t, empty, map[string]string{"Pulumi.yaml": "name: x\nruntime: go\n"})
	if got, err := RequiredPackages(empty); err != nil || len(got) != 0 {
		t.Fatalf("no go.mod: %v, %v", got, err)
	}
}

func TestGoPluginVersion(t *testing.T) {
	t.Parallel()
	for in, want := range map[string]string{
		"0.1.0":                                "0.1.0",
		"v1.2.3":                               "v1.2.3",
		"v1.2.3-beta.1":                        "v1.2.3-beta.1",
		"v1.4.1-0.20240102030405-abcdef123456": "v1.4.0",
		"v2.0.0-20240102030405-abcdef123456":   "v2.0.0",
		"v1.2.4-rc.1.0.20240102030405-abcdef123456": "v1.2.3",
		"v0.0.0-20240102030405-abcdef123456":        "", // no release before it
		"latest":                                    "",
	} {
		got, ok := goPluginVersion(in)
		if got != want || ok != (want != "") {
			t.Errorf("goPluginVersion(%q) = %q, %v; want %q", in, got, ok, want)
		}
	}
}

// A Python program: the distributions in its virtualenv (a fresh one with
// a hand-made site-packages) count by their pulumi-plugin.json, or by a
// pulumi-* name, as with pulumi-language-python.
func TestRequiredPackagesPython(t *testing.T) {
	t.Parallel()
	python, err := exec.LookPath("python3")
	if err != nil {
		t.Skip("no python3")
	}
	dir := t.TempDir()
	venv := filepath.Join(dir, "venv")
	if out, err := exec.Command(python, "-m", "venv", "--without-pip", venv).CombinedOutput(); err != nil {
		t.Skipf("python3 -m venv: %v\n%s", err, out)
	}
	site, err := filepath.Glob(filepath.Join(venv, "lib", "python*", "site-packages"))
	if err != nil || len(site) != 1 {
		t.Fatalf("site-packages in %s: %v, %v", venv, site, err)
	}
	dist := func(name, version string, files map[string]string) {
		all := map[string]string{
			name + "-" + version + ".dist-info/METADATA": "Metadata-Version: 2.1\nName: " + name + "\nVersion: " + version + "\n",
		}
		for k, v := range files {
			all[k] = v
		}
		writeFiles(t, site[0], all)
	}
	// A generated SDK: name and version from its pulumi-plugin.json.
	dist("polyhost_sitekit", "9.9.9", map[string]string{
		"polyhost_sitekit/__init__.py":        "",
		"polyhost_sitekit/pulumi-plugin.json": `{"resource": true, "name": "sitekit", "version": "0.1.0", "server": "https://example.com/dl"}`,
	})
	// No file but a pulumi-* name: name and (PEP 440) version from the
	// distribution.
	dist("pulumi_random", "4.16.0a1", map[string]string{"pulumi_random/__init__.py": ""})
	// A file without name or version.
	dist("pulumi-extra", "2.1", map[string]string{"pulumi_extra/__init__.py": "", "pulumi_extra/pulumi-plugin.json": `{"resource": true}`})
	// Not resource packages.
	dist("pulumi", "3.200.0", map[string]string{"pulumi/__init__.py": ""})
	dist("pulumi_policy", "1.0.0", map[string]string{"pulumi_policy/__init__.py": ""})
	dist("notres", "1.0.0", map[string]string{"notres/__init__.py": "", "notres/pulumi-plugin.json": `{"resource": false}`})
	dist("pulumi_weird", "1.0.0!", map[string]string{"pulumi_weird/__init__.py": ""}) // no plugin version
	dist("requests", "2.0.0", map[string]string{"requests/__init__.py": ""})

	writeFiles(t, dir, map[string]string{
		"Pulumi.yaml": "name: py\nruntime:\n  name: python\n  options:\n    virtualenv: venv\n",
		"__main__.py": "",
	})
	got, err := RequiredPackages(dir)
	if err != nil {
		t.Fatal(err)
	}
	want := []engine.Package{
		{Name: "extra", Version: "v2.1.0"},
		{Name: "random", Version: "v4.16.0-alpha.1"},
		{Name: "sitekit", Version: "v0.1.0", PluginDownloadURL: "https://example.com/dl"},
	}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("RequiredPackages = %+v, want %+v", got, want)
	}
}

func TestPluginVersionFromPEP440(t *testing.T) {
	t.Parallel()
	for in, want := range map[string]string{
		"1":                 "1.0.0",
		"1.2":               "1.2.0",
		"1.2.3":             "1.2.3",
		"1.2.3.4":           "1.2.3.4",
		"1.2.3a4":           "1.2.3-alpha.4",
		"1.2.3b4":           "1.2.3-beta.4",
		"1.2.3rc4":          "1.2.3-rc.4",
		"1.2.3.post4":       "1.2.3+post4",
		"1.2.3.dev5":        "1.2.3+dev5",
		"1.2.3.post4.dev5":  "1.2.3+post4dev5",
		"3.31.0a1605189729": "3.31.0-alpha.1605189729",
		"1!1.2.3":           "",
		"":                  "",
		"1.2.3+local":       "",
		"1.x":               "",
	} {
		got, err := pluginVersionFromPEP440(in)
		if got != want || (err == nil) != (want != "") {
			t.Errorf("pluginVersionFromPEP440(%q) = %q, %v; want %q", in, got, err, want)
		}
	}
}

// A Node program's `file:` dependency is linked into its node_modules, as
// `npm install` links it, before its packages are read: a generated SDK
// outside node_modules counts once the program depends on it. One that
// names a missing directory is an error naming the dependency.
func TestRequiredPackagesLinksFileDependencies(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	sdk := filepath.Join(dir, "sdk", "nodejs", "bin")
	prog := filepath.Join(dir, "prog")
	writeFiles(t, dir, map[string]string{
		"sdk/nodejs/bin/package.json": `{"name": "@acme/sitekit", "version": "0.1.0",
			"pulumi": {"resource": true, "name": "sitekit", "version": "0.1.0"}}`,
		"prog/package.json": `{"dependencies": {"@acme/sitekit": "file:../sdk/nodejs/bin", "left-pad": "1.0.0"}}`,
	})
	got, err := RequiredPackages(prog)
	if err != nil {
		t.Fatal(err)
	}
	if want := []engine.Package{{Name: "sitekit", Version: "0.1.0"}}; !reflect.DeepEqual(got, want) {
		t.Fatalf("RequiredPackages = %+v, want %+v", got, want)
	}
	if target, err := os.Readlink(filepath.Join(prog, "node_modules", "@acme", "sitekit")); err != nil || target != sdk {
		t.Errorf("node_modules/@acme/sitekit links to %q (%v), want %q", target, err, sdk)
	}

	if err := os.WriteFile(filepath.Join(prog, "package.json"), []byte(`{"dependencies": {"@acme/gone": "file:../nowhere"}}`), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := RequiredPackages(prog); err == nil || !strings.Contains(err.Error(), `dependency @acme/gone is "file:../nowhere"`) {
		t.Errorf("a missing file: dependency: err = %v, want one naming it", err)
	}
}
