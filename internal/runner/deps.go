package runner

import (
	"fmt"
	"os"
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
	return "", fmt.Errorf("%w: cannot find the repository (tests/setup.sh) above the working directory; "+
		"elsewhere, set %s to a node_modules with @pulumi/pulumi and %s to a Python with the pulumi package",
		ErrDepsMissing, EnvNodeModules, EnvPython)
}

// nodeModulesDir returns the shared node_modules directory and checks that
// @pulumi/pulumi is installed in it.
func nodeModulesDir(getenv func(string) string, hint string) (string, error) {
	dir := getenv(EnvNodeModules)
	from := EnvNodeModules
	if dir == "" {
		deps, err := depsDir(hint)
		if err != nil {
			return "", err
		}
		dir, from = filepath.Join(deps, "node", "node_modules"), "default location"
	}
	run := filepath.Join(dir, "@pulumi", "pulumi", "cmd", "run", "index.js")
	if _, err := os.Stat(run); err != nil {
		return "", fmt.Errorf("%w: @pulumi/pulumi not found in %s (%s; set %s to override)", ErrDepsMissing, dir, from, EnvNodeModules)
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
			return "", err
		}
		py, from = filepath.Join(deps, "venv", "bin", "python"), "default location"
	}
	if _, err := os.Stat(py); err != nil {
		return "", fmt.Errorf("%w: Python interpreter %s not found (%s; set %s to override)", ErrDepsMissing, py, from, EnvPython)
	}
	return filepath.Abs(py)
}
