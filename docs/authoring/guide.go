// Package guide holds the Go examples of docs/authoring.md, a package
// named guide: a Board component of Notes with a provider configuration,
// a function, and a Card component that takes a reference to a Board.
// guide_test.go runs each of them; the guide quotes them.
package guide

import (
	"context"
	"fmt"
	"maps"
	"slices"
	"strings"

	"github.com/pulumi/pulumi/sdk/v3/go/common/resource"
	"github.com/pulumi/pulumi/sdk/v3/go/property"

	"github.com/polyhost/polyhost/host"
	"github.com/polyhost/polyhost/host/custom"
	"github.com/polyhost/polyhost/host/diag"
	"github.com/polyhost/polyhost/monitorclient"
)

// The package's tokens.
const (
	BoardType    = "guide:index:Board"
	CardType     = "guide:index:Card"
	NoteType     = "guide:index:Note"
	GetWordCount = "guide:index:getWordCount"
)

// Registrations are the guide package's components, resource, function
// and configuration.
func Registrations() []host.Option {
	return []host.Option{
		host.WithConfig(configure),
		host.WithFunction(GetWordCount, WordCount),
		host.WithTypedResource(NoteType, Note{}),
		host.WithComponent(BoardType, NewBoard),
		host.WithComponent(CardType, NewCard),
		// Descriptions the running plugin's schema has, as doc comments
		// reach it only through go generate.
		host.WithDescription(GetWordCount, "Counts the words of a text."),
		host.WithDescription(BoardType, "A board of notes, one Note resource each."),
	}
}

// Config is the provider's configuration.
type Config struct {
	// Put before every note's text.
	Prefix *string `pulumi:"prefix,optional"`
}

func configure(ctx context.Context, cfg Config) error {
	if cfg.Prefix != nil && strings.Contains(*cfg.Prefix, "\n") {
		return diag.Errorf("prefix", "must be a single line")
	}
	return nil
}

// NoteArgs are the inputs of a Note.
type NoteArgs struct {
	// The note.
	Text string `pulumi:"text"`
}

// NoteState is the state of a Note.
type NoteState struct {
	// The note, after the provider's prefix.
	Text string `pulumi:"text"`
}

// Note is a note kept by the provider: a custom resource written with Go
// types. It has Create, Update and Delete; without Read a refresh keeps
// what is recorded.
type Note struct{}

// Create writes the note with the configured prefix: host.Config is the
// configuration of the provider serving this resource.
func (Note) Create(ctx context.Context, req custom.TypedCreateRequest[NoteArgs]) (custom.TypedCreateResponse[NoteState], error) {
	host.Logger(ctx).Info("writing the note", "words", len(strings.Fields(req.Inputs.Text)))
	return custom.TypedCreateResponse[NoteState]{ID: resource.ID(req.URN.Name()), Outputs: noteState(ctx, req.Inputs)}, nil
}

// Update rewrites the note's text in place, with the prefix configured now.
func (Note) Update(ctx context.Context, req custom.TypedUpdateRequest[NoteArgs, NoteState]) (custom.TypedUpdateResponse[NoteState], error) {
	return custom.TypedUpdateResponse[NoteState]{Outputs: noteState(ctx, req.Inputs)}, nil
}

// Delete removes the note. A pinned one stays: the error fails the delete.
func (Note) Delete(ctx context.Context, req custom.TypedDeleteRequest[NoteArgs, NoteState]) (custom.DeleteResponse, error) {
	if strings.HasPrefix(req.Inputs.Text, "!") {
		return custom.DeleteResponse{}, fmt.Errorf("note %s is pinned", req.ID)
	}
	return custom.DeleteResponse{}, nil
}

// noteState is a note's state: its text after the prefix of the provider
// serving ctx's request.
func noteState(ctx context.Context, in NoteArgs) NoteState {
	text := in.Text
	if prefix := host.Config[Config](ctx).Prefix; prefix != nil {
		text = *prefix + text
	}
	return NoteState{Text: text}
}

