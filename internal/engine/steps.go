package engine

import (
	"context"
	"crypto/rand"
	"errors"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/pulumi/pulumi/sdk/v3/go/common/diag"
	"github.com/pulumi/pulumi/sdk/v3/go/common/providers"
	"github.com/pulumi/pulumi/sdk/v3/go/common/resource"
	"github.com/pulumi/pulumi/sdk/v3/go/common/resource/plugin"
	"github.com/pulumi/pulumi/sdk/v3/go/common/tokens"
)

// goal is a registration as the engine sees it after option inheritance and
// provider resolution.
type goal struct {
	Type                    tokens.Type
	Name                    string
	Custom                  bool
	Props                   resource.PropertyMap
	Parent                  resource.URN
	Protect                 *bool
	Dependencies            []resource.URN
	Provider                string // "urn::id" for custom non-provider resources
	PropertyDependencies    map[resource.PropertyKey][]resource.URN
	DeleteBeforeReplace     *bool
	IgnoreChanges           []string
	AdditionalSecretOutputs []resource.PropertyKey
	Aliases                 []resource.Alias
	CustomTimeouts          resource.CustomTimeouts
	ReplaceOnChanges        []string
	HideDiff                []resource.PropertyPath
	RetainOnDelete          *bool
	DeletedWith             resource.URN
	ReplaceWith             []resource.URN
	ReplacementTrigger      resource.PropertyValue
	ImportID                resource.ID
}

// ops is what steps need from whoever manages a custom resource: a plugin, or
// the provider registry for provider resources.
type ops interface {
	Check(context.Context, plugin.CheckRequest) (plugin.CheckResponse, error)
	Diff(context.Context, plugin.DiffRequest) (plugin.DiffResponse, error)
	Create(context.Context, plugin.CreateRequest) (plugin.CreateResponse, error)
	Update(context.Context, plugin.UpdateRequest) (plugin.UpdateResponse, error)
	Delete(context.Context, plugin.DeleteRequest) (plugin.DeleteResponse, error)
	Read(context.Context, plugin.ReadRequest) (plugin.ReadResponse, error)
}

// stepError is a step failure: it fails the deployment.
type stepError struct {
	urn resource.URN
	err error
}

func (e *stepError) Error() string { return fmt.Sprintf("%s: %v", e.urn, e.err) }
func (e *stepError) Unwrap() error { return e.err }

// register runs the steps for a non-remote registration and returns the new
// state. Errors returned here have already failed the deployment.
func (d *deployment) register(ctx context.Context, g *goal) (*resState, error) {
	d.mu.Lock()
	if g.Parent != "" && !d.urns[g.Parent] {
		d.mu.Unlock()
		err := fmt.Errorf("could not find parent resource %v", g.Parent)
		d.log(diag.Error, "", err.Error())
		d.fail(err)
		return nil, err
	}
	urn := d.generateURN(g.Parent, g.Type, g.Name)
	if d.urns[urn] {
		d.mu.Unlock()
		//lint:ignore ST1005 the real engine's message, word for word
		err := fmt.Errorf("Duplicate resource URN '%v'; try giving it a unique name", urn)
		d.log(diag.Error, urn, err.Error())
		d.fail(err)
		return nil, err
	}
	d.urns[urn] = true
	old, alias, err := d.findOldLocked(urn, g)
	d.mu.Unlock()
	if err != nil {
		d.log(diag.Error, urn, err.Error())
		d.fail(err)
		return nil, err
	}

	news := newState(g, urn, alias)
	reg := &registration{result: news}
	generate := func() (chain, error) {
		if g.Custom {
			return d.customSteps(ctx, g, news, old, reg)
		}
		return nil, d.componentSteps(g, news, old)
	}
	// An import generates its steps twice, as in the real engine: the
	// import, then (once it ran) the steps that bring the imported resource
	// to the program's inputs.
	for generate != nil {
		if err := d.runSteps(ctx, generate); err != nil {
			if _, ok := errors.AsType[*failedEarlier](err); ok {
				return nil, err
			}
			var se *stepError
			if !errors.As(err, &se) {
				err = &stepError{urn: urn, err: err}
			}
			d.log(diag.Error, urn, err.Error())
			d.fail(err)
			return nil, err
		}
		generate, reg.next = reg.next, nil
	}
	return reg.result, nil
}

