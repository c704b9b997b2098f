package reliability

import (
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// envRequireRealCLI set to 1 (tests/run.sh sets it) makes a missing pulumi
// CLI fail the tests that need it instead of skipping them.
const envRequireRealCLI = "POLYHOST_REQUIRE_PULUMI"

// realCLI is the real pulumi CLI, which tests/setup.sh builds into
// tests/.deps/bin with the YAML language host, running one YAML program
// hermetically: its home, a file backend and TMPDIR of its own. Every
// command's output is kept, for the secrets hunt.
type realCLI struct {
	t       *testing.T
	pulumi  string // the CLI's path
	prog    string // the program's directory
	backend string // the file backend: state, history, backups
	home    string // PULUMI_HOME
	tmp     string // TMPDIR
	env     []string
	out     []string // each command's line and combined output
}

// newRealCLI writes Pulumi.yaml (a YAML program using the sitekit plugin,
// whose resources, variables and outputs body gives) and makes a stack,
// dev. TMPDIR is tmp.
func newRealCLI(t *testing.T, body, tmp string) *realCLI {
	t.Helper()
	bin, err := filepath.Abs(filepath.Join("..", ".deps", "bin"))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(filepath.Join(bin, "pulumi")); err != nil {
		if os.Getenv(envRequireRealCLI) == "1" {
			t.Fatalf("the pulumi CLI is not in %s: run `bash tests/setup.sh` (%s=1 makes this an error)", bin, envRequireRealCLI)
		}
		t.Skipf("needs the pulumi CLI in %s (bash tests/setup.sh)", bin)
	}
	dir := t.TempDir()
	c := &realCLI{t: t, pulumi: filepath.Join(bin, "pulumi"), prog: filepath.Join(dir, "prog"), backend: filepath.Join(dir, "backend"), home: filepath.Join(dir, "home"), tmp: tmp}
	for _, d := range []string{c.prog, c.backend, c.home} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	program := fmt.Sprintf("name: hunt\nruntime: yaml\nplugins:\n  providers:\n    - name: sitekit\n      path: %s\n%s", filepath.Dir(pluginBin), body)
	if err := os.WriteFile(filepath.Join(c.prog, "Pulumi.yaml"), []byte(program), 0o644); err != nil {
		t.Fatal(err)
	}
	c.env = append(os.Environ(),
		"PATH="+bin+string(os.PathListSeparator)+os.Getenv("PATH"),
		"HOME="+dir,
		"TMPDIR="+tmp,
		"PULUMI_HOME="+c.home,
		"PULUMI_BACKEND_URL=file://"+c.backend,
		"PULUMI_CONFIG_PASSPHRASE=reliability",
		"PULUMI_SKIP_UPDATE_CHECK=true",
		"PULUMI_DISABLE_AUTOMATIC_PLUGIN_ACQUISITION=true",
		"PULUMI_SKIP_CONFIRMATIONS=true",
		"PULUMI_SUPPRESS_NEO_LINK=true",
	)
	c.must("stack", "init", "dev")
	return c
}

// run runs pulumi with args in the program's directory and returns its
// output, stdout and stderr together.
func (c *realCLI) run(args ...string) (string, error) {
	c.t.Helper()
	cmd := exec.Command(c.pulumi, args...)
	cmd.Dir, cmd.Env = c.prog, c.env
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	err := cmd.Run()
	c.out = append(c.out, "$ pulumi "+strings.Join(args, " ")+"\n"+out.String())
	return out.String(), err
}

// must runs pulumi and fails the test if it fails.
func (c *realCLI) must(args ...string) string {
	c.t.Helper()
	out, err := c.run(args...)
	if err != nil {
		c.t.Fatalf("pulumi %s: %v\n%s", strings.Join(args, " "), err, out)
	}
	return out
}

// secretConfig sets each key to its value, as a secret.
func (c *realCLI) secretConfig(kv map[string]string) {
	c.t.Helper()
	for k, v := range kv {
		// Not kept for the hunt: the command line holds the secret.
		if out, err := c.runUnrecorded("config", "set", "--secret", k, "--", v); err != nil {
			c.t.Fatalf("pulumi config set --secret %s: %v\n%s", k, err, out)
		}
	}
}
