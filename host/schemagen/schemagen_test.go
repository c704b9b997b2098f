package schemagen_test

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"gopkg.in/yaml.v3"

	"github.com/polyhost/polyhost/host/schema"
	"github.com/polyhost/polyhost/host/schemagen"
	"github.com/polyhost/polyhost/host/schemagen/internal/fixture"
)

// Descriptions come from the fixture's doc comments, read from its source:
// a leading Go name (and "is") dropped, paragraphs kept, lines joined; the
// overlay adds what Go cannot say and replaces what it names.
func TestGenerate(t *testing.T) {
	t.Parallel()
	src, err := schemagen.Generate("fix", "testdata/overlay.yaml", fixture.Options()...)
	if err != nil {
		t.Fatal(err)
	}
	// The whole of it is kept as a file, which Pulumi's binder judges
	// (tests/tools/langhost/binder).
	if golden, err := os.ReadFile("testdata/schemas/fix.yaml"); err != nil || string(golden) != string(src) {
		t.Errorf("Generate wrote\n%s\nwant testdata/schemas/fix.yaml (%v):\n%s", src, err, golden)
	}
	if !strings.HasPrefix(string(src), "# "+strings.ReplaceAll(schemagen.Header, "\n", "\n# ")+"\n\n# The fix package, for schemagen's tests.\nname: fix\ndescription: Widgets.\nversion: 1.0.0\nlanguage:") {
		t.Errorf("the header, the overlay's comment and the top-level order:\n%s", src)
	}
	p, err := schema.Load(src)
	if err != nil {
		t.Fatal(err)
	}
	var doc struct {
		Types map[string]struct {
			Description string
			Enum        []struct{ Description string }
		}
		Resources map[string]struct{ Description string }
		Functions map[string]struct{ Description string }
	}
	if err := yaml.Unmarshal(src, &doc); err != nil {
		t.Fatal(err)
	}
	w := p.Resources["fix:index:Widget"]
	for got, want := range map[string]string{
		doc.Types["fix:index:Colour"].Description:      "The colour of a widget.",
		w.InputProperties["colour"].Description:        "The widget's colour.",
		w.InputProperties["size"].Description:          "Size in centimetres.", // the overlay's
		w.Properties["id"].Description:                 "The widget's serial number.",
		doc.Resources["fix:index:Widget"].Description:  "Builds a widget.\n\nIt has two paragraphs, the second on two lines.",
		doc.Functions["fix:index:measure"].Description: "Measures a widget.",
		// A closure, which has no doc comment, described by WithDescription.
		doc.Functions["fix:index:weigh"].Description: "Weighs a widget.",
		// An embedded struct's field, described by its own comment.
		w.InputProperties["label"].Description: "Label printed on the widget.",
	} {
		if got != want {
			t.Errorf("description %q, want %q", got, want)
		}
	}
	// Enum values are described by their constants' comments (a literal,
	// iota, a line comment); EnumValue.Description wins.
	var enumDocs []string
	for _, tok := range []string{"fix:index:Colour", "fix:index:Grade"} {
		for _, e := range doc.Types[tok].Enum {
			enumDocs = append(enumDocs, e.Description)
		}
	}
	if want := []string{"Red as a fire engine.", "Blue as the sea.", "The best.", "Good enough.", "Sent back."}; !slices.Equal(enumDocs, want) {
		t.Errorf("enum value descriptions %q, want %q", enumDocs, want)
	}
	if m := w.InputProperties["size"].Minimum; m == nil || *m != 1 {
		t.Errorf("size minimum = %v, want the overlay's 1", m)
	}
	if p.Version != "1.0.0" || string(p.Language["nodejs"]) != `{"packageName":"@acme/fix"}` {
		t.Errorf("version %q, language %s: want the overlay's", p.Version, p.Language)
	}
}

// The overlay adds to what the Go types declare; a property, resource or
// function of its own, a misspelt name, is refused with its path.
func TestOverlayDeclaresNothing(t *testing.T) {
	t.Parallel()
	overlay := filepath.Join(t.TempDir(), "overlay.yaml")
	err := os.WriteFile(overlay, []byte(`
resources:
  fix:index:Widget:
    inputProperties:
      sise: {minimum: 1}
  fix:index:Gadget: {}
functions:
  fix:index:measure:
    outputs:
      properties:
        length: {description: In cm.}
        width: {type: number}
`), 0o644)
	if err != nil {
		t.Fatal(err)
	}
	_, err = schemagen.Generate("fix", overlay, fixture.Options()...)
	for _, want := range []string{
		"resources.fix:index:Widget.inputProperties.sise: the Go types declare no such input property",
		"resources.fix:index:Gadget: the Go types declare no such resource",
		"functions.fix:index:measure.outputs.properties.width: the Go types declare no such property",
	} {
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("error = %v\nwant %q", err, want)
		}
	}
}

// An overlay that contradicts the Go types is refused as the host refuses
// such a schema: the merged schema is checked against the types.
func TestOverlayCannotContradictTheTypes(t *testing.T) {
	t.Parallel()
	overlay := filepath.Join(t.TempDir(), "overlay.yaml")
	if err := os.WriteFile(overlay, []byte("resources: {fix:index:Widget: {inputProperties: {size: {type: string}}}}\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	_, err := schemagen.Generate("fix", overlay, fixture.Options()...)
	want := `field fixture.WidgetArgs.Size is int, but input "size" is a string in the schema`
	if err == nil || !strings.Contains(err.Error(), want) {
		t.Errorf("error = %v\nwant %q", err, want)
	}
}
