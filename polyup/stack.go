package polyup

import (
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"maps"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"

	"github.com/pulumi/pulumi/sdk/v3/go/common/providers"
	"github.com/pulumi/pulumi/sdk/v3/go/common/resource"
	"github.com/pulumi/pulumi/sdk/v3/go/common/resource/urn"
	"github.com/pulumi/pulumi/sdk/v3/go/common/tokens"
	"github.com/pulumi/pulumi/sdk/v3/go/property"

	"github.com/polyhost/polyhost/internal/engine"
	"github.com/polyhost/polyhost/internal/runner"
)

// Options configures a Stack. Every field is optional.
type Options struct {
	// Stack is the stack's name (default "dev").
	Stack string
	// StateFile holds the stack's state in Pulumi's deployment format
	// (default <dir>/.polyup/<stack>.json). Its secrets are encrypted with
	// a key kept beside it, in <StateFile>.key.
	StateFile string
	// Plugins maps a package name to its provider plugin binary, which
	// BuildPlugin builds. A package not listed is found as
	// pulumi-resource-<pkg> on PATH.
	Plugins map[string]string
	// Config is stack configuration, merged over Pulumi.<stack>.yaml's
	// plain values; Secrets the same for secret values. A key without a
	// namespace ("news") gets the project's ("proj:news").
	Config, Secrets map[string]string
	// Parallel bounds the resource operations that run at once (default:
	// $PULUMI_PARALLEL, else 4 × CPUs).
	Parallel int
	// Log receives the plugins' output and the debug logs.
	Log io.Writer
}

// Stack is one stack of a Pulumi program on the embedded engine.
type Stack struct {
	dir, project, name, state string
	eng                       *engine.Engine
}

// New prepares the stack of the program in dir (the folder with
// Pulumi.yaml). Nothing runs until Preview, Up, Refresh or Destroy.
func New(dir string, opts Options) (*Stack, error) {
	dir, err := filepath.Abs(dir)
	if err != nil {
		return nil, err
	}
	project, err := projectName(dir)
	if err != nil {
		return nil, err
	}
	s := &Stack{dir: dir, project: project, name: opts.Stack, state: opts.StateFile}
	if s.name == "" {
		s.name = "dev"
	}
	if s.state == "" {
		s.state = filepath.Join(dir, ".polyup", s.name+".json")
	}
	if err := os.MkdirAll(filepath.Dir(s.state), 0o755); err != nil {
		return nil, err
	}
	cfg, secretKeys, err := stackConfig(dir, project, s.name, opts.Config, opts.Secrets)
	if err != nil {
		return nil, err
	}
	plugins, err := pluginPaths(opts.Plugins)
	if err != nil {
		return nil, err
	}
	packages, err := runner.RequiredPackages(dir)
	if err != nil {
		return nil, err
	}
	s.eng, err = engine.New(engine.Options{
		Project: project, Stack: s.name, StateFile: s.state, Plugins: plugins,
		Config: cfg, SecretKeys: secretKeys, Parallel: opts.Parallel, Dir: dir,
		Packages: packages, Stderr: opts.Log,
	})
	return s, err
}

// Preview runs the program without changing anything.
func (s *Stack) Preview(ctx context.Context) (*Result, error) {
	prog, err := runner.ForDir(s.dir)
	if err != nil {
		return nil, err
	}
	res, err := s.eng.Preview(ctx, prog)
	return newResult(res), err
}

// Up runs the program and applies what it declares.
func (s *Stack) Up(ctx context.Context) (*Result, error) {
	prog, err := runner.ForDir(s.dir)
	if err != nil {
		return nil, err
	}
	res, err := s.eng.Up(ctx, prog)
	return newResult(res), err
}

// Refresh reads every resource back from its provider.
func (s *Stack) Refresh(ctx context.Context) (*Result, error) {
	res, err := s.eng.Refresh(ctx)
	return newResult(res), err
}

// Destroy deletes every resource of the stack.
func (s *Stack) Destroy(ctx context.Context) (*Result, error) {
	res, err := s.eng.Destroy(ctx)
	return newResult(res), err
}

// Resources reads the stack's state, secrets decrypted, in state order
// (dependencies first); before the first update, none.
func (s *Stack) Resources() ([]Resource, error) {
	rs, err := ReadState(s.state)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	return rs, err
}

// ReadState reads the resources of a stack's state, in state order
// (dependencies first), from a state file of this package's (its secrets
// decrypted with the key kept beside it) or from the real CLI's `pulumi
// stack export --show-secrets --file FILE`.
func ReadState(file string) ([]Resource, error) {
	if _, err := os.Stat(file); err != nil {
		return nil, err
	}
	rows, err := engine.LoadResources(file)
	if err != nil {
		return nil, err
	}
	out := make([]Resource, 0, len(rows))
	for _, r := range rows {
		res := Resource{
			URN: urn.URN(r.URN), Type: tokens.Type(r.Type), ID: resource.ID(r.ID), Parent: urn.URN(r.Parent),
			Custom: r.Custom, Protect: r.Protect, RetainOnDelete: r.RetainOnDelete, External: r.External,
			Delete: r.Delete, PendingReplacement: r.PendingReplacement,
			DeletedWith: urn.URN(r.DeletedWith), ImportID: resource.ID(r.ImportID),
			InitErrors: r.InitErrors, HideDiff: r.HideDiff, CustomTimeouts: r.CustomTimeouts,
			Dependencies: urns(r.Dependencies), Inputs: r.Inputs, Outputs: r.Outputs,
		}
		if r.Provider != "" {
			if res.Provider, err = providers.ParseReference(r.Provider); err != nil {
				return nil, fmt.Errorf("%s: %s: provider: %w", file, r.URN, err)
			}
		}
		for k, deps := range r.PropertyDependencies {
			if res.PropertyDependencies == nil {
				res.PropertyDependencies = map[string][]urn.URN{}
			}
			res.PropertyDependencies[k] = urns(deps)
		}
		out = append(out, res)
	}
	return out, nil
}

