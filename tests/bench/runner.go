package bench

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/pulumi/pulumi/sdk/v3/go/property"

	"github.com/polyhost/polyhost/internal/engine"
	"github.com/polyhost/polyhost/tests/bench/internal/usage"
)

// RusageDirEnv is the environment variable the wrapper reads; Runner sets it
// for the whole process, since the engine starts plugins with its
// environment.
const RusageDirEnv = usage.DirEnv

// Sample is one measured deployment.
type Sample struct {
	// Wall is what the program timed: from its first Site request to the
	// last answer.
	Wall time.Duration
	// CPU is the component provider's user+system time over its whole
	// life (start, configure, Construct, Call, shutdown); MaxRSSKB its peak
	// RSS.
	CPU      time.Duration
	MaxRSSKB int64
	// ChildrenCPU and ChildrenRSSKB are the same for the children's
	// provider, which serves the CRUD of the Site's custom children.
	ChildrenCPU   time.Duration
	ChildrenRSSKB int64
	// CallTimes are the Site.pageUrl round trips, in order.
	CallTimes []time.Duration
	// For sanity checks: what an update recorded, each Site's outputs and
	// each call's result as the program saw them.
	State       []engine.Resource
	Outputs     []property.Map
	CallReturns []property.Map
}

// Runner runs deployments on the embedded engine. Its methods must not be
// called concurrently.
type Runner struct {
	bins      *Binaries
	work      string
	rusageDir string
	seq       int
	// Stderr receives plugin output and engine diagnostics (optional).
	Stderr io.Writer
}

// NewRunner prepares a runner working in dir, which must exist.
func NewRunner(bins *Binaries, dir string) (*Runner, error) {
	r := &Runner{bins: bins, work: dir, rusageDir: filepath.Join(dir, "rusage")}
	if err := os.MkdirAll(r.rusageDir, 0o755); err != nil {
		return nil, err
	}
	if err := os.Setenv(RusageDirEnv, r.rusageDir); err != nil {
		return nil, err
	}
	return r, nil
}

// Workload says what one deployment does.
type Workload struct {
	Sites   int  // Site components, registered at once
	Pages   int  // pages per Site
	Calls   int  // Site.pageUrl calls after construction
	Preview bool // preview instead of update
	// Reup, on the real engine, runs a second update without changes
	// (Check and Diff of every resource, Construct again).
	Reup bool
}

// Run deploys w with impl's plugin on a fresh stack.
func (r *Runner) Run(ctx context.Context, impl Impl, w Workload) (Sample, error) {
	plugin := r.bins.Wrapped[impl]
	if plugin == "" {
		return Sample{}, fmt.Errorf("%s was not built", impl)
	}
	if impl.IsHost() && w.Calls > 0 {
		return Sample{}, fmt.Errorf("%s: component provider hosts serve no methods", impl)
	}
	plugins := map[string]string{"sitekit": plugin}
	if impl.IsHost() {
		// The children's provider is ours.
		plugins = map[string]string{"sitekit": r.bins.Wrapped[Ours], impl.Package(): plugin}
	}
	r.seq++
	dir := filepath.Join(r.work, fmt.Sprintf("run%04d", r.seq))
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return Sample{}, err
	}
	defer func() { _ = os.RemoveAll(dir) }()
	if err := r.clearUsage(); err != nil {
		return Sample{}, err
	}
	e, err := engine.New(engine.Options{
		Project: "bench", Stack: "dev",
		StateFile: filepath.Join(dir, "state.json"),
		Plugins:   plugins,
		Dir:       dir,
		Stderr:    r.Stderr,
	})
	if err != nil {
		return Sample{}, err
	}
	p := &program{Package: impl.Package(), Sites: max(w.Sites, 1), Pages: w.Pages, Calls: w.Calls}
	op := e.Up
	if w.Preview {
		op = e.Preview
	}
	if _, err := op(ctx, p); err != nil {
		return Sample{}, fmt.Errorf("%s %+v: %w", impl, w, err)
	}
	s := Sample{Wall: p.Wall, CallTimes: p.CallTimes, Outputs: p.Outputs, CallReturns: p.CallReturns}
	us, err := r.readUsage()
	if err != nil {
		return Sample{}, fmt.Errorf("%s %+v: %w", impl, w, err)
	}
	c, ch := us[usage.Component], us[usage.Children]
	// The component provider must be impl's own plugin, not the children's.
	if want := filepath.Join(filepath.Base(filepath.Dir(plugin)), "real", filepath.Base(plugin)); !strings.HasSuffix(c.Plugin, string(filepath.Separator)+want) {
		return Sample{}, fmt.Errorf("%s %+v: the component provider ran %s, want .../%s", impl, w, c.Plugin, want)
	}
	s.CPU, s.MaxRSSKB = time.Duration(c.UserNS+c.SystemNS), c.MaxRSSKB
	s.ChildrenCPU, s.ChildrenRSSKB = time.Duration(ch.UserNS+ch.SystemNS), ch.MaxRSSKB
	if !w.Preview {
		if s.State, err = engine.LoadResources(filepath.Join(dir, "state.json")); err != nil {
			return Sample{}, err
		}
	}
	return s, nil
}

func (r *Runner) clearUsage() error {
	entries, err := os.ReadDir(r.rusageDir)
	if err != nil {
		return err
	}
	for _, e := range entries {
		if err := os.Remove(filepath.Join(r.rusageDir, e.Name())); err != nil {
			return err
		}
	}
	return nil
}

// readUsage returns the records of the deployment's plugin processes by
// role: exactly one component provider and one children's provider.
func (r *Runner) readUsage() (map[string]usage.Usage, error) {
	files, err := filepath.Glob(filepath.Join(r.rusageDir, "*.json"))
	if err != nil {
		return nil, err
	}
	if len(files) == 0 {
		return nil, errors.New("no plugin reported its usage: is the rusage wrapper in place?")
	}
	us := map[string]usage.Usage{}
	for _, name := range files {
		data, err := os.ReadFile(name)
		if err != nil {
			return nil, err
		}
		var u usage.Usage
		if err := json.Unmarshal(data, &u); err != nil {
			return nil, fmt.Errorf("%s: %w", name, err)
		}
		if _, dup := us[u.Role]; dup {
			return nil, fmt.Errorf("more than one %s provider process", u.Role)
		}
		us[u.Role] = u
	}
	if len(us) != 2 || us[usage.Component].Role == "" || us[usage.Children].Role == "" {
		return nil, fmt.Errorf("want one component and one children's provider process, got %d processes", len(files))
	}
	return us, nil
}
