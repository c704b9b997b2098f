package engine

import (
	"context"
	"errors"
	"fmt"
	"maps"
	"math"
	"slices"
	"sync"

	"github.com/pulumi/pulumi/sdk/v3/go/common/diag"
	"github.com/pulumi/pulumi/sdk/v3/go/common/diag/colors"
	"github.com/pulumi/pulumi/sdk/v3/go/common/providers"
	"github.com/pulumi/pulumi/sdk/v3/go/common/resource"
	"github.com/pulumi/pulumi/sdk/v3/go/common/resource/config"
	"github.com/pulumi/pulumi/sdk/v3/go/common/resource/plugin"
	"github.com/pulumi/pulumi/sdk/v3/go/common/tokens"
	"github.com/pulumi/pulumi/sdk/v3/go/common/util/rpcutil"
	"github.com/pulumi/pulumi/sdk/v3/go/property"
	pulumirpc "github.com/pulumi/pulumi/sdk/v3/proto/go"
	"google.golang.org/grpc"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"
)

// deployment is the state of one operation: the old snapshot, what has been
// registered and done so far, the providers and the gRPC endpoint.
type deployment struct {
	opts   *Options
	kind   opKind
	dryRun bool
	ctx    context.Context
	cancel context.CancelFunc

	prev []*resState                // old snapshot, in order
	olds map[resource.URN]*resState // old states not pending deletion

	// stepMu serializes step generation, as the real engine's single event
	// loop does. Provider-initiated registrations (Construct) never hold it
	// while waiting on the program.
	stepMu sync.Mutex
	// workers holds a token per chain being executed: at most Parallel
	// (nil: unbounded), like the real step executor's workers.
	workers chan struct{}

	mu                 sync.Mutex
	urns               map[resource.URN]bool
	goals              map[resource.URN]*goal // completed non-remote goals
	componentProviders map[resource.URN]map[string]string
	parents            map[resource.URN]resource.URN
	aliased            map[resource.URN]resource.URN // old URN -> URN that claimed it
	aliasOf            map[resource.URN]resource.URN // new URN -> old URN it claimed
	news               []*resState
	newsByURN          map[resource.URN]*resState
	completed          map[resource.URN]bool // RegisterResourceOutputs done
	sames              map[resource.URN]bool
	creates            map[resource.URN]bool
	updates            map[resource.URN]bool
	replaces           map[resource.URN]bool
	deletes            map[resource.URN]bool
	reads              map[resource.URN]bool
	imports            map[resource.URN]bool // imported in this deployment
	pendingDeletes     map[*resState]bool
	// fate of old states, applied when composing the final snapshot
	removed      map[*resState]bool
	superseded   map[*resState]bool
	markedDelete map[*resState]bool
	pendingRepl  map[*resState]bool
	inflight     map[resource.URN]int // parent -> registrations in progress
	stackURN     resource.URN
	rootURN      string
	steps        []Step
	diags        []Diagnostic
	failure      error
	previewErr   error // an error a preview reports at the end, having shown every step
	closed       bool
	handlers     sync.WaitGroup

	registry *registry
	defaults defaultProviders
	packages packages // RegisterPackage's references
	pctx     *plugin.Context
	sink     diag.Sink
	server   rpcutil.ServeHandle
	stopSrv  chan bool
	addr     string
}

