package engine

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strconv"
	"sync"

	"github.com/blang/semver"
	"github.com/pulumi/pulumi/sdk/v3/go/property"
)

// Options configures an Engine for one stack.
type Options struct {
	Project, Stack, Organization string
	// StateFile is the JSON state (apitype.DeploymentV3 shape). Secrets in it
	// are encrypted with a per-stack key kept in StateFile+".key".
	StateFile string
	// Plugins maps a package name to the absolute path of its
	// pulumi-resource-<pkg> binary.
	Plugins map[string]string
	// Config is the stack configuration, "ns:key" -> plain value (secrets
	// decrypted); SecretKeys names the secret ones.
	Config     map[string]string
	SecretKeys []string
	// Parallel bounds the resource operations that run at once, like the
	// real engine's step executor, and is passed to programs and providers.
	// <=0 means the CLI's default: $PULUMI_PARALLEL, else 4 × GOMAXPROCS;
	// math.MaxInt32 means unbounded.
	Parallel int
	// Dir is the program directory handed to programs in RunInfo.Dir and used
	// as the plugins' working directory (default: the current directory).
	Dir string
	// Stderr receives plugin stderr and diagnostics (optional).
	Stderr io.Writer
	// Packages are the provider packages the program uses, as its language
	// host reports them (GetRequiredPackages: a generated SDK's name and
	// version). A default provider requested without a version gets its
	// package's version from here, as with the real engine; when Packages is
	// empty, from the old state's provider resources.
	Packages []Package
}

// Package is a provider package a program uses.
type Package struct {
	Name, Version     string // Version may be empty
	PluginDownloadURL string // optional
}

// Engine runs deployments of one stack. Operations on an Engine are
// serialized.
type Engine struct {
	opts Options
	mu   sync.Mutex
}

// New validates opts and returns an Engine.
func New(opts Options) (*Engine, error) {
	if opts.Project == "" || opts.Stack == "" {
		return nil, errors.New("engine: Project and Stack are required")
	}
	if opts.StateFile == "" {
		return nil, errors.New("engine: StateFile is required")
	}
	abs, err := filepath.Abs(opts.StateFile)
	if err != nil {
		return nil, err
	}
	opts.StateFile = abs
	for pkg, path := range opts.Plugins {
		if !filepath.IsAbs(path) {
			return nil, fmt.Errorf("engine: plugin path for %q must be absolute: %s", pkg, path)
		}
		if st, err := os.Stat(path); err != nil {
			return nil, fmt.Errorf("engine: plugin for %q: %w", pkg, err)
		} else if st.IsDir() {
			return nil, fmt.Errorf("engine: plugin for %q is a directory: %s", pkg, path)
		}
	}
	opts.Packages = slices.Clone(opts.Packages)
	for i, pkg := range opts.Packages {
		if pkg.Name == "" {
			return nil, errors.New("engine: a package in Packages has no name")
		}
		if pkg.Version != "" {
			// Language hosts may report "v1.2.3".
			v, err := semver.ParseTolerant(pkg.Version)
			if err != nil {
				return nil, fmt.Errorf("engine: package %q: invalid version %q: %w", pkg.Name, pkg.Version, err)
			}
			opts.Packages[i].Version = v.String()
		}
	}
	if opts.Parallel <= 0 {
		opts.Parallel = defaultParallel()
	}
	if opts.Dir == "" {
		if opts.Dir, err = os.Getwd(); err != nil {
			return nil, err
		}
	}
	if opts.Stderr == nil {
		opts.Stderr = io.Discard
	}
	return &Engine{opts: opts}, nil
}

// defaultParallel is the real CLI's default for --parallel.
func defaultParallel() int {
	if p, err := strconv.Atoi(os.Getenv("PULUMI_PARALLEL")); err == nil && p > 0 {
		return p
	}
	return 4 * runtime.GOMAXPROCS(0)
}

// Op names a step kind, spelled like the real engine's display ops.
type Op string

