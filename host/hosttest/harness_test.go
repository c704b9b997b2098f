package hosttest_test

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/pulumi/pulumi/sdk/v3/go/common/providers"
	"github.com/pulumi/pulumi/sdk/v3/go/common/resource"
	"github.com/pulumi/pulumi/sdk/v3/go/property"

	"github.com/polyhost/polyhost/host"
	"github.com/polyhost/polyhost/host/custom"
	"github.com/polyhost/polyhost/host/diag"
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

type notesConfig struct {
	Prefix *string `pulumi:"prefix,optional"`
}

// note is a custom resource whose Create counts words and refuses "bad";
// the text gets its provider's configured prefix.
type note struct{}

func (note) state(req custom.ResourceInfo, inputs property.Map) property.Map {
	text := inputs.Get("text")
	if !text.IsString() {
		return inputs.Set("words", property.New(property.Computed))
	}
	if p := req.Config.Get("prefix"); p.IsString() {
		text = property.New(p.AsString() + text.AsString())
	}
	return inputs.Set("text", text).Set("words", property.New(float64(len(strings.Fields(text.AsString())))))
}

func (note) Check(ctx context.Context, req custom.CheckRequest) (custom.CheckResponse, error) {
	if req.Inputs.Get("text").AsString() == "bad" {
		return custom.CheckResponse{Failures: []diag.CheckFailure{{Property: "text", Reason: "is bad"}}}, nil
	}
	return custom.CheckResponse{Inputs: req.Inputs}, nil
}

func (n note) Create(ctx context.Context, req custom.CreateRequest) (custom.CreateResponse, error) {
	return custom.CreateResponse{ID: resource.ID("note-" + req.URN.Name()), Outputs: n.state(req.ResourceInfo, req.Inputs)}, nil
}

func (note) Read(ctx context.Context, req custom.ReadRequest) (custom.ReadResponse, error) {
	return custom.ReadResponse{ID: req.ID, Inputs: req.Inputs, Outputs: req.Outputs}, nil
}

func (n note) Update(ctx context.Context, req custom.UpdateRequest) (custom.UpdateResponse, error) {
	return custom.UpdateResponse{Outputs: n.state(req.ResourceInfo, req.Inputs)}, nil
}

// Delete refuses a note whose text says "keep".
func (note) Delete(ctx context.Context, req custom.DeleteRequest) (custom.DeleteResponse, error) {
	if strings.Contains(req.Outputs.Get("text").AsString(), "keep") {
		return custom.DeleteResponse{}, fmt.Errorf("note %s says keep", req.ID)
	}
	return custom.DeleteResponse{}, nil
}

type boardArgs struct {
	Text string `pulumi:"text"`
}

type boardOutputs struct {
	Words property.Value `pulumi:"words,type=integer"`
	Text  property.Value `pulumi:"text,type=string"`
	Other property.Value `pulumi:"other,type=string"`
	// The prefix of the provider instance that built the board.
	Prefix string `pulumi:"prefix"`
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
	var prefix string
	if p := c.ProviderConfig().Get("prefix"); p.IsString() {
		prefix = p.AsString()
	}
	return boardOutputs{Words: n.Output("words"), Text: n.Output("text"), Other: o.Output("v"), Prefix: prefix}, nil
}

func notesHarness(t *testing.T, opts ...hosttest.Option) *hosttest.Harness {
	p, err := host.New("notes",
		host.WithConfig(func(context.Context, notesConfig) error { return nil }),
		host.WithComponent("notes:index:Board", board),
		host.WithRawResource[noteArgs, noteState]("notes:index:Note", note{}))
	if err != nil {
		t.Fatal(err)
	}
	return hosttest.New(t, p, append(opts, hosttest.WithOwnResources())...)
}

func construct(h *hosttest.Harness, text string) (hosttest.ConstructResponse, error) {
	return constructWith(h, "b", text, nil)
}

func constructWith(h *hosttest.Harness, name, text string, provs map[string]providers.Reference) (hosttest.ConstructResponse, error) {
	return h.Construct(context.Background(), hosttest.ConstructRequest{
		Type: "notes:index:Board", Name: name, Providers: provs,
		Inputs: property.NewMap(map[string]property.Value{"text": property.New(text)}),
	})
}

