package tests

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/pulumi/pulumi/sdk/v3/go/property"
	"github.com/rogpeppe/go-internal/testscript"

	"github.com/polyhost/polyhost/internal/engine"
	"github.com/polyhost/polyhost/polyup"
	"github.com/polyhost/polyhost/tests/langhost"
)

func TestMain(m *testing.M) {
	cmds := map[string]func(){
		"polyup": func() { os.Exit(polyup.Main(os.Args[1:], os.Stdout, os.Stderr)) },
	}
	// The real CLI starts pulumi-language-<runtime> from PATH: these come
	// first there, so scripts run the working tree's language host.
	for _, runtime := range []string{"go", "nodejs", "python"} {
		cmds["pulumi-language-"+runtime] = func() { os.Exit(langhost.Main(runtime, os.Args[1:])) }
	}
	testscript.Main(m, cmds)
}

// buildPlugin builds the provider binary into dir, with extra go build
// flags, and returns its path.
func buildPlugin(t *testing.T, dir string, flags ...string) string {
	t.Helper()
	out := filepath.Join(dir, "pulumi-resource-sitekit")
	args := append(append([]string{"build"}, flags...), "-o", out, "../provider/cmd/pulumi-resource-sitekit")
	if msg, err := exec.Command("go", args...).CombinedOutput(); err != nil {
		t.Fatalf("building the provider: %v\n%s", err, msg)
	}
	return out
}

