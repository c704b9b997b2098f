package runner

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/pulumi/pulumi/sdk/v3/go/common/resource/urn"

	"github.com/polyhost/polyhost/internal/engine"
	"github.com/polyhost/polyhost/monitorclient"
)

const (
	testProject = "runnertest"
	testStack   = "dev"
	secretValue = "s3cr3t-value-42"
)

func TestMain(m *testing.M) {
	if pidFile := os.Getenv(orphanEnv); pidFile != "" {
		runOrphanParent(pidFile)
	}
	code := m.Run()
	if err := Cleanup(); err != nil {
		fmt.Fprintln(os.Stderr, "runner cleanup:", err)
	}
	os.Exit(code)
}

// testCtx bounds a program run so a hung program fails the test instead of
// the whole binary; it is not a timing assertion.
func testCtx(t *testing.T) context.Context {
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	t.Cleanup(cancel)
	return ctx
}

func runInfo(f *fakeEngine, dir string, dryRun bool, extra map[string]string) engine.RunInfo {
	cfg := map[string]string{
		testProject + ":greeting": "hello",
		testProject + ":token":    secretValue,
	}
	for k, v := range extra {
		cfg[k] = v
	}
	return engine.RunInfo{
		MonitorAddr:  f.Addr(),
		EngineAddr:   f.Addr(),
		Project:      testProject,
		Stack:        testStack,
		Organization: "organization",
		Config:       cfg,
		SecretKeys:   []string{testProject + ":token"},
		DryRun:       dryRun,
		Parallel:     4,
		Dir:          dir,
	}
}

// copyDir copies a program into a fresh temp dir, as testscript would.
func copyDir(t *testing.T, src string) string {
	t.Helper()
	dst := t.TempDir()
	err := filepath.WalkDir(src, func(path string, d os.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(src, path)
		if d.IsDir() {
			if d.Name() == "node_modules" || d.Name() == "__pycache__" {
				return filepath.SkipDir
			}
			return os.MkdirAll(filepath.Join(dst, rel), 0o755)
		}
		data, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		return os.WriteFile(filepath.Join(dst, rel), data, 0o644)
	})
	if err != nil {
		t.Fatal(err)
	}
	return dst
}

func TestRunOK(t *testing.T) {
	t.Parallel()
	for _, lang := range []string{"go", "typescript", "python"} {
		for _, dryRun := range []bool{false, true} {
			t.Run(fmt.Sprintf("%s/dryRun=%v", lang, dryRun), func(t *testing.T) {
				t.Parallel()
				dir := filepath.Join("testdata", lang, "ok")
				if lang != "go" {
					// Node and Python run from a copy outside the repository.
					dir = copyDir(t, dir)
				}
				prog, err := ForDir(dir)
				if err != nil {
					t.Fatal(err)
				}
				f := startFakeEngine(t)
				if err := prog.Run(testCtx(t), runInfo(f, dir, dryRun, nil)); err != nil {
					t.Fatalf("run failed: %v\nengine log:\n%s", err, f.logText())
				}
				checkOK(t, f, lang, dryRun)
			})
		}
	}
}