// registration is what one registration's steps hand on: the state the
// program gets back, and an import's continuation (see importResource).
type registration struct {
	result *resState
	next   func() (chain, error)
}

// failedEarlier refuses a registration after a step failed the deployment;
// that failure has been reported already.
type failedEarlier struct{ err error }

func (e *failedEarlier) Error() string { return "the deployment failed: " + e.err.Error() }
func (e *failedEarlier) Unwrap() error { return e.err }

// A chain is what the real engine's step executor runs for one
// registration: the provider's Create, Update, Delete or Read, and the
// commit of the new state.
type chain func(context.Context) error

// runSteps generates a registration's steps under stepMu, one registration
// at a time, then executes the chain they make on a worker. Like the real
// engine's generator, it waits for a free worker before generating more.
func (d *deployment) runSteps(ctx context.Context, generate func() (chain, error)) error {
	d.stepMu.Lock()
	if err := d.failed(); err != nil {
		d.stepMu.Unlock()
		return &failedEarlier{err}
	}
	run, err := generate()
	if err == nil && run != nil && d.workers != nil {
		select {
		case d.workers <- struct{}{}:
			defer func() { <-d.workers }()
		case <-ctx.Done():
			err = ctx.Err()
		}
	}
	d.stepMu.Unlock()
	if err != nil || run == nil {
		return err
	}
	return run(ctx)
}

func newState(g *goal, urn resource.URN, alias resource.URN) *resState {
	s := &resState{
		URN: urn, Type: g.Type, Custom: g.Custom, Inputs: g.Props, Parent: g.Parent,
		Dependencies: g.Dependencies, PropertyDependencies: g.PropertyDependencies,
		Provider: g.Provider, AdditionalSecretOutputs: g.AdditionalSecretOutputs,
		CustomTimeouts: g.CustomTimeouts, DeletedWith: g.DeletedWith,
		ReplaceWith: g.ReplaceWith, ReplacementTrigger: g.ReplacementTrigger,
		IgnoreChanges: g.IgnoreChanges, ReplaceOnChanges: g.ReplaceOnChanges, HideDiff: g.HideDiff,
		// As in the real step generator, every step records the import ID
		// the program still asks for, so a provider that reads the resource
		// back under another ID does not make the next run import again.
		ImportID: g.ImportID,
	}
	if g.Protect != nil {
		s.Protect = *g.Protect
	}
	if g.RetainOnDelete != nil {
		s.RetainOnDelete = *g.RetainOnDelete
	}
	if alias != "" {
		s.Aliases = []resource.URN{alias}
	}
	return s
}

// findOldLocked looks the resource up in the old state by URN, then by its
// aliases (and those inherited from an aliased parent).
func (d *deployment) findOldLocked(urn resource.URN, g *goal) (*resState, resource.URN, error) {
	if prev, ok := d.aliased[urn]; ok {
		return nil, "", fmt.Errorf("resource %v is already aliased by %v", urn, prev)
	}
	candidates := append([]resource.URN{urn}, d.aliasURNsLocked(g)...)
	for _, c := range candidates {
		old, ok := d.olds[c]
		if !ok {
			continue
		}
		if c == urn {
			return old, "", nil
		}
		if d.urns[c] {
			return nil, "", fmt.Errorf("alias %v of %v refers to a resource registered in this deployment", c, urn)
		}
		if prev, ok := d.aliased[c]; ok {
			return nil, "", fmt.Errorf("alias %v of %v was already claimed by %v", c, urn, prev)
		}
		d.aliased[c] = urn
		d.aliasOf[urn] = c
		return old, c, nil
	}
	return nil, "", nil
}

