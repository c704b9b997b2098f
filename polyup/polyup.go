package polyup

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"maps"
	"os"
	"os/exec"
	"os/signal"
	"path/filepath"
	"slices"
	"sort"
	"strings"

	"gopkg.in/yaml.v3"

	"github.com/polyhost/polyhost/internal/show"
)

const usage = `usage: polyup [flags] preview|up|refresh|destroy [program-dir]
       polyup new [flags] <pkg> [dir]
       polyup compat [flags] OLD NEW

Runs a Pulumi program on the embedded engine. State lives in
<program-dir>/.polyup/<stack>.json unless -state says otherwise.

Each package's provider is its pulumi-resource-<pkg> binary: from -plugin,
else from PATH; this repository's sitekit is built on demand. To try your
own provider, go build it and pass -plugin <pkg>=<path>. Generated SDKs the
program uses (in node_modules, the Go module's requirements, or the Python
environment, marked "resource": true) set the version of default
providers, as Pulumi's language hosts report them.

Go programs need only Go. TypeScript programs run on the @pulumi/pulumi in
their node_modules (npm install), Python ones on the virtualenv their
Pulumi.yaml names (runtime option virtualenv), else python3. Inside this
repository, the installs of bash tests/setup.sh stand in for both. YAML
programs need the real Pulumi CLI.

Flags:
`

// keyValues collects repeated key=value flags.
type keyValues map[string]string

func (kv keyValues) String() string { return fmt.Sprint(map[string]string(kv)) }

func (kv keyValues) Set(s string) error {
	k, v, ok := strings.Cut(s, "=")
	if !ok || k == "" {
		return fmt.Errorf("want key=value, got %q", s)
	}
	kv[k] = v
	return nil
}

// Main runs the command and returns its exit code: 0, else 1; polyup
// compat exits 2 when the check could not run.
func Main(args []string, stdout, stderr io.Writer) int {
	err := run(args, stdout, stderr)
	var exit *exitError
	switch {
	case err == nil, errors.Is(err, flag.ErrHelp):
		return 0
	case errors.As(err, &exit):
		fmt.Fprintf(stderr, "error: %v\n", err)
		return exit.code
	}
	fmt.Fprintf(stderr, "error: %v\n", err)
	return 1
}

