package engine

import (
	"context"
	"errors"
	"fmt"

	"github.com/pulumi/pulumi/sdk/v3/go/common/diag"
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

// importResource is the real engine's import step: Read the resource by ID
// alone, Check the program's inputs against the imported ones, and Diff
// them. A difference fails the import (a preview only warns). With an old
// managed state it is an import-replacement: the old resource is deleted
// at the end, like a create-before-delete replacement.
func (d *deployment) importResource(ctx context.Context, g *goal, prov ops, news, old *resState,
	recreating bool, seed []byte,
) error {
	replacing := old != nil && !recreating
	news.ID, news.ImportID = g.ImportID, g.ImportID

	read, err := prov.Read(ctx, plugin.ReadRequest{
		URN: news.URN, Name: news.URN.Name(), Type: news.URN.Type(), ID: g.ImportID,
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
	news.Outputs = read.Outputs

	inputs, _ := processIgnoreChanges(g.Props, read.Inputs, g.IgnoreChanges)
	check, err := prov.Check(ctx, plugin.CheckRequest{
		URN: news.URN, Name: news.URN.Name(), Type: news.URN.Type(),
		Olds: read.Inputs, News: inputs, AllowUnknowns: d.dryRun, RandomSeed: seed,
	})
	if err != nil {
		return fmt.Errorf("check: %w", err)
	}
	if d.checkFailures(news, check.Failures) {
		return errors.New("one or more inputs failed to validate")
	}
	news.Inputs = check.Properties
	if news.Inputs == nil {
		news.Inputs = resource.PropertyMap{}
	}

	diff, err := diffResource(ctx, prov, news.URN, news.ID, read.Inputs, read.Outputs, news.Inputs, d.dryRun, g.IgnoreChanges)
	if err != nil {
		return fmt.Errorf("diff: %w", err)
	}
	if diff.Changes != plugin.DiffNone {
		msg := fmt.Sprintf("inputs to import do not match the existing resource: %v", diff.ChangedKeys)
		if !d.dryRun {
			return errors.New(msg)
		}
		d.log(diag.Warning, news.URN, msg+"; importing this resource will fail")
	}

	news.Created, news.Modified = now(), now()
	d.mu.Lock()
	d.creates[news.URN] = true
	d.mu.Unlock()
	if !replacing {
		d.commit(OpImport, news, old) // old: a row deleted earlier by delete-before-replace
		return nil
	}
	d.markDelete(old)
	d.commit(OpImportReplacement, news, old)
	d.recordStep(OpReplace, news)
	return nil
}