func (d *deployment) aliasURNsLocked(g *goal) []resource.URN {
	var out []resource.URN
	seen := map[resource.URN]bool{}
	add := func(u resource.URN) {
		if !seen[u] {
			seen[u] = true
			out = append(out, u)
		}
	}
	collapse := func(a resource.Alias, name string, typ tokens.Type) resource.URN {
		if a.URN != "" {
			return a.URN
		}
		n, t := a.Name, a.Type
		if n == "" {
			n = name
		}
		if t == "" {
			t = string(typ)
		}
		parent := a.Parent
		if parent == "" {
			parent = g.Parent
		} else if pa, ok := d.aliasOf[parent]; ok {
			parent = pa
		}
		if a.NoParent || (parent != "" && parent.QualifiedType() == resource.RootStackType) {
			parent = ""
		}
		project, stack := a.Project, a.Stack
		if project == "" {
			project = d.opts.Project
		}
		if stack == "" {
			stack = d.opts.Stack
		}
		return resource.CreateURN(n, t, parent, project, stack)
	}
	for _, a := range g.Aliases {
		add(collapse(a, g.Name, g.Type))
	}
	// An aliased parent implies aliases for its children.
	if g.Parent != "" {
		if parentAlias, ok := d.aliasOf[g.Parent]; ok {
			inherited := func(typ tokens.Type, name string) resource.URN {
				aliasName := name
				if after, ok := strings.CutPrefix(name, g.Parent.Name()); ok {
					aliasName = parentAlias.Name() + after
				}
				return resource.NewURN(tokens.QName(d.opts.Stack), tokens.PackageName(d.opts.Project),
					parentAlias.QualifiedType(), typ, aliasName)
			}
			add(inherited(g.Type, g.Name))
			for _, a := range g.Aliases {
				c := collapse(a, g.Name, g.Type)
				add(inherited(c.Type(), c.Name()))
			}
		}
	}
	return out
}

// componentSteps handles a local component: same if its inputs are unchanged,
// else an update of the state row. Providers are never called.
func (d *deployment) componentSteps(g *goal, news, old *resState) error {
	if old == nil {
		d.mu.Lock()
		d.creates[news.URN] = true
		d.mu.Unlock()
		news.Created, news.Modified = now(), now()
		d.commit(OpCreate, news, nil)
		return nil
	}
	replace := shouldTriggerReplace(news.ReplacementTrigger, old.ReplacementTrigger) || d.cascadeReplace(news)
	if replace {
		d.mu.Lock()
		d.replaces[news.URN] = true
		d.mu.Unlock()
		news.Created, news.Modified = now(), now()
		d.markDelete(old)
		d.commit(OpCreateReplacement, news, old)
		d.recordStep(OpReplace, news)
		return nil
	}
	news.Created, news.Modified = old.Created, old.Modified
	if old.Inputs.DeepEquals(news.Inputs) && old.Provider == news.Provider {
		d.mu.Lock()
		d.sames[news.URN] = true
		d.mu.Unlock()
		news.Outputs = old.Outputs
		d.commit(OpSame, news, old)
		return nil
	}
	d.mu.Lock()
	d.updates[news.URN] = true
	d.mu.Unlock()
	d.commit(OpUpdate, news, old)
	return nil
}

// cascadeReplace reports whether a replaceWith or deletedWith target of s is
// being replaced in this deployment.
func (d *deployment) cascadeReplace(s *resState) bool {
	d.mu.Lock()
	defer d.mu.Unlock()
	if s.DeletedWith != "" && d.replaces[s.DeletedWith] {
		return true
	}
	for _, u := range s.ReplaceWith {
		if d.replaces[u] {
			return true
		}
	}
	return false
}

func (d *deployment) markDelete(old *resState) {
	d.mu.Lock()
	d.markedDelete[old] = true
	d.mu.Unlock()
}

// customSteps is the step generator for a custom resource (§8): Check, then
// create, or Diff and same/update/replace.
func (d *deployment) customSteps(ctx context.Context, g *goal, news, old *resState, reg *registration) (chain, error) {
	prov, err := d.opsFor(news)
	if err != nil {
		return nil, err
	}
	d.mu.Lock()
	recreating := d.deletes[news.URN]
	d.mu.Unlock()

	seed := make([]byte, 32)
	_, _ = rand.Read(seed)
	if isImport(g, old) {
		return d.importSteps(g, prov, news, old, recreating, seed, reg), nil
	}
	return d.checkSteps(ctx, g, prov, news, old, recreating, seed, reg)
}

