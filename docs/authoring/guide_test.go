package guide_test

import (
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/pulumi/pulumi/sdk/v3/go/common/providers"
	"github.com/pulumi/pulumi/sdk/v3/go/property"

	guide "github.com/polyhost/polyhost/docs/authoring"
	"github.com/polyhost/polyhost/host"
	"github.com/polyhost/polyhost/host/custom"
	"github.com/polyhost/polyhost/host/diag"
	"github.com/polyhost/polyhost/host/hosttest"
)

// newHarness serves the guide package against a fake engine; its Notes
// are created by its own backend.
func newHarness(t *testing.T, opts ...hosttest.Option) *hosttest.Harness {
	t.Helper()
	p, err := host.New("guide", guide.Registrations()...)
	if err != nil {
		t.Fatal(err)
	}
	return hosttest.New(t, p, append(opts, hosttest.WithOwnResources())...)
}

func boardInputs(title property.Value, notes map[string]property.Value) property.Map {
	return property.NewMap(map[string]property.Value{"title": title, "notes": property.New(notes)})
}

func TestBoard(t *testing.T) {
	h := newHarness(t)
	ctx := context.Background()
	if err := h.Configure(ctx, property.NewMap(map[string]property.Value{"prefix": property.New("> ")})); err != nil {
		t.Fatal(err)
	}
	b, err := h.Construct(ctx, hosttest.ConstructRequest{Type: guide.BoardType, Name: "b", Inputs: boardInputs(
		property.New("Todo"), map[string]property.Value{
			"milk": property.New("buy milk"),
			"pin":  property.New("1234").WithSecret(true),
		})})
	if err != nil {
		t.Fatal(err)
	}
	if got := b.Outputs.Get("summary").AsString(); got != "Todo: milk, pin" {
		t.Errorf("summary = %q", got)
	}
	texts := b.Outputs.Get("texts").AsMap()
	if got := texts.Get("milk"); got.Secret() || got.AsString() != "> buy milk" {
		t.Errorf("texts.milk = %v, want the configured prefix and no secret", got)
	}
	if got := texts.Get("pin"); !got.Secret() {
		t.Errorf("texts.pin = %v, want secret", got)
	}
	for _, r := range h.Monitor.Registrations() {
		if r.Type == guide.NoteType && r.Parent != b.URN {
			t.Errorf("%s is not a child of the board", r.URN)
		}
	}
}

// A secret in a plain field cannot be followed: everything the board
// registers and returns is secret, and a warning names the field.
func TestBoardSecretTitle(t *testing.T) {
	h := newHarness(t)
	b, err := h.Construct(context.Background(), hosttest.ConstructRequest{Type: guide.BoardType, Name: "b", Inputs: boardInputs(
		property.New("Todo").WithSecret(true), map[string]property.Value{"milk": property.New("buy milk")})})
	if err != nil {
		t.Fatal(err)
	}
	if s := b.Outputs.Get("summary"); !s.Secret() {
		t.Errorf("summary = %v, want secret", s)
	}
	if m := b.Outputs.Get("texts"); !m.Secret() && !m.AsMap().Get("milk").Secret() {
		t.Errorf("texts = %v, want secret", m)
	}
	warned := false
	for _, l := range h.Monitor.Logs() {
		warned = warned || strings.Contains(l.Message, "title")
	}
	if !warned {
		t.Errorf("no log names the title field: %+v", h.Monitor.Logs())
	}
}

// Errors name the property: in the inputs, and in the configuration.
func TestErrorsNameTheProperty(t *testing.T) {
	h := newHarness(t)
	ctx := context.Background()
	_, err := h.Construct(ctx, hosttest.ConstructRequest{Type: guide.BoardType, Name: "b",
		Inputs: boardInputs(property.New("Todo"), map[string]property.Value{})})
	var inputErr *diag.InputError
	if !errors.As(err, &inputErr) || inputErr.Failures[0].Property != "notes" {
		t.Errorf("error %v, want an InputError on notes", err)
	}
	if want := "a board needs at least one note"; inputErr == nil || inputErr.Failures[0].Reason != want {
		t.Errorf("error %v, want the reason %q", err, want)
	}
	// Configure has no failure list: the error's text names the property.
	err = h.Configure(ctx, property.NewMap(map[string]property.Value{"prefix": property.New("a\nb")}))
	if err == nil || !strings.Contains(err.Error(), "prefix: must be a single line") {
		t.Errorf("error %v, want one naming prefix", err)
	}
}

func TestWordCount(t *testing.T) {
	h := newHarness(t)
	res, err := h.Invoke(context.Background(), guide.GetWordCount,
		property.NewMap(map[string]property.Value{"text": property.New("one two three")}))
	if err != nil {
		t.Fatal(err)
	}
	if got := res.Return.Get("words"); got.AsNumber() != 3 {
		t.Errorf("words = %v, want 3", got)
	}
}

