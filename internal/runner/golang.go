package runner

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"io"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"sync"

	"github.com/polyhost/polyhost/internal/engine"
)

type goProgram struct{ spec spec }

// Environment variables of the Go SDK (sdk/go/pulumi/run.go).
var goEnvKeys = []string{
	"PULUMI_MONITOR", "PULUMI_ENGINE", "PULUMI_PROJECT", "PULUMI_STACK",
	"PULUMI_ORGANIZATION", "PULUMI_CONFIG", "PULUMI_CONFIG_SECRET_KEYS",
	"PULUMI_DRY_RUN", "PULUMI_PARALLEL", "PULUMI_ROOT_DIRECTORY",
}

func (p *goProgram) Run(ctx context.Context, info engine.RunInfo) error {
	bin, err := buildGo(ctx, p.spec.pwd)
	if err != nil {
		return err
	}
	cfg, err := configJSON(info.Config)
	if err != nil {
		return err
	}
	// As pulumi-language-go's constructEnv: only non-empty values are set.
	env := environ(goEnvKeys)
	add := func(k, v string) {
		if v != "" {
			env = append(env, k+"="+v)
		}
	}
	add("PULUMI_ORGANIZATION", info.Organization)
	add("PULUMI_PROJECT", info.Project)
	add("PULUMI_ROOT_DIRECTORY", p.spec.rootFor(info))
	add("PULUMI_STACK", info.Stack)
	add("PULUMI_CONFIG", cfg)
	add("PULUMI_CONFIG_SECRET_KEYS", secretKeysJSON(info.SecretKeys))
	add("PULUMI_DRY_RUN", strconv.FormatBool(info.DryRun))
	add("PULUMI_PARALLEL", strconv.Itoa(info.Parallel))
	add("PULUMI_MONITOR", info.MonitorAddr)
	add("PULUMI_ENGINE", info.EngineAddr)

	return launch{
		runtime: "go",
		dir:     p.spec.pwd,
		cwd:     p.spec.pwd,
		path:    bin,
		env:     env,
		secrets: secretValues(info),
	}.run(ctx)
}

// Built Go programs, per directory and content, for this process.
var goBuilds = struct {
	sync.Mutex
	byKey  map[string]*goBuildRes // dir + content hash -> build
	builds map[string]int         // go build runs per directory, for tests
}{byKey: map[string]*goBuildRes{}, builds: map[string]int{}}

// tempDir holds this process's Go binaries and the Python launcher.
var tempDir struct {
	sync.Mutex
	path string
}

func runnerTempDir() (string, error) {
	tempDir.Lock()
	defer tempDir.Unlock()
	if tempDir.path == "" {
		tmp, err := os.MkdirTemp("", "polyhost-runner-")
		if err != nil {
			return "", err
		}
		tempDir.path = tmp
	}
	return tempDir.path, nil
}

type goBuildRes struct {
	mu  sync.Mutex
	bin string // set once built
}

// Cleanup removes the binaries built for Go programs (and the Python
// launcher) written by this process. Call it from TestMain after m.Run; later
// runs write them again.
func Cleanup() error {
	goBuilds.Lock()
	goBuilds.byKey = map[string]*goBuildRes{}
	goBuilds.Unlock()
	tempDir.Lock()
	defer tempDir.Unlock()
	dir := tempDir.path
	tempDir.path = ""
	if dir == "" {
		return nil
	}
	return os.RemoveAll(dir)
}

// buildGo builds the program in dir the way pulumi-language-go does
// (`go build -buildvcs=false -ldflags "-w -s"`, minus -trimpath so the test
// build cache is shared) and caches the binary by directory content.
// BuildGo builds the Go program in dir, as Go programs are built before
// they run (once per directory content within this process), and returns
// the binary's path. The language host builds Go source plugins with it.
func BuildGo(ctx context.Context, dir string) (string, error) { return buildGo(ctx, dir) }

func buildGo(ctx context.Context, dir string) (string, error) {
	if m, _ := filepath.Glob(filepath.Join(dir, "*.go")); len(m) == 0 {
		return "", fmt.Errorf("go program in %s: no *.go files to build", dir)
	}
	sum, err := hashDir(dir)
	if err != nil {
		return "", fmt.Errorf("go program in %s: %w", dir, err)
	}
	key := dir + "\x00" + sum

	goBuilds.Lock()
	res := goBuilds.byKey[key]
	if res == nil {
		res = &goBuildRes{}
		goBuilds.byKey[key] = res
	}
	goBuilds.Unlock()
	outDir, err := runnerTempDir()
	if err != nil {
		return "", err
	}

	res.mu.Lock()
	defer res.mu.Unlock()
	if res.bin != "" {
		if _, err := os.Stat(res.bin); err == nil {
			return res.bin, nil
		}
	}
	gobin, err := exec.LookPath("go")
	if err != nil {
		return "", fmt.Errorf("go program in %s: %w", dir, err)
	}
	bin := filepath.Join(outDir, sum[:16], filepath.Base(dir))
	if err := os.MkdirAll(filepath.Dir(bin), 0o755); err != nil {
		return "", err
	}
	cmd := exec.CommandContext(ctx, gobin, "build", "-buildvcs=false", "-ldflags", "-w -s", "-o", bin, ".")
	cmd.Dir = dir
	setProcessGroup(cmd)
	cmd.Cancel = func() error { return killProcessGroup(cmd) }
	out, err := cmd.CombinedOutput()
	goBuilds.Lock()
	goBuilds.builds[dir]++
	goBuilds.Unlock()
	if err != nil {
		if ctx.Err() != nil {
			return "", fmt.Errorf("go program in %s: build stopped: %w", dir, ctx.Err())
		}
		return "", fmt.Errorf("go program in %s: go build failed: %w\n%s", dir, err, lastLines(string(out), tailLines))
	}
	res.bin = bin
	return bin, nil
}

// hashDir hashes the names and contents of the regular files under dir,
// skipping .git and node_modules.
func hashDir(dir string) (string, error) {
	h := sha256.New()
	err := filepath.WalkDir(dir, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			if path != dir && (d.Name() == ".git" || d.Name() == "node_modules") {
				return filepath.SkipDir
			}
			return nil
		}
		if !d.Type().IsRegular() {
			return nil
		}
		rel, err := filepath.Rel(dir, path)
		if err != nil {
			return err
		}
		f, err := os.Open(path)
		if err != nil {
			return err
		}
		defer f.Close()
		fi, err := f.Stat()
		if err != nil {
			return err
		}
		fmt.Fprintf(h, "%s\x00%d\x00", filepath.ToSlash(rel), fi.Size())
		_, err = io.Copy(h, f)
		return err
	})
	if err != nil {
		return "", err
	}
	return hex.EncodeToString(h.Sum(nil)), nil
}

// builtGoCount reports how many go builds of dir ran in this process
// (tests; per directory, so tests building others in parallel don't count).
func builtGoCount(dir string) int {
	goBuilds.Lock()
	defer goBuilds.Unlock()
	return goBuilds.builds[dir]
}