// checkSteps is the rest of the step generator for a custom resource, the
// real engine's continueStepsFromImport: Check, then create, or Diff and
// same/update/replace. After an import, old is the imported state.
func (d *deployment) checkSteps(ctx context.Context, g *goal, prov ops, news, old *resState,
	recreating bool, seed []byte, reg *registration,
) (chain, error) {
	wasExternal := old != nil && old.External
	var check plugin.CheckResponse
	var err error
	if recreating || wasExternal || old == nil {
		check, err = prov.Check(ctx, plugin.CheckRequest{
			URN: news.URN, News: g.Props, AllowUnknowns: d.dryRun, RandomSeed: seed,
		})
	} else {
		inputs, invalid := processIgnoreChanges(news.Inputs, old.Inputs, g.IgnoreChanges)
		if len(invalid) > 0 {
			d.logf(diag.Info, news.URN, "cannot ignore changes in added or removed elements of the path: %q",
				strings.Join(invalid, ", "))
		}
		check, err = prov.Check(ctx, plugin.CheckRequest{
			URN: news.URN, Olds: old.Inputs, News: inputs, AllowUnknowns: d.dryRun, RandomSeed: seed,
		})
	}
	if err != nil {
		return nil, fmt.Errorf("check: %w", err)
	}
	if d.checkFailures(news, check.Failures) {
		return nil, fmt.Errorf("resource %s is invalid", news.URN)
	}
	news.Inputs = check.Properties
	if news.Inputs == nil {
		news.Inputs = resource.PropertyMap{}
	}

	switch {
	case recreating:
		// Deleted earlier in this deployment as a dependent of a
		// delete-before-replace: now it is a replacement.
		d.mu.Lock()
		delete(d.deletes, news.URN)
		d.replaces[news.URN] = true
		d.mu.Unlock()
		return func(ctx context.Context) error {
			d.recordStep(OpReplace, news)
			return d.create(ctx, prov, news, old, OpCreateReplacement, false)
		}, nil
	case wasExternal:
		d.mu.Lock()
		d.creates[news.URN] = true
		d.mu.Unlock()
		return d.createBeforeDelete(prov, news, old), nil
	case old != nil:
		return d.diffSteps(ctx, g, prov, news, old, seed, reg)
	default:
		d.mu.Lock()
		d.creates[news.URN] = true
		d.mu.Unlock()
		return func(ctx context.Context) error {
			return d.create(ctx, prov, news, nil, OpCreate, false)
		}, nil
	}
}

func (d *deployment) checkFailures(s *resState, failures []plugin.CheckFailure) bool {
	for _, f := range failures {
		if f.Property != "" {
			d.logf(diag.Error, s.URN, "%s resource '%s': property %s value %v has a problem: %s",
				s.Type, s.URN.Name(), f.Property, s.Inputs[f.Property], f.Reason)
		} else {
			d.logf(diag.Error, s.URN, "%s resource '%s' has a problem: %s", s.Type, s.URN.Name(), f.Reason)
		}
	}
	return len(failures) > 0
}

// diffSteps decides between same, update and replace for an existing custom
// resource, and returns the chain that performs it.
func (d *deployment) diffSteps(ctx context.Context, g *goal, prov ops, news, old *resState, seed []byte,
	reg *registration,
) (chain, error) {
	if !d.dryRun && news.ReplacementTrigger.ContainsUnknowns() {
		return nil, fmt.Errorf("replacement trigger contains unknowns for %s", news.URN)
	}
	triggerReplace := shouldTriggerReplace(news.ReplacementTrigger, old.ReplacementTrigger)

	var diff plugin.DiffResult
	if triggerReplace {
		diff = plugin.DiffResult{Changes: plugin.DiffSome}
	} else {
		var err error
		if diff, err = d.diff(ctx, prov, news, old, g.IgnoreChanges); err != nil {
			var unavailable plugin.DiffUnavailableError
			if !errors.As(err, &unavailable) {
				return nil, fmt.Errorf("diff: %w", err)
			}
			diff = plugin.DiffResult{Changes: plugin.DiffSome}
			d.log(diag.Warning, news.URN, err.Error())
		}
	}
	if diff.Changes != plugin.DiffNone && diff.Changes != plugin.DiffSome {
		return nil, fmt.Errorf("unrecognized diff state for %s: %d", news.URN, diff.Changes)
	}
	hasInitErrors := len(old.InitErrors) > 0
	diff, err := applyReplaceOnChanges(diff, g.ReplaceOnChanges, hasInitErrors)
	if err != nil {
		return nil, err
	}

	if (diff.Changes == plugin.DiffSome || old.PendingReplacement) &&
		(diff.Replace() || triggerReplace || old.PendingReplacement) {
		return d.replace(ctx, g, prov, news, old, diff, seed)
	}
	if diff.Changes == plugin.DiffSome || old.PendingReplacement || hasInitErrors {
		d.mu.Lock()
		d.updates[news.URN] = true
		d.mu.Unlock()
		return func(ctx context.Context) error { return d.update(ctx, prov, g, news, old) }, nil
	}
	d.mu.Lock()
	defer d.mu.Unlock()
	if d.imports[news.URN] {
		// The program agrees with what was imported: as in the real
		// engine, no same step; the registration resolves to the import.
		reg.result = old
		return nil, nil
	}
	d.sames[news.URN] = true
	return func(context.Context) error { return d.same(news, old) }, nil
}

