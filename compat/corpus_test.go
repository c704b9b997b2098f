package compat

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/rogpeppe/go-internal/txtar"
	"golang.org/x/sync/errgroup"
)

// TestCorpusAgainstCompilers holds the check's verdicts to what compilers
// and runtimes say. For every pair of the corpus (testdata/pairs, one
// change each, and pulumi-random's published schemas at three tags when
// POLYHOST_PUBLISHED_SCHEMAS gives them), it generates both sides' SDKs with Pulumi's codegen
// (the real CLI's package gen-sdk), writes a consumer against the old SDKs
// (consumer_test.go), and builds and runs it against the new ones:
// TypeScript under tsc --strict, Go with go build and then run under the
// SDK's mocks, Python run under its mocks. A language breaks when its
// consumer fails; the check must tag exactly the languages that break
// with a breaking change. Each language builds or runs all pairs at once:
// one tsc project, one Go module, one Python process per side.
func TestCorpusAgainstCompilers(t *testing.T) {
	tl := corpusTools(t)
	pairs := corpusPairs(t)
	dir := t.TempDir()
	if keep := os.Getenv("POLYHOST_CORPUS_DIR"); keep != "" {
		// To look at what the test wrote: a fresh folder it leaves behind.
		dir = keep
		if err := os.RemoveAll(dir); err != nil {
			t.Fatal(err)
		}
	}

	type side struct {
		pair   int
		name   string // old, new
		schema *pkg   // as rewritten for codegen
		dir    string
	}
	var sides []*side
	for i, p := range pairs {
		for _, s := range []string{"old", "new"} {
			src := p.old
			if s == "new" {
				src = p.new
			}
			sd := &side{pair: i, name: s, dir: filepath.Join(dir, p.name, s)}
			js, err := forCodegen(p.name+" "+s, src, "corpus/"+p.name+"/")
			if err != nil {
				t.Fatal(err)
			}
			if sd.schema, err = load(p.name+" "+s, js); err != nil {
				t.Fatal(err)
			}
			if err := os.MkdirAll(sd.dir, 0o755); err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(filepath.Join(sd.dir, "schema.json"), js, 0o644); err != nil {
				t.Fatal(err)
			}
			mocks, _ := json.Marshal(sd.schema.mocks())
			if err := os.WriteFile(filepath.Join(sd.dir, "mocks.json"), mocks, 0o644); err != nil {
				t.Fatal(err)
			}
			sides = append(sides, sd)
		}
	}
	langs := []string{"go", "nodejs", "python"}
	tl.parallel(t, len(sides)*len(langs), func(i int) error {
		sd, lang := sides[i/len(langs)], langs[i%len(langs)]
		_, err := tl.run(sd.dir, tl.pulumi, "package", "gen-sdk", "schema.json", "--language", lang, "--out", "sdk")
		return err
	})

	// Lay the SDKs out for the builds: one Go module and one tsc project
	// per side, holding every pair.
	for _, s := range []string{"old", "new"} {
		if err := os.MkdirAll(filepath.Join(dir, "go-"+s), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := writeGoMod(filepath.Join(dir, "go-"+s)); err != nil {
			t.Fatal(err)
		}
		if err := os.MkdirAll(filepath.Join(dir, "ts-"+s), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.Symlink(tl.nodeModules, filepath.Join(dir, "ts-"+s, "node_modules")); err != nil {
			t.Fatal(err)
		}
		tsconfig := `{"compilerOptions": {"strict": true, "noEmit": true, "skipLibCheck": true, "target": "es2020", "module": "commonjs", "moduleResolution": "node"}, "include": ["*/consumer.ts"]}`
		if err := os.WriteFile(filepath.Join(dir, "ts-"+s, "tsconfig.json"), []byte(tsconfig), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	sdkDirs := map[*side]map[Audience]string{}
	for _, sd := range sides {
		p := pairs[sd.pair].name
		goSub, err := onlyDir(filepath.Join(sd.dir, "sdk", "go"))
		if err != nil {
			t.Fatalf("%s %s: %v", pairs[sd.pair].name, sd.name, err)
		}
		goPath := strings.TrimPrefix(sd.schema.sdks[Go].name, "corpus/")
		goDir := filepath.Join(dir, "go-"+sd.name, filepath.FromSlash(goPath))
		tsDir := filepath.Join(dir, "ts-"+sd.name, p, "node_modules", filepath.FromSlash(sd.schema.sdks[TypeScript].name))
		for _, d := range []string{goDir, tsDir} {
			if err := os.MkdirAll(filepath.Dir(d), 0o755); err != nil {
				t.Fatal(err)
			}
		}
		if err := os.Rename(goSub, goDir); err != nil {
			t.Fatal(err)
		}
		_ = os.Remove(filepath.Join(goDir, "go.mod"))
		// Every pair's SDK registers its package (echo, 1.0.0) for
		// resource references at init, and the Go SDK refuses a second
		// registration: in the one program that runs them all, none does.
		if err := filepath.WalkDir(goDir, func(path string, d os.DirEntry, err error) error {
			if err != nil || d.Name() != "init.go" {
				return err
			}
			src, err := os.ReadFile(path)
			if err != nil {
				return err
			}
			return os.WriteFile(path, bytes.Replace(src, []byte("\nfunc init() {"), []byte("\nfunc registerPackage() {"), 1), 0o644)
		}); err != nil {
			t.Fatal(err)
		}
		if err := os.Rename(filepath.Join(sd.dir, "sdk", "nodejs"), tsDir); err != nil {
			t.Fatal(err)
		}
		// tsc takes packages of one name and version for one: each pair's
		// gets a version of its own.
		pj := filepath.Join(tsDir, "package.json")
		data, err := os.ReadFile(pj)
		if err != nil {
			t.Fatal(err)
		}
		data = bytes.Replace(data, []byte(`"version": "${VERSION}"`), []byte(`"version": "0.0.0-`+strings.ReplaceAll(p, ".", "-")+`"`), 1)
		if err := os.WriteFile(pj, data, 0o644); err != nil {
			t.Fatal(err)
		}
		sdkDirs[sd] = map[Audience]string{Go: goDir, TypeScript: tsDir,
			Python: filepath.Join(sd.dir, "sdk", "python", sd.schema.sdks[Python].name)}
	}

	// The consumers, written against each old side's SDKs.
	for _, sd := range sides {
		if sd.name != "old" {
			continue
		}
		p := pairs[sd.pair].name
		names, err := readEnumNames(sd.schema, sdkDirs[sd])
		if err != nil {
			t.Fatal(err)
		}
		pyInputs, err := readPyInputs(sdkDirs[sd][Python])
		if err != nil {
			t.Fatal(err)
		}
		c := &consumer{p: sd.schema, enums: names, pyInputs: pyInputs, tag: p + "-"}
		var ts, golang, py string
		func() {
			defer func() {
				if r := recover(); r != nil {
					t.Fatalf("%s: writing the consumer: %v", pairs[sd.pair].name, r)
				}
			}()
			ts, golang, py = c.typescript(), c.golang(), c.python()
		}()
		for _, s := range []string{"old", "new"} {
			files := map[string]string{
				filepath.Join(dir, "ts-"+s, p, "consumer.ts"):             ts,
				filepath.Join(dir, "go-"+s, p, "consumer", "consumer.go"): golang,
				filepath.Join(dir, "py", p+".py"):                         py,
			}
			for f, src := range files {
				if err := os.MkdirAll(filepath.Dir(f), 0o755); err != nil {
					t.Fatal(err)
				}
				if err := os.WriteFile(f, []byte(src), 0o644); err != nil {
					t.Fatal(err)
				}
			}
		}
	}

	// Build and run: each job fills the outcomes of one language on one
	// side, by pair ("" for a consumer that works).
	got := map[string]map[Audience]map[string]string{"old": {}, "new": {}}
	var mu sync.Mutex
	jobs := []struct {
		side string
		lang Audience
	}{{"old", TypeScript}, {"new", TypeScript}, {"old", Go}, {"new", Go}, {"old", Python}, {"new", Python}}
	tl.parallel(t, len(jobs), func(i int) error {
		j := jobs[i]
		var out map[string]string
		var err error
		switch j.lang {
		case TypeScript:
			out, err = tl.tsc(filepath.Join(dir, "ts-"+j.side))
		case Go:
			var names []string
			for _, p := range pairs {
				names = append(names, p.name)
			}
			out, err = tl.goBuildRun(filepath.Join(dir, "go-"+j.side), names, func(p string) string {
				return filepath.Join(dir, p, j.side, "mocks.json")
			})
		case Python:
			var runs []pyRun
			for _, sd := range sides {
				if sd.name == j.side {
					runs = append(runs, pyRun{Pair: pairs[sd.pair].name, SDK: filepath.Dir(sdkDirs[sd][Python]),
						Consumer: filepath.Join(dir, "py", pairs[sd.pair].name+".py"), Mocks: filepath.Join(sd.dir, "mocks.json")})
				}
			}
			out, err = tl.runPython(dir, j.side, runs)
		}
		if err != nil {
			return fmt.Errorf("%s on the %s side: %w", j.lang, j.side, err)
		}
		mu.Lock()
		got[j.side][j.lang] = out
		mu.Unlock()
		return nil
	})

	// Judge, pair by pair.
	for _, p := range pairs {
		i := p.name
		report, err := Compare(p.old, p.new)
		if err != nil {
			t.Fatalf("%s: %v", p.name, err)
		}
		var predicted, observed []Audience
		for _, lang := range []Audience{TypeScript, Go, Python} {
			if strings.HasPrefix(got["old"][lang][i], sdkBroken) || strings.HasPrefix(got["new"][lang][i], sdkBroken) {
				t.Logf("%s: %s cannot judge it: %s", p.name, lang, firstLines(got["old"][lang][i]+got["new"][lang][i], 4))
				continue
			}
			if why := got["old"][lang][i]; why != "" {
				t.Errorf("%s: the %s consumer fails against the old schema's SDK (a fault of the consumer writer):\n%s", p.name, lang, why)
				continue
			}
			if slices.ContainsFunc(report.Changes, func(c Change) bool { return c.Level == Breaking && c.Hit(lang) && !providerChecked(c, lang) }) {
				predicted = append(predicted, lang)
			}
			if got["new"][lang][i] != "" {
				observed = append(observed, lang)
			}
		}
		switch {
		case p.semantic != "" && !slices.ContainsFunc(observed, func(a Audience) bool { return !slices.Contains(predicted, a) }):
			t.Logf("%s: compilers cannot see it (%s); the check says %v, they show %v", p.name, p.semantic, predicted, observed)
		case !slices.Equal(predicted, observed):
			var why []string
			for _, lang := range observed {
				why = append(why, fmt.Sprintf("%s:\n%s", lang, firstLines(got["new"][lang][i], 6)))
			}
			t.Errorf("%s: the check says it breaks %v; against the new SDKs, the consumers fail in %v\n%s\n%s", p.name, predicted, observed, strings.Join(why, "\n"), report.Text())
		default:
			t.Logf("%s: breaks %v, as the check says", p.name, observed)
		}
	}
}

// providerChecked reports whether a change hits lang only through the
// provider: Python's SDK passes a value of the wrong type on, and the
// provider's Check refuses it in preview (polyhost's does, as
// tests/breakage shows under the real CLI), which mocks cannot show.
func providerChecked(c Change, lang Audience) bool {
	return lang == Python && c.Kind == TypeChanged
}

func firstLines(s string, n int) string {
	lines := strings.Split(strings.TrimSpace(s), "\n")
	if len(lines) > n {
		lines = append(lines[:n], "...")
	}
	return "  " + strings.Join(lines, "\n  ")
}

// corpusPair is two schemas of one package; semantic, when set, says why
// no compiler or runtime can see what the change breaks (the check may say
// more than they show, never less).
type corpusPair struct {
	name, semantic string
	old, new       []byte
}

// semantic are the pairs of testdata/pairs whose break no compiler sees.
var semantic = map[string]string{
	"breaking-argument-order": "both arguments are strings: positional calls still compile and run, passing each value as the other",
}

// randomPairs are pulumi-random's published schemas compared: v2.5.0 with
// v3.0.0 (an output removed), v4.8.0 with v4.13.0 (keepers narrowed from
// map<any> to map<string>, outputs made always-set), v4.13.0 with v4.21.0
// (additions only). The schemas are not in this repository (what is
// fetched from elsewhere is not committed here): with
// POLYHOST_PUBLISHED_SCHEMAS=DIR the test reads DIR/random/<tag>.json,
// provider/cmd/pulumi-resource-random/schema.json of
// github.com/pulumi/pulumi-random at that tag, unchanged; without it they
// are left out.
var randomPairs = [][2]string{{"v2.5.0", "v3.0.0"}, {"v4.8.0", "v4.13.0"}, {"v4.13.0", "v4.21.0"}}

func corpusPairs(t *testing.T) []corpusPair {
	files, err := filepath.Glob(filepath.Join("testdata", "pairs", "*.txtar"))
	if err != nil || len(files) == 0 {
		t.Fatalf("no pairs: %v", err)
	}
	var out []corpusPair
	for _, f := range files {
		a, err := txtar.ParseFile(f)
		if err != nil {
			t.Fatal(err)
		}
		name := strings.TrimSuffix(filepath.Base(f), ".txtar")
		p := corpusPair{name: name, semantic: semantic[name]}
		for _, file := range a.Files {
			switch file.Name {
			case "old.yaml", "old.json":
				p.old = file.Data
			case "new.yaml", "new.json":
				p.new = file.Data
			}
		}
		out = append(out, p)
	}
	published := os.Getenv("POLYHOST_PUBLISHED_SCHEMAS")
	if published == "" {
		t.Log("pulumi-random's published schemas left out: POLYHOST_PUBLISHED_SCHEMAS is not set")
		return out
	}
	for _, r := range randomPairs {
		var p corpusPair
		p.name = "random-" + r[0] + "-" + r[1]
		for i, tag := range r {
			data, err := os.ReadFile(filepath.Join(published, "random", tag+".json"))
			if err != nil {
				t.Fatal(err)
			}
			if i == 0 {
				p.old = data
			} else {
				p.new = data
			}
		}
		out = append(out, p)
	}
	return out
}

// forCodegen writes a schema as JSON for gen-sdk (which reads no language
// section from YAML) with its Go import path under prefix, so that every
// pair's SDK is a package of one module.
func forCodegen(name string, src []byte, prefix string) ([]byte, error) {
	p, err := load(name, src)
	if err != nil {
		return nil, err
	}
	doc, err := parse(name, src)
	if err != nil {
		return nil, err
	}
	m, ok := doc.(map[string]any)
	if !ok {
		return nil, fmt.Errorf("%s: not an object", name)
	}
	lang, _ := m["language"].(map[string]any)
	if lang == nil {
		lang = map[string]any{}
		m["language"] = lang
	}
	goLang, _ := lang["go"].(map[string]any)
	if goLang == nil {
		goLang = map[string]any{}
		lang["go"] = goLang
	}
	goLang["importBasePath"] = prefix + p.sdks[Go].name
	return json.MarshalIndent(m, "", "  ")
}

func onlyDir(dir string) (string, error) {
	entries, err := os.ReadDir(dir)
	if err != nil {
		return "", err
	}
	var dirs []string
	for _, e := range entries {
		if e.IsDir() {
			dirs = append(dirs, e.Name())
		}
	}
	if len(dirs) != 1 {
		return "", fmt.Errorf("%s holds %v, want one package", dir, dirs)
	}
	return filepath.Join(dir, dirs[0]), nil
}

// writeGoMod writes the corpus module's go.mod and go.sum: the committed
// sitekit SDK's requirements, which are Pulumi's Go SDK's.
func writeGoMod(dir string) error {
	mod, err := os.ReadFile(filepath.Join("..", "sdk", "go", "go.mod"))
	if err != nil {
		return err
	}
	sum, err := os.ReadFile(filepath.Join("..", "sdk", "go", "go.sum"))
	if err != nil {
		return err
	}
	first, rest, _ := bytes.Cut(mod, []byte("\n"))
	if !bytes.HasPrefix(first, []byte("module ")) {
		return fmt.Errorf("sdk/go/go.mod starts with %q", first)
	}
	if err := os.WriteFile(filepath.Join(dir, "go.mod"), append([]byte("module corpus\n"), rest...), 0o644); err != nil {
		return err
	}
	return os.WriteFile(filepath.Join(dir, "go.sum"), sum, 0o644)
}

// tools are the real CLI and the languages' toolchains tests/setup.sh
// installs.
type tools struct {
	pulumi, python, nodeModules string
	vars                        []string
	logf                        func(format string, args ...any)
}

func corpusTools(t *testing.T) *tools {
	repo, err := filepath.Abs("..")
	if err != nil {
		t.Fatal(err)
	}
	deps := filepath.Join(repo, "tests", ".deps")
	tl := &tools{pulumi: filepath.Join(deps, "bin", "pulumi"),
		python:      envOr("POLYHOST_PYTHON", filepath.Join(deps, "venv", "bin", "python")),
		nodeModules: envOr("POLYHOST_NODE_MODULES", filepath.Join(deps, "node", "node_modules")), logf: t.Logf}
	for _, need := range []string{tl.pulumi, tl.python, filepath.Join(tl.nodeModules, "typescript", "bin", "tsc")} {
		if _, err := os.Stat(need); err != nil {
			if os.Getenv("POLYHOST_REQUIRE_PULUMI") == "1" {
				t.Fatalf("%s is missing: run bash tests/setup.sh", need)
			}
			t.Skipf("needs the pulumi CLI, TypeScript and Python with Pulumi's SDK (bash tests/setup.sh): %s is missing", need)
		}
	}
	// The CLI gets a home of its own; Go keeps its caches where they are.
	caches, err := exec.Command("go", "env", "GOCACHE", "GOMODCACHE", "GOPATH").Output()
	if err != nil {
		t.Fatal(err)
	}
	c := strings.Fields(string(caches))
	home := t.TempDir()
	tl.vars = append(os.Environ(), "GOCACHE="+c[0], "GOMODCACHE="+c[1], "GOPATH="+c[2],
		"HOME="+home, "PULUMI_HOME="+filepath.Join(home, ".pulumi"),
		"PULUMI_SKIP_UPDATE_CHECK=true", "PULUMI_DISABLE_AUTOMATIC_PLUGIN_ACQUISITION=true",
		"GOFLAGS=-mod=mod", "GOWORK=off")
	return tl
}

func envOr(k, def string) string {
	if v := os.Getenv(k); v != "" {
		return v
	}
	return def
}

// run runs a command in dir; an error carries its output.
func (tl *tools) run(dir, name string, args ...string) (string, error) {
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, name, args...)
	cmd.Dir, cmd.Env = dir, tl.vars
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	if err := cmd.Run(); err != nil {
		return out.String(), fmt.Errorf("%s %s: %w\n%s", filepath.Base(name), strings.Join(args, " "), err, out.String())
	}
	return out.String(), nil
}

// parallel runs n jobs, two at a time (CI has two cores).
func (tl *tools) parallel(t *testing.T, n int, job func(i int) error) {
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

// sdkBroken starts the outcome of a pair whose generated SDK does not
// build itself: a fault of the generator, which judges nothing.
const sdkBroken = "the generated SDK does not build:\n"

var (
	tscLine    = regexp.MustCompile(`(?m)^([\w.-]+)/(\S+?)\(\d+,\d+\): error .*$`)
	goFileLine = regexp.MustCompile(`(?m)^(?:\./)?([\w.-]+)/(\S+?\.go):\d+:\d+: .*$`)
)

// tsc type-checks every pair's consumer at once and returns each one's
// errors; an error in an SDK fails.
func (tl *tools) tsc(dir string) (map[string]string, error) {
	out, err := tl.run(dir, "node", filepath.Join(tl.nodeModules, "typescript", "bin", "tsc"), "-p", ".")
	errs := map[string]string{}
	found := false
	for _, m := range tscLine.FindAllStringSubmatch(out, -1) {
		if m[2] != "consumer.ts" {
			return nil, fmt.Errorf("tsc: an error in the SDK of %s:\n%s", m[1], out)
		}
		errs[m[1]] += m[0] + "\n"
		found = true
	}
	if err != nil && !found {
		return nil, err
	}
	return errs, nil
}

// goBuildRun builds every pair's consumer in one go build; those that
// build then run under the SDK's mocks, in one program.
func (tl *tools) goBuildRun(dir string, pairs []string, mocks func(string) string) (map[string]string, error) {
	// A consumer that imports a package the SDK no longer has stops go
	// build before it compiles anything: build again without the consumers
	// that failed, until the rest build.
	errs := map[string]string{}
	for {
		args := []string{"build"}
		for _, p := range pairs {
			if errs[p] == "" {
				args = append(args, "./"+p+"/consumer")
			}
		}
		out, err := tl.run(dir, "go", args...)
		if err == nil {
			break
		}
		failed := 0
		for _, m := range goFileLine.FindAllStringSubmatch(out, -1) {
			if errs[m[1]] == "" {
				failed++
				if !strings.HasPrefix(m[2], "consumer/") {
					errs[m[1]] = sdkBroken
				}
			}
			errs[m[1]] += m[0] + "\n"
		}
		if failed == 0 {
			return nil, err
		}
	}
	var imports, calls strings.Builder
	for i, p := range pairs {
		if errs[p] != "" {
			continue
		}
		fmt.Fprintf(&imports, "\tc%d %q\n", i, "corpus/"+p+"/consumer")
		fmt.Fprintf(&calls, "\tout[%q] = run(%q, c%d.Run)\n", p, mocks(p), i)
	}
	main := strings.Replace(strings.Replace(goRunner, "\t// imports\n", imports.String(), 1), "\t// calls\n", calls.String(), 1)
	if err := os.MkdirAll(filepath.Join(dir, "runner"), 0o755); err != nil {
		return nil, err
	}
	if err := os.WriteFile(filepath.Join(dir, "runner", "main.go"), []byte(main), 0o644); err != nil {
		return nil, err
	}
	if _, err := tl.run(dir, "go", "build", "-o", "runner/runner", "./runner"); err != nil {
		return nil, err
	}
	res, err := tl.run(dir, filepath.Join(dir, "runner", "runner"))
	if err != nil {
		return nil, err
	}
	var ran map[string]string
	if err := json.Unmarshal([]byte(res[strings.LastIndex(res, "\n{")+1:]), &ran); err != nil {
		return nil, fmt.Errorf("the Go runner: %v\n%s", err, res)
	}
	for p, why := range ran {
		if strings.HasPrefix(why, "hang: ") {
			// The Go SDK's mocks never finish some programs that build
			// (a resource with an explicit id output): the build alone
			// judges them.
			tl.logf("%s: %s", p, why)
			continue
		}
		errs[p] = why
	}
	return errs, nil
}

// goRunner runs each consumer under mocks that answer as the schema of its
// side says the provider does.
const goRunner = `package main

import (
	"encoding/json"
	"fmt"
	"os"
	"time"

	"github.com/pulumi/pulumi/sdk/v3/go/common/resource"
	"github.com/pulumi/pulumi/sdk/v3/go/pulumi"

	// imports
)

type mocks map[string]map[string]map[string]any

func (m mocks) NewResource(a pulumi.MockResourceArgs) (string, resource.PropertyMap, error) {
	out := a.Inputs.Copy()
	for k, v := range resource.NewPropertyMapFromMap(m["resources"][a.TypeToken]) {
		out[k] = v
	}
	return a.Name + "-id", out, nil
}

func (m mocks) Call(a pulumi.MockCallArgs) (resource.PropertyMap, error) {
	return resource.NewPropertyMapFromMap(m["calls"][a.Token]), nil
}

func (m mocks) MethodCall(a pulumi.MockCallArgs) (resource.PropertyMap, error) {
	return resource.NewPropertyMapFromMap(m["calls"][a.Token]), nil
}

// run runs a consumer; one that never finishes (a bound against a broken
// consumer or SDK, not a measure) fails.
func run(file string, body pulumi.RunFunc) string {
	done := make(chan string, 1)
	go func() { done <- run1(file, body) }()
	select {
	case why := <-done:
		return why
	case <-time.After(time.Minute):
		return "hang: did not finish under mocks in a minute"
	}
}

func run1(file string, body pulumi.RunFunc) (why string) {
	defer func() {
		if r := recover(); r != nil {
			why = fmt.Sprint("panic: ", r)
		}
	}()
	data, err := os.ReadFile(file)
	if err != nil {
		return err.Error()
	}
	var m mocks
	if err := json.Unmarshal(data, &m); err != nil {
		return err.Error()
	}
	if err := pulumi.RunErr(body, pulumi.WithMocks("corpus", "dev", m)); err != nil {
		return err.Error()
	}
	return ""
}

func main() {
	out := map[string]string{}
	// calls
	js, _ := json.Marshal(out)
	fmt.Println()
	fmt.Println(string(js))
}
`

type pyRun struct {
	Pair     string `json:"pair"`
	SDK      string `json:"sdk"`
	Consumer string `json:"consumer"`
	Mocks    string `json:"mocks"`
}

// python runs every pair's consumer in one process, each under Pulumi's
// mocks with its own SDK on the path.
func (tl *tools) runPython(dir, side string, runs []pyRun) (map[string]string, error) {
	js, _ := json.Marshal(runs)
	list := filepath.Join(dir, "py-"+side+".json")
	if err := os.WriteFile(list, js, 0o644); err != nil {
		return nil, err
	}
	script := filepath.Join(dir, "runner.py")
	if err := os.WriteFile(script, []byte(pyRunner), 0o644); err != nil {
		return nil, err
	}
	results := filepath.Join(dir, "py-"+side+"-results.json")
	out, err := tl.run(dir, tl.python, script, list, results)
	if err != nil {
		return nil, err
	}
	var ran map[string]string
	if data, err := os.ReadFile(results); err != nil {
		return nil, fmt.Errorf("the Python runner: %v\n%s", err, out)
	} else if err := json.Unmarshal(data, &ran); err != nil {
		return nil, fmt.Errorf("the Python runner: %v\n%s", err, out)
	}
	return ran, nil
}

const pyRunner = `import importlib.util, json, os, sys, traceback

import pulumi
from pulumi.runtime import mocks as pm, rpc
from pulumi.runtime.proto import provider_pb2
from pulumi.runtime.sync_await import _ensure_event_loop, _sync_await


class Mocks(pulumi.runtime.Mocks):
    def __init__(self, data):
        self.data = data

    def new_resource(self, args):
        out = dict(args.inputs)
        out.update(self.data["resources"].get(args.typ) or {})
        return [args.name + "-id", out]

    def call(self, args):
        return self.data["calls"].get(args.token) or {}


class Monitor(pm.MockMonitor):
    # Methods: the SDK's mock monitor answers invokes but not calls.
    def Call(self, request):
        _ensure_event_loop()
        ret = self.mocks.call(pm.MockCallArgs(token=request.tok, args={}, provider=request.provider))
        return provider_pb2.CallResponse(**{"return": _sync_await(rpc.serialize_properties(ret, {}))})


results = {}
for r in json.load(open(sys.argv[1])):
    mocks = Mocks(json.load(open(r["mocks"])))
    pulumi.runtime.set_mocks(mocks, monitor=Monitor(mocks), preview=False)
    # The SDK reads its version from its distribution's metadata, as pip
    # would have installed it.
    for name in os.listdir(r["sdk"]):
        if os.path.exists(os.path.join(r["sdk"], name, "__init__.py")):
            meta = os.path.join(r["sdk"], name + "-1.0.0.dist-info")
            os.makedirs(meta, exist_ok=True)
            with open(os.path.join(meta, "METADATA"), "w") as f:
                f.write("Metadata-Version: 2.1\nName: %s\nVersion: 1.0.0\n" % name)
    sys.path.insert(0, r["sdk"])
    # Each pair's SDK registers its package and modules anew.
    rpc._RESOURCE_PACKAGES.clear()
    rpc._RESOURCE_MODULES.clear()
    why = ""
    try:
        spec = importlib.util.spec_from_file_location("consumer_" + r["pair"], r["consumer"])
        mod = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(mod)

        @pulumi.runtime.test
        def body():
            return pulumi.Output.all(*mod.run())

        body()
    except BaseException as e:
        why = "".join(traceback.format_exception_only(type(e), e)).strip()
        tb = traceback.extract_tb(e.__traceback__)
        frames = [f for f in tb if f.filename == r["consumer"]]
        if frames:
            why += " (consumer line %d: %s)" % (frames[-1].lineno, frames[-1].line)
    results[r["pair"]] = why
    sys.path.remove(r["sdk"])
    for name, m in list(sys.modules.items()):
        f = getattr(m, "__file__", None) or ""
        if f.startswith(r["sdk"] + os.sep):
            del sys.modules[name]

with open(sys.argv[2], "w") as f:
    json.dump(results, f)
`
