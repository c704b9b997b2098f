package polyup_test

import (
	"context"
	"errors"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/polyhost/polyhost/internal/runner"
	"github.com/polyhost/polyhost/polyup"
)

// These tests run a program as an author's module does: from a directory
// outside this repository, with no POLYHOST_* variables, so the program's
// own node_modules or virtualenv (or python3) must do. They use t.Chdir and
// t.Setenv, so they do not run in parallel. The shared installs of
// tests/setup.sh serve only as the source of those dependencies.

// outside moves the test out of the repository and returns the repository
// root and a program directory holding files.
func outside(t *testing.T, files map[string]string) (repo, prog string) {
	repo, err := filepath.Abs("..")
	if err != nil {
		t.Fatal(err)
	}
	t.Chdir(t.TempDir())
	t.Setenv(runner.EnvNodeModules, "")
	t.Setenv(runner.EnvPython, "")
	prog = filepath.Join(t.TempDir(), "prog")
	for name, body := range files {
		p := filepath.Join(prog, name)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return repo, prog
}

// up runs the program; New reads the program's packages, so it may fail
// for missing dependencies too.
func up(t *testing.T, prog string) (*polyup.Result, error) {
	t.Helper()
	s, err := polyup.New(prog, polyup.Options{StateFile: filepath.Join(t.TempDir(), "dev.json")})
	if err != nil {
		return nil, err
	}
	return s.Up(context.Background())
}

// sharedDeps is a shared install of tests/setup.sh, or a skip.
func sharedDeps(t *testing.T, repo string, parts ...string) string {
	p := filepath.Join(append([]string{repo, "tests", ".deps"}, parts...)...)
	if _, err := os.Stat(p); err != nil {
		t.Skipf("%s is missing: run bash tests/setup.sh", p)
	}
	return p
}

// realPath resolves symbolic links (the temporary directory may be one).
func realPath(t *testing.T, p string) string {
	r, err := filepath.EvalSymlinks(p)
	if err != nil {
		t.Fatal(err)
	}
	return r
}

var nodeProgram = map[string]string{
	"Pulumi.yaml":  "name: own\nruntime:\n  name: nodejs\n  options:\n    typescript: false\n",
	"package.json": `{"name": "own", "main": "index.js", "dependencies": {"@pulumi/pulumi": "^3"}}`,
	"index.js":     `module.exports = { sdk: require.resolve("@pulumi/pulumi/package.json") };` + "\n",
}

// A program with a node_modules of its own (here a copy of the shared
// install, hard-linked, as npm install would have written it) runs on its
// own @pulumi/pulumi.
func TestOutsideOwnNodeModules(t *testing.T) {
	repo, prog := outside(t, nodeProgram)
	copyTree(t, sharedDeps(t, repo, "node", "node_modules"), filepath.Join(prog, "node_modules"))
	res, err := up(t, prog)
	if err != nil {
		t.Fatal(err)
	}
	want := filepath.Join(realPath(t, prog), "node_modules", "@pulumi", "pulumi", "package.json")
	if got := res.Outputs.Get("sdk").AsString(); got != want {
		t.Errorf("the program loaded %s, want its own %s", got, want)
	}
}

// An @pulumi/pulumi that is a symbolic link the user made (pnpm's layout,
// npm link) is the program's own too.
func TestOutsideLinkedPulumiPackage(t *testing.T) {
	repo, prog := outside(t, nodeProgram)
	store := filepath.Join(t.TempDir(), "node_modules")
	copyTree(t, sharedDeps(t, repo, "node", "node_modules"), store)
	if err := os.MkdirAll(filepath.Join(prog, "node_modules", "@pulumi"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(filepath.Join(store, "@pulumi", "pulumi"), filepath.Join(prog, "node_modules", "@pulumi", "pulumi")); err != nil {
		t.Fatal(err)
	}
	res, err := up(t, prog)
	if err != nil {
		t.Fatal(err)
	}
	want := filepath.Join(realPath(t, store), "@pulumi", "pulumi", "package.json")
	if got := res.Outputs.Get("sdk").AsString(); got != want {
		t.Errorf("the program loaded %s, want the linked %s", got, want)
	}
}

// Without a node_modules, the error says where to run npm install (and
// nothing of this repository's tests/setup.sh).
func TestOutsideMissingNodeModules(t *testing.T) {
	_, prog := outside(t, nodeProgram)
	_, err := up(t, prog)
	if !errors.Is(err, runner.ErrDepsMissing) || !strings.Contains(err.Error(), "no node_modules with @pulumi/pulumi in "+prog+" or above it: run npm install there") ||
		strings.Contains(err.Error(), "setup.sh") {
		t.Errorf("error %v, want one saying to run npm install in %s", err, prog)
	}
}

const pythonMain = "import sys\nimport pulumi\npulumi.export('prefix', sys.prefix)\n"

// A Python program runs on the virtualenv its Pulumi.yaml names (here one
// made on the shared virtualenv, as pulumi install would make it with
// pip); one that names none runs on python3 from PATH.
func TestOutsidePython(t *testing.T) {
	repo, prog := outside(t, map[string]string{
		"Pulumi.yaml": "name: own\nruntime:\n  name: python\n  options:\n    virtualenv: venv\n",
		"__main__.py": pythonMain,
	})
	shared := sharedDeps(t, repo, "venv", "bin", "python")
	venv := filepath.Join(prog, "venv")
	if out, err := exec.Command(shared, "-m", "venv", "--without-pip", venv).CombinedOutput(); err != nil {
		t.Fatalf("creating %s: %v\n%s", venv, err, out)
	}
	purelib := `import sysconfig; print(sysconfig.get_paths()["purelib"])`
	sharedLib, err := exec.Command(shared, "-c", purelib).Output()
	if err != nil {
		t.Fatal(err)
	}
	ownLib, err := exec.Command(filepath.Join(venv, "bin", "python"), "-c", purelib).Output()
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(strings.TrimSpace(string(ownLib)), "shared.pth"), sharedLib, 0o644); err != nil {
		t.Fatal(err)
	}
	res, err := up(t, prog)
	if err != nil {
		t.Fatal(err)
	}
	if got := res.Outputs.Get("prefix").AsString(); realPath(t, got) != realPath(t, venv) {
		t.Errorf("the program ran in %s, want its virtualenv %s", got, venv)
	}

	// No virtualenv option: python3 from PATH (here one that runs the
	// shared virtualenv's interpreter).
	if err := os.WriteFile(filepath.Join(prog, "Pulumi.yaml"), []byte("name: own\nruntime: python\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	bin := t.TempDir()
	if err := os.WriteFile(filepath.Join(bin, "python3"), []byte("#!/bin/sh\nexec "+shared+" \"$@\"\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	t.Setenv("PATH", bin+string(os.PathListSeparator)+os.Getenv("PATH"))
	res, err = up(t, prog)
	if err != nil {
		t.Fatal(err)
	}
	sharedVenv := filepath.Dir(filepath.Dir(shared))
	if got := res.Outputs.Get("prefix").AsString(); realPath(t, got) != realPath(t, sharedVenv) {
		t.Errorf("the program ran in %s, want python3 from PATH (%s)", got, sharedVenv)
	}
}

// Missing Python dependencies are named: the virtualenv Pulumi.yaml names,
// or python3.
func TestOutsideMissingPython(t *testing.T) {
	_, prog := outside(t, map[string]string{
		"Pulumi.yaml": "name: own\nruntime:\n  name: python\n  options:\n    virtualenv: venv\n",
		"__main__.py": pythonMain,
	})
	_, err := up(t, prog)
	want := "Pulumi.yaml names the virtualenv " + filepath.Join(prog, "venv") + " (runtime option virtualenv), which does not exist"
	if !errors.Is(err, runner.ErrDepsMissing) || !strings.Contains(err.Error(), want) || strings.Contains(err.Error(), "setup.sh") {
		t.Errorf("error %v, want %q", err, want)
	}
	if err := os.WriteFile(filepath.Join(prog, "Pulumi.yaml"), []byte("name: own\nruntime: python\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	t.Setenv("PATH", t.TempDir())
	_, err = up(t, prog)
	if !errors.Is(err, runner.ErrDepsMissing) || !strings.Contains(err.Error(), "no python3 on PATH") || strings.Contains(err.Error(), "setup.sh") {
		t.Errorf("error %v, want one saying there is no python3 on PATH", err)
	}
}

// copyTree copies a directory tree, hard-linking files where it can and
// keeping symbolic links as they are.
func copyTree(t *testing.T, src, dst string) {
	t.Helper()
	err := filepath.WalkDir(src, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(src, p)
		out := filepath.Join(dst, rel)
		switch {
		case d.IsDir():
			return os.MkdirAll(out, 0o755)
		case d.Type()&fs.ModeSymlink != 0:
			target, err := os.Readlink(p)
			if err != nil {
				return err
			}
			return os.Symlink(target, out)
		}
		if os.Link(p, out) == nil {
			return nil
		}
		data, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		info, err := d.Info()
		if err != nil {
			return err
		}
		return os.WriteFile(out, data, info.Mode().Perm())
	})
	if err != nil {
		t.Fatal(err)
	}
}
