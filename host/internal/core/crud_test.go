package core

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"testing"

	"github.com/pulumi/pulumi/sdk/v3/go/property"

	"github.com/polyhost/polyhost/host/custom"
	"github.com/polyhost/polyhost/host/schema"
)

// Without a Diff of the backend's, a change of a replaceOnChanges (or
// willReplaceOnChanges) input replaces the resource, added, changed or
// removed; others update it; ignored and equal keys are no change.
func TestDefaultDiffReplaceOnChanges(t *testing.T) {
	t.Parallel()
	spec := schema.Resource{InputProperties: map[string]schema.Property{
		"key":    {Type: "string", ReplaceOnChanges: true},
		"region": {Type: "string", WillReplaceOnChanges: true},
		"zone":   {Type: "string", ReplaceOnChanges: true},
		"body":   {Type: "string"},
	}}
	str := func(s string) property.Value { return property.New(s) }
	req := custom.DiffRequest{
		OldInputs:     property.NewMap(map[string]property.Value{"key": str("a"), "zone": str("z1"), "body": str("x"), "tag": str("t")}),
		Inputs:        property.NewMap(map[string]property.Value{"key": str("b"), "region": str("r1"), "body": str("y"), "tag": str("u")}),
		IgnoreChanges: []string{"tag"},
	}
	got := defaultDiff(spec, req)
	want := map[string]custom.DiffKind{
		"key": custom.DiffUpdateReplace, "region": custom.DiffAddReplace,
		"zone": custom.DiffDeleteReplace, "body": custom.DiffUpdate,
	}
	if !got.HasChanges || len(got.Changes) != len(want) {
		t.Fatalf("changes = %v, want %v", got.Changes, want)
	}
	for k, kind := range want {
		if got.Changes[k] != kind {
			t.Errorf("change of %s = %v, want %v", k, got.Changes[k], kind)
		}
	}
	if !slices.Equal(got.Replaces, []string{"key", "region", "zone"}) {
		t.Errorf("replaces = %v, want [key region zone]", got.Replaces)
	}

	same := defaultDiff(spec, custom.DiffRequest{OldInputs: req.Inputs, Inputs: req.Inputs})
	if same.HasChanges || len(same.Replaces) > 0 {
		t.Errorf("equal inputs: %+v, want no change", same)
	}
}

type dialArgs struct {
	Level int          `pulumi:"level"`
	Label string       `pulumi:"label"`
	Tags  property.Map `pulumi:"tags,optional"`
}

// dial's Diff sees no change whatever it is given.
type dial struct{}

func (dial) Create(context.Context, custom.TypedCreateRequest[dialArgs]) (custom.TypedCreateResponse[dialArgs], error) {
	return custom.TypedCreateResponse[dialArgs]{}, nil
}

func (dial) Diff(context.Context, custom.TypedDiffRequest[dialArgs, dialArgs]) (custom.DiffResponse, error) {
	return custom.DiffResponse{}, nil
}

// An input unknown in a preview reaches a typed Diff as its zero value, so
// the host counts it changed, whatever the author's Diff said; a known one
// it leaves to the author (issue 38's mutant: an unknown recorded as a lost
// secret, and so the change missed).
func TestTypedDiffCountsUnknownInputsChanged(t *testing.T) {
	t.Parallel()
	r := NewTypedResource(New("test"), "test:index:Dial", custom.TypedResource[dialArgs, dialArgs](dial{})).(custom.ResourceWithDiff)
	old := property.NewMap(map[string]property.Value{"level": property.New(1.0), "label": property.New("a")})
	resp, err := r.Diff(context.Background(), custom.DiffRequest{
		OldInputs: old, OldOutputs: old,
		Inputs: property.NewMap(map[string]property.Value{"level": property.New(property.Computed), "label": property.New("a")}),
	})
	if err != nil || !resp.HasChanges || resp.Changes["level"] != custom.DiffUpdate || len(resp.Changes) != 1 {
		t.Fatalf("diff with an unknown level = %+v, %v; want level updated, nothing else", resp, err)
	}
	resp, err = r.Diff(context.Background(), custom.DiffRequest{
		OldInputs: old, OldOutputs: old,
		Inputs: property.NewMap(map[string]property.Value{"level": property.New(1.0), "label": property.New("a"), "tags": property.New(property.Computed)}),
	})
	if err != nil || resp.Changes["tags"] != custom.DiffUpdate || len(resp.Changes) != 1 {
		t.Fatalf("diff with unknown tags = %+v, %v; want tags updated, nothing else", resp, err)
	}
	resp, err = r.Diff(context.Background(), custom.DiffRequest{OldInputs: old, OldOutputs: old, Inputs: old})
	if err != nil || resp.HasChanges {
		t.Fatalf("diff of known inputs = %+v, %v; want the author's: no change", resp, err)
	}
}

// A partial failure's state is marked as a whole answer's is, however the
// backend wrapped its PartialError: the adapter finds it through wrapping
// (errors.As), so the marking must too.
func TestWrappedPartialErrorMarked(t *testing.T) {
	t.Parallel()
	p := New("test")
	inputs := property.NewMap(map[string]property.Value{"password": property.New("hunter2xyz").WithSecret(true)})
	outputs := property.NewMap(map[string]property.Value{"url": property.New("https://u:hunter2xyz@example.com")})
	err := p.partial("test:index:Thing", inputs, fmt.Errorf("create: %w", &custom.PartialError{ID: "i-1", Outputs: outputs, Err: errors.New("half made")}))
	var pe *custom.PartialError
	if !errors.As(err, &pe) || !pe.Outputs.Get("url").Secret() {
		t.Fatalf("the wrapped partial state = %v; want its url secret", pe)
	}
}
