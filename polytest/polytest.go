package polytest

import (
	"fmt"
	"maps"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/rogpeppe/go-internal/testscript"

	"github.com/polyhost/polyhost/polyup"
)

// EnvRequirePulumi set to 1 makes [pulumi] fail a script, rather than
// skip it, when the pulumi CLI is not installed: set it in CI.
const EnvRequirePulumi = "POLYHOST_REQUIRE_PULUMI"

// Passphrase is the real CLI's secrets passphrase in every script
// (PULUMI_CONFIG_PASSPHRASE).
const Passphrase = "polytest"

// Main registers polyup, and cmds, as programs every script can exec, then
// runs the tests; call it from TestMain. It never returns.
func Main(m *testing.M, cmds map[string]func()) {
	all := map[string]func(){
		"polyup": func() { os.Exit(polyup.Main(os.Args[1:], os.Stdout, os.Stderr)) },
	}
	maps.Copy(all, cmds)
	testscript.Main(binary{m}, all)
}

// binary runs the tests with a directory for the plugins, which lives as
// long as the test binary: each plugin is built once.
type binary struct{ m *testing.M }

func (b binary) Run() int {
	dir, err := os.MkdirTemp("", "polytest-plugins")
	if err != nil {
		fmt.Fprintf(os.Stderr, "polytest: %v\n", err)
		return 1
	}
	defer os.RemoveAll(dir)
	builds.mu.Lock()
	builds.dir = dir
	builds.mu.Unlock()
	return b.m.Run()
}

// Option configures [Params].
type Option func(*config)

type config struct {
	plugins    []string
	pluginsSet bool
	path       []string
	setup      []func(*testscript.Env) error
	cmds       map[string]func(ts *testscript.TestScript, neg bool, args []string)
	condition  func(cond string) (bool, error)
}

// WithPlugins names the main packages of the provider plugins to build,
// as directories relative to the test's package (each a folder named
// pulumi-resource-<pkg>, as Pulumi expects; one in another module is
// built in that module). Without it, Params builds every such folder of
// the test's module.
func WithPlugins(dirs ...string) Option {
	return func(c *config) { c.plugins, c.pluginsSet = append(c.plugins, dirs...), true }
}

// WithPath puts dirs on every script's PATH, after the plugins, and looks
// there first for the programs the conditions name (pulumi, node,
// python3).
func WithPath(dirs ...string) Option {
	return func(c *config) { c.path = append(c.path, dirs...) }
}

// WithSetup runs f for every script after the kit's own setup: to set
// variables of the author's own, say.
func WithSetup(f func(*testscript.Env) error) Option {
	return func(c *config) { c.setup = append(c.setup, f) }
}

// WithCmds adds commands of the author's own to the scripts.
func WithCmds(cmds map[string]func(ts *testscript.TestScript, neg bool, args []string)) Option {
	return func(c *config) { maps.Copy(c.cmds, cmds) }
}

// WithCondition answers the conditions the kit does not know.
func WithCondition(f func(cond string) (bool, error)) Option {
	return func(c *config) { c.condition = f }
}

// Params returns the testscript parameters for the scripts in dir: the
// author's plugins built (once per test binary) and on PATH, a hermetic
// environment, the kit's commands and conditions (see the package doc).
// It fails the test if a plugin does not build, or if TestMain does not
// call [Main].
func Params(t testing.TB, dir string, opts ...Option) testscript.Params {
	t.Helper()
	c := &config{cmds: map[string]func(*testscript.TestScript, bool, []string){}}
	for _, o := range opts {
		o(c)
	}
	module, err := moduleRoot()
	if err != nil {
		t.Fatal(err)
	}
	srcs := c.plugins
	if !c.pluginsSet {
		if srcs, err = findPlugins(module); err != nil {
			t.Fatal(err)
		}
	}
	plugins := t.TempDir()
	if err := buildPlugins(srcs, plugins); err != nil {
		t.Fatal(err)
	}
	commands, err := commandsDir()
	if err != nil {
		t.Fatal(err)
	}
	var extra []string
	for _, d := range c.path {
		abs, err := filepath.Abs(d)
		if err != nil {
			t.Fatal(err)
		}
		extra = append(extra, abs)
	}
	cmds := map[string]func(*testscript.TestScript, bool, []string){
		"state":     cmdState,
		"stackdiff": cmdStackdiff,
		"opsdiff":   cmdOpsdiff,
		"noleak":    cmdNoleak,
		"cpdir":     cmdCpdir,
	}
	maps.Copy(cmds, c.cmds)
	return testscript.Params{
		Dir:                 dir,
		RequireExplicitExec: true,
		RequireUniqueNames:  true,
		Cmds:                cmds,
		Setup: func(env *testscript.Env) error {
			path := append([]string{commands, plugins}, extra...)
			env.Setenv("PATH", strings.Join(append(path, env.Getenv("PATH")), string(os.PathListSeparator)))
			env.Setenv("PLUGINS", plugins)
			env.Setenv("MODULE", module)
			if err := hermetic(env); err != nil {
				return err
			}
			for _, f := range c.setup {
				if err := f(env); err != nil {
					return err
				}
			}
			return nil
		},
		Condition: func(cond string) (bool, error) {
			switch cond {
			case "pulumi":
				ok := installed(extra, "pulumi")
				if !ok && os.Getenv(EnvRequirePulumi) == "1" {
					return false, fmt.Errorf("the pulumi CLI is not on PATH (%s=1 makes that an error)", EnvRequirePulumi)
				}
				return ok, nil
			case "node":
				return installed(extra, "node"), nil
			case "python":
				return installed(extra, "python3"), nil
			}
			if c.condition != nil {
				return c.condition(cond)
			}
			return false, fmt.Errorf("unknown condition %q", cond)
		},
	}
}

