package engine

import (
	"context"
	"errors"
	"fmt"

	"github.com/pulumi/pulumi/sdk/v3/go/common/resource"
	"github.com/pulumi/pulumi/sdk/v3/go/common/resource/plugin"
)

// isImport reports whether a registration imports an existing resource, as
// the real step generator decides: the goal carries an ID and there is no old
// state, or the old one was external or was imported (or created) under a
// different ID. Every step records the goal's import ID, so an unchanged
// program compares against the ID it imported by.
func isImport(g *goal, old *resState) bool {
	if !g.Custom || g.ImportID == "" {
		return false
	}
	if old == nil || old.External {
		return true
	}
	oldID := old.ID
	if old.ImportID != "" {
		oldID = old.ImportID
	}
	return oldID != g.ImportID
}

// importSteps is the real engine's import (step_generator.go
// generateSteps, step.go ImportStep.Apply): Read the resource by ID alone
// and record what it answers, inputs and outputs as read, with no Check
// and no Diff. With an old state it is an import-replacement: the old
// resource is deleted at the end, like a create-before-delete replacement.
//
// Then, like the real continueStepsFromImport, the registration goes on as
// if the imported state were its old state: Check and Diff against the
// program's inputs, and an update when they differ (the import changes the
// resource to what the program says), a refused replacement, or nothing
// more when they agree. The import stays recorded even when what follows
// it fails.
func (d *deployment) importSteps(g *goal, prov ops, news, old *resState, recreating bool, seed []byte,
	reg *registration,
) chain {
	d.mu.Lock()
	d.imports[news.URN] = true
	d.creates[news.URN] = true
	d.mu.Unlock()
	return func(ctx context.Context) error {
		if err := d.importResource(ctx, g, prov, news, old, recreating); err != nil {
			return err
		}
		reg.result = news
		reg.next = func() (chain, error) {
			next := newState(g, news.URN, "")
			next.Aliases = news.Aliases
			next.Created, next.Modified = news.Created, news.Modified
			reg.result = next
			return d.checkSteps(ctx, g, prov, next, news, recreating, seed, reg)
		}
		return nil
	}
}

// importResource reads the resource to import and commits it.
func (d *deployment) importResource(ctx context.Context, g *goal, prov ops, news, old *resState, recreating bool) (err error) {
	replacing := old != nil && !recreating
	news.ID, news.ImportID = g.ImportID, g.ImportID
	op := OpImport
	if replacing {
		op = OpImportReplacement
	}
	defer func() {
		if err != nil {
			d.stepFailed(op, news)
		}
	}()

	read, err := prov.Read(ctx, plugin.ReadRequest{
		URN: news.URN, Name: news.URN.Name(), Type: news.URN.Type(), ID: g.ImportID,
		Timeout: news.CustomTimeouts.Read,
	})
	if err != nil {
		var initErr *plugin.InitError
		if !errors.As(err, &initErr) {
			return fmt.Errorf("import: %w", err)
		}
		news.InitErrors = initErr.Reasons
	}
	if read.Outputs == nil {
		return fmt.Errorf("resource '%v' does not exist", g.ImportID)
	}
	if read.Inputs == nil {
		return fmt.Errorf("provider does not support importing resources; please try updating the '%v' plugin",
			news.URN.Type().Package())
	}
	if read.ID != "" {
		news.ID = read.ID
	}
	news.Inputs, news.Outputs = read.Inputs, read.Outputs
	if news.Inputs == nil {
		news.Inputs = resource.PropertyMap{}
	}

	news.Created, news.Modified = now(), now()
	if !replacing {
		d.commit(op, news, old) // old: a row deleted earlier by delete-before-replace
		return nil
	}
	d.markDelete(old)
	d.commit(op, news, old)
	d.recordStep(OpReplace, news)
	return nil
}