func run(args []string, stdout, stderr io.Writer) error {
	if len(args) > 0 && args[0] == "new" {
		return runNew(args[1:], stdout, stderr)
	}
	if len(args) > 0 && args[0] == "compat" {
		return runCompat(args[1:], stdout, stderr)
	}
	fs := flag.NewFlagSet("polyup", flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.Usage = func() { fmt.Fprint(stderr, usage); fs.PrintDefaults() }
	stack := fs.String("stack", "dev", "stack name")
	state := fs.String("state", "", "state file (default <program-dir>/.polyup/<stack>.json)")
	parallel := fs.Int("parallel", 0, "resource operations at once (default: $PULUMI_PARALLEL, else 4 × CPUs)")
	verbose := fs.Bool("v", false, "show plugin output and debug logs on stderr")
	config, secrets, plugins := keyValues{}, keyValues{}, keyValues{}
	fs.Var(config, "config", "stack config `key=value` (key as ns:name, or name for the project); repeatable")
	fs.Var(secrets, "secret", "secret stack config `key=value`, also for a secure: value in Pulumi.<stack>.yaml; repeatable")
	fs.Var(plugins, "plugin", "provider plugin `pkg=path`; repeatable (default: pulumi-resource-<pkg> on PATH, or built from this repository)")
	// Flags may come before or after the operation and directory.
	var pos []string
	for rest := args; ; {
		if err := fs.Parse(rest); err != nil {
			return err
		}
		if fs.NArg() == 0 {
			break
		}
		pos, rest = append(pos, fs.Arg(0)), fs.Args()[1:]
	}
	if len(pos) < 1 || len(pos) > 2 {
		fs.Usage()
		return errors.New("want an operation and at most one program directory")
	}
	op, dir := pos[0], "."
	if len(pos) == 2 {
		dir = pos[1]
	}
	if !slices.Contains([]string{"preview", "up", "refresh", "destroy"}, op) {
		fs.Usage()
		return fmt.Errorf("unknown operation %q: want preview, up, refresh or destroy", op)
	}
	plugins, err := repoPlugins(plugins, stderr)
	if err != nil {
		return err
	}
	opts := Options{Stack: *stack, StateFile: *state, Plugins: plugins, Config: config, Secrets: secrets, Parallel: *parallel}
	if *verbose {
		opts.Log = stderr
	}
	s, err := New(dir, opts)
	if err != nil {
		return err
	}
	hidden := slices.Collect(maps.Values(secrets))
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()

	var res *Result
	switch op {
	case "preview":
		fmt.Fprintf(stdout, "Previewing update (%s):\n", s.name)
		res, err = s.Preview(ctx)
	case "up":
		fmt.Fprintf(stdout, "Updating (%s):\n", s.name)
		res, err = s.Up(ctx)
	case "refresh":
		fmt.Fprintf(stdout, "Refreshing (%s):\n", s.name)
		res, err = s.Refresh(ctx)
	case "destroy":
		fmt.Fprintf(stdout, "Destroying (%s):\n", s.name)
		res, err = s.Destroy(ctx)
	}
	printResult(stdout, res, hidden)
	if err != nil && !*verbose {
		// Like the CLI, the engine shows a plugin's own output (why it
		// would not start, a panic's stack) only as debug logs.
		err = fmt.Errorf("%w\n(-v shows the plugins' output and debug logs)", err)
	}
	return err
}

// projectName reads the project name from Pulumi.yaml.
func projectName(dir string) (string, error) {
	if st, err := os.Stat(dir); err != nil || !st.IsDir() {
		return "", fmt.Errorf("%s: no such program directory", dir)
	}
	for _, name := range []string{"Pulumi.yaml", "Pulumi.yml"} {
		data, err := os.ReadFile(filepath.Join(dir, name))
		if errors.Is(err, os.ErrNotExist) {
			continue
		}
		if err != nil {
			return "", err
		}
		var proj struct {
			Name string `yaml:"name"`
		}
		if err := yaml.Unmarshal(data, &proj); err != nil {
			return "", fmt.Errorf("%s: %w", filepath.Join(dir, name), err)
		}
		if proj.Name == "" {
			return "", fmt.Errorf("%s: no project name", filepath.Join(dir, name))
		}
		return proj.Name, nil
	}
	return "", fmt.Errorf("%s: no Pulumi.yaml", dir)
}

// stackConfig merges the plain values of Pulumi.<stack>.yaml with the
// -config and -secret flags. Keys without a namespace get the project's.
// An encrypted (secure:) value needs -secret for its key, whose value
// wins: polyup cannot decrypt the file's.
func stackConfig(dir, project, stack string, config, secrets map[string]string) (map[string]string, []string, error) {
	cfg := map[string]string{}
	given := map[string]bool{}
	for k := range secrets {
		given[qualify(project, k)] = true
	}
	path := filepath.Join(dir, "Pulumi."+stack+".yaml")
	if data, err := os.ReadFile(path); err == nil {
		var file struct {
			Config map[string]any `yaml:"config"`
		}
		if err := yaml.Unmarshal(data, &file); err != nil {
			return nil, nil, fmt.Errorf("%s: %w", path, err)
		}
		for _, k := range slices.Sorted(maps.Keys(file.Config)) {
			key := qualify(project, k)
			v := file.Config[k]
			if s, ok := v.(string); ok {
				cfg[key] = s
				continue
			}
			if m, ok := v.(map[string]any); ok && len(m) == 1 && m["secure"] != nil {
				if !given[key] {
					return nil, nil, fmt.Errorf("%s: config %q is encrypted (secure:), which polyup cannot decrypt; pass its value with -secret %s=VALUE", path, key, key)
				}
				continue // set from -secret below
			}
			return nil, nil, fmt.Errorf("%s: config %q: polyup reads plain string values only; pass others with -config or -secret", path, key)
		}
	}
	for k, v := range config {
		cfg[qualify(project, k)] = v
	}
	var secretKeys []string
	for k, v := range secrets {
		cfg[qualify(project, k)] = v
		secretKeys = append(secretKeys, qualify(project, k))
	}
	sort.Strings(secretKeys)
	return cfg, secretKeys, nil
}

func qualify(project, key string) string {
	if strings.Contains(key, ":") {
		return key
	}
	return project + ":" + key
}

// repoPlugins adds to the -plugin flags this repository's sitekit
// provider, built on demand, when neither they nor PATH have one.
func repoPlugins(flags keyValues, stderr io.Writer) (map[string]string, error) {
	out := maps.Clone(flags)
	if _, ok := out["sitekit"]; ok {
		return out, nil
	}
	if _, err := exec.LookPath("pulumi-resource-sitekit"); err == nil {
		return out, nil
	}
	path, err := buildRepoProvider("sitekit", stderr)
	if errors.Is(err, errNoRepo) {
		return out, nil
	}
	out["sitekit"] = path
	return out, err
}

func isExecutable(path string) bool {
	st, err := os.Stat(path)
	return err == nil && !st.IsDir() && st.Mode()&0o111 != 0
}

var errNoRepo = errors.New("not inside the polyhost repository")

// buildRepoProvider builds provider/cmd/pulumi-resource-<pkg> of the
// repository around the working directory into the user cache.
func buildRepoProvider(pkg string, stderr io.Writer) (string, error) {
	root, err := repoRoot()
	if err != nil {
		return "", err
	}
	src := filepath.Join(root, "provider", "cmd", "pulumi-resource-"+pkg)
	if _, err := os.Stat(src); err != nil {
		return "", errNoRepo
	}
	cache, err := os.UserCacheDir()
	if err != nil {
		cache = os.TempDir()
	}
	out := filepath.Join(cache, "polyhost", "bin", "pulumi-resource-"+pkg)
	cmd := exec.Command("go", "build", "-o", out, "./provider/cmd/pulumi-resource-"+pkg)
	cmd.Dir = root
	cmd.Stderr = stderr
	if err := cmd.Run(); err != nil {
		return "", fmt.Errorf("building pulumi-resource-%s: %w", pkg, err)
	}
	return out, nil
}

func repoRoot() (string, error) {
	dir, err := os.Getwd()
	if err != nil {
		return "", err
	}
	for {
		data, err := os.ReadFile(filepath.Join(dir, "go.mod"))
		if err == nil && strings.Contains(string(data), "module github.com/polyhost/polyhost\n") {
			return dir, nil
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			return "", errNoRepo
		}
		dir = parent
	}
}

// printResult writes the steps, diagnostics and outputs. Secret outputs and
// any secret config value are masked.
func printResult(w io.Writer, res *Result, secrets []string) {
	if res == nil {
		return
	}
	const errored = "errored" // counted apart, as the CLI does
	counts := map[string]int{}
	for _, s := range res.Steps {
		if s.Failed {
			counts[errored]++
		} else {
			counts[s.Op]++
		}
		fmt.Fprintf(w, "  %-18s %-28s %s\n", s.Op, s.Type, s.URN.Name())
	}
	for _, d := range res.Diagnostics {
		msg := d.Message
		for _, s := range secrets {
			msg = strings.ReplaceAll(msg, s, "[secret]")
		}
		fmt.Fprintf(w, "  %s: %s\n", d.Severity, msg)
	}
	if res.Outputs.Len() > 0 {
		fmt.Fprintln(w, "Outputs:")
		for k, v := range res.Outputs.AllStable {
			fmt.Fprintf(w, "    %s: %s\n", k, show.Value(v, show.Options{User: true}))
		}
	}
	var parts []string
	for _, op := range []string{"create", "import", "update", "replace", "delete", "same", "read", errored} {
		if counts[op] > 0 {
			parts = append(parts, fmt.Sprintf("%d %s", counts[op], op))
		}
	}
	if len(parts) > 0 {
		fmt.Fprintf(w, "Resources: %s\n", strings.Join(parts, ", "))
	}
}