// diff asks the provider for a diff, after the engine-level reasons to
// replace (replaceWith, deletedWith, provider change).
func (d *deployment) diff(ctx context.Context, prov ops, news, old *resState, ignoreChanges []string) (plugin.DiffResult, error) {
	d.mu.Lock()
	for _, u := range news.ReplaceWith {
		if d.replaces[u] {
			d.mu.Unlock()
			return plugin.DiffResult{Changes: plugin.DiffSome, ReplaceKeys: []resource.PropertyKey{"replaceWith"}}, nil
		}
	}
	if news.DeletedWith != "" && d.replaces[news.DeletedWith] {
		d.mu.Unlock()
		return plugin.DiffResult{Changes: plugin.DiffSome, ReplaceKeys: []resource.PropertyKey{"deletedWith"}}, nil
	}
	d.mu.Unlock()

	changed, err := d.providerChanged(ctx, news, old)
	if err != nil {
		return plugin.DiffResult{}, err
	} else if changed {
		return plugin.DiffResult{Changes: plugin.DiffSome, ReplaceKeys: []resource.PropertyKey{"provider"}}, nil
	}
	return diffResource(ctx, prov, news.URN, old.ID, old.Inputs, old.Outputs, news.Inputs, d.dryRun, ignoreChanges)
}

// diffResource calls the provider's Diff; an unknown answer is resolved by
// comparing inputs, like the engine does.
func diffResource(ctx context.Context, prov ops, urn resource.URN, id resource.ID,
	oldInputs, oldOutputs, newInputs resource.PropertyMap, allowUnknowns bool, ignoreChanges []string,
) (plugin.DiffResult, error) {
	diff, err := prov.Diff(ctx, plugin.DiffRequest{
		URN: urn, Name: urn.Name(), Type: urn.Type(), ID: id,
		OldInputs: oldInputs, OldOutputs: oldOutputs, NewInputs: newInputs,
		AllowUnknowns: allowUnknowns, IgnoreChanges: ignoreChanges,
	})
	if err != nil {
		return diff, err
	}
	if diff.Changes == plugin.DiffUnknown {
		news, _ := processIgnoreChanges(newInputs, oldInputs, ignoreChanges)
		od := unwrapSecretsAndOutputs(oldInputs).Diff(unwrapSecretsAndOutputs(news))
		if od != nil && od.AnyChanges() {
			diff.Changes = plugin.DiffSome
			diff.ChangedKeys = od.ChangedKeys()
			diff.DetailedDiff = plugin.NewDetailedDiffFromObjectDiff(od, true)
		} else {
			diff.Changes = plugin.DiffNone
		}
	}
	return diff, nil
}

// providerChanged reports whether a change of provider reference forces a
// replacement: the new provider's DiffConfig decides.
func (d *deployment) providerChanged(ctx context.Context, news, old *resState) (bool, error) {
	if old.Provider == news.Provider {
		return false, nil
	}
	if old.Provider == "" || news.Provider == "" {
		return true, nil
	}
	oldRef, err := providers.ParseReference(old.Provider)
	if err != nil {
		return false, err
	}
	newRef, err := providers.ParseReference(news.Provider)
	if err != nil {
		return false, err
	}
	d.mu.Lock()
	aliasTarget, aliased := d.aliased[oldRef.URN()]
	oldRes := d.olds[oldRef.URN()]
	newRes := d.newsByURN[newRef.URN()]
	d.mu.Unlock()
	if aliased && aliasTarget == newRef.URN() {
		return false, nil
	}
	if oldRes == nil || newRes == nil {
		return true, nil
	}
	newProv, ok := d.registry.get(newRef.String())
	if !ok {
		return false, fmt.Errorf("failed to resolve provider reference %q", newRef)
	}
	diff, err := newProv.DiffConfig(ctx, plugin.DiffConfigRequest{
		URN:           newRef.URN(),
		Name:          newRef.URN().Name(),
		Type:          newRef.URN().Type(),
		OldInputs:     filterProviderConfig(oldRes.Inputs),
		OldOutputs:    oldRes.Outputs,
		NewInputs:     filterProviderConfig(newRes.Inputs),
		AllowUnknowns: true,
	})
	if err != nil {
		return false, err
	}
	return diff.Replace(), nil
}

