package polytest

import (
	"fmt"
	"slices"
	"strings"
	"testing"
)

// The CLI's step lines as opsdiff reads them: the op may be followed by a
// summary of the step's diagnostics, and each step counts once. Under load
// the display may show a step only finished (page, created) or failed
// (broken): it still counts.
func TestDisplaySteps(t *testing.T) {
	t.Parallel()
	out := strings.Join([]string{
		" +  pulumi:pulumi:Stack p-dev create 2 warnings",
		" +  sitekit:index:Site site create ",
		" ++ sitekit:index:Bucket b create replacement [diff: ~provider]",
		" =  sitekit:index:BucketObject ghost importing (0s) error: resource 'x' does not exist",
		" =  sitekit:index:BucketObject ghost **importing failed** error: resource 'x' does not exist",
		" +  sitekit:index:BucketObject page created (0.01s)",
		" +  sitekit:index:BucketObject broken **creating failed** error: disk full",
		" -- sitekit:index:Bucket old deleted original (0.02s)",
		" >  sitekit:index:Bucket seen read for replacement",
		"    pulumi:pulumi:Stack p-dev running warning: using pulumi-resource-sitekit from $PATH",
	}, "\n")
	want := []string{
		"create pulumi:pulumi:Stack p-dev",
		"create sitekit:index:BucketObject broken",
		"create sitekit:index:BucketObject page",
		"create sitekit:index:Site site",
		"create-replacement sitekit:index:Bucket b",
		"delete-replaced sitekit:index:Bucket old",
		"import sitekit:index:BucketObject ghost",
		"read-replacement sitekit:index:Bucket seen",
	}
	got, err := realSteps(out)
	if err != nil || !slices.Equal(got, want) {
		t.Fatalf("realSteps:\n got  %q (%v)\n want %q", got, err, want)
	}
}

// The engine's event log: every step's op from its resourcePreEvent, same
// steps, default providers and other events left out, types by their
// display names.
func TestEventLogSteps(t *testing.T) {
	t.Parallel()
	const pre = `{"sequence":%d,"timestamp":1,"resourcePreEvent":{"metadata":{"op":%q,"urn":%q,"type":%q,"provider":""}}}`
	const outputs = `{"sequence":9,"timestamp":1,"resOutputsEvent":{"metadata":{"op":"create","urn":"urn:pulumi:dev::p::sitekit:index:Site::site","type":"sitekit:index:Site","provider":""}}}`
	lines := []string{
		`{"sequence":0,"timestamp":1,"preludeEvent":{"config":{}}}`,
		fmt.Sprintf(pre, 1, "create", "urn:pulumi:dev::p::pulumi:pulumi:Stack::p-dev", "pulumi:pulumi:Stack"),
		fmt.Sprintf(pre, 2, "create", "urn:pulumi:dev::p::pulumi:providers:sitekit::default_0_1_0", "pulumi:providers:sitekit"),
		fmt.Sprintf(pre, 3, "create", "urn:pulumi:dev::p::pulumi:providers:sitekit::explicit", "pulumi:providers:sitekit"),
		fmt.Sprintf(pre, 4, "create", "urn:pulumi:dev::p::sitekit:index:Site::site", "sitekit:index:Site"),
		fmt.Sprintf(pre, 5, "same", "urn:pulumi:dev::p::sitekit:index:Site$sitekit:index:Bucket::kept", "sitekit:index:Bucket"),
		fmt.Sprintf(pre, 6, "update", "urn:pulumi:dev::p::portal:index/gate:Gate::g", "portal:index/gate:Gate"),
		outputs,
		`{"sequence":10,"timestamp":1,"summaryEvent":{"maybeCorrupt":false,"durationSeconds":1,"resourceChanges":{"create":3},"policyPacks":{}}}`,
		"",
	}
	want := []string{
		"create pulumi:providers:sitekit explicit",
		"create pulumi:pulumi:Stack p-dev",
		"create sitekit:index:Site site",
		"update portal:index:Gate g",
	}
	got, err := realSteps(strings.Join(lines, "\n"))
	if err != nil || !slices.Equal(got, want) {
		t.Fatalf("realSteps:\n got  %q (%v)\n want %q", got, err, want)
	}
	if _, err := realSteps("{\"sequence\":1}\nnot json\n"); err == nil || !strings.Contains(err.Error(), "line 2") {
		t.Fatalf("a broken event log: err = %v, want one naming line 2", err)
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
