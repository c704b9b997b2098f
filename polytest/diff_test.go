package polytest

import (
	"slices"
	"strings"
	"testing"
)

// The CLI's step lines as opsdiff reads them: the op may be followed by a
// summary of the step's diagnostics, and each step counts once.
func TestRealSteps(t *testing.T) {
	t.Parallel()
	out := strings.Join([]string{
		" +  pulumi:pulumi:Stack p-dev create 2 warnings",
		" +  sitekit:index:Site site create ",
		" ++ sitekit:index:Bucket b create replacement [diff: ~provider]",
		" =  sitekit:index:BucketObject ghost importing (0s) error: resource 'x' does not exist",
		" =  sitekit:index:BucketObject ghost **importing failed** error: resource 'x' does not exist",
		" +  sitekit:index:BucketObject page created (0.01s)",
		"    pulumi:pulumi:Stack p-dev running warning: using pulumi-resource-sitekit from $PATH",
	}, "\n")
	want := []string{
		"create pulumi:pulumi:Stack p-dev",
		"create sitekit:index:Site site",
		"create-replacement sitekit:index:Bucket b",
		"import sitekit:index:BucketObject ghost",
	}
	if got := realSteps(out); !slices.Equal(got, want) {
		t.Fatalf("realSteps:\n got  %q\n want %q", got, want)
	}
}

// polyup's step lines: same steps and default providers left out, types
// by their display names.
func TestEmbeddedSteps(t *testing.T) {
	t.Parallel()
	out := strings.Join([]string{
		"Updating (dev):",
		"  create             pulumi:pulumi:Stack          p-dev",
		"  create             pulumi:providers:sitekit     default_0_1_0",
		"  same               sitekit:index:Site           site",
		"  update             portal:index/gate:Gate       g",
		"  error: something",
		"Resources: 2 create, 1 same",
	}, "\n")
	want := []string{"create pulumi:pulumi:Stack p-dev", "update portal:index:Gate g"}
	if got := embeddedSteps(out); !slices.Equal(got, want) {
		t.Fatalf("embeddedSteps:\n got  %q\n want %q", got, want)
	}
}

// stackdiff's facts: IDs become placeholders naming their resource, a
// random property keeps only its secret marker.
func TestFactsNormalize(t *testing.T) {
	t.Parallel()
	s, err := loadStack("testdata/stack.json")
	if err != nil {
		t.Fatal(err)
	}
	f := facts(s.resources, true, []string{"greet:index:Message.note"})
	for k, want := range map[string]string{
		"greet:index:Greeting$greet:index:Message::hi-message id":           "<id>",
		"greet:index:Greeting$greet:index:Message::hi-message provider":     "urn:pulumi:dev::greet-e2e::pulumi:providers:greet::default_0_1_0::<id of pulumi:providers:greet::default_0_1_0>",
		"greet:index:Greeting$greet:index:Message::hi-message outputs.note": `secret("<random>")`,
		"greet:index:Greeting$greet:index:Message::hi-note dependencies":    "[urn:pulumi:dev::greet-e2e::greet:index:Greeting$greet:index:Message::hi-message]",
	} {
		if f[k] != want {
			t.Errorf("%s = %q, want %q", k, f[k], want)
		}
	}
	if diffs := compare(f, facts(s.resources, false, nil), "a", "b"); len(diffs) == 0 {
		t.Errorf("normalised facts equal the raw ones")
	}
}