// replace performs a replacement: create-before-delete by default,
// delete-before-replace when the option or the provider asks for it.
func (d *deployment) replace(ctx context.Context, g *goal, prov ops, news, old *resState,
	diff plugin.DiffResult, seed []byte,
) (chain, error) {
	if news.Protect && old.Protect {
		err := fmt.Errorf("unable to replace resource %q\nas it is currently marked for protection. "+
			"To unprotect the resource, remove the `protect` flag from the resource in your Pulumi program "+
			"and run `pulumi up`", news.URN)
		if !d.dryRun {
			return nil, err
		}
		// Like the real engine, a preview reports the error and goes on, so
		// the user sees the diff that causes it; the preview still fails.
		d.log(diag.Error, news.URN, err.Error())
		d.mu.Lock()
		if d.previewErr == nil {
			d.previewErr = err
		}
		d.mu.Unlock()
	}
	if g.ImportID != "" {
		// A replacement gets a new ID, which the program's import option
		// contradicts. Like the real engine, name what forces it.
		msg := "previously-imported resources that still specify an ID may not be replaced; " +
			"please remove the `import` declaration from your program;\n"
		var lines []string
		for _, k := range diff.ReplaceKeys {
			lines = append(lines, fmt.Sprintf("%s: %s => %s", k, old.Inputs[k].RedactSecrets(), news.Inputs[k].RedactSecrets()))
		}
		msg += strings.Join(lines, "\n")
		if !d.dryRun {
			return nil, errors.New(msg)
		}
		d.log(diag.Warning, news.URN, msg)
	}
	d.mu.Lock()
	d.replaces[news.URN] = true
	d.mu.Unlock()

	// Defaults computed for the old resource no longer apply: re-check news alone.
	check, err := prov.Check(ctx, plugin.CheckRequest{
		URN: news.URN, News: g.Props, AllowUnknowns: d.dryRun, RandomSeed: seed,
	})
	if err != nil {
		return nil, fmt.Errorf("check: %w", err)
	}
	if d.checkFailures(news, check.Failures) {
		return nil, fmt.Errorf("resource %v has check errors", news.URN)
	}
	news.Inputs = check.Properties

	dbr := diff.DeleteBeforeReplace
	if g.DeleteBeforeReplace != nil {
		dbr = *g.DeleteBeforeReplace
	}
	if !dbr {
		return d.createBeforeDelete(prov, news, old), nil
	}

	toReplace, err := d.dependentReplacements(ctx, old)
	if err != nil {
		return nil, err
	}
	// Mark everything condemned first, so deletedWith sees the whole set.
	type dbrDelete struct {
		res                    *resState
		replacing, pendingRepl bool
	}
	var plan []dbrDelete
	d.mu.Lock()
	for i := len(toReplace) - 1; i >= 0; i-- {
		dep := toReplace[i]
		if d.pendingDeletes[dep] {
			continue
		}
		if !dep.Delete && dep.Protect {
			d.mu.Unlock()
			return nil, fmt.Errorf("unable to replace resource %q as part of replacing %q "+
				"as it is currently marked for protection", dep.URN, news.URN)
		}
		plan = append(plan, dbrDelete{res: dep, replacing: !dep.Delete, pendingRepl: !dep.Delete})
		d.deletes[dep.URN] = true
		d.pendingDeletes[dep] = true
	}
	if !old.PendingReplacement {
		d.deletes[old.URN] = true
		plan = append(plan, dbrDelete{res: old, replacing: true, pendingRepl: true})
	}
	d.mu.Unlock()
	return func(ctx context.Context) error {
		for _, c := range plan {
			if err := d.deleteOne(ctx, c.res, c.replacing, c.pendingRepl); err != nil {
				return err
			}
		}
		d.recordStep(OpReplace, news)
		return d.create(ctx, prov, news, old, OpCreateReplacement, false)
	}, nil
}

