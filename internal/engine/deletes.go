package engine

import (
	"context"
	"errors"
	"fmt"
	"slices"

	"github.com/pulumi/pulumi/sdk/v3/go/common/diag"
	"github.com/pulumi/pulumi/sdk/v3/go/common/providers"
	"github.com/pulumi/pulumi/sdk/v3/go/common/resource"
	"github.com/pulumi/pulumi/sdk/v3/go/common/resource/plugin"
	"golang.org/x/sync/errgroup"
)

// condemned is one old state scheduled for deletion.
type condemned struct {
	res           *resState
	replacing     bool // a replaced (or pending-delete) resource: delete-replaced
	removePending bool // a pending replacement nobody re-registered: just drop it
}

// deleteOne deletes an old state (a preview only records the step).
// pendingRepl keeps the row, flagged PendingReplacement, until a replacement
// is created (delete-before-replace).
func (d *deployment) deleteOne(ctx context.Context, old *resState, replacing, pendingRepl bool) error {
	op := OpDelete
	switch {
	case old.External && replacing:
		op = OpDiscardReplaced
	case old.External:
		op = OpReadDiscard
	case replacing:
		op = OpDeleteReplaced
	}
	if !replacing && old.Protect {
		return &stepError{urn: old.URN, err: fmt.Errorf("resource %q cannot be deleted because it is protected. "+
			"To unprotect the resource, remove the `protect` flag from the resource in your Pulumi program "+
			"and run `pulumi up`", old.URN)}
	}
	if !d.dryRun {
		d.mu.Lock()
		deletedWith := old.DeletedWith != "" && d.deletes[old.DeletedWith]
		d.mu.Unlock()
		switch {
		case old.External, old.RetainOnDelete, deletedWith:
			// Not ours to delete, asked to keep, or gone with its deletedWith target.
		case old.Custom:
			prov, err := d.opsForOld(ctx, old)
			if err != nil {
				return &stepError{urn: old.URN, err: err}
			}
			if _, err := prov.Delete(ctx, plugin.DeleteRequest{
				URN: old.URN, Name: old.URN.Name(), Type: old.URN.Type(), ID: old.ID,
				Inputs: old.Inputs, Outputs: old.Outputs, Timeout: old.CustomTimeouts.Delete,
			}); err != nil {
				d.stepFailed(op, old)
				return &stepError{urn: old.URN, err: fmt.Errorf("delete: %w", err)}
			}
		}
		d.mu.Lock()
		if pendingRepl {
			d.pendingRepl[old] = true
		} else {
			d.removed[old] = true
		}
		d.mu.Unlock()
	}
	d.recordStep(op, old)
	return nil
}

// deleteUnregistered deletes, after the program ran, every old resource it
// did not register plus leftovers pending deletion.
func (d *deployment) deleteUnregistered() error {
	d.mu.Lock()
	var list []condemned
	for _, res := range d.prev {
		switch {
		case res.Delete || d.markedDelete[res]:
			if d.pendingDeletes[res] {
				continue
			}
			d.deletes[res.URN] = true
			list = append(list, condemned{res: res, replacing: true})
		case !d.isOperatedOnLocked(res.URN):
			d.deletes[res.URN] = true
			if res.PendingReplacement || d.pendingRepl[res] {
				list = append(list, condemned{res: res, removePending: true})
			} else {
				list = append(list, condemned{res: res})
			}
		}
	}
	d.mu.Unlock()
	return d.runDeletes(list)
}

// destroy deletes every resource of the old state.
func (d *deployment) destroy() error {
	list := make([]condemned, 0, len(d.prev))
	d.mu.Lock()
	for _, res := range d.prev {
		d.deletes[res.URN] = true
		switch {
		case res.Delete:
			list = append(list, condemned{res: res, replacing: true})
		case res.PendingReplacement:
			list = append(list, condemned{res: res, removePending: true})
		default:
			list = append(list, condemned{res: res})
		}
	}
	d.mu.Unlock()
	return d.runDeletes(list)
}

func (d *deployment) isOperatedOnLocked(urn resource.URN) bool {
	if to, ok := d.aliased[urn]; ok {
		urn = to
	}
	return d.sames[urn] || d.updates[urn] || d.replaces[urn] || d.reads[urn]
}