func checkOK(t *testing.T, f *fakeEngine, lang string, dryRun bool) {
	t.Helper()
	res := f.Registrations()
	stack := f.StackURN()
	if len(res) == 0 || res[0].URN != stack || res[0].Parent != "" {
		t.Fatalf("first registration should be the stack %s, got %+v", stack, res)
	}
	widgetURN := urn.URN(fmt.Sprintf("urn:pulumi:%s::%s::runnertest:index:Widget::w", testStack, testProject))
	widget, ok := f.Registration(widgetURN)
	if !ok || widget.Parent != stack || widget.Custom {
		t.Fatalf("widget component not registered under the stack: %+v", res)
	}
	if outs, _ := f.Outputs(widgetURN); outs.Get("label").AsString() != "hello" {
		t.Errorf("widget outputs: %v", outs)
	}

	so, _ := f.Outputs(stack)
	if g := so.Get("greeting"); g.Secret() || !g.IsString() || g.AsString() != "hello" {
		t.Errorf("greeting output = %v, want plain \"hello\"", g)
	}
	if tok := so.Get("token"); !tok.Secret() || !tok.IsString() || tok.AsString() != secretValue {
		t.Errorf("token output = %v, want secret %q", tok, secretValue)
	}
	if d := so.Get("dryRun"); !d.IsBool() || d.AsBool() != dryRun {
		t.Errorf("dryRun output = %v, want %v", d, dryRun)
	}
	for _, l := range f.Logs() {
		if l.Severity == monitorclient.SeverityError {
			t.Errorf("unexpected error log: %s", l.Message)
		}
	}

	switch lang {
	case "typescript":
		// One @pulumi/pulumi: the program's is the shared one that runs it.
		shared, err := nodeModulesDir(os.Getenv, "")
		if err != nil {
			t.Fatal(err)
		}
		want, _ := filepath.EvalSymlinks(filepath.Join(shared, "@pulumi", "pulumi", "package.json"))
		if got := so.Get("sdkPackage"); !got.IsString() || got.AsString() != want {
			t.Errorf("program loaded %v, want %s", got, want)
		}
	case "python":
		py, err := pythonPath(os.Getenv, "")
		if err != nil {
			t.Fatal(err)
		}
		want, _ := filepath.EvalSymlinks(filepath.Dir(filepath.Dir(py)))
		got := so.Get("prefix")
		if gotReal, _ := filepath.EvalSymlinks(got.AsString()); !got.IsString() || gotReal != want {
			t.Errorf("program ran in %v, want venv %s", got, want)
		}
	}
}

func TestRunFailing(t *testing.T) {
	t.Parallel()
	for _, lang := range []string{"go", "typescript", "python"} {
		for _, mode := range []string{"throw", "exit"} {
			t.Run(lang+"/"+mode, func(t *testing.T) {
				t.Parallel()
				dir := filepath.Join("testdata", lang, "fail")
				prog, err := ForDir(dir)
				if err != nil {
					t.Fatal(err)
				}
				f := startFakeEngine(t)
				info := runInfo(f, dir, false, map[string]string{testProject + ":mode": mode})
				err = prog.Run(testCtx(t), info)

				var exitErr *ExitError
				if !errors.As(err, &exitErr) {
					t.Fatalf("want *ExitError, got %v\nengine log:\n%s", err, f.logText())
				}
				msg := err.Error()
				t.Logf("error:\n%s", msg)
				if strings.Contains(msg, secretValue) {
					t.Errorf("error leaks the secret config value:\n%s", msg)
				}
				if !strings.Contains(msg, "leaking token=[secret]") {
					t.Errorf("error lacks the redacted stderr tail:\n%s", msg)
				}
				runtime := map[string]string{"go": "go", "typescript": "nodejs", "python": "python"}[lang]
				switch mode {
				case "throw":
					if exitErr.Code != 32 || !exitErr.Logged() {
						t.Errorf("exit status %d, want 32 (logged)", exitErr.Code)
					}
					want := "exited with status 32: the error was already reported via Engine.Log"
					if !strings.Contains(msg, want) {
						t.Errorf("error %q lacks %q", msg, want)
					}
					if logs := f.logText(); !strings.Contains(logs, "ERROR") || !strings.Contains(logs, "boom from "+runtime) {
						t.Errorf("engine log lacks the program's error:\n%s", logs)
					}
				case "exit":
					if exitErr.Code != 3 || exitErr.Logged() {
						t.Errorf("exit status %d, want 3", exitErr.Code)
					}
					if !strings.Contains(msg, "exited with status 3\n") {
						t.Errorf("error lacks the exit status:\n%s", msg)
					}
				}
				if exitErr.Runtime != runtime {
					t.Errorf("runtime %q, want %q", exitErr.Runtime, runtime)
				}
			})
		}
	}
}