// createBeforeDelete is the chain of a create-before-delete replacement:
// the new resource is created, and old is deleted at the end.
func (d *deployment) createBeforeDelete(prov ops, news, old *resState) chain {
	return func(ctx context.Context) error {
		if err := d.create(ctx, prov, news, old, OpCreateReplacement, true); err != nil {
			return err
		}
		d.recordStep(OpReplace, news)
		return nil
	}
}

// dependentReplacements lists (in dependency order) the old resources that
// depend on root and would be replaced when root is deleted: those on a
// replaced provider, deleted with it, or whose provider Diff says replace once
// the properties depending on it become unknown.
func (d *deployment) dependentReplacements(ctx context.Context, root *resState) ([]*resState, error) {
	replaceSet := map[resource.URN]bool{root.URN: true}
	d.mu.Lock()
	ignore := map[resource.URN]bool{}
	for _, m := range []map[resource.URN]bool{d.reads, d.creates, d.sames, d.updates, d.deletes, d.replaces} {
		for u := range m {
			ignore[u] = true
		}
	}
	d.mu.Unlock()

	requires := func(r *resState) (bool, error) {
		if !r.Custom || r.External {
			return false, nil
		}
		if r.Provider != "" {
			ref, err := providers.ParseReference(r.Provider)
			if err != nil {
				return false, err
			}
			if replaceSet[ref.URN()] {
				return true, nil
			}
		}
		if r.DeletedWith != "" && replaceSet[r.DeletedWith] {
			return true, nil
		}
		hasDep, inputs := false, resource.PropertyMap{}
		for k, v := range r.Inputs {
			for _, dep := range r.PropertyDependencies[k] {
				if replaceSet[dep] {
					hasDep = true
					v = resource.MakeComputed(resource.NewProperty("<unknown>"))
				}
			}
			inputs[k] = v
		}
		if !hasDep {
			return false, nil
		}
		prov, err := d.opsForOld(ctx, r)
		if err != nil {
			return false, err
		}
		diff, err := diffResource(ctx, prov, r.URN, r.ID, r.Inputs, r.Outputs, inputs, true, r.IgnoreChanges)
		if err != nil {
			return false, err
		}
		if diff, err = applyReplaceOnChanges(diff, r.ReplaceOnChanges, false); err != nil {
			return false, err
		}
		return diff.Replace(), nil
	}

	var out []*resState
	for _, r := range dependingOn(d.prev, root, ignore) {
		ok, err := requires(r)
		if err != nil {
			return nil, err
		} else if ok {
			replaceSet[r.URN] = true
			out = append(out, r)
		}
	}
	// Resources that cascade from root via deletedWith/replaceWith.
	d.mu.Lock()
	seen := map[resource.URN]bool{}
	for _, r := range out {
		seen[r.URN] = true
	}
	for _, r := range d.prev {
		if seen[r.URN] || r.Delete || r == root || ignore[r.URN] {
			continue
		}
		if r.DeletedWith == root.URN || slices.Contains(r.ReplaceWith, root.URN) {
			seen[r.URN] = true
			out = append(out, r)
		}
	}
	d.mu.Unlock()
	return out, nil
}

// dependingOn returns the transitive dependents of root among states (which
// are in dependency order), skipping URNs in ignore. Children do not count.
func dependingOn(states []*resState, root *resState, ignore map[resource.URN]bool) []*resState {
	idx := slices.Index(states, root)
	if idx < 0 {
		return nil
	}
	set := map[resource.URN]bool{root.URN: true}
	var out []*resState
	for _, c := range states[idx+1:] {
		if ignore[c.URN] {
			continue
		}
		dep := false
		for _, u := range c.Dependencies {
			dep = dep || set[u]
		}
		for _, us := range c.PropertyDependencies {
			for _, u := range us {
				dep = dep || set[u]
			}
		}
		dep = dep || (c.DeletedWith != "" && set[c.DeletedWith])
		for _, u := range c.ReplaceWith {
			dep = dep || set[u]
		}
		if c.Provider != "" {
			if ref, err := providers.ParseReference(c.Provider); err == nil && set[ref.URN()] {
				dep = true
			}
		}
		if dep {
			out = append(out, c)
			set[c.URN] = true
		}
	}
	return out
}