// The schema the plugin builds from the Go types has the descriptions
// WithDescription gives.
func TestDescriptions(t *testing.T) {
	p, err := host.New("guide", guide.Registrations()...)
	if err != nil {
		t.Fatal(err)
	}
	s := p.Schema()
	if got := s.Functions[guide.GetWordCount].Description; got != "Counts the words of a text." {
		t.Errorf("getWordCount's description %q", got)
	}
	if got := s.Resources[guide.BoardType].Description; got != "A board of notes, one Note resource each." {
		t.Errorf("Board's description %q", got)
	}
}

// A Card reads the Board it is given through the engine.
func TestCard(t *testing.T) {
	h := newHarness(t)
	ctx := context.Background()
	b, err := h.Construct(ctx, hosttest.ConstructRequest{Type: guide.BoardType, Name: "b", Inputs: boardInputs(
		property.New("Todo"), map[string]property.Value{"milk": property.New("buy milk")})})
	if err != nil {
		t.Fatal(err)
	}
	cardInputs := func(note string) property.Map {
		return property.NewMap(map[string]property.Value{
			"board": property.New(property.ResourceReference{URN: b.URN}), "note": property.New(note),
		})
	}
	c, err := h.Construct(ctx, hosttest.ConstructRequest{Type: guide.CardType, Name: "c", Inputs: cardInputs("milk")})
	if err != nil {
		t.Fatal(err)
	}
	if got := c.Outputs.Get("shown").AsString(); got != "BUY MILK" {
		t.Errorf("shown = %q, want BUY MILK", got)
	}
	_, err = h.Construct(ctx, hosttest.ConstructRequest{Type: guide.CardType, Name: "c2", Inputs: cardInputs("eggs")})
	var inputErr *diag.InputError
	if !errors.As(err, &inputErr) || inputErr.Failures[0].Property != "note" {
		t.Errorf("error %v, want an InputError on note", err)
	}
}

// Two differently configured providers side by side: each Board's Notes
// are registered with the provider the program passed, and created by a
// backend that sees that provider's prefix.
func TestProvidersSideBySide(t *testing.T) {
	h := newHarness(t)
	ctx := context.Background()
	work, err := h.RegisterProvider(ctx, hosttest.ProviderRequest{Name: "work",
		Config: property.NewMap(map[string]property.Value{"prefix": property.New("work: ")})})
	if err != nil {
		t.Fatal(err)
	}
	b, err := h.Construct(ctx, hosttest.ConstructRequest{Type: guide.BoardType, Name: "b",
		Inputs:    boardInputs(property.New("Todo"), map[string]property.Value{"milk": property.New("buy milk")}),
		Providers: map[string]providers.Reference{"guide": work}})
	if err != nil {
		t.Fatal(err)
	}
	if got := b.Outputs.Get("texts").AsMap().Get("milk").AsString(); got != "work: buy milk" {
		t.Errorf("texts.milk = %q, want the work provider's prefix", got)
	}
	for _, r := range h.Monitor.Registrations() {
		if r.Type == guide.NoteType && r.Provider != work {
			t.Errorf("%s has provider %v, want %v", r.URN, r.Provider, work)
		}
	}
	home, err := h.Construct(ctx, hosttest.ConstructRequest{Type: guide.BoardType, Name: "home",
		Inputs: boardInputs(property.New("Home"), map[string]property.Value{"milk": property.New("buy milk")})})
	if err != nil {
		t.Fatal(err)
	}
	if got := home.Outputs.Get("texts").AsMap().Get("milk").AsString(); got != "buy milk" {
		t.Errorf("texts.milk = %q on the default provider, want no prefix", got)
	}
}

// A Note's lifecycle, as the engine drives its backend: create, an update
// of its text, a refresh, and a delete, which a pinned note refuses.
func TestNoteLifecycle(t *testing.T) {
	h := newHarness(t)
	ctx := context.Background()
	text := func(s string) property.Map {
		return property.NewMap(map[string]property.Value{"text": property.New(s)})
	}
	note, err := h.Create(ctx, hosttest.CreateRequest{Type: guide.NoteType, Name: "n", Inputs: text("!call mum")})
	if err != nil {
		t.Fatal(err)
	}
	diff, err := h.Diff(ctx, hosttest.UpdateRequest{Resource: note, Inputs: text("call dad")})
	if err != nil || diff.Changes["text"] != custom.DiffUpdate || len(diff.Replaces) > 0 {
		t.Fatalf("diff = %+v, %v; want an update of text", diff, err)
	}
	if err := h.Delete(ctx, note); err == nil || !strings.Contains(err.Error(), "note n is pinned") {
		t.Errorf("delete of a pinned note: %v, want it refused", err)
	}
	note, err = h.Update(ctx, hosttest.UpdateRequest{Resource: note, Inputs: text("call dad")})
	if err != nil || note.Outputs.Get("text").AsString() != "call dad" {
		t.Fatalf("update: %+v, %v", note, err)
	}
	read, err := h.Read(ctx, note)
	if err != nil || read.ID != "n" || !read.Outputs.Equals(note.Outputs) {
		t.Fatalf("read: %+v, %v; want %+v", read, err, note)
	}
	if err := h.Delete(ctx, note); err != nil {
		t.Fatal(err)
	}
}