func TestGoBuildCached(t *testing.T) {
	t.Parallel()
	dir, err := filepath.Abs(filepath.Join("testdata", "go", "ok"))
	if err != nil {
		t.Fatal(err)
	}
	ctx := testCtx(t)
	first, err := buildGo(ctx, dir)
	if err != nil {
		t.Fatal(err)
	}
	before := builtGoCount(dir)
	second, err := buildGo(ctx, dir)
	if err != nil {
		t.Fatal(err)
	}
	if second != first || builtGoCount(dir) != before {
		t.Errorf("second build of unchanged %s was not cached (%s vs %s)", dir, first, second)
	}

	// A copy outside any module fails to build, with go's message, and the
	// failure is not cached.
	outside := t.TempDir()
	if err := os.WriteFile(filepath.Join(outside, "main.go"), []byte("package main\n\nfunc main() {}\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	for i := 0; i < 2; i++ {
		if _, err := buildGo(ctx, outside); err == nil || !strings.Contains(err.Error(), "go build failed") || !strings.Contains(err.Error(), "go.mod") {
			t.Errorf("build outside a module: %v", err)
		}
	}
	if got := builtGoCount(outside); got != 2 {
		t.Errorf("failed builds ran %d times, want 2 (failures are not cached)", got)
	}
}

func TestCancelKillsProcessGroup(t *testing.T) {
	t.Parallel()
	dir := filepath.Join("testdata", "go", "hang")
	pidFile := filepath.Join(t.TempDir(), "child.pid")
	f := startFakeEngine(t)
	ctx, cancel := context.WithCancel(testCtx(t))
	done := make(chan error, 1)
	go func() {
		done <- Go(dir).Run(ctx, runInfo(f, dir, false, map[string]string{testProject + ":pidfile": pidFile}))
	}()
	select {
	case <-f.stackRegistered:
	case err := <-done:
		t.Fatalf("program ended before registering the stack: %v", err)
	case <-ctx.Done():
		t.Fatal("program never registered the stack")
	}
	data, err := os.ReadFile(pidFile)
	if err != nil {
		t.Fatal(err)
	}
	pid, err := strconv.Atoi(string(data))
	if err != nil {
		t.Fatal(err)
	}
	cancel()
	if err := <-done; !errors.Is(err, context.Canceled) {
		t.Fatalf("Run after cancel = %v, want context.Canceled", err)
	}
	// SIGKILL is delivered at once; give the kernel and the reaper a while.
	for i := 0; ; i++ {
		if !processAlive(pid) {
			break
		}
		if i == 300 {
			t.Fatalf("child %d of the cancelled program is still running", pid)
		}
		time.Sleep(100 * time.Millisecond)
	}
}

// processAlive reports whether pid exists and is not a zombie.
func processAlive(pid int) bool {
	if err := syscall.Kill(pid, 0); err != nil {
		return false
	}
	stat, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
	if err != nil {
		return false
	}
	// Format: pid (comm) state ...
	s := string(stat)
	if i := strings.LastIndexByte(s, ')'); i >= 0 && i+2 < len(s) {
		return s[i+2] != 'Z'
	}
	return true
}

func TestForDir(t *testing.T) {
	t.Parallel()
	write := func(t *testing.T, files map[string]string) string {
		dir := t.TempDir()
		for name, body := range files {
			p := filepath.Join(dir, name)
			if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
				t.Fatal(err)
			}
		}
		return dir
	}
	tests := []struct {
		name    string
		files   map[string]string
		check   func(t *testing.T, dir string, p engine.Program)
		wantErr []string // substrings; "$FILE" is the Pulumi.yaml path
	}{
		{
			name:  "go string",
			files: map[string]string{"Pulumi.yaml": "name: x\nruntime: go\n"},
			check: func(t *testing.T, dir string, p engine.Program) {
				g, ok := p.(*goProgram)
				if !ok || g.spec.pwd != dir || g.spec.root != dir || g.spec.entry != "." {
					t.Errorf("got %#v", p)
				}
			},
		},
		{
			name:  "nodejs mapping with options",
			files: map[string]string{"Pulumi.yaml": "name: x\nruntime:\n  name: nodejs\n  options:\n    typescript: false\n    nodeargs: --max-old-space-size=100\n"},
			check: func(t *testing.T, dir string, p engine.Program) {
				n, ok := p.(*nodeProgram)
				if !ok {
					t.Fatalf("got %#v", p)
				}
				if ts, err := n.spec.boolOpt("typescript", true); err != nil || ts {
					t.Errorf("typescript option = %v, %v", ts, err)
				}
				if a, err := n.spec.stringOpt("nodeargs"); err != nil || a != "--max-old-space-size=100" {
					t.Errorf("nodeargs option = %q, %v", a, err)
				}
			},
		},
		{
			name:  "python with main dir, Pulumi.yml",
			files: map[string]string{"Pulumi.yml": "name: x\nruntime: python\nmain: src/\n", "src/__main__.py": ""},
			check: func(t *testing.T, dir string, p engine.Program) {
				py, ok := p.(*pythonProgram)
				if !ok || py.spec.pwd != filepath.Join(dir, "src") || py.spec.entry != "." || py.spec.root != dir {
					t.Errorf("got %#v", p)
				}
			},
		},
		{
			name:  "main file",
			files: map[string]string{"Pulumi.yaml": "name: x\nruntime: nodejs\nmain: app/main.js\n", "app/main.js": ""},
			check: func(t *testing.T, dir string, p engine.Program) {
				n, ok := p.(*nodeProgram)
				if !ok || n.spec.pwd != filepath.Join(dir, "app") || n.spec.entry != "main.js" {
					t.Errorf("got %#v", p)
				}
			},
		},
		{
			name:    "yaml",
			files:   map[string]string{"Pulumi.yaml": "name: x\nruntime: yaml\n"},
			wantErr: []string{"$FILE", "YAML programs need the real pulumi CLI"},
		},
		{
			name:    "unknown runtime",
			files:   map[string]string{"Pulumi.yaml": "name: x\nruntime:\n  name: dotnet\n"},
			wantErr: []string{"$FILE", `unsupported runtime "dotnet"`},
		},
		{
			name:    "no runtime",
			files:   map[string]string{"Pulumi.yaml": "name: x\n"},
			wantErr: []string{"$FILE", "no runtime"},
		},
		{
			name:    "missing main",
			files:   map[string]string{"Pulumi.yaml": "name: x\nruntime: go\nmain: nowhere\n"},
			wantErr: []string{"$FILE", "project 'main' could not be read"},
		},
		{
			name:    "no project file",
			files:   map[string]string{"main.go": ""},
			wantErr: []string{"no Pulumi.yaml in"},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			dir := write(t, tt.files)
			p, err := ForDir(dir)
			if tt.wantErr == nil {
				if err != nil {
					t.Fatal(err)
				}
				tt.check(t, dir, p)
				return
			}
			if err == nil {
				t.Fatalf("want error, got %#v", p)
			}
			file := filepath.Join(dir, "Pulumi.yaml")
			for _, w := range tt.wantErr {
				if w == "$FILE" {
					w = file
				}
				if !strings.Contains(err.Error(), w) {
					t.Errorf("error %q lacks %q", err, w)
				}
			}
		})
	}
}