// commandsDir is where testscript put the programs Main registered.
func commandsDir() (string, error) {
	p, err := exec.LookPath("polyup")
	if err != nil {
		return "", errNoMain
	}
	return filepath.Dir(p), nil
}

// installed reports whether a program is in dirs or on PATH.
func installed(dirs []string, name string) bool {
	for _, d := range dirs {
		if st, err := os.Stat(filepath.Join(d, name)); err == nil && !st.IsDir() && st.Mode()&0o111 != 0 {
			return true
		}
	}
	_, err := exec.LookPath(name)
	return err == nil
}

// hermetic gives a script a home of its own, the caller's Go, npm and pip
// caches (so that builds and installs stay fast) and the real CLI's
// settings: its home, a file backend and the passphrase under $WORK, no
// update check, no plugin download, no confirmation prompts.
func hermetic(env *testscript.Env) error {
	home := filepath.Join(env.WorkDir, "home")
	backend := filepath.Join(env.WorkDir, ".backend")
	for _, d := range []string{home, backend} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			return err
		}
	}
	env.Setenv("HOME", home)
	for k, v := range callerEnv() {
		env.Setenv(k, v)
	}
	env.Setenv("BACKEND", backend)
	env.Setenv("PULUMI_HOME", filepath.Join(env.WorkDir, ".pulumi"))
	env.Setenv("PULUMI_BACKEND_URL", "file://"+backend)
	env.Setenv("PULUMI_CONFIG_PASSPHRASE", Passphrase)
	env.Setenv("PULUMI_SKIP_UPDATE_CHECK", "true")
	env.Setenv("PULUMI_DISABLE_AUTOMATIC_PLUGIN_ACQUISITION", "true")
	env.Setenv("PULUMI_SKIP_CONFIRMATIONS", "true")
	env.Setenv("PULUMI_SUPPRESS_NEO_LINK", "true")
	// The CLI offers --event-log, which opsdiff reads, only with these.
	env.Setenv("PULUMI_DEBUG_COMMANDS", "true")
	return nil
}

// callerEnv is what scripts keep of the test process's environment: its
// Go settings (as go env reports them, so that a HOME of the script's own
// changes none), its npm and pip caches, and its network settings.
var callerEnv = sync.OnceValue(func() map[string]string {
	out := map[string]string{}
	goVars := []string{"GOCACHE", "GOMODCACHE", "GOPATH", "GOFLAGS", "GOPROXY", "GOPRIVATE", "GONOPROXY",
		"GONOSUMDB", "GOSUMDB", "GOINSECURE", "GOTOOLCHAIN"}
	if lines, err := exec.Command("go", append([]string{"env"}, goVars...)...).Output(); err == nil {
		for i, v := range strings.Split(strings.TrimRight(string(lines), "\n"), "\n") {
			if i < len(goVars) && v != "" {
				out[goVars[i]] = v
			}
		}
	}
	cache, _ := os.UserCacheDir()
	home, _ := os.UserHomeDir()
	out["npm_config_cache"] = envOr("npm_config_cache", filepath.Join(home, ".npm"))
	out["PIP_CACHE_DIR"] = envOr("PIP_CACHE_DIR", filepath.Join(cache, "pip"))
	for _, k := range []string{"HTTP_PROXY", "HTTPS_PROXY", "NO_PROXY", "http_proxy", "https_proxy", "no_proxy", "SSL_CERT_FILE", "SSL_CERT_DIR"} {
		if v, ok := os.LookupEnv(k); ok {
			out[k] = v
		}
	}
	return out
})

func envOr(k, def string) string {
	if v := os.Getenv(k); v != "" {
		return v
	}
	return def
}
