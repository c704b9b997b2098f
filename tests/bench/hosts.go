package bench

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
)

// Deps is where tests/setup.sh installs the real CLI, Node.js packages and
// the Python virtualenv: tests/.deps under the module root.
func Deps(ctx context.Context) (string, error) {
	out, err := exec.CommandContext(ctx, "go", "env", "GOMOD").Output()
	if err != nil {
		return "", fmt.Errorf("go env GOMOD: %w", err)
	}
	mod := strings.TrimSpace(string(out))
	if mod == "" || mod == os.DevNull {
		return "", errors.New("not inside the module")
	}
	return filepath.Join(filepath.Dir(mod), "tests", ".deps"), nil
}

// HaveHosts reports whether deps has what the TypeScript and Python peers
// need: node on PATH, TypeScript and @pulumi/pulumi, and the virtualenv.
func HaveHosts(deps string) bool {
	if _, err := exec.LookPath("node"); err != nil {
		return false
	}
	for _, p := range []string{
		"node/node_modules/typescript/bin/tsc",
		"node/node_modules/@pulumi/pulumi/provider/experimental/provider.js",
		"venv/bin/python",
	} {
		if _, err := os.Stat(filepath.Join(deps, p)); err != nil {
			return false
		}
	}
	return true
}

// BuildHosts adds the TypeScript and Python peers to b, in dir: each a
// script real/pulumi-resource-<pkg> that execs node or python on the
// peer's source (TypeScript compiled first, beside its source, which the
// host's analyzer reads), behind the wrapper Build made. Run it from
// inside the module, after Build.
func BuildHosts(ctx context.Context, b *Binaries, dir, deps string) error {
	root := filepath.Dir(filepath.Dir(deps)) // deps is <root>/tests/.deps
	wrapper, err := os.ReadFile(b.Wrapper)
	if err != nil {
		return err
	}
	node, err := exec.LookPath("node")
	if err != nil {
		return err
	}
	for _, impl := range Hosts {
		src := filepath.Join(dir, string(impl), "src")
		if err := os.MkdirAll(src, 0o755); err != nil {
			return err
		}
		var script string
		switch impl {
		case TypeScript:
			for _, f := range []string{"index.ts", "package.json", "tsconfig.json"} {
				if err := copyFile(filepath.Join(root, "tests", "bench", "peers", "typescript", f), filepath.Join(src, f)); err != nil {
					return err
				}
			}
			if err := os.Symlink(filepath.Join(deps, "node", "node_modules"), filepath.Join(src, "node_modules")); err != nil {
				return err
			}
			tsc := exec.CommandContext(ctx, node, filepath.Join(src, "node_modules", "typescript", "bin", "tsc"), "-p", src)
			if msg, err := tsc.CombinedOutput(); err != nil {
				return fmt.Errorf("tsc: %v\n%s", err, msg)
			}
			script = fmt.Sprintf("#!/bin/sh\nexec %s %s \"$@\"\n", node, filepath.Join(src, "index.js"))
		case Python:
			main := filepath.Join(src, "sitekitpy.py")
			if err := copyFile(filepath.Join(root, "tests", "bench", "peers", "python", "sitekitpy.py"), main); err != nil {
				return err
			}
			script = fmt.Sprintf("#!/bin/sh\nexec %s %s \"$@\"\n", filepath.Join(deps, "venv", "bin", "python"), main)
		}
		name := "pulumi-resource-" + impl.Package()
		direct := filepath.Join(dir, string(impl), "real", name)
		if err := os.MkdirAll(filepath.Dir(direct), 0o755); err != nil {
			return err
		}
		if err := os.WriteFile(direct, []byte(script), 0o755); err != nil {
			return err
		}
		wrapped := filepath.Join(dir, string(impl), name)
		if err := os.WriteFile(wrapped, wrapper, 0o755); err != nil {
			return err
		}
		b.Direct[impl], b.Wrapped[impl] = direct, wrapped
	}
	return nil
}

func copyFile(from, to string) error {
	data, err := os.ReadFile(from)
	if err != nil {
		return err
	}
	return os.WriteFile(to, data, 0o644)
}

// Versions are what the peers and the real engine run on, for the report.
func Versions(ctx context.Context, deps string) map[string]string {
	v := map[string]string{}
	run := func(key string, name string, args ...string) {
		out, err := exec.CommandContext(ctx, name, args...).Output()
		if err != nil {
			v[key] = "unknown"
			return
		}
		v[key] = strings.TrimSpace(strings.SplitN(string(out), "\n", 2)[0])
	}
	pkgVersion := func(key, file string) {
		var p struct{ Version string }
		data, err := os.ReadFile(file)
		if err == nil {
			err = json.Unmarshal(data, &p)
		}
		if err != nil || p.Version == "" {
			v[key] = "unknown"
			return
		}
		v[key] = p.Version
	}
	run("pulumi CLI", filepath.Join(deps, "bin", "pulumi"), "version")
	run("Go SDK (github.com/pulumi/pulumi/sdk/v3)", "go", "list", "-m", "-f", "{{.Version}}", "github.com/pulumi/pulumi/sdk/v3")
	run("Node.js", "node", "--version")
	pkgVersion("@pulumi/pulumi (npm)", filepath.Join(deps, "node", "node_modules", "@pulumi", "pulumi", "package.json"))
	pkgVersion("TypeScript", filepath.Join(deps, "node", "node_modules", "typescript", "package.json"))
	py := filepath.Join(deps, "venv", "bin", "python")
	run("Python", py, "--version")
	run("pulumi (PyPI)", py, "-c", "import importlib.metadata as m; print(m.version('pulumi'))")
	return v
}