// TestMissingDeps uses t.Setenv, so it cannot run in parallel.
func TestMissingDeps(t *testing.T) {
	t.Setenv(EnvNodeModules, filepath.Join(t.TempDir(), "none"))
	t.Setenv(EnvPython, filepath.Join(t.TempDir(), "none", "python"))
	info := engine.RunInfo{MonitorAddr: "127.0.0.1:1", EngineAddr: "127.0.0.1:1", Project: "p", Stack: "s"}
	// Installs named by the variables are the caller's to mend, not
	// tests/setup.sh's.
	for name, prog := range map[string]engine.Program{
		EnvNodeModules: NodeJS(t.TempDir()),
		EnvPython:      Python(t.TempDir()),
	} {
		err := prog.Run(context.Background(), info)
		if !errors.Is(err, ErrDepsMissing) || !strings.Contains(err.Error(), "from "+name+": point it at") || strings.Contains(err.Error(), "setup.sh") {
			t.Errorf("%s: want ErrDepsMissing naming the variable to mend, not setup.sh; got %v", name, err)
		}
	}

	// An interpreter without the pulumi package: the launcher says so.
	base, err := exec.LookPath("python3")
	if err != nil {
		t.Fatal(err)
	}
	venv := filepath.Join(t.TempDir(), "venv")
	if out, err := exec.Command(base, "-m", "venv", "--without-pip", venv).CombinedOutput(); err != nil {
		t.Fatalf("creating an empty venv: %v\n%s", err, out)
	}
	t.Setenv(EnvPython, filepath.Join(venv, "bin", "python"))
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "__main__.py"), nil, 0o644); err != nil {
		t.Fatal(err)
	}
	err = Python(dir).Run(context.Background(), info)
	if !errors.Is(err, ErrDepsMissing) || !strings.Contains(err.Error(), "ModuleNotFoundError") {
		t.Errorf("python without pulumi: want ErrDepsMissing with the import error, got %v", err)
	}
}