func TestScripts(t *testing.T) {
	repo, err := filepath.Abs("..")
	if err != nil {
		t.Fatal(err)
	}
	// The scripts' programs consume the sitekit SDKs that tests/setup.sh
	// generates with Pulumi's generators.
	sdk := filepath.Join(repo, "sdk")
	for _, f := range []string{"go/go.sum", "nodejs/bin/package.json", "python/setup.py"} {
		if _, err := os.Stat(filepath.Join(sdk, f)); err != nil {
			t.Fatalf("the generated sitekit SDKs are missing (%v): run bash tests/setup.sh", err)
		}
	}
	plugins := filepath.Dir(buildPlugin(t, t.TempDir()))
	// The secretbox and shelf test packages (tests/internal), beside sitekit.
	for _, pkg := range []string{"secretbox", "shelf"} {
		if msg, err := exec.Command("go", "build", "-o", plugins, "./internal/"+pkg+"/cmd/pulumi-resource-"+pkg).CombinedOutput(); err != nil {
			t.Fatalf("building the %s provider: %v\n%s", pkg, err, msg)
		}
	}
	// The portal test package (tests/portal), a module of its own on the
	// generated sitekit Go SDK.
	build := exec.Command("go", "build", "-o", plugins, "./cmd/pulumi-resource-portal")
	build.Dir = filepath.Join(repo, "tests", "portal")
	if msg, err := build.CombinedOutput(); err != nil {
		t.Fatalf("building the portal provider: %v\n%s", err, msg)
	}
	// A build whose storage fails on demand (SITEKIT_FAULT), for fault scripts.
	faulty := buildPlugin(t, t.TempDir(), "-tags", "faultinject")
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
	testscript.Run(t, testscript.Params{
		Dir:                 "testdata",
		RequireExplicitExec: true,
		RequireUniqueNames:  true,
		Setup: func(env *testscript.Env) error {
			// Hermetic: HOME and caches of our own under $WORK, the Go
			// caches shared so Go programs build fast.
			env.Setenv("HOME", filepath.Join(env.WorkDir, "home"))
			// testscript's own commands first (our language host from the
			// working tree, see TestMain), then the plugins and the tools.
			path := []string{plugins, toolsDir(repo), os.Getenv("PATH")}
			if polyup, err := exec.LookPath("polyup"); err == nil {
				path = append([]string{filepath.Dir(polyup)}, path...)
			}
			env.Setenv("PATH", strings.Join(path, string(os.PathListSeparator)))
			env.Setenv("PLUGINS", plugins)
			if gobin, err := exec.LookPath("go"); err == nil {
				env.Setenv("GODIR", filepath.Dir(gobin)) // for scripts that set a PATH of their own
			}
			env.Setenv("REPO", repo)
			env.Setenv("USERPATH", userPath)
			env.Setenv("SDK", sdk)
			if err := realCLIEnv(env); err != nil {
				return err
			}
			env.Setenv("FAULTY_PLUGIN", faulty)
			for _, k := range []string{"GOCACHE", "GOMODCACHE", "GOPATH", "GOFLAGS", "GOPROXY", "GOTOOLCHAIN"} {
				env.Setenv(k, goEnv(k))
			}
			env.Setenv("npm_config_cache", npmCache())
			env.Setenv("POLYHOST_NODE_MODULES", envOr("POLYHOST_NODE_MODULES", filepath.Join(repo, "tests", ".deps", "node", "node_modules")))
			env.Setenv("POLYHOST_PYTHON", envOr("POLYHOST_PYTHON", filepath.Join(repo, "tests", ".deps", "venv", "bin", "python")))
			return nil
		},
		Cmds: map[string]func(ts *testscript.TestScript, neg bool, args []string){
			"state":     cmdState,
			"stackdiff": cmdStackdiff,
			"cpdir":     cmdCpdir,
			"noleak":    cmdNoleak,
			"opsdiff":   cmdOpsdiff,
			"cprepo":    cmdCprepo,
		},
		Condition: func(cond string) (bool, error) {
			switch cond {
			case "linux":
				return runtime.GOOS == "linux", nil
			case "pulumi":
				return haveRealCLI(repo)
			}
			return false, fmt.Errorf("unknown condition %q", cond)
		},
	})
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

// npmCache is the caller's npm cache, for scripts that npm install (the
// default is under HOME, which is the script's own).
func npmCache() string {
	if v := os.Getenv("npm_config_cache"); v != "" {
		return v
	}
	home, err := os.UserHomeDir()
	if err != nil {
		return ""
	}
	return filepath.Join(home, ".npm")
}

func goEnv(k string) string {
	out, err := exec.Command("go", "env", k).Output()
	if err != nil {
		return os.Getenv(k)
	}
	return strings.TrimSpace(string(out))
}

const stateUsage = `usage: state FILE count TYPE N
       state FILE has TYPE NAME
       state FILE parent NAME PARENT-NAME
       state FILE dependsOn NAME OTHER-NAME
       state FILE provider NAME PROVIDER-TYPE PROVIDER-NAME
       state FILE output KEY VALUE
       state FILE secret KEY
       state FILE field NAME KEY VALUE
       state FILE setenv VAR NAME KEY
       state FILE matches OTHER-FILE`

// cmdState asserts on a state file written by the embedded engine, with
// secrets decrypted; `matches` compares the resources of two state files
// (ciphertexts and timestamps differ between writes). Values compare in polyup's display form: strings
// unquoted (field values without trailing newlines), numbers as Go prints
// them, secrets as [secret], resource references as "ref URN id ID".
func cmdState(ts *testscript.TestScript, neg bool, args []string) {
	if len(args) < 3 {
		ts.Fatalf("%s", stateUsage)
	}
	resources, err := engine.LoadResources(ts.MkAbs(args[0]))
	ts.Check(err)
	byName := func(name string) (engine.Resource, bool) {
		for _, r := range resources {
			if nameOf(r.URN) == name && !r.Delete {
				return r, true
			}
		}
		return engine.Resource{}, false
	}
	mustName := func(name string) engine.Resource {
		r, ok := byName(name)
		if !ok {
			ts.Fatalf("no resource named %q in the state", name)
		}
		return r
	}
	check := func(ok bool, format string, a ...any) {
		if ok == neg {
			if neg {
				ts.Fatalf("unexpectedly: "+format, a...)
			}
			ts.Fatalf(format, a...)
		}
	}
	op, rest := args[1], args[2:]
	switch {
	case op == "count" && len(rest) == 2:
		want, err := strconv.Atoi(rest[1])
		ts.Check(err)
		n := 0
		for _, r := range resources {
			if r.Type == rest[0] && !r.Delete {
				n++
			}
		}
		check(n == want, "%d resources of type %s, want %d", n, rest[0], want)
	case op == "has" && len(rest) == 2:
		r, ok := byName(rest[1])
		check(ok && r.Type == rest[0], "resource %s %q present: %v (type %s)", rest[0], rest[1], ok, r.Type)
	case op == "parent" && len(rest) == 2:
		r, p := mustName(rest[0]), mustName(rest[1])
		check(r.Parent == p.URN, "parent of %s is %s, want %s", rest[0], r.Parent, p.URN)
	case op == "dependsOn" && len(rest) == 2:
		r, d := mustName(rest[0]), mustName(rest[1])
		check(slices.Contains(r.Dependencies, d.URN), "dependencies of %s are %v, want %s among them", rest[0], r.Dependencies, d.URN)
	case op == "provider" && len(rest) == 3:
		r, p := mustName(rest[0]), mustName(rest[2])
		check(p.Type == rest[1] && strings.HasPrefix(r.Provider, p.URN+"::"),
			"provider of %s is %s, want %s %s (%s)", rest[0], r.Provider, rest[1], rest[2], p.URN)
	case op == "output" && len(rest) == 2:
		got := display(stackOutputs(ts, resources).Get(rest[0]))
		check(got == rest[1], "stack output %s = %s, want %s", rest[0], got, rest[1])
	case op == "secret" && len(rest) == 1:
		v := stackOutputs(ts, resources).Get(rest[0])
		check(v.Secret(), "stack output %s secret: %v", rest[0], v.Secret())
	case op == "field" && len(rest) == 3:
		got := strings.TrimRight(display(mustName(rest[0]).Outputs.Get(rest[1])), "\n")
		check(got == rest[2], "%s.%s = %s, want %s", rest[0], rest[1], got, rest[2])
	case op == "matches" && len(rest) == 1:
		other, err := engine.LoadResources(ts.MkAbs(rest[0]))
		ts.Check(err)
		// Registration order varies between runs; compare by URN.
		byURN := func(rs []engine.Resource) map[string]engine.Resource {
			m := map[string]engine.Resource{}
			for _, r := range rs {
				m[r.URN] = r
			}
			return m
		}
		a, b := byURN(resources), byURN(other)
		diff := ""
		for u, r := range a {
			if !reflect.DeepEqual(r, b[u]) {
				diff = fmt.Sprintf("%s: %+v\nvs %+v", u, r, b[u])
			}
		}
		check(diff == "" && len(a) == len(b), "state %s does not hold the same resources as %s: %s", args[0], rest[0], diff)
	case op == "setenv" && len(rest) == 3 && !neg:
		v := mustName(rest[1]).Outputs.Get(rest[2])
		ts.Setenv(rest[0], display(v.WithSecret(false)))
	default:
		ts.Fatalf("%s", stateUsage)
	}
}

func stackOutputs(ts *testscript.TestScript, resources []engine.Resource) property.Map {
	for _, r := range resources {
		if r.Type == "pulumi:pulumi:Stack" {
			return r.Outputs
		}
	}
	ts.Fatalf("no stack resource in the state")
	return property.Map{}
}

func nameOf(urn string) string {
	if i := strings.LastIndex(urn, "::"); i >= 0 {
		return urn[i+2:]
	}
	return urn
}

func display(v property.Value) string {
	switch {
	case v.Secret():
		return "[secret]"
	case v.IsString():
		return v.AsString()
	case v.IsNumber():
		return strconv.FormatFloat(v.AsNumber(), 'f', -1, 64)
	case v.IsBool():
		return strconv.FormatBool(v.AsBool())
	case v.IsNull():
		return "null"
	case v.IsComputed():
		return "[unknown]"
	case v.IsResourceReference():
		ref := v.AsResourceReference()
		if ref.ID.IsString() && ref.ID.AsString() != "" {
			return "ref " + string(ref.URN) + " id " + ref.ID.AsString()
		}
		return "ref " + string(ref.URN)
	}
	return v.GoString()
}