func newDeployment(ctx context.Context, opts *Options, kind opKind, prev []*resState) *deployment {
	ctx, cancel := context.WithCancel(ctx)
	d := &deployment{
		opts: opts, kind: kind, dryRun: kind == opPreview, ctx: ctx, cancel: cancel,
		prev:               prev,
		olds:               map[resource.URN]*resState{},
		urns:               map[resource.URN]bool{},
		goals:              map[resource.URN]*goal{},
		componentProviders: map[resource.URN]map[string]string{},
		parents:            map[resource.URN]resource.URN{},
		aliased:            map[resource.URN]resource.URN{},
		aliasOf:            map[resource.URN]resource.URN{},
		newsByURN:          map[resource.URN]*resState{},
		completed:          map[resource.URN]bool{},
		sames:              map[resource.URN]bool{},
		creates:            map[resource.URN]bool{},
		updates:            map[resource.URN]bool{},
		replaces:           map[resource.URN]bool{},
		deletes:            map[resource.URN]bool{},
		reads:              map[resource.URN]bool{},
		imports:            map[resource.URN]bool{},
		pendingDeletes:     map[*resState]bool{},
		removed:            map[*resState]bool{},
		superseded:         map[*resState]bool{},
		markedDelete:       map[*resState]bool{},
		pendingRepl:        map[*resState]bool{},
		inflight:           map[resource.URN]int{},
	}
	if opts.Parallel != math.MaxInt32 {
		d.workers = make(chan struct{}, max(opts.Parallel, 1))
	}
	for _, s := range prev {
		if !s.Delete {
			d.olds[s.URN] = s
		}
	}
	d.defaults.plugins = defaultPlugins(opts.Packages, prev)
	d.registry = newRegistry(d)
	return d
}

// start prepares the plugin context and serves the Engine and
// ResourceMonitor services on one port.
func (d *deployment) start() error {
	d.sink = diag.DefaultSink(d.opts.Stderr, d.opts.Stderr, diag.FormatOptions{Color: colors.Never, Debug: true})
	host := &plugin.MockHost{ServerAddrF: d.address}
	pctx, err := plugin.NewContextWithHost(d.ctx, d.sink, d.sink, host, d.opts.Dir, d.opts.Dir, nil)
	if err != nil {
		return err
	}
	d.pctx = pctx

	d.stopSrv = make(chan bool, 1)
	handle, err := rpcutil.ServeWithOptions(rpcutil.ServeOptions{
		Cancel: d.stopSrv,
		Init: func(s *grpc.Server) error {
			pulumirpc.RegisterEngineServer(s, &engineServer{d: d})
			pulumirpc.RegisterResourceMonitorServer(s, &monitorServer{d: d})
			return nil
		},
	})
	if err != nil {
		d.stopSrv = nil
		return fmt.Errorf("starting engine server: %w", err)
	}
	d.server = handle
	d.mu.Lock()
	d.addr = fmt.Sprintf("127.0.0.1:%d", handle.Port)
	d.mu.Unlock()
	return nil
}

// address is the Engine/ResourceMonitor endpoint.
func (d *deployment) address() string {
	d.mu.Lock()
	defer d.mu.Unlock()
	return d.addr
}

// stop closes every plugin, then the gRPC server.
func (d *deployment) stop() {
	d.mu.Lock()
	d.closed = true
	d.mu.Unlock()
	d.registry.closeAll()
	if d.pctx != nil {
		_ = d.pctx.Close()
	}
	if d.stopSrv != nil {
		d.stopSrv <- true
		if d.server.Done != nil {
			<-d.server.Done
		}
		d.stopSrv = nil
	}
	d.cancel()
}

// runProgram runs the consumer program and waits for the handlers it left.
func (d *deployment) runProgram(p Program) error {
	cfg := maps.Clone(d.opts.Config)
	if cfg == nil {
		cfg = map[string]string{}
	}
	info := RunInfo{
		MonitorAddr:  d.address(),
		EngineAddr:   d.address(),
		Project:      d.opts.Project,
		Stack:        d.opts.Stack,
		Organization: d.opts.Organization,
		Config:       cfg,
		SecretKeys:   slices.Clone(d.opts.SecretKeys),
		DryRun:       d.dryRun,
		Parallel:     d.opts.Parallel,
		Dir:          d.opts.Dir,
	}
	runErr := p.Run(d.ctx, info)
	// Close the gate first so no handler starts while we wait: a program's
	// last response is only sent once its handler has finished.
	d.mu.Lock()
	d.closed = true
	d.mu.Unlock()
	d.handlers.Wait()
	failure := d.failed()
	if failure == nil {
		d.mu.Lock()
		failure = d.previewErr
		d.mu.Unlock()
	}
	switch {
	case runErr != nil && failure != nil:
		return errors.Join(failure, fmt.Errorf("program failed: %w", runErr))
	case runErr != nil:
		return fmt.Errorf("program failed: %w", runErr)
	default:
		return failure
	}
}