func TestRedaction(t *testing.T) {
	t.Parallel()
	r := newRedactor([]string{"pa\"ss", "multi\nline-secret", "", "  "})
	tests := []struct{ in, want string }{
		{"", ""},
		{"nothing here", "nothing here"},
		{`raw pa"ss and json pa\"ss`, "raw [secret] and json [secret]"},
		{"whole multi\nline-secret", "whole [secret]"},
		{"cut line-secret", "cut [secret]"},
		{"blank values are not redacted:  ", "blank values are not redacted:  "},
	}
	for _, tt := range tests {
		if got := r.redact(tt.in); got != tt.want {
			t.Errorf("redact(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
}

func TestTailBuffer(t *testing.T) {
	t.Parallel()
	tb := &tailBuffer{max: 16}
	fmt.Fprint(tb, "first line\nsecond\nthird\n")
	// The cut-off partial first line is dropped.
	if got := tb.Text(); got != "second\nthird\n" {
		t.Errorf("Text() = %q", got)
	}
	if got := lastLines("a\nb\nc\n", 2); got != "[... 1 earlier lines]\nb\nc" {
		t.Errorf("lastLines = %q", got)
	}
	if got := lastLines("\n", 2); got != "" {
		t.Errorf("lastLines of empty = %q", got)
	}
}

func TestSplitArgs(t *testing.T) {
	t.Parallel()
	tests := []struct {
		in      string
		want    []string
		wantErr bool
	}{
		{"", nil, false},
		{"--a  --b", []string{"--a", "--b"}, false},
		{`--x="a b" 'c d' e\ f`, []string{"--x=a b", "c d", "e f"}, false},
		{`''`, []string{""}, false},
		{`"open`, nil, true},
	}
	for _, tt := range tests {
		got, err := splitArgs(tt.in)
		if (err != nil) != tt.wantErr || fmt.Sprint(got) != fmt.Sprint(tt.want) || len(got) != len(tt.want) {
			t.Errorf("splitArgs(%q) = %q, %v; want %q", tt.in, got, err, tt.want)
		}
	}
}

func TestNodeConfigJSON(t *testing.T) {
	t.Parallel()
	got, err := nodeConfigJSON(map[string]string{"proj:a": "1", "aws:config:region": "x"})
	if err != nil || got != `{"aws:config:region":"x","proj:config:a":"1"}` {
		t.Errorf("got %s, %v", got, err)
	}
	if got, err := nodeConfigJSON(nil); err != nil || got != "{}" {
		t.Errorf("nil config: %s, %v", got, err)
	}
	if _, err := nodeConfigJSON(map[string]string{"bad": "1"}); err == nil {
		t.Error("want error for key without namespace")
	}
}

// TestTypeScriptTypeChecked shows programs are type-checked as under the real
// CLI (ts-node without transpile-only), so types must resolve through the
// linked node_modules.
func TestTypeScriptTypeChecked(t *testing.T) {
	t.Parallel()
	dir := copyDir(t, filepath.Join("testdata", "typescript", "ok"))
	src, err := os.ReadFile(filepath.Join(dir, "index.ts"))
	if err != nil {
		t.Fatal(err)
	}
	src = append(src, "\nexport const bad: number = \"not a number\";\n"...)
	if err := os.WriteFile(filepath.Join(dir, "index.ts"), src, 0o644); err != nil {
		t.Fatal(err)
	}
	f := startFakeEngine(t)
	err = NodeJS(dir).Run(testCtx(t), runInfo(f, dir, false, nil))
	var exitErr *ExitError
	if !errors.As(err, &exitErr) || !exitErr.Logged() {
		t.Fatalf("want a logged exit error, got %v", err)
	}
	if logs := f.logText(); !strings.Contains(logs, "TS2322") {
		t.Errorf("engine log lacks the type error:\n%s", logs)
	}
}
