package runner

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"maps"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
)

// Install installs a program's dependencies where `pulumi install` (and
// `pulumi package add`) asks pulumi-language-<runtime> to, but offline, from
// the shared installs of tests/setup.sh:
//
//   - nodejs: links the program's `file:` dependencies into node_modules,
//     with the shared packages unless the program has an @pulumi/pulumi of
//     its own (npm install), then runs each `file:` dependency's
//     preinstall, install and postinstall scripts in its folder with that
//     node_modules' .bin on PATH, as npm does: the local SDK of `pulumi
//     package add` compiles itself in its postinstall;
//   - python: with the runtime option `virtualenv`, creates that virtualenv
//     on top of the shared one (a .pth file adds the shared site-packages)
//     and pip installs requirements.txt into it, with no index; without the
//     option the program runs in the shared virtualenv and nothing is
//     installed;
//   - go and others: nothing; Go programs build from the module cache.
//
// What the steps print goes to stdout and stderr.
func Install(ctx context.Context, runtime, root, programDir string, opts map[string]any, stdout, stderr io.Writer) error {
	s := spec{root: root, pwd: programDir, entry: ".", opts: opts}
	switch runtime {
	case "nodejs":
		return installNode(ctx, s, stdout, stderr)
	case "python":
		return installPython(ctx, s, stdout, stderr)
	}
	_, err := fmt.Fprintf(stdout, "polyhost test language host: nothing to install for %s programs\n", runtime)
	return err
}

// npmInstallScripts are the lifecycle scripts npm runs, in order, for an
// installed dependency.
var npmInstallScripts = []string{"preinstall", "install", "postinstall"}

func installNode(ctx context.Context, s spec, stdout, stderr io.Writer) error {
	modules, local, err := nodeInstall(s.pwd)
	if err != nil {
		return fmt.Errorf("nodejs program in %s: %w", s.pwd, err)
	}
	env := prependPath(os.Environ(), filepath.Join(modules, ".bin"))
	for _, name := range slices.Sorted(maps.Keys(local)) {
		dir := local[name]
		scripts, err := npmScripts(dir)
		if err != nil {
			return fmt.Errorf("nodejs program in %s: dependency %s: %w", s.pwd, name, err)
		}
		for _, event := range npmInstallScripts {
			script, ok := scripts[event]
			if !ok {
				continue
			}
			fmt.Fprintf(stdout, "> %s %s: %s\n", name, event, script)
			cmd := exec.CommandContext(ctx, "sh", "-c", script)
			cmd.Dir, cmd.Env = dir, append(env, "npm_lifecycle_event="+event)
			cmd.Stdout, cmd.Stderr = stdout, stderr
			if err := cmd.Run(); err != nil {
				return fmt.Errorf("nodejs program in %s: dependency %s: %s script %q in %s: %w", s.pwd, name, event, script, dir, err)
			}
		}
	}
	return nil
}

// nodeInstall links the program's `file:` dependencies (by name, to their
// folders) into its node_modules: into its own install if it has one
// (whose node_modules it returns), else with the shared packages (and it
// returns the shared node_modules).
func nodeInstall(pwd string) (string, map[string]string, error) {
	own := ownPulumiPackage(pwd, os.Getenv)
	if own == "" {
		return linkSharedNodePackages(pwd, os.Getenv)
	}
	local, err := localNodePackages(pwd)
	if err != nil {
		return "", nil, err
	}
	return filepath.Dir(filepath.Dir(own)), local, linkNodePackages(pwd, local)
}

// npmScripts reads the "scripts" of dir/package.json.
func npmScripts(dir string) (map[string]string, error) {
	data, err := os.ReadFile(filepath.Join(dir, "package.json"))
	if err != nil {
		return nil, err
	}
	var pkg struct {
		Scripts map[string]string `json:"scripts"`
	}
	if err := json.Unmarshal(data, &pkg); err != nil {
		return nil, fmt.Errorf("%s: %w", filepath.Join(dir, "package.json"), err)
	}
	return pkg.Scripts, nil
}

func installPython(ctx context.Context, s spec, stdout, stderr io.Writer) error {
	fail := func(err error) error { return fmt.Errorf("python program in %s: %w", s.pwd, err) }
	venv, err := s.stringOpt("virtualenv")
	if err != nil {
		return fail(err)
	}
	if venv == "" {
		_, err := fmt.Fprintln(stdout, "polyhost test language host: no virtualenv runtime option, so the program runs in the shared virtualenv of tests/setup.sh; nothing installed")
		return err
	}
	if !filepath.IsAbs(venv) {
		venv = filepath.Join(s.root, venv)
	}
	shared, err := pythonPath(os.Getenv, s.pwd)
	if err != nil {
		return fail(err)
	}
	run := func(args ...string) (string, error) {
		var out strings.Builder
		cmd := exec.CommandContext(ctx, args[0], args[1:]...)
		cmd.Dir, cmd.Stdout, cmd.Stderr = s.pwd, &out, stderr
		if err := cmd.Run(); err != nil {
			return "", fmt.Errorf("%s: %w", strings.Join(args, " "), err)
		}
		return strings.TrimSpace(out.String()), nil
	}
	py := filepath.Join(venv, "bin", "python")
	if _, err := os.Stat(py); err != nil {
		// Without pip: the shared one installs into it (pip --python), and
		// the shared setuptools builds local packages.
		fmt.Fprintf(stdout, "creating virtualenv %s on the shared one (%s)\n", venv, shared)
		if _, err := run(shared, "-m", "venv", "--without-pip", venv); err != nil {
			return fail(err)
		}
	}
	const purelib = `import sysconfig; print(sysconfig.get_paths()["purelib"])`
	sharedLib, err := run(shared, "-c", purelib)
	if err != nil {
		return fail(err)
	}
	ownLib, err := run(py, "-c", purelib)
	if err != nil {
		return fail(err)
	}
	if err := os.WriteFile(filepath.Join(ownLib, "polyhost-shared.pth"), []byte(sharedLib+"\n"), 0o644); err != nil {
		return fail(err)
	}
	req := filepath.Join(s.pwd, "requirements.txt")
	if _, err := os.Stat(req); err != nil {
		return nil
	}
	cmd := exec.CommandContext(ctx, shared, "-m", "pip", "--python", py, "install",
		"--disable-pip-version-check", "--no-input", "--no-index", "--no-build-isolation", "-r", req)
	cmd.Dir, cmd.Stdout, cmd.Stderr = s.pwd, stdout, stderr
	if err := cmd.Run(); err != nil {
		return fail(fmt.Errorf("pip install -r %s (offline, on the shared virtualenv): %w", req, err))
	}
	return nil
}

// prependPath puts dir first on env's PATH.
func prependPath(env []string, dir string) []string {
	out := slices.Clone(env)
	for i, kv := range out {
		if v, ok := strings.CutPrefix(kv, "PATH="); ok {
			out[i] = "PATH=" + dir + string(os.PathListSeparator) + v
			return out
		}
	}
	return append(out, "PATH="+dir)
}
