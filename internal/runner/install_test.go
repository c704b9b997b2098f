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