// WordCountArgs are the arguments of getWordCount.
type WordCountArgs struct {
	// The text to count.
	Text string `pulumi:"text"`
}

// WordCountResult is the result of getWordCount.
type WordCountResult struct {
	// How many words the text has.
	Words int `pulumi:"words"`
}

// WordCount counts the words of a text. It reads the provider's
// configuration: when the text starts with the configured prefix, it logs
// so at debug level.
func WordCount(ctx context.Context, args WordCountArgs) (WordCountResult, error) {
	text := args.Text
	if prefix := host.Config[Config](ctx).Prefix; prefix != nil && strings.HasPrefix(text, *prefix) {
		host.Logger(ctx).Debug("the text starts with the prefix", "prefix", *prefix)
	}
	return WordCountResult{Words: len(strings.Fields(text))}, nil
}

// BoardArgs are the inputs of a Board.
type BoardArgs struct {
	// The board's title. A plain string: if a program passes a secret,
	// everything the Board registers and returns becomes secret.
	Title string `pulumi:"title"`
	// Notes by name. property.Value keeps each note's own markers: a secret
	// note stays secret in its Note and nowhere else.
	Notes map[string]property.Value `pulumi:"notes,type=map[string]string"`
}

// BoardOutputs are the outputs of a Board.
type BoardOutputs struct {
	// The title and the notes' names.
	Summary property.Value `pulumi:"summary,type=string"`
	// The notes' texts, by name.
	Texts property.Value `pulumi:"texts,type=map[string]string"`
}

// NewBoard registers a Note per note, concurrently.
func NewBoard(ctx context.Context, c *host.Component, args BoardArgs) (BoardOutputs, error) {
	if len(args.Notes) == 0 {
		return BoardOutputs{}, diag.Errorf("notes", "a board needs at least one note")
	}
	names := slices.Sorted(maps.Keys(args.Notes))
	texts := make([]property.Value, len(names))
	g, gctx := c.Group(ctx)
	for i, name := range names {
		g.Go(func() error {
			note, err := c.Register(gctx, monitorclient.RegisterResourceRequest{
				Type: NoteType, Name: c.Name() + "-" + name, Custom: true,
				Inputs: property.NewMap(map[string]property.Value{"text": args.Notes[name]}),
			})
			texts[i] = note.Output("text")
			return err
		})
	}
	if err := g.Wait(); err != nil {
		return BoardOutputs{}, err
	}
	byName := map[string]property.Value{}
	for i, name := range names {
		byName[name] = texts[i]
	}
	summary := property.New(args.Title + ": " + strings.Join(names, ", "))
	return BoardOutputs{Summary: summary, Texts: property.New(byName)}, nil
}

// CardArgs are the inputs of a Card.
type CardArgs struct {
	// The board to show.
	Board property.Value `pulumi:"board,type=guide:index:Board"`
	// Which of its notes.
	Note string `pulumi:"note"`
}

// CardOutputs are the outputs of a Card.
type CardOutputs struct {
	// The note's text, in capitals.
	Shown property.Value `pulumi:"shown,type=string"`
}

// NewCard shows one note of a Board, read through the engine.
func NewCard(ctx context.Context, c *host.Component, args CardArgs) (CardOutputs, error) {
	board, err := c.Resolve(ctx, args.Board)
	if err != nil {
		return CardOutputs{}, diag.Errorf("board", "%v", err)
	}
	if !board.Known {
		return CardOutputs{Shown: property.New(property.Computed)}, nil
	}
	shown, err := host.ApplyErr(func(v ...property.Value) (property.Value, error) {
		text, ok := v[0].AsMap().GetOk(args.Note)
		if !ok {
			return property.Value{}, diag.Errorf("note", "the board has no note %q", args.Note)
		}
		return property.New(strings.ToUpper(text.AsString())), nil
	}, board.State.Get("texts"))
	return CardOutputs{Shown: shown}, err
}