func prefix(p string) property.Map {
	return property.NewMap(map[string]property.Value{"prefix": property.New(p)})
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
	notes := registered(h, func(r hosttest.Registration) bool { return r.Type == "notes:index:Note" })
	if len(notes) != 1 || notes[0].ID != "note-b-note" {
		t.Errorf("notes %+v, want one, with the backend's ID note-b-note", notes)
	}
}

// registered are the registrations h's engine got that match.
func registered(h *hosttest.Harness, match func(hosttest.Registration) bool) []hosttest.Registration {
	var out []hosttest.Registration
	for _, r := range h.Monitor.Registrations() {
		if match(r) {
			out = append(out, r)
		}
	}
	return out
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
	custom := registered(h, func(r hosttest.Registration) bool { return r.Custom })
	if len(custom) == 0 {
		t.Fatal("no custom resource registered")
	}
	for _, r := range custom {
		if r.ID != "" {
			t.Errorf("%s has ID %q in a preview", r.URN, r.ID)
		}
	}
}

// Explicit providers side by side: a program registers two differently
// configured providers of the package and passes one to each Board. Each
// Board is built by its provider's instance, its Note is registered with
// that provider, and the Note's backend (WithOwnResources) sees that
// provider's configuration. A Board given none gets the default provider.
func TestExplicitProviders(t *testing.T) {
	t.Parallel()
	h := notesHarness(t)
	ctx := context.Background()
	if err := h.Configure(ctx, prefix("default ")); err != nil {
		t.Fatal(err)
	}
	eu, err := h.RegisterProvider(ctx, hosttest.ProviderRequest{Name: "eu", Config: prefix("eu ")})
	if err != nil {
		t.Fatal(err)
	}
	us, err := h.RegisterProvider(ctx, hosttest.ProviderRequest{Name: "us", Config: prefix("us ")})
	if err != nil {
		t.Fatal(err)
	}
	if eu.URN().Type() != "pulumi:providers:notes" || eu.ID() != "id-eu" {
		t.Errorf("eu = %v, want a pulumi:providers:notes with the engine's ID", eu)
	}
	for _, tc := range []struct {
		board string
		prov  providers.Reference
		want  string
	}{{"a", eu, "eu "}, {"b", us, "us "}, {"c", providers.Reference{}, "default "}} {
		provs := map[string]providers.Reference{"notes": tc.prov}
		if tc.prov == (providers.Reference{}) {
			provs = nil
		}
		b, err := constructWith(h, tc.board, "hello world", provs)
		if err != nil {
			t.Fatal(err)
		}
		if got := b.Outputs.Get("prefix").AsString(); got != tc.want {
			t.Errorf("board %s built by the provider with prefix %q, want %q", tc.board, got, tc.want)
		}
		if got := b.Outputs.Get("text").AsString(); got != tc.want+"hello world" {
			t.Errorf("board %s: the note's text is %q, want its backend to see prefix %q", tc.board, got, tc.want)
		}
		notes := registered(h, func(r hosttest.Registration) bool { return r.Parent == b.URN && r.Type == "notes:index:Note" })
		if len(notes) != 1 || notes[0].Provider != tc.prov {
			t.Errorf("board %s: notes %+v, want one, with provider %v", tc.board, notes, tc.prov)
		}
	}
	// The provider's state is its checked configuration.
	if r, ok := h.Monitor.Registration(eu.URN()); !ok || r.Inputs.Get("prefix").AsString() != "eu " {
		t.Errorf("eu provider registered as %+v, want its config as inputs", r)
	}

	// A configuration that fails the check names the value.
	_, err = h.RegisterProvider(ctx, hosttest.ProviderRequest{Name: "bad",
		Config: property.NewMap(map[string]property.Value{"prefix": property.New(3.0)})})
	var inputErr *diag.InputError
	if !errors.As(err, &inputErr) || len(inputErr.Failures) != 1 || inputErr.Failures[0].Property != "prefix" {
		t.Errorf("bad config: %v, want an InputError on prefix", err)
	}
	// A reference the harness never registered is refused, naming it.
	stray, err := providers.NewReference("urn:pulumi:dev::proj::pulumi:providers:notes::stray", "x")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := constructWith(h, "d", "x", map[string]providers.Reference{"notes": stray}); err == nil || !strings.Contains(err.Error(), "stray was not registered") {
		t.Errorf("unregistered provider: %v", err)
	}
}

