package runner

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// Install of a Node program runs its `file:` dependencies' install scripts
// in npm's order, in the dependency's folder, with the shared .bin on PATH;
// a failing script is an error naming the dependency and the script.
func TestInstallNodeRunsLifecycleScripts(t *testing.T) {
	dir := t.TempDir()
	writeFiles(t, dir, map[string]string{
		"package.json": `{"dependencies": {"local": "file:./local"}}`,
		"local/package.json": `{"name": "local", "scripts": {
			"postinstall": "tsc --version >> ../order && pwd >> ../order",
			"preinstall": "echo pre >> ../order",
			"test": "echo never >> ../order"}}`,
	})
	var stdout, stderr bytes.Buffer
	if err := Install(testCtx(t), "nodejs", dir, dir, nil, &stdout, &stderr); err != nil {
		t.Fatalf("Install: %v\nstderr: %s", err, stderr.String())
	}
	order, err := os.ReadFile(filepath.Join(dir, "order"))
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSpace(string(order)), "\n")
	if len(lines) != 3 || lines[0] != "pre" || !strings.HasPrefix(lines[1], "Version ") || lines[2] != filepath.Join(dir, "local") {
		t.Errorf("scripts ran as %q, want pre, tsc's version, then the folder %s", lines, filepath.Join(dir, "local"))
	}
	if !strings.Contains(stdout.String(), "> local postinstall: tsc --version") {
		t.Errorf("stdout does not announce the postinstall script:\n%s", stdout.String())
	}
	if target, err := os.Readlink(filepath.Join(dir, "node_modules", "local")); err != nil || target != filepath.Join(dir, "local") {
		t.Errorf("node_modules/local links to %q (%v), want %s", target, err, filepath.Join(dir, "local"))
	}

	writeFiles(t, dir, map[string]string{
		"local/package.json": `{"name": "local", "scripts": {"install": "exit 3"}}`,
	})
	err = Install(testCtx(t), "nodejs", dir, dir, nil, &stdout, &stderr)
	if err == nil || !strings.Contains(err.Error(), `dependency local: install script "exit 3"`) {
		t.Errorf("Install with a failing script: %v, want an error naming the dependency and script", err)
	}
}

// Install of a Python program with a `virtualenv` option creates it on the
// shared virtualenv and installs requirements.txt into it, offline; without
// the option nothing is installed.
func TestInstallPythonVirtualenv(t *testing.T) {
	dir := t.TempDir()
	writeFiles(t, dir, map[string]string{
		"requirements.txt":        "pulumi>=3.0.0,<4.0.0\n./localpkg\n",
		"localpkg/setup.py":       "from setuptools import setup\nsetup(name='polyhost-install-probe', version='1.2.3', py_modules=['probe'])\n",
		"localpkg/probe.py":       "WHERE = __file__\n",
		"localpkg/pyproject.toml": "[build-system]\nrequires = ['setuptools']\nbuild-backend = 'setuptools.build_meta'\n",
	})
	var stdout, stderr bytes.Buffer
	if err := Install(testCtx(t), "python", dir, dir, nil, &stdout, &stderr); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(stdout.String(), "nothing installed") {
		t.Errorf("without a virtualenv option: %q, want it to say nothing was installed", stdout.String())
	}
	if _, err := os.Stat(filepath.Join(dir, "venv")); err == nil {
		t.Error("without a virtualenv option a virtualenv was created")
	}

	opts := map[string]any{"virtualenv": "venv"}
	if err := Install(testCtx(t), "python", dir, dir, opts, &stdout, &stderr); err != nil {
		t.Fatalf("Install: %v\nstderr: %s", err, stderr.String())
	}
	p := &pythonProgram{spec: spec{root: dir, pwd: dir, entry: ".", opts: opts}}
	py, err := p.interpreter()
	if err != nil || py != filepath.Join(dir, "venv", "bin", "python") {
		t.Fatalf("interpreter %q (%v), want the program's virtualenv", py, err)
	}
	// The local package from the program's virtualenv, pulumi from the shared one.
	out, err := exec.Command(py, "-c", "import probe, pulumi; print(probe.__file__); print(pulumi.__file__)").Output()
	where := strings.Fields(string(out))
	if err != nil || len(where) != 2 || !strings.HasPrefix(where[0], filepath.Join(dir, "venv")+"/") || strings.HasPrefix(where[1], dir) {
		t.Errorf("imported probe and pulumi from %q (%v), want the program's virtualenv, then the shared one", where, err)
	}
}

