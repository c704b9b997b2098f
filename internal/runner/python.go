package runner

import (
	"context"
	_ "embed"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"

	"github.com/polyhost/polyhost/internal/engine"
)

// pythonExec is our stand-in for the CLI's pulumi-language-python-exec.
//
//go:embed pulumi_language_python_exec.py
var pythonExec []byte

type pythonProgram struct{ spec spec }

func (p *pythonProgram) Run(ctx context.Context, info engine.RunInfo) error {
	py, err := p.interpreter()
	if err != nil {
		return fmt.Errorf("python program in %s: %w", p.spec.pwd, err)
	}
	script, err := pythonExecPath()
	if err != nil {
		return fmt.Errorf("python program in %s: %w", p.spec.pwd, err)
	}
	cfg, err := configJSON(info.Config)
	if err != nil {
		return err
	}

	// As pulumi-language-python's constructArguments.
	args := []string{script}
	add := func(k, v string) {
		if v != "" {
			args = append(args, "--"+k, v)
		}
	}
	add("monitor", info.MonitorAddr)
	add("engine", info.EngineAddr)
	add("project", info.Project)
	add("root_directory", p.spec.rootFor(info))
	add("stack", info.Stack)
	add("pwd", p.spec.pwd)
	add("dry_run", strconv.FormatBool(info.DryRun))
	add("parallel", strconv.Itoa(info.Parallel))
	add("organization", info.Organization)
	args = append(args, p.spec.entry)

	env := activateVenv(environ([]string{"PULUMI_CONFIG", "PULUMI_CONFIG_SECRET_KEYS"}), py)
	if cfg != "" {
		env = append(env, "PULUMI_CONFIG="+cfg)
	}
	env = append(env, "PULUMI_CONFIG_SECRET_KEYS="+secretKeysJSON(info.SecretKeys))

	err = launch{
		runtime: "python",
		dir:     p.spec.pwd,
		cwd:     p.spec.pwd,
		path:    py,
		args:    args,
		env:     env,
		secrets: secretValues(info),
	}.run(ctx)
	var exitErr *ExitError
	if errors.As(err, &exitErr) && strings.Contains(exitErr.Stderr, "the Pulumi SDK has not been installed") {
		return fmt.Errorf("%w: the interpreter %s has no pulumi package\n%w", ErrDepsMissing, py, err)
	}
	return err
}

// interpreter picks the program's own virtualenv (runtime option
// `virtualenv`, relative to the root) if it exists. Else the shared one
// stands in (POLYHOST_PYTHON, or inside this repository tests/.deps); a
// program elsewhere gets python3 from PATH if it names no virtualenv, and
// an error naming the missing one if it does.
func (p *pythonProgram) interpreter() (string, error) {
	venv, err := p.spec.stringOpt("virtualenv")
	if err != nil {
		return "", err
	}
	if venv != "" {
		if !filepath.IsAbs(venv) {
			venv = filepath.Join(p.spec.root, venv)
		}
		py := filepath.Join(venv, "bin", "python")
		if _, err := os.Stat(py); err == nil {
			return py, nil
		}
		if _, err := depsDir(p.spec.pwd); err != nil && os.Getenv(EnvPython) == "" {
			return "", fmt.Errorf("%w: Pulumi.yaml names the virtualenv %s (runtime option virtualenv), which does not exist: create it with the pulumi package in it (pulumi install does)", ErrDepsMissing, venv)
		}
	}
	return pythonPath(os.Getenv, p.spec.pwd)
}

// activateVenv does what the host's ActivateVirtualEnv does when py lives in
// a virtualenv: venv/bin first on PATH, VIRTUAL_ENV set, PYTHONHOME unset.
func activateVenv(env []string, py string) []string {
	bin := filepath.Dir(py)
	venv := filepath.Dir(bin)
	if _, err := os.Stat(filepath.Join(venv, "pyvenv.cfg")); err != nil {
		return env
	}
	out := make([]string, 0, len(env)+2)
	hasPath := false
	for _, kv := range env {
		k, v, _ := strings.Cut(kv, "=")
		switch k {
		case "PATH":
			hasPath = true
			out = append(out, "PATH="+bin+string(os.PathListSeparator)+v)
		case "PYTHONHOME", "VIRTUAL_ENV":
		default:
			out = append(out, kv)
		}
	}
	if !hasPath {
		out = append(out, "PATH="+bin)
	}
	return append(out, "VIRTUAL_ENV="+venv)
}

var pythonExecOnce struct {
	sync.Mutex
	path string
}

// pythonExecPath writes the launcher next to the Go builds once per process.
func pythonExecPath() (string, error) {
	pythonExecOnce.Lock()
	defer pythonExecOnce.Unlock()
	if pythonExecOnce.path != "" {
		if _, err := os.Stat(pythonExecOnce.path); err == nil {
			return pythonExecOnce.path, nil
		}
	}
	dir, err := runnerTempDir()
	if err != nil {
		return "", err
	}
	path := filepath.Join(dir, "pulumi-language-python-exec")
	if err := os.WriteFile(path, pythonExec, 0o644); err != nil {
		return "", err
	}
	pythonExecOnce.path = path
	return path, nil
}