// A custom resource's lifecycle, backend called directly: create, diff,
// update, read, delete, on an explicit provider.
func TestResourceLifecycle(t *testing.T) {
	t.Parallel()
	h := notesHarness(t)
	ctx := context.Background()
	eu, err := h.RegisterProvider(ctx, hosttest.ProviderRequest{Name: "eu", Config: prefix("eu ")})
	if err != nil {
		t.Fatal(err)
	}
	text := func(s string) property.Map {
		return property.NewMap(map[string]property.Value{"text": property.New(s)})
	}
	n, err := h.Create(ctx, hosttest.CreateRequest{Type: "notes:index:Note", Name: "n", Inputs: text("one two"), Provider: eu})
	if err != nil {
		t.Fatal(err)
	}
	if n.ID != "note-n" || n.Outputs.Get("text").AsString() != "eu one two" || n.Outputs.Get("words").AsNumber() != 3 {
		t.Fatalf("created %+v", n)
	}
	d, err := h.Diff(ctx, hosttest.UpdateRequest{Resource: n, Inputs: text("one two three")})
	if err != nil || !d.HasChanges || d.Changes["text"] != custom.DiffUpdate || len(d.Replaces) > 0 {
		t.Fatalf("diff = %+v, %v; want an update of text", d, err)
	}
	n, err = h.Update(ctx, hosttest.UpdateRequest{Resource: n, Inputs: text("please keep")})
	if err != nil || n.Outputs.Get("text").AsString() != "eu please keep" || n.Inputs.Get("text").AsString() != "please keep" {
		t.Fatalf("updated %+v, %v", n, err)
	}
	read, err := h.Read(ctx, n)
	if err != nil || read.ID != n.ID || !read.Outputs.Equals(n.Outputs) {
		t.Fatalf("read %+v, %v; want %+v", read, err, n)
	}
	if err := h.Delete(ctx, n); err == nil || !strings.Contains(err.Error(), "note note-n says keep") {
		t.Errorf("delete = %v, want the backend's refusal", err)
	}
	n, err = h.Update(ctx, hosttest.UpdateRequest{Resource: n, Inputs: text("done")})
	if err != nil {
		t.Fatal(err)
	}
	if err := h.Delete(ctx, n); err != nil {
		t.Errorf("delete: %v", err)
	}
	_, err = h.Create(ctx, hosttest.CreateRequest{Type: "notes:index:Note", Name: "bad", Inputs: text("bad")})
	var inputErr *diag.InputError
	if !errors.As(err, &inputErr) || inputErr.Failures[0].Property != "text" {
		t.Errorf("create bad: %v, want an InputError on text", err)
	}
}

// WithParallel is the engine's parallel a component sees.
func TestWithParallel(t *testing.T) {
	t.Parallel()
	type none struct{}
	type out struct {
		Parallel int `pulumi:"parallel"`
	}
	p, err := host.New("par", host.WithComponent("par:index:C", func(ctx context.Context, c *host.Component, _ none) (out, error) {
		return out{Parallel: c.Stack().Parallel}, nil
	}))
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		opts []hosttest.Option
		want float64
	}{{nil, 8}, {[]hosttest.Option{hosttest.WithParallel(3)}, 3}} {
		c, err := hosttest.New(t, p, tc.opts...).Construct(context.Background(), hosttest.ConstructRequest{Type: "par:index:C", Name: "c"})
		if err != nil {
			t.Fatal(err)
		}
		if got := c.Outputs.Get("parallel").AsNumber(); got != tc.want {
			t.Errorf("parallel = %v, want %v", got, tc.want)
		}
	}
}
