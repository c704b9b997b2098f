package breakage

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"maps"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"

	"golang.org/x/sync/errgroup"
	"gopkg.in/yaml.v3"

	"github.com/polyhost/polyhost/compat"
)

// kinds are the breaking changes new.yaml makes, each on its own resource,
// function or type, and judged by the consumer programs of the same name in
// testdata/consumers/<language>/.
var kinds = []struct {
	name  string      // of its consumer programs
	token string      // what it changes, as old.yaml names it
	kind  compat.Kind // what the check must report
}{
	{"component-removed", "echo:index:Gone", compat.ComponentRemoved},
	{"resource-removed", "echo:index:Tag", compat.ResourceRemoved},
	{"function-removed", "echo:index:lookup", compat.FunctionRemoved},
	{"method-removed", "echo:index:Door", compat.MethodRemoved},
	{"type-removed", "echo:index:Color", compat.TypeRemoved},
	{"enum-value-removed", "echo:index:Shade", compat.EnumValueRemoved},
	{"input-removed", "echo:index:Note", compat.InputRemoved},
	{"output-removed", "echo:index:Paint", compat.OutputRemoved},
	{"property-removed", "echo:index:Spec", compat.PropertyRemoved},
	{"input-required", "echo:index:Sized", compat.InputRequired},
	{"output-optional", "echo:index:Site", compat.OutputOptional},
	{"type-changed", "echo:index:Tagged", compat.TypeChanged},
	{"method-argument-required", "echo:index:Dial", compat.InputRequired},
	{"method-result-removed", "echo:index:Meter", compat.OutputRemoved},
	{"token-changed", "echo:index:Moved", compat.TokenChanged},
	{"token-changed-with-alias", "echo:index:Kept", compat.TokenChanged},
}

// safe names the consumers of the safe changes: old.yaml's Calm and Mood,
// changed only safely, and what new.yaml adds.
const safe = "safe"

var safeTokens = []string{"echo:index:Calm", "echo:index:Mood", "echo:index:Fresh", "echo:index:freshen"}

// languages judged here, with their consumers' file extensions.
var languages = map[compat.Audience]string{compat.TypeScript: ".ts", compat.Python: ".py", compat.YAML: ".yaml"}