// runDeletes deletes in reverse dependency order, one antichain at a time,
// each antichain in parallel.
func (d *deployment) runDeletes(list []condemned) error {
	byRes := make(map[*resState]condemned, len(list))
	var states []*resState
	for _, c := range list {
		byRes[c.res] = c
		states = append(states, c.res)
	}
	for _, chain := range scheduleDeletes(d.prev, states) {
		// No shared cancellation: a failure must not abort deletes already
		// under way at other providers.
		var g errgroup.Group
		g.SetLimit(d.opts.Parallel)
		ctx := d.ctx
		for _, res := range chain {
			c := byRes[res]
			g.Go(func() error {
				if c.removePending {
					if !d.dryRun {
						d.mu.Lock()
						d.removed[c.res] = true
						d.mu.Unlock()
					}
					d.recordStep(OpRemovePendingReplace, c.res)
					return nil
				}
				err := d.deleteOne(ctx, c.res, c.replacing, false)
				if err != nil {
					d.log(diag.Error, c.res.URN, err.Error())
				}
				return err
			})
		}
		if err := g.Wait(); err != nil {
			return err
		}
	}
	return nil
}

// scheduleDeletes splits condemned (a subset of states, which are in
// dependency order) into antichains: each may run in parallel once the later
// ones (its dependents) are done. The result is in execution order.
func scheduleDeletes(states []*resState, condemnedStates []*resState) [][]*resState {
	index := make(map[*resState]int, len(states))
	for i, s := range states {
		index[s] = i
	}
	// Transitive children of each URN, by position.
	children := map[resource.URN][]int{}
	byURN := map[resource.URN]*resState{}
	for _, s := range states {
		byURN[s.URN] = s
	}
	for i, s := range states {
		seen := map[resource.URN]bool{}
		for p := s.Parent; p != "" && !seen[p]; {
			seen[p] = true
			children[p] = append(children[p], i)
			ps, ok := byURN[p]
			if !ok {
				break
			}
			p = ps.Parent
		}
	}
	dependenciesOf := func(res *resState) map[*resState]bool {
		set := map[*resState]bool{}
		idx, ok := index[res]
		if !ok {
			return set
		}
		urns := map[resource.URN]bool{}
		for _, u := range res.allDeps() {
			if u != res.Parent {
				urns[u] = true
			}
		}
		if res.Provider != "" {
			if ref, err := providers.ParseReference(res.Provider); err == nil {
				urns[ref.URN()] = true
			}
		}
		for i := idx - 1; i >= 0; i-- {
			c := states[i]
			if urns[c.URN] {
				set[c] = true
				if !c.Custom {
					for _, j := range children[c.URN] {
						if j < idx {
							set[states[j]] = true
						}
					}
				}
			}
			if c.URN == res.Parent {
				set[c] = true
			}
		}
		return set
	}

	remaining := map[*resState]bool{}
	for _, s := range condemnedStates {
		remaining[s] = true
	}
	deps := map[*resState]map[*resState]bool{}
	for _, s := range condemnedStates {
		deps[s] = dependenciesOf(s)
	}
	var chains [][]*resState
	for len(remaining) > 0 {
		var chain []*resState
		for _, s := range condemnedStates {
			if !remaining[s] {
				continue
			}
			free := true
			for dep := range deps[s] {
				if dep != s && remaining[dep] {
					free = false
					break
				}
			}
			if free {
				chain = append(chain, s)
			}
		}
		if len(chain) == 0 { // a cycle: should not happen in a valid state
			for _, s := range condemnedStates {
				if remaining[s] {
					chain = append(chain, s)
				}
			}
		}
		for _, s := range chain {
			delete(remaining, s)
		}
		chains = append(chains, chain)
	}
	slices.Reverse(chains)
	return chains
}