// create runs Create (preview: with preview set) and commits the new state.
// With pendingDelete the old state is kept, marked for deletion at the end.
func (d *deployment) create(ctx context.Context, prov ops, news, old *resState, op Op, pendingDelete bool) error {
	resp, err := prov.Create(ctx, plugin.CreateRequest{
		URN: news.URN, Name: news.URN.Name(), Type: news.URN.Type(), Properties: news.Inputs,
		Timeout: news.CustomTimeouts.Create, Preview: d.dryRun,
	})
	if err != nil && resp.Status != resource.StatusPartialFailure {
		d.stepFailed(op, news)
		return fmt.Errorf("create: %w", err)
	}
	if err == nil && !d.dryRun && resp.ID == "" {
		d.stepFailed(op, news)
		return errors.New("provider did not return an ID from Create")
	}
	news.ID, news.Outputs = resp.ID, resp.Properties
	news.Created, news.Modified = now(), now()
	var initErr *plugin.InitError
	if errors.As(err, &initErr) {
		news.InitErrors = initErr.Reasons
	}
	if old != nil && pendingDelete {
		d.markDelete(old)
	}
	d.commit(op, news, old)
	if err != nil {
		d.lastStepFailed(news)
		return fmt.Errorf("create (partially failed): %w", err)
	}
	return nil
}

func (d *deployment) update(ctx context.Context, prov ops, g *goal, news, old *resState) error {
	news.ID, news.Created = old.ID, old.Created
	resp, err := prov.Update(ctx, plugin.UpdateRequest{
		URN: news.URN, Name: news.URN.Name(), Type: news.URN.Type(), ID: old.ID,
		OldInputs: old.Inputs, OldOutputs: old.Outputs, NewInputs: news.Inputs,
		Timeout: news.CustomTimeouts.Update, IgnoreChanges: g.IgnoreChanges, Preview: d.dryRun,
	})
	if err != nil && resp.Status != resource.StatusPartialFailure {
		d.stepFailed(OpUpdate, news)
		return fmt.Errorf("update: %w", err)
	}
	news.Outputs, news.Modified = resp.Properties, now()
	var initErr *plugin.InitError
	if errors.As(err, &initErr) {
		news.InitErrors = initErr.Reasons
	}
	d.commit(OpUpdate, news, old)
	if err != nil {
		d.lastStepFailed(news)
		return fmt.Errorf("update (partially failed): %w", err)
	}
	return nil
}

func (d *deployment) same(news, old *resState) error {
	news.ID, news.Outputs = old.ID, old.Outputs
	news.Created, news.Modified = old.Created, old.Modified
	if providers.IsProviderType(news.Type) {
		// Configure the provider with its old inputs, like the registry's Same.
		st := news.copy()
		st.Inputs = old.Inputs
		if err := d.registry.same(st); err != nil {
			return fmt.Errorf("bad provider state for resource %v: %w", news.URN, err)
		}
	}
	d.commit(OpSame, news, old)
	return nil
}

// opsFor returns what manages a custom resource registered in this deployment.
func (d *deployment) opsFor(s *resState) (ops, error) {
	if providers.IsProviderType(s.Type) {
		return d.registry.resourceOps(), nil
	}
	if s.Provider == "" {
		return nil, fmt.Errorf("custom resource %v has no provider", s.URN)
	}
	p, ok := d.registry.get(s.Provider)
	if !ok {
		return nil, fmt.Errorf("unknown provider '%v' for resource %v", s.Provider, s.URN)
	}
	return p, nil
}

// opsForOld returns what manages an old custom resource, loading its provider
// from the old state if this deployment did not register it.
func (d *deployment) opsForOld(ctx context.Context, s *resState) (ops, error) {
	if providers.IsProviderType(s.Type) {
		return d.registry.resourceOps(), nil
	}
	p, err := d.registry.ensure(ctx, s.Provider)
	if err != nil {
		return nil, fmt.Errorf("could not load provider for resource %v: %w", s.URN, err)
	}
	return p, nil
}

func now() *time.Time {
	t := time.Now().UTC()
	return &t
}
