package runner

import (
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
)

// Environment variables that point the runners at their dependencies.
const (
	// EnvNodeModules is a node_modules directory holding @pulumi/pulumi
	// (default: tests/.deps/node/node_modules of this repository).
	EnvNodeModules = "POLYHOST_NODE_MODULES"
	// EnvPython is the Python interpreter with the pulumi package, normally a
	// virtualenv's bin/python (default: tests/.deps/venv/bin/python).
	EnvPython = "POLYHOST_PYTHON"
)

var errNoRepo = errors.New("not inside the polyhost repository")

// depsDir returns tests/.deps of the repository holding tests/setup.sh,
// found by walking up from the working directory, then from hint.
func depsDir(hint string) (string, error) {
	var starts []string
	if wd, err := os.Getwd(); err == nil {
		starts = append(starts, wd)
	}
	if hint != "" {
		starts = append(starts, hint)
	}
	for _, dir := range starts {
		for {
			if _, err := os.Stat(filepath.Join(dir, "tests", "setup.sh")); err == nil {
				return filepath.Join(dir, "tests", ".deps"), nil
			}
			parent := filepath.Dir(dir)
			if parent == dir {
				break
			}
			dir = parent
		}
	}
	return "", errNoRepo
}

// nodeModulesDir returns the shared node_modules directory and checks that
// @pulumi/pulumi is installed in it.
func nodeModulesDir(getenv func(string) string, hint string) (string, error) {
	dir := getenv(EnvNodeModules)
	from := EnvNodeModules
	if dir == "" {
		deps, err := depsDir(hint)
		if err != nil {
			return "", fmt.Errorf("%w: no node_modules with @pulumi/pulumi in %s or above it: run npm install there", ErrDepsMissing, hint)
		}
		dir, from = filepath.Join(deps, "node", "node_modules"), "default location"
	}
	run := filepath.Join(dir, "@pulumi", "pulumi", "cmd", "run", "index.js")
	if _, err := os.Stat(run); err != nil {
		return "", fmt.Errorf("%w: @pulumi/pulumi not found in %s (%s)", ErrDepsMissing, dir, remedy(from, EnvNodeModules, "a node_modules"))
	}
	return filepath.Abs(dir)
}

// pythonPath returns the shared Python interpreter and checks that it exists.
func pythonPath(getenv func(string) string, hint string) (string, error) {
	py := getenv(EnvPython)
	from := EnvPython
	if py == "" {
		deps, err := depsDir(hint)
		if err != nil {
			// As pulumi-language-python without a virtualenv option.
			if py, err := exec.LookPath("python3"); err == nil {
				return py, nil
			}
			return "", fmt.Errorf("%w: no python3 on PATH; name a virtualenv with the pulumi package in Pulumi.yaml (runtime option virtualenv)", ErrDepsMissing)
		}
		py, from = filepath.Join(deps, "venv", "bin", "python"), "default location"
	}
	if _, err := os.Stat(py); err != nil {
		return "", fmt.Errorf("%w: Python interpreter %s not found (%s)", ErrDepsMissing, py, remedy(from, EnvPython, "a Python"))
	}
	return filepath.Abs(py)
}

// remedy says how to mend a shared install that is missing: one set by
// env is the caller's to fix; the default location, in this repository,
// is what tests/setup.sh installs.
func remedy(from, env, what string) string {
	if from == env {
		return fmt.Sprintf("from %s: point it at %s with the pulumi package", env, what)
	}
	return fmt.Sprintf("%s: run bash tests/setup.sh, or set %s", from, env)
}