// A program with an @pulumi/pulumi of its own (npm install) has its
// `file:` dependencies linked into its own node_modules and their scripts
// run with its own .bin on PATH; the shared packages are not linked in.
func TestInstallNodeOwnModules(t *testing.T) {
	dir := t.TempDir()
	writeFiles(t, dir, map[string]string{
		"package.json": `{"dependencies": {"@pulumi/pulumi": "^3", "local": "file:./local"}}`,
		"node_modules/@pulumi/pulumi/cmd/run/index.js": "",
		"node_modules/.bin/own-build":                  "#!/bin/sh\necho own > built\n",
		"local/package.json":                           `{"name": "local", "scripts": {"postinstall": "own-build"}}`,
	})
	if err := os.Chmod(filepath.Join(dir, "node_modules", ".bin", "own-build"), 0o755); err != nil {
		t.Fatal(err)
	}
	var stdout, stderr bytes.Buffer
	if err := Install(testCtx(t), "nodejs", dir, dir, nil, &stdout, &stderr); err != nil {
		t.Fatalf("Install: %v\nstderr: %s", err, stderr.String())
	}
	if got, err := os.ReadFile(filepath.Join(dir, "local", "built")); err != nil || string(got) != "own\n" {
		t.Errorf("the postinstall ran with %q (%v), want the program's own .bin", got, err)
	}
	if target, err := os.Readlink(filepath.Join(dir, "node_modules", "local")); err != nil || target != filepath.Join(dir, "local") {
		t.Errorf("node_modules/local links to %q (%v), want %s", target, err, filepath.Join(dir, "local"))
	}
	if _, err := os.Lstat(filepath.Join(dir, "node_modules", "typescript")); err == nil {
		t.Error("the shared typescript was linked into a program with its own install")
	}
}

// The program's own @pulumi/pulumi is found as require.resolve finds it: a
// real directory, or a link the user made (pnpm, npm link), in the
// program's node_modules or an ancestor's. A link in the program's
// node_modules to the shared install is ours, not the program's.
func TestOwnPulumiPackage(t *testing.T) {
	t.Parallel()
	fake := func(modules string) string {
		writeFiles(t, modules, map[string]string{"@pulumi/pulumi/cmd/run/index.js": ""})
		return filepath.Join(modules, "@pulumi", "pulumi")
	}
	link := func(target, modules string) string {
		pkg := filepath.Join(modules, "@pulumi", "pulumi")
		if err := os.MkdirAll(filepath.Dir(pkg), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.Symlink(target, pkg); err != nil {
			t.Fatal(err)
		}
		return pkg
	}
	shared := filepath.Join(t.TempDir(), "node_modules")
	sharedPkg := fake(shared)
	pnpm := fake(filepath.Join(t.TempDir(), ".pnpm", "node_modules"))
	getenv := func(k string) string {
		if k == EnvNodeModules {
			return shared
		}
		return ""
	}
	for name, tc := range map[string]func(prog string) string{
		"none":              func(prog string) string { return "" },
		"own directory":     func(prog string) string { return fake(filepath.Join(prog, "node_modules")) },
		"user's link":       func(prog string) string { return link(pnpm, filepath.Join(prog, "node_modules")) },
		"our link":          func(prog string) string { link(sharedPkg, filepath.Join(prog, "node_modules")); return "" },
		"ancestor's":        func(prog string) string { return fake(filepath.Join(filepath.Dir(prog), "node_modules")) },
		"ancestor's a link": func(prog string) string { return link(sharedPkg, filepath.Join(filepath.Dir(prog), "node_modules")) },
	} {
		prog := filepath.Join(t.TempDir(), "prog")
		if err := os.MkdirAll(prog, 0o755); err != nil {
			t.Fatal(err)
		}
		want := tc(prog)
		if got := ownPulumiPackage(prog, getenv); got != want {
			t.Errorf("%s: ownPulumiPackage = %q, want %q", name, got, want)
		}
	}
}
