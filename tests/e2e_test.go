package tests

import (
	"errors"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/rogpeppe/go-internal/testscript"

	"github.com/polyhost/polyhost/polytest"
	"github.com/polyhost/polyhost/tests/langhost"
)

func TestMain(m *testing.M) {
	// The real CLI starts pulumi-language-<runtime> from PATH: these come
	// first there (polytest puts its programs before tests/.deps/bin), so
	// scripts run the working tree's language host.
	cmds := map[string]func(){}
	for _, runtime := range []string{"go", "nodejs", "python"} {
		cmds["pulumi-language-"+runtime] = func() { os.Exit(langhost.Main(runtime, os.Args[1:])) }
	}
	polytest.Main(m, cmds)
}

// TestScripts runs testdata/*.txtar on the public kit (package polytest),
// with this repository's plugins and what is private to it: the variables
// tests/testdata/README.md lists as such.
func TestScripts(t *testing.T) {
	repo, err := filepath.Abs("..")
	if err != nil {
		t.Fatal(err)
	}
	// The scripts' programs consume the sitekit SDKs that tests/setup.sh
	// generates with Pulumi's generators (committed in sdk/) and builds.
	sdk := filepath.Join(repo, "sdk")
	for _, f := range []string{"go/go.sum", "nodejs/bin/package.json", "python/setup.py"} {
		if _, err := os.Stat(filepath.Join(sdk, f)); err != nil {
			t.Fatalf("the generated sitekit SDKs are missing (%v): run bash tests/setup.sh", err)
		}
	}
	// A build whose storage fails on demand (SITEKIT_FAULT), for fault scripts.
	faulty := filepath.Join(t.TempDir(), "pulumi-resource-sitekit")
	build := exec.Command("go", "build", "-tags", "faultinject", "-o", faulty, "./provider/cmd/pulumi-resource-sitekit")
	build.Dir = repo
	if msg, err := build.CombinedOutput(); err != nil {
		t.Fatalf("building the provider with -tags faultinject: %v\n%s", err, msg)
	}
	// The kv Terraform provider (protocol 6) tfkit serves, found on PATH
	// as terraform-provider-time is (tests/setup.sh builds that one).
	tfbin := t.TempDir()
	build = exec.Command("go", "build", "-o", filepath.Join(tfbin, "terraform-provider-kv"), "./internal/tfprov6/cmd/terraform-provider-kv")
	build.Dir = repo
	if msg, err := build.CombinedOutput(); err != nil {
		t.Fatalf("building terraform-provider-kv: %v\n%s", err, msg)
	}
	gobin, err := exec.LookPath("go")
	if err != nil {
		t.Fatal(err)
	}
	// The PATH of whoever runs the tests, without the folder of the
	// programs TestMain registers (polyup among them), for scripts that
	// type what a user types.
	registered, err := exec.LookPath("polyup")
	if err != nil {
		t.Fatal(err)
	}
	var user []string
	for _, d := range filepath.SplitList(os.Getenv("PATH")) {
		if d != filepath.Dir(registered) {
			user = append(user, d)
		}
	}
	userPath := strings.Join(user, string(os.PathListSeparator))
	testscript.Run(t, polytest.Params(t, "testdata",
		polytest.WithPlugins(
			"../provider/cmd/pulumi-resource-sitekit",
			// Test packages (tests/internal), and tests/portal, a module of
			// its own on the generated sitekit Go SDK.
			"internal/secretbox/cmd/pulumi-resource-secretbox",
			"internal/shelf/cmd/pulumi-resource-shelf",
			"internal/lamp/cmd/pulumi-resource-lamp",
			"internal/tfkit/cmd/pulumi-resource-tfkit",
			"portal/cmd/pulumi-resource-portal",
			// The ready plugin for any Terraform provider (host/terraform).
			"../host/terraform/cmd/pulumi-resource-terraform-provider",
		),
		// The real CLI and the language hosts of tests/setup.sh.
		polytest.WithPath(filepath.Join(repo, "tests", ".deps", "bin"), tfbin),
		polytest.WithSetup(func(env *testscript.Env) error {
			env.Setenv("REPO", repo)
			env.Setenv("SDK", sdk)
			env.Setenv("FAULTY_PLUGIN", faulty)
			env.Setenv("GODIR", filepath.Dir(gobin)) // for scripts that set a PATH of their own
			env.Setenv("USERPATH", userPath)
			env.Setenv("POLYHOST_NODE_MODULES", envOr("POLYHOST_NODE_MODULES", filepath.Join(repo, "tests", ".deps", "node", "node_modules")))
			env.Setenv("POLYHOST_PYTHON", envOr("POLYHOST_PYTHON", filepath.Join(repo, "tests", ".deps", "venv", "bin", "python")))
			return nil
		}),
		polytest.WithCmds(map[string]func(*testscript.TestScript, bool, []string){"cprepo": cmdCprepo}),
	))
}

// cmdCprepo copies this repository, the files git tracks or would track as
// they stand in the working tree, to DST: scripts that type the README's
// commands run there, so that nothing they build or write lands in the
// checkout.
func cmdCprepo(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) != 1 {
		ts.Fatalf("usage: cprepo DST")
	}
	repo, err := filepath.Abs("..")
	ts.Check(err)
	ls := exec.Command("git", "ls-files", "-z", "--cached", "--others", "--exclude-standard")
	ls.Dir = repo
	out, err := ls.Output()
	if err != nil {
		ts.Fatalf("cprepo: git ls-files in %s: %v", repo, err)
	}
	dst := ts.MkAbs(args[0])
	for _, name := range strings.Split(strings.TrimRight(string(out), "\x00"), "\x00") {
		src := filepath.Join(repo, name)
		info, err := os.Lstat(src)
		if errors.Is(err, fs.ErrNotExist) {
			continue // deleted, not yet committed
		}
		ts.Check(err)
		target := filepath.Join(dst, name)
		ts.Check(os.MkdirAll(filepath.Dir(target), 0o755))
		if info.Mode()&fs.ModeSymlink != 0 {
			link, err := os.Readlink(src)
			ts.Check(err)
			ts.Check(os.Symlink(link, target))
			continue
		}
		data, err := os.ReadFile(src)
		ts.Check(err)
		ts.Check(os.WriteFile(target, data, info.Mode().Perm()))
	}
}

func envOr(k, def string) string {
	if v := os.Getenv(k); v != "" {
		return v
	}
	return def
}
