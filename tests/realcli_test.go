package tests

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"strings"

	"github.com/rogpeppe/go-internal/testscript"
)

// EnvRequireRealCLI set to 1 (tests/run.sh, and so CI, sets it) makes a
// missing pulumi CLI fail the scripts that need it instead of skipping them.
const EnvRequireRealCLI = "POLYHOST_REQUIRE_PULUMI"

// toolsDir is where tests/setup.sh installs the real CLI and the language hosts.
func toolsDir(repo string) string { return filepath.Join(repo, "tests", ".deps", "bin") }

// haveRealCLI answers the [pulumi] condition.
func haveRealCLI(repo string) (bool, error) {
	if _, err := os.Stat(filepath.Join(toolsDir(repo), "pulumi")); err == nil {
		return true, nil
	}
	if _, err := exec.LookPath("pulumi"); err == nil {
		return true, nil
	}
	if os.Getenv(EnvRequireRealCLI) == "1" {
		return false, fmt.Errorf("the pulumi CLI is not installed in %s: run `bash tests/setup.sh` (%s=1 makes this an error)", toolsDir(repo), EnvRequireRealCLI)
	}
	return false, nil
}

// realCLIEnv makes the real CLI hermetic: its home, a file backend and the
// secrets passphrase under $WORK, no update checks and no plugin downloads.
func realCLIEnv(env *testscript.Env) error {
	backend := filepath.Join(env.WorkDir, ".backend")
	if err := os.MkdirAll(backend, 0o755); err != nil {
		return err
	}
	env.Setenv("BACKEND", backend)
	env.Setenv("PULUMI_HOME", filepath.Join(env.WorkDir, ".pulumi"))
	env.Setenv("PULUMI_BACKEND_URL", "file://"+backend)
	env.Setenv("PULUMI_CONFIG_PASSPHRASE", "polyhost-test")
	env.Setenv("PULUMI_SKIP_UPDATE_CHECK", "true")
	env.Setenv("PULUMI_DISABLE_AUTOMATIC_PLUGIN_ACQUISITION", "true")
	env.Setenv("PULUMI_SKIP_CONFIRMATIONS", "true")
	env.Setenv("PULUMI_SUPPRESS_NEO_LINK", "true")
	return nil
}

// cmdCpdir copies a program directory, leaving out what runs leave behind
// (node_modules, virtualenvs, state, stack config).
func cmdCpdir(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) != 2 {
		ts.Fatalf("usage: cpdir SRC DST")
	}
	src, dst := ts.MkAbs(args[0]), ts.MkAbs(args[1])
	skip := map[string]bool{"node_modules": true, "venv": true, ".polyup": true, ".sitekit": true, "__pycache__": true}
	err := filepath.WalkDir(src, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(src, path)
		name := d.Name()
		if skip[name] || (strings.HasPrefix(name, "Pulumi.") && name != "Pulumi.yaml" && name != "Pulumi.yml") {
			if d.IsDir() {
				return filepath.SkipDir
			}
			return nil
		}
		target := filepath.Join(dst, rel)
		if d.IsDir() {
			return os.MkdirAll(target, 0o755)
		}
		data, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		return os.WriteFile(target, data, 0o644)
	})
	ts.Check(err)
}

// cmdNoleak fails if TEXT occurs in any file under the paths: state,
// backend history and backups, logs.
func cmdNoleak(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) < 2 {
		ts.Fatalf("usage: noleak TEXT PATH...")
	}
	text := []byte(args[0])
	var found []string
	for _, root := range args[1:] {
		err := filepath.WalkDir(ts.MkAbs(root), func(path string, d fs.DirEntry, err error) error {
			if err != nil || d.IsDir() {
				return err
			}
			data, err := os.ReadFile(path)
			if err != nil {
				return err
			}
			if strings.Contains(string(data), string(text)) {
				found = append(found, path)
			}
			return nil
		})
		if errors.Is(err, fs.ErrNotExist) {
			ts.Fatalf("noleak: %s does not exist", root)
		}
		ts.Check(err)
	}
	if len(found) > 0 {
		ts.Fatalf("%q found in plaintext in:\n  %s", args[0], strings.Join(found, "\n  "))
	}
}