// refresh reads every custom resource from its provider and updates or drops
// its state row.
func (d *deployment) refresh() error {
	refreshed := map[*resState]*resState{}
	var errs []error
	var g errgroup.Group
	g.SetLimit(d.opts.Parallel)
	ctx := d.ctx
	for _, old := range d.prev {
		if !old.Custom || providers.IsProviderType(old.Type) || old.PendingReplacement {
			continue
		}
		g.Go(func() error {
			res, resultOp, err := d.refreshOne(ctx, old)
			d.mu.Lock()
			defer d.mu.Unlock()
			if err != nil {
				errs = append(errs, &stepError{urn: old.URN, err: err})
				return nil
			}
			if res == nil {
				d.removed[old] = true
			} else {
				refreshed[old] = res
			}
			d.steps = append(d.steps, Step{Op: OpRefresh, URN: string(old.URN), Type: string(old.Type),
				Custom: true, ResultOp: resultOp})
			return nil
		})
	}
	_ = g.Wait()
	d.mu.Lock()
	for i, s := range d.prev {
		if r, ok := refreshed[s]; ok {
			d.prev[i] = r
			if d.removed[s] {
				d.removed[r] = true
			}
		}
	}
	d.prev = repairDependencies(d.prev, d.removed)
	d.mu.Unlock()
	return errors.Join(errs...)
}

func (d *deployment) refreshOne(ctx context.Context, old *resState) (*resState, Op, error) {
	prov, err := d.opsForOld(ctx, old)
	if err != nil {
		return nil, "", err
	}
	resp, err := prov.Read(ctx, plugin.ReadRequest{
		URN: old.URN, Name: old.URN.Name(), Type: old.URN.Type(), ID: old.ID,
		Inputs: old.Inputs, State: old.Outputs, Timeout: old.CustomTimeouts.Read,
	})
	var initErrors []string
	if err != nil {
		var initErr *plugin.InitError
		if resp.Status != resource.StatusPartialFailure || !errors.As(err, &initErr) {
			return nil, "", fmt.Errorf("refresh: %w", err)
		}
		initErrors = initErr.Reasons
		d.logf(diag.Warning, old.URN, "Refreshed resource is in an unhealthy state:\n* %s",
			joinLines(initErrors))
	}
	if resp.ID == "" || resp.Outputs == nil {
		return nil, OpDelete, nil
	}
	res := old.copy()
	res.ID, res.Outputs, res.InitErrors = resp.ID, resp.Outputs, initErrors
	if resp.Inputs != nil {
		res.Inputs = resp.Inputs
	}
	if !res.Inputs.DeepEquals(old.Inputs) || !res.Outputs.DeepEquals(old.Outputs) {
		res.Modified = now()
	}
	// The diff an immediate `up` would show, as the real engine computes it.
	diff, err := diffResource(ctx, prov, res.URN, res.ID, res.Inputs, res.Outputs, old.Inputs, false, old.IgnoreChanges)
	if err != nil {
		return nil, "", fmt.Errorf("refresh diff: %w", err)
	}
	if diff.Changes == plugin.DiffNone {
		return res, OpSame, nil
	}
	return res, OpUpdate, nil
}

// repairDependencies removes dropped states and every reference to a URN
// that no longer names an earlier resource.
func repairDependencies(states []*resState, removed map[*resState]bool) []*resState {
	parentOf := map[resource.URN]resource.URN{}
	for _, s := range states {
		parentOf[s.URN] = s.Parent
	}
	var out []*resState
	referenceable := map[resource.URN]bool{}
	for _, s := range states {
		if removed[s] {
			continue
		}
		c := s.copy()
		keep := func(us []resource.URN) []resource.URN {
			var r []resource.URN
			for _, u := range us {
				if referenceable[u] {
					r = append(r, u)
				}
			}
			return r
		}
		c.Dependencies = keep(s.Dependencies)
		if s.PropertyDependencies != nil {
			c.PropertyDependencies = map[resource.PropertyKey][]resource.URN{}
			for k, us := range s.PropertyDependencies {
				c.PropertyDependencies[k] = keep(us)
			}
		}
		c.ReplaceWith = keep(s.ReplaceWith)
		if c.DeletedWith != "" && !referenceable[c.DeletedWith] {
			c.DeletedWith = ""
		}
		for c.Parent != "" && !referenceable[c.Parent] {
			c.Parent = parentOf[c.Parent]
		}
		referenceable[c.URN] = true
		out = append(out, c)
	}
	return out
}

func joinLines(lines []string) string {
	out := ""
	for i, l := range lines {
		if i > 0 {
			out += "\n* "
		}
		out += l
	}
	return out
}