// fail records the first step failure; later registrations are refused.
func (d *deployment) fail(err error) {
	d.mu.Lock()
	defer d.mu.Unlock()
	if d.failure == nil {
		d.failure = err
	}
}

func (d *deployment) failed() error {
	d.mu.Lock()
	defer d.mu.Unlock()
	return d.failure
}

// begin marks a monitor RPC in flight; it fails once the deployment is over
// or has failed.
func (d *deployment) begin() (func(), error) {
	d.mu.Lock()
	defer d.mu.Unlock()
	if d.closed {
		return nil, status.Error(codes.Unavailable, "resource monitor shut down")
	}
	if d.failure != nil {
		return nil, status.Errorf(codes.Unavailable, "resource monitor shut down: the deployment failed: %v", d.failure)
	}
	d.handlers.Add(1)
	return d.handlers.Done, nil
}

func (d *deployment) logf(sev diag.Severity, urn resource.URN, format string, args ...any) {
	d.log(sev, urn, fmt.Sprintf(format, args...))
}

func (d *deployment) log(sev diag.Severity, urn resource.URN, msg string) {
	prefix := ""
	if urn != "" {
		prefix = string(urn) + ": "
	}
	fmt.Fprintf(d.opts.Stderr, "[%s] %s%s\n", sev, prefix, msg)
	if sev == diag.Debug {
		return
	}
	d.mu.Lock()
	d.diags = append(d.diags, Diagnostic{Severity: string(sev), URN: string(urn), Message: msg})
	d.mu.Unlock()
}

func (d *deployment) recordStep(op Op, s *resState) {
	d.mu.Lock()
	defer d.mu.Unlock()
	d.recordStepLocked(op, s)
}

func (d *deployment) recordStepLocked(op Op, s *resState) {
	d.steps = append(d.steps, Step{Op: op, URN: string(s.URN), Type: string(s.Type), Custom: s.Custom})
}

// stepFailed records a step whose provider call failed and committed
// nothing.
func (d *deployment) stepFailed(op Op, s *resState) {
	d.mu.Lock()
	defer d.mu.Unlock()
	d.steps = append(d.steps, Step{Op: op, URN: string(s.URN), Type: string(s.Type), Custom: s.Custom, Failed: true})
}

// lastStepFailed marks failed the step just committed for s: a partial
// failure commits what the provider reported, and the step still failed.
func (d *deployment) lastStepFailed(s *resState) {
	d.mu.Lock()
	defer d.mu.Unlock()
	for i := len(d.steps) - 1; i >= 0; i-- {
		if d.steps[i].URN == string(s.URN) {
			d.steps[i].Failed = true
			return
		}
	}
}

// generateURN builds the URN of a resource per §4.2.
func (d *deployment) generateURN(parent resource.URN, typ tokens.Type, name string) resource.URN {
	var parentType tokens.Type
	if parent != "" && parent.QualifiedType() != resource.RootStackType {
		parentType = parent.QualifiedType()
	}
	return resource.NewURN(tokens.QName(d.opts.Stack), tokens.PackageName(d.opts.Project), parentType, typ, name)
}

// commit records a new state produced by a step. old (if any) is superseded.
func (d *deployment) commit(op Op, s, old *resState) {
	d.mu.Lock()
	defer d.mu.Unlock()
	if op != OpReplace {
		for _, w := range annotateSecretOutputs(s) {
			d.diags = append(d.diags, Diagnostic{Severity: string(diag.Warning), URN: string(s.URN), Message: w})
		}
	}
	if prior, ok := d.newsByURN[s.URN]; ok {
		// A read replacing a managed resource, or a recreate: keep one row per URN.
		d.news = slices.DeleteFunc(d.news, func(x *resState) bool { return x == prior })
	}
	d.news = append(d.news, s)
	d.newsByURN[s.URN] = s
	if old != nil {
		d.superseded[old] = true
	}
	if s.Type == resource.RootStackType && s.Parent == "" {
		d.stackURN = s.URN
	}
	d.recordStepLocked(op, s)
}