func TestBreakage(t *testing.T) {
	env := newEnv(t)
	old, err := os.ReadFile(filepath.Join("testdata", "old.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	cur, err := os.ReadFile(filepath.Join("testdata", "new.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	report, err := compat.Compare(old, cur)
	if err != nil {
		t.Fatal(err)
	}
	predicted := predictions(t, report)
	moved := movedSchema(t, old)
	movedReport, err := compat.Compare(old, moved)
	if err != nil {
		t.Fatal(err)
	}

	schemas := []string{"old", "new", "moved"}
	env.generate(t, map[string][]byte{"old": old, "new": cur, "moved": moved})
	got := outcomes{}
	// TypeScript: every consumer type-checks against each SDK.
	typeChecked := make([]map[string]string, len(schemas))
	env.parallel(t, len(schemas), func(i int) error {
		var err error
		typeChecked[i], err = env.tsc(schemas[i])
		return err
	})
	for i, schema := range schemas {
		for c, errs := range typeChecked[i] {
			var err error
			if errs != "" {
				err = fmt.Errorf("tsc on the %s SDK:\n%s", schema, errs)
			}
			got.set(schema, c, compat.TypeScript, err)
		}
	}
	// Python and YAML: on the old schema all consumers in one program (it
	// must work); on the new one each in a program of its own.
	type run struct {
		lang      compat.Audience
		schema    string
		consumers []string
	}
	var runs []run
	for _, lang := range []compat.Audience{compat.Python, compat.YAML} {
		all := env.consumers(t, lang)
		runs = append(runs, run{lang, "old", all})
		for _, c := range all {
			runs = append(runs, run{lang, "new", []string{c}})
		}
	}
	runs = append(runs, run{compat.Python, "moved", []string{safe}})
	results := make([]error, len(runs))
	env.parallel(t, len(runs), func(i int) error {
		results[i] = env.preview(i, runs[i].lang, runs[i].schema, runs[i].consumers)
		return nil
	})
	for i, r := range runs {
		for _, c := range r.consumers {
			got.set(r.schema, c, r.lang, results[i])
		}
	}

	// Judge: a consumer works on the old schema; on the new one it fails
	// exactly when the check says its change hits its language.
	names := []string{safe}
	for _, k := range kinds {
		names = append(names, k.name)
	}
	for _, name := range names {
		for lang, ext := range languages {
			if _, err := os.Stat(filepath.Join("testdata", "consumers", dirOf(lang), name+ext)); err != nil {
				if predicted[name].Hit(lang) {
					t.Errorf("%s: the check says it hits %s, but no consumer there judges it", name, lang)
				}
				continue
			}
			if err, ok := got.get("old", name, lang); !ok || err != nil {
				t.Errorf("%s, %s: the consumer fails against the old schema: %v", name, lang, err)
				continue
			}
			err, ok := got.get("new", name, lang)
			switch hit := predicted[name].Hit(lang); {
			case !ok:
				t.Errorf("%s, %s: the consumer did not run against the new schema", name, lang)
			case hit && err == nil:
				t.Errorf("%s, %s: the check says %q breaks it, but it works against the new schema", name, lang, predicted[name].Message)
			case !hit && err != nil:
				t.Errorf("%s, %s: the check does not say it hits %s, but against the new schema: %v", name, lang, lang, err)
			case hit:
				t.Logf("%s, %s: fails as predicted (%s)", name, lang, reason(err))
			}
		}
	}
	// The moved schema: the renamed npm and Python packages are what the
	// programs import.
	for _, lang := range []compat.Audience{compat.TypeScript, compat.Python} {
		hit := slices.ContainsFunc(movedReport.Changes, func(c compat.Change) bool {
			return c.Kind == compat.PackageMoved && c.Level == compat.Breaking && c.Hit(lang)
		})
		err, _ := got.get("moved", safe, lang)
		if !hit || err == nil {
			t.Errorf("moved packages, %s: predicted %v, consumer fails: %v", lang, hit, err)
		} else {
			t.Logf("moved packages, %s: fails as predicted (%s)", lang, reason(err))
		}
	}

	t.Run("stack", func(t *testing.T) { env.stack(t, report, old, cur) })
}

// outcomes are why each consumer failed (nil: it worked), by schema,
// consumer and language.
type outcomes map[string]map[string]map[compat.Audience]error

func (o outcomes) set(schema, consumer string, lang compat.Audience, err error) {
	if o[schema] == nil {
		o[schema] = map[string]map[compat.Audience]error{}
	}
	if o[schema][consumer] == nil {
		o[schema][consumer] = map[compat.Audience]error{}
	}
	o[schema][consumer][lang] = err
}

func (o outcomes) get(schema, consumer string, lang compat.Audience) (error, bool) {
	err, ok := o[schema][consumer][lang]
	return err, ok
}

// generate writes each schema as JSON (the CLI's gen-sdk reads no
// language section from YAML) and generates its TypeScript and Python SDKs
// with Pulumi's generators; the Python one is then installed as pip
// installs it.
func (e *env) generate(t *testing.T, schemas map[string][]byte) {
	names := slices.Sorted(maps.Keys(schemas))
	for _, name := range names {
		var doc any
		if err := yaml.Unmarshal(schemas[name], &doc); err != nil {
			t.Fatal(err)
		}
		js, err := json.Marshal(doc)
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(e.path(name+".json"), js, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	e.parallel(t, len(names)*2, func(i int) error {
		name, lang := names[i/2], []string{"nodejs", "python"}[i%2]
		_, err := e.run(e.dir, nil, e.pulumi, "package", "gen-sdk", e.path(name+".json"), "--language", lang, "--out", e.path("sdk-"+name))
		return err
	})
	e.parallel(t, len(names), func(i int) error {
		_, err := e.run(e.dir, nil, e.python, "-m", "pip", "install", "--quiet", "--disable-pip-version-check", "--no-deps",
			"--no-index", "--no-build-isolation", "--target", e.path("py-"+names[i]), e.path("sdk-"+names[i], "python"))
		return err
	})
}

// predictions finds, for each kind, the breaking change the check must
// report, and checks it says nothing breaking or dangerous of the safe
// changes.
func predictions(t *testing.T, r *compat.Report) map[string]compat.Change {
	t.Helper()
	out := map[string]compat.Change{}
	for _, k := range kinds {
		var found []compat.Change
		for _, c := range r.Changes {
			if c.Token == k.token && c.Kind == k.kind && c.Level == compat.Breaking {
				found = append(found, c)
			}
		}
		if len(found) != 1 {
			t.Fatalf("%s: the check reports %d breaking %s changes of %s, want 1:\n%s", k.name, len(found), k.kind, k.token, r.Text())
		}
		out[k.name] = found[0]
	}
	for _, c := range r.Changes {
		// A change that hits Go alone (Calm's method gaining its first
		// argument, its output narrowed) is judged by compat's corpus
		// test, which builds Go programs; this test runs none.
		goOnly := slices.Equal(c.Hits, []compat.Audience{compat.Go})
		if slices.Contains(safeTokens, c.Token) && c.Level != compat.Safe && !goOnly {
			t.Errorf("the check says a safe change is %s: %s %s", c.Level, c.Token, c.Message)
		}
	}
	out[safe] = compat.Change{}
	return out
}

// movedSchema is old with its npm and Python packages renamed.
func movedSchema(t *testing.T, old []byte) []byte {
	var doc map[string]any
	if err := yaml.Unmarshal(old, &doc); err != nil {
		t.Fatal(err)
	}
	lang := doc["language"].(map[string]any)
	lang["nodejs"].(map[string]any)["packageName"] = "@polyhost/echo-next"
	lang["python"].(map[string]any)["packageName"] = "polyhost_echo_next"
	out, err := yaml.Marshal(doc)
	if err != nil {
		t.Fatal(err)
	}
	return out
}

func dirOf(lang compat.Audience) string {
	return map[compat.Audience]string{compat.TypeScript: "typescript", compat.Python: "python", compat.YAML: "yaml"}[lang]
}

// reason picks the line of a failure that says why: a tsc error, a
// Python exception, the CLI's or YAML's error.
func reason(err error) string {
	lines := strings.Split(err.Error(), "\n")
	for _, why := range whys {
		for _, l := range lines[1:] {
			if l = strings.TrimSpace(l); why.MatchString(l) {
				return l
			}
		}
	}
	return lines[0]
}

var whys = []*regexp.Regexp{regexp.MustCompile(`error TS\d+`), regexp.MustCompile(`^\w*(Error|Exception): `), regexp.MustCompile(`^Error: `),
	regexp.MustCompile(`^error: .*[^:]$`)}

// env is the tools and the hermetic environment of the real CLI.
type env struct {
	dir, python, nodeModules string
	pulumi                   string // the real CLI
	vars                     []string
}

func newEnv(t *testing.T) *env {
	repo, err := filepath.Abs(filepath.Join("..", ".."))
	if err != nil {
		t.Fatal(err)
	}
	bin := filepath.Join(repo, "tests", ".deps", "bin")
	if _, err := os.Stat(filepath.Join(bin, "pulumi")); err != nil {
		if os.Getenv("POLYHOST_REQUIRE_PULUMI") == "1" {
			t.Fatalf("the pulumi CLI is not in %s: run bash tests/setup.sh", bin)
		}
		t.Skipf("needs the pulumi CLI and our language host with Pulumi's generators (bash tests/setup.sh)")
	}
	e := &env{dir: t.TempDir(), pulumi: filepath.Join(bin, "pulumi"),
		python:      envOr("POLYHOST_PYTHON", filepath.Join(repo, "tests", ".deps", "venv", "bin", "python")),
		nodeModules: envOr("POLYHOST_NODE_MODULES", filepath.Join(repo, "tests", ".deps", "node", "node_modules"))}
	plugins := e.path("bin")
	build := exec.Command("go", "build", "-o", plugins+"/", "./echo/cmd/pulumi-resource-echo")
	if out, err := build.CombinedOutput(); err != nil {
		t.Fatalf("building the echo plugin: %v\n%s", err, out)
	}
	e.vars = append(os.Environ(),
		"PATH="+plugins+string(os.PathListSeparator)+bin+string(os.PathListSeparator)+os.Getenv("PATH"),
		"HOME="+e.path("home"),
		"PULUMI_HOME="+e.path(".pulumi"),
		"PULUMI_BACKEND_URL=file://"+e.path(".backend"),
		"PULUMI_CONFIG_PASSPHRASE=polyhost-test",
		"PULUMI_SKIP_UPDATE_CHECK=true",
		"PULUMI_DISABLE_AUTOMATIC_PLUGIN_ACQUISITION=true",
		"PULUMI_SKIP_CONFIRMATIONS=true",
		"PULUMI_SUPPRESS_NEO_LINK=true",
		"POLYHOST_PYTHON="+e.python,
		"POLYHOST_NODE_MODULES="+e.nodeModules,
	)
	for _, d := range []string{"home", ".backend"} {
		if err := os.MkdirAll(e.path(d), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	return e
}

func envOr(k, def string) string {
	if v := os.Getenv(k); v != "" {
		return v
	}
	return def
}

func (e *env) path(elem ...string) string { return filepath.Join(append([]string{e.dir}, elem...)...) }

// run runs a command in dir with the environment and extra variables; an
// error carries its output.
func (e *env) run(dir string, extra []string, name string, args ...string) (string, error) {
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, name, args...)
	cmd.Dir, cmd.Env = dir, append(slices.Clone(e.vars), extra...)
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	if err := cmd.Run(); err != nil {
		return out.String(), fmt.Errorf("%s %s: %w\n%s", filepath.Base(name), strings.Join(args, " "), err, out.String())
	}
	return out.String(), nil
}

// parallel runs n jobs, two at a time (the CI machine has two cores), and
// fails the test on their errors.
func (e *env) parallel(t *testing.T, n int, job func(i int) error) {
	t.Helper()
	var g errgroup.Group
	g.SetLimit(2)
	for i := range n {
		g.Go(func() error { return job(i) })
	}
	if err := g.Wait(); err != nil {
		t.Fatal(err)
	}
}

// consumers lists the consumer programs of a language.
func (e *env) consumers(t *testing.T, lang compat.Audience) []string {
	files, err := filepath.Glob(filepath.Join("testdata", "consumers", dirOf(lang), "*"+languages[lang]))
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, f := range files {
		out = append(out, strings.TrimSuffix(filepath.Base(f), languages[lang]))
	}
	return out
}

// tscError is a line of tsc's output naming an error in a file.
var tscError = regexp.MustCompile(`(?m)^(\S+?)\(\d+,\d+\): error .*$`)

// tsc type-checks every TypeScript consumer against the SDK of a schema,
// under --strict, and returns each consumer's errors ("" for none). An
// error in the SDK itself fails.
func (e *env) tsc(schema string) (map[string]string, error) {
	dir := e.path("ts-" + schema)
	if err := os.MkdirAll(filepath.Join(dir, "consumers"), 0o755); err != nil {
		return nil, err
	}
	src, err := filepath.Abs(filepath.Join("testdata", "consumers", "typescript"))
	if err != nil {
		return nil, err
	}
	files, _ := filepath.Glob(filepath.Join(src, "*.ts"))
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			return nil, err
		}
		if err := os.WriteFile(filepath.Join(dir, "consumers", filepath.Base(f)), data, 0o644); err != nil {
			return nil, err
		}
	}
	if err := os.Symlink(e.nodeModules, filepath.Join(dir, "node_modules")); err != nil {
		return nil, err
	}
	if err := os.Symlink(e.path("sdk-"+schema, "nodejs"), filepath.Join(dir, "sdk")); err != nil {
		return nil, err
	}
	var pkg struct {
		Name string `json:"name"`
	}
	if data, err := os.ReadFile(filepath.Join(dir, "sdk", "package.json")); err != nil {
		return nil, err
	} else if err := json.Unmarshal(data, &pkg); err != nil {
		return nil, err
	}
	// The SDK is found by its npm name, as in a program that installed it.
	config := map[string]any{
		"compilerOptions": map[string]any{"strict": true, "noEmit": true, "skipLibCheck": true, "target": "es2020",
			"module": "commonjs", "moduleResolution": "node", "baseUrl": ".", "paths": map[string][]string{pkg.Name: {"sdk"}}},
		"include": []string{"consumers/*.ts"},
	}
	js, _ := json.Marshal(config)
	if err := os.WriteFile(filepath.Join(dir, "tsconfig.json"), js, 0o644); err != nil {
		return nil, err
	}
	out, err := e.run(dir, nil, "node", filepath.Join(e.nodeModules, "typescript", "bin", "tsc"), "-p", ".")
	failed := map[string]string{}
	for _, f := range files {
		failed[strings.TrimSuffix(filepath.Base(f), ".ts")] = ""
	}
	for _, m := range tscError.FindAllStringSubmatch(out, -1) {
		name, ok := strings.CutPrefix(filepath.ToSlash(m[1]), "consumers/")
		if !ok {
			return nil, fmt.Errorf("tsc on the %s SDK: an error outside the consumers:\n%s", schema, out)
		}
		failed[strings.TrimSuffix(name, ".ts")] += m[0] + "\n"
	}
	if err != nil && !slices.ContainsFunc(slices.Collect(maps.Values(failed)), func(s string) bool { return s != "" }) {
		return nil, err
	}
	return failed, nil
}

// preview runs consumers (Python modules, or YAML programs merged into one)
// in one program under the real CLI, served by the echo plugin with a
// schema, and returns why it failed, if it did.
func (e *env) preview(i int, lang compat.Audience, schema string, consumers []string) error {
	dir := e.path(fmt.Sprintf("run-%d", i))
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	extra := []string{"ECHO_SCHEMA=" + e.path(schema+".json")}
	project := map[string]any{"name": "consumer", "runtime": "python"}
	if lang == compat.Python {
		var main strings.Builder
		main.WriteString("import runpy\n\n")
		for _, c := range consumers {
			f, err := filepath.Abs(filepath.Join("testdata", "consumers", "python", c+".py"))
			if err != nil {
				return err
			}
			fmt.Fprintf(&main, "runpy.run_path(%q)\n", f)
		}
		if err := os.WriteFile(filepath.Join(dir, "__main__.py"), []byte(main.String()), 0o644); err != nil {
			return err
		}
		extra = append(extra, "PYTHONPATH="+e.path("py-"+schema))
	} else {
		project["runtime"] = "yaml"
		for _, c := range consumers {
			data, err := os.ReadFile(filepath.Join("testdata", "consumers", "yaml", c+".yaml"))
			if err != nil {
				return err
			}
			var sections map[string]map[string]any
			if err := yaml.Unmarshal(data, &sections); err != nil {
				return fmt.Errorf("%s.yaml: %w", c, err)
			}
			for k, section := range sections {
				if project[k] == nil {
					project[k] = map[string]any{}
				}
				maps.Copy(project[k].(map[string]any), section)
			}
		}
	}
	data, err := yaml.Marshal(project)
	if err != nil {
		return err
	}
	if err := os.WriteFile(filepath.Join(dir, "Pulumi.yaml"), data, 0o644); err != nil {
		return err
	}
	stack := fmt.Sprintf("run-%d", i)
	if _, err := e.run(dir, extra, e.pulumi, "stack", "init", stack); err != nil {
		return fmt.Errorf("setting up: %w", err)
	}
	_, err = e.run(dir, extra, e.pulumi, "preview", "--stack", stack, "--non-interactive", "--color", "never")
	return err
}

// stack: a stack made with the old plugin and SDK, updated with the new
// ones by a program that names the moved components where they now are,
// replaces the one whose type changed with no alias (and its child) and
// keeps the one whose type changed with the alias the check proposes, and
// the safely changed one.
func (e *env) stack(t *testing.T, report *compat.Report, old, cur []byte) {
	// The alias new.yaml records for Kept is the one the check proposes
	// without it.
	var proposal string
	unaliased := bytes.Replace(cur, []byte(`    aliases: [{type: "echo:index:Kept"}]`+"\n"), nil, 1)
	r, err := compat.Compare(old, unaliased)
	if err != nil || bytes.Equal(unaliased, cur) {
		t.Fatalf("new.yaml without Kept's alias: %v", err)
	}
	for _, c := range r.Changes {
		if c.Token == "echo:index:Kept" && c.Kind == compat.TokenChanged {
			proposal = c.Alias
		}
	}
	if proposal != "echo:index:Kept" {
		t.Fatalf("without its alias, the check proposes %q for echo:index:Kept", proposal)
	}
	for _, c := range report.Changes {
		if c.Kind == compat.TokenChanged && (c.Token == "echo:index:Moved") != c.Hit(compat.Stacks) {
			t.Errorf("%s: the check says it hits stacks: %v", c.Token, c.Hit(compat.Stacks))
		}
	}

	dir := e.path("stack")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	src, err := filepath.Abs(filepath.Join("testdata", "consumers", "python", "state"))
	if err != nil {
		t.Fatal(err)
	}
	main := "import os, runpy\n\nrunpy.run_path(os.path.join(" + fmt.Sprintf("%q", src) + ", os.environ[\"ECHO_PROGRAM\"]))\n"
	if err := os.WriteFile(filepath.Join(dir, "__main__.py"), []byte(main), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "Pulumi.yaml"), []byte("name: stateful\nruntime: python\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	up := func(schema string) map[string]string {
		extra := []string{"ECHO_SCHEMA=" + e.path(schema+".json"), "PYTHONPATH=" + e.path("py-"+schema), "ECHO_PROGRAM=" + schema + ".py"}
		if _, err := e.run(dir, extra, e.pulumi, "up", "--yes", "--skip-preview", "--stack", "dev", "--non-interactive", "--color", "never"); err != nil {
			t.Fatal(err)
		}
		out, err := e.run(dir, extra, e.pulumi, "stack", "export", "--stack", "dev")
		if err != nil {
			t.Fatal(err)
		}
		return resources(t, out)
	}
	if _, err := e.run(dir, nil, e.pulumi, "stack", "init", "dev"); err != nil {
		t.Fatal(err)
	}
	before := up("old")
	after := up("new")
	leaf := func(state map[string]string, typ, name string) string {
		for u, id := range state {
			if strings.HasSuffix(u, "::"+typ+"$echo:index:Leaf::"+name+"-leaf") {
				return id
			}
		}
		t.Fatalf("no leaf of %s %s in the state: %v", typ, name, slices.Sorted(maps.Keys(state)))
		return ""
	}
	// Moved: a new component and a new child; the old ones are gone.
	if b, a := leaf(before, "echo:index:Moved", "moved"), leaf(after, "echo:web:Moved", "moved"); a == b {
		t.Errorf("Moved's leaf kept its ID %s: the check says the stack replaces it", a)
	}
	// Kept: its alias carried the component and its child over.
	if b, a := leaf(before, "echo:index:Kept", "kept"), leaf(after, "echo:web:Kept", "kept"); a != b {
		t.Errorf("Kept's leaf was created anew (%s, before %s): its alias should carry it over", a, b)
	}
	if b, a := leaf(before, "echo:index:Calm", "calm"), leaf(after, "echo:index:Calm", "calm"); a != b {
		t.Errorf("Calm's leaf was created anew (%s, before %s)", a, b)
	}
	for u := range after {
		if strings.Contains(u, "echo:index:Moved") || strings.Contains(u, "echo:index:Kept") {
			t.Errorf("%s is still in the stack", u)
		}
	}
}

// resources maps each resource's URN to its ID in an exported stack.
func resources(t *testing.T, export string) map[string]string {
	var dep struct {
		Deployment struct {
			Resources []struct {
				URN string `json:"urn"`
				ID  string `json:"id"`
			} `json:"resources"`
		} `json:"deployment"`
	}
	if err := json.Unmarshal([]byte(export), &dep); err != nil {
		t.Fatalf("stack export: %v\n%s", err, export)
	}
	out := map[string]string{}
	for _, r := range dep.Deployment.Resources {
		out[r.URN] = r.ID
	}
	return out
}
