package hosttest_test

import (
	"context"
	"strings"
	"testing"

	"github.com/pulumi/pulumi/sdk/v3/go/common/resource"
	"github.com/pulumi/pulumi/sdk/v3/go/property"

	"github.com/polyhost/polyhost/host"
	"github.com/polyhost/polyhost/host/hosttest"
	"github.com/polyhost/polyhost/monitorclient"
)

type noteArgs struct {
	Text string `pulumi:"text"`
}

type noteState struct {
	Text  string `pulumi:"text"`
	Words int    `pulumi:"words"`
}

// note is a custom resource whose Create counts words and refuses "bad".
type note struct{}

func (note) Check(ctx context.Context, req host.CheckRequest) (host.CheckResponse, error) {
	if req.Inputs.Get("text").AsString() == "bad" {
		return host.CheckResponse{Failures: []host.PropertyError{{Path: "text", Reason: "is bad"}}}, nil
	}
	return host.CheckResponse{Inputs: req.Inputs}, nil
}

func (note) Create(ctx context.Context, req host.CreateRequest) (host.CreateResponse, error) {
	out := req.Inputs
	if text := req.Inputs.Get("text"); text.IsString() {
		out = out.Set("words", property.New(float64(len(strings.Fields(text.AsString())))))
	} else {
		out = out.Set("words", property.New(property.Computed))
	}
	return host.CreateResponse{ID: resource.ID("note-" + req.URN.Name()), Outputs: out}, nil
}

func (note) Read(ctx context.Context, req host.ReadRequest) (host.ReadResponse, error) {
	return host.ReadResponse{ID: req.ID, Inputs: req.Inputs, Outputs: req.Outputs}, nil
}

func (note) Update(ctx context.Context, req host.UpdateRequest) (host.UpdateResponse, error) {
	return host.UpdateResponse{Outputs: req.Inputs}, nil
}

func (note) Delete(ctx context.Context, req host.DeleteRequest) (host.DeleteResponse, error) {
	return host.DeleteResponse{}, nil
}

type boardArgs struct {
	Text string `pulumi:"text"`
}

type boardOutputs struct {
	Words property.Value `pulumi:"words,type=integer"`
	Other property.Value `pulumi:"other,type=string"`
}

// board registers a note of its own package and a thing of another's.
func board(ctx context.Context, c *host.Component, args boardArgs) (boardOutputs, error) {
	n, err := c.Register(ctx, monitorclient.RegisterResourceRequest{
		Type: "notes:index:Note", Name: c.Name() + "-note", Custom: true,
		Inputs: property.NewMap(map[string]property.Value{"text": property.New(args.Text)}),
	})
	if err != nil {
		return boardOutputs{}, err
	}
	o, err := c.Register(ctx, monitorclient.RegisterResourceRequest{
		Type: "other:index:Thing", Name: c.Name() + "-thing", Custom: true,
		Inputs: property.NewMap(map[string]property.Value{"v": property.New("x")}),
	})
	if err != nil {
		return boardOutputs{}, err
	}
	return boardOutputs{Words: n.Output("words"), Other: o.Output("v")}, nil
}

func notesHarness(t *testing.T, opts ...hosttest.Option) *hosttest.Harness {
	p, err := host.New("notes",
		host.WithComponent("notes:index:Board", board),
		host.WithTypedResource[noteArgs, noteState]("notes:index:Note", note{}))
	if err != nil {
		t.Fatal(err)
	}
	return hosttest.New(t, p, append(opts, hosttest.WithOwnResources())...)
}

func construct(h *hosttest.Harness, text string) (hosttest.ConstructResponse, error) {
	return h.Construct(context.Background(), hosttest.ConstructRequest{
		Type: "notes:index:Board", Name: "b",
		Inputs: property.NewMap(map[string]property.Value{"text": property.New(text)}),
	})
}

// The provider's own Note is created by its backend; another package's
// child gets the register hook's answer.
func TestWithOwnResources(t *testing.T) {
	t.Parallel()
	h := notesHarness(t, hosttest.WithRegisterHook(func(r hosttest.Registration) (resource.ID, property.Map, error) {
		return "other-id", property.NewMap(map[string]property.Value{"v": property.New("from hook")}), nil
	}))
	b, err := construct(h, "one two three")
	if err != nil {
		t.Fatal(err)
	}
	if w := b.Outputs.Get("words"); !w.IsNumber() || w.AsNumber() != 3 {
		t.Errorf("words = %v, want 3 from the Note's Create", w)
	}
	if o := b.Outputs.Get("other"); o.AsString() != "from hook" {
		t.Errorf("other = %v, want the hook's answer", o)
	}
	for _, r := range h.Monitor.Registrations() {
		if r.Type == "notes:index:Note" && r.ID != "note-b-note" {
			t.Errorf("note ID = %q, want the backend's note-b-note", r.ID)
		}
	}
}

// A check failure of the own resource fails the registration, naming the
// property.
func TestWithOwnResourcesCheckFailure(t *testing.T) {
	t.Parallel()
	_, err := construct(notesHarness(t), "bad")
	if err == nil || !strings.Contains(err.Error(), "text: is bad") {
		t.Fatalf("error %v, want the check failure on text", err)
	}
}

// In a preview, Create runs with preview set: the host answers without
// the backend, so the ID is empty and the outputs that are not inputs are
// unknown, as the engine would show them.
func TestWithOwnResourcesPreview(t *testing.T) {
	t.Parallel()
	h := notesHarness(t, hosttest.WithDryRun(true))
	b, err := construct(h, "one two")
	if err != nil {
		t.Fatal(err)
	}
	if w := b.Outputs.Get("words"); !w.IsComputed() {
		t.Errorf("words = %v in a preview, want unknown", w)
	}
	for _, r := range h.Monitor.Registrations() {
		if r.Custom && r.ID != "" {
			t.Errorf("%s has ID %q in a preview", r.URN, r.ID)
		}
	}
}