const (
	OpSame                 Op = "same"
	OpCreate               Op = "create"
	OpUpdate               Op = "update"
	OpDelete               Op = "delete"
	OpReplace              Op = "replace"
	OpCreateReplacement    Op = "create-replacement"
	OpDeleteReplaced       Op = "delete-replaced"
	OpRead                 Op = "read"
	OpReadReplacement      Op = "read-replacement"
	OpRefresh              Op = "refresh"
	OpReadDiscard          Op = "discard"
	OpDiscardReplaced      Op = "discard-replaced"
	OpRemovePendingReplace Op = "remove-pending-replace"
	OpImport               Op = "import"
	OpImportReplacement    Op = "import-replacement"
)

// Step is one step the engine performed (or, in a preview, would perform).
type Step struct {
	Op     Op
	URN    string
	Type   string
	Custom bool
	// ResultOp is set on refresh steps: same, update or delete.
	ResultOp Op
	// Failed marks a step whose provider call failed. The real engine
	// reports every step it begins, and then its failure ("creating
	// failed"); so does this one.
	Failed bool
}

// Diagnostic is a message logged by a program, a provider or the engine.
// Severity is "info", "warning" or "error" (debug messages only go to
// Options.Stderr).
type Diagnostic struct {
	Severity string
	URN      string
	Message  string
}

// Result describes what an operation did. Operations always return a
// non-nil Result, also alongside an error.
type Result struct {
	Steps       []Step
	Outputs     property.Map // stack outputs
	Diagnostics []Diagnostic
}

// Count returns how many steps have the given op.
func (r *Result) Count(op Op) int {
	n := 0
	for _, s := range r.Steps {
		if s.Op == op {
			n++
		}
	}
	return n
}

// OpsFor lists the ops of the steps on urn, in execution order.
func (r *Result) OpsFor(urn string) []Op {
	var ops []Op
	for _, s := range r.Steps {
		if s.URN == urn {
			ops = append(ops, s.Op)
		}
	}
	return ops
}

// Preview runs p with dryRun set: nothing is created, deleted or persisted.
func (e *Engine) Preview(ctx context.Context, p Program) (*Result, error) {
	return e.run(ctx, opPreview, p)
}

// Up runs p, then deletes what it no longer registers, and saves the state.
func (e *Engine) Up(ctx context.Context, p Program) (*Result, error) {
	return e.run(ctx, opUp, p)
}

// Refresh reads every custom resource from its provider and updates or drops
// its state.
func (e *Engine) Refresh(ctx context.Context) (*Result, error) {
	return e.run(ctx, opRefresh, nil)
}

// Destroy deletes every resource in the state without running a program.
func (e *Engine) Destroy(ctx context.Context) (*Result, error) {
	return e.run(ctx, opDestroy, nil)
}

type opKind int

const (
	opPreview opKind = iota
	opUp
	opRefresh
	opDestroy
)

func (k opKind) String() string {
	return [...]string{"preview", "update", "refresh", "destroy"}[k]
}

func (e *Engine) run(ctx context.Context, kind opKind, p Program) (*Result, error) {
	empty := &Result{Outputs: property.Map{}}
	if (kind == opPreview || kind == opUp) && p == nil {
		return empty, errors.New("engine: a program is required")
	}
	e.mu.Lock()
	defer e.mu.Unlock()

	prev, err := readSnapshot(e.opts.StateFile)
	if err != nil {
		return empty, err
	}
	d := newDeployment(ctx, &e.opts, kind, prev)
	if err := d.start(); err != nil {
		d.stop()
		return empty, err
	}

	var opErr error
	switch kind {
	case opPreview, opUp:
		opErr = d.runProgram(p)
		if opErr == nil {
			opErr = d.deleteUnregistered()
		}
	case opRefresh:
		opErr = d.refresh()
	case opDestroy:
		opErr = d.destroy()
	}
	d.stop()

	res := d.result()
	if kind != opPreview {
		if err := writeSnapshot(e.opts.StateFile, d.finalSnapshot(opErr != nil)); err != nil {
			opErr = errors.Join(opErr, fmt.Errorf("saving state: %w", err))
		}
	}
	if opErr != nil {
		return res, fmt.Errorf("%s failed: %w", kind, opErr)
	}
	return res, nil
}