// finalSnapshot composes the state to persist: every new state in the order
// it was produced, then each old state that was neither replaced nor deleted,
// sorted so that dependencies precede dependents.
func (d *deployment) finalSnapshot(failed bool) []*resState {
	d.mu.Lock()
	defer d.mu.Unlock()
	var out []*resState
	for _, s := range d.news {
		if s.Type == resource.RootStackType && s.Parent == "" && failed {
			// On failure keep old stack outputs that were not re-exported.
			if old, ok := d.olds[s.URN]; ok && old.Outputs != nil {
				merged := old.Outputs.Copy()
				maps.Copy(merged, s.Outputs)
				c := s.copy()
				c.Outputs = merged
				s = c
			}
		}
		out = append(out, s)
	}
	for _, o := range d.prev {
		if d.removed[o] {
			continue
		}
		switch {
		case d.superseded[o] && d.markedDelete[o]:
			c := o.copy()
			c.Delete = true
			out = append(out, c)
		case d.superseded[o]:
		case d.pendingRepl[o]:
			c := o.copy()
			c.PendingReplacement = true
			out = append(out, c)
		default:
			out = append(out, o)
		}
	}
	return topoSort(out)
}

// topoSort reorders states so every dependency (by URN, provider included)
// precedes its dependents, keeping the given order otherwise.
func topoSort(states []*resState) []*resState {
	byURN := map[resource.URN][]int{}
	for i, s := range states {
		byURN[s.URN] = append(byURN[s.URN], i)
	}
	done := make([]bool, len(states))
	visiting := make([]bool, len(states))
	out := make([]*resState, 0, len(states))
	var visit func(i int)
	visit = func(i int) {
		if done[i] || visiting[i] {
			return
		}
		visiting[i] = true
		s := states[i]
		deps := s.allDeps()
		if s.Provider != "" {
			if ref, err := providers.ParseReference(s.Provider); err == nil {
				deps = append(deps, ref.URN())
			}
		}
		for _, dep := range deps {
			if dep == s.URN {
				continue
			}
			for _, j := range byURN[dep] {
				visit(j)
			}
		}
		visiting[i] = false
		done[i] = true
		out = append(out, s)
	}
	for i := range states {
		visit(i)
	}
	return out
}

// result builds the public Result.
func (d *deployment) result() *Result {
	d.mu.Lock()
	defer d.mu.Unlock()
	r := &Result{
		Steps:       slices.Clone(d.steps),
		Diagnostics: slices.Clone(d.diags),
		Outputs:     property.Map{},
	}
	if s, ok := d.newsByURN[d.stackURN]; ok && s.Outputs != nil {
		r.Outputs = resource.FromResourcePropertyMap(s.Outputs)
	} else if d.kind == opRefresh {
		for _, s := range d.prev {
			if s.Type == resource.RootStackType && s.Parent == "" && s.Outputs != nil {
				r.Outputs = resource.FromResourcePropertyMap(s.Outputs)
			}
		}
	}
	return r
}

// configKeys converts the stack config to the typed map plugins expect.
func (d *deployment) configKeys() (map[config.Key]string, []config.Key, error) {
	cfg := make(map[config.Key]string, len(d.opts.Config))
	for k, v := range d.opts.Config {
		key, err := config.ParseKey(k)
		if err != nil {
			return nil, nil, fmt.Errorf("config key %q: %w", k, err)
		}
		cfg[key] = v
	}
	var secret []config.Key
	for _, k := range d.opts.SecretKeys {
		key, err := config.ParseKey(k)
		if err != nil {
			return nil, nil, fmt.Errorf("secret config key %q: %w", k, err)
		}
		secret = append(secret, key)
	}
	return cfg, secret, nil
}