func urns(ss []string) []urn.URN {
	var out []urn.URN
	for _, s := range ss {
		out = append(out, urn.URN(s))
	}
	return out
}

// Result is what an operation did: its steps, the stack outputs and the
// diagnostics. Operations return one also alongside an error.
type Result struct {
	Steps       []Step
	Outputs     property.Map
	Diagnostics []Diagnostic
}

// Step is one resource operation, spelled as the CLI shows it ("create",
// "same", "update", "replace", "delete", "read", ...).
type Step struct {
	Op     string
	URN    urn.URN
	Type   tokens.Type
	Failed bool // the provider call failed
}

// Diagnostic is a message from the program, a provider or the engine;
// Severity is "info", "warning" or "error".
type Diagnostic struct {
	Severity string
	URN      urn.URN
	Message  string
}

func newResult(res *engine.Result) *Result {
	if res == nil {
		return &Result{}
	}
	out := &Result{Outputs: res.Outputs}
	for _, s := range res.Steps {
		op := s.Op
		if s.ResultOp != "" {
			op = s.ResultOp
		}
		out.Steps = append(out.Steps, Step{Op: string(op), URN: urn.URN(s.URN), Type: tokens.Type(s.Type), Failed: s.Failed})
	}
	for _, d := range res.Diagnostics {
		out.Diagnostics = append(out.Diagnostics, Diagnostic{Severity: d.Severity, URN: urn.URN(d.URN), Message: d.Message})
	}
	return out
}

// Resource is one resource of the stack's state.
type Resource struct {
	URN    urn.URN
	Type   tokens.Type
	ID     resource.ID // empty for components
	Parent urn.URN
	// Provider is the provider of a custom resource.
	Provider                providers.Reference
	Custom                  bool
	Protect, RetainOnDelete bool
	// External is a resource read (Read, get) rather than managed.
	External bool
	// Delete marks a resource waiting to be deleted (the old one of a
	// replacement); PendingReplacement one deleted before its replacement
	// is created.
	Delete, PendingReplacement bool
	DeletedWith                urn.URN
	ImportID                   resource.ID
	// InitErrors are the reasons a create or update failed part-way.
	InitErrors []string
	// HideDiff are property paths whose diffs the CLI hides.
	HideDiff             []string
	CustomTimeouts       resource.CustomTimeouts
	Dependencies         []urn.URN
	PropertyDependencies map[string][]urn.URN
	Inputs, Outputs      property.Map
}

// BuildPlugin builds the provider plugin whose main package is in dir (a
// folder named pulumi-resource-<pkg>, as Pulumi expects) into outDir and
// returns the binary's path, for Options.Plugins.
func BuildPlugin(ctx context.Context, dir, outDir string) (string, error) {
	abs, err := filepath.Abs(dir)
	if err != nil {
		return "", err
	}
	name := filepath.Base(abs)
	if !strings.HasPrefix(name, "pulumi-resource-") {
		return "", fmt.Errorf("%s: a provider plugin's folder is named pulumi-resource-<pkg>", dir)
	}
	out := filepath.Join(outDir, name)
	cmd := exec.CommandContext(ctx, "go", "build", "-o", out, ".")
	cmd.Dir = abs
	if msg, err := cmd.CombinedOutput(); err != nil {
		return "", fmt.Errorf("building %s: %w\n%s", dir, err, msg)
	}
	return out, nil
}

// pluginPaths returns the given plugins over every pulumi-resource-* on
// PATH, as absolute paths.
func pluginPaths(given map[string]string) (map[string]string, error) {
	out := map[string]string{}
	for _, dir := range filepath.SplitList(os.Getenv("PATH")) {
		matches, _ := filepath.Glob(filepath.Join(dir, "pulumi-resource-*"))
		for _, m := range matches {
			pkg := strings.TrimPrefix(filepath.Base(m), "pulumi-resource-")
			if _, seen := out[pkg]; !seen && isExecutable(m) {
				out[pkg], _ = filepath.Abs(m)
			}
		}
	}
	for _, pkg := range slices.Sorted(maps.Keys(given)) {
		abs, err := filepath.Abs(given[pkg])
		if err != nil {
			return nil, err
		}
		if !isExecutable(abs) {
			return nil, fmt.Errorf("plugin %s: %s is not an executable file", pkg, given[pkg])
		}
		out[pkg] = abs
	}
	return out, nil
}
