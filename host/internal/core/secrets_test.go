package core

import (
	"strings"
	"testing"

	"github.com/pulumi/pulumi/sdk/v3/go/common/resource/urn"
	"github.com/pulumi/pulumi/sdk/v3/go/property"

	"github.com/polyhost/polyhost/host/diag"
)

const testSecret = "hunter2-xyz"

// inputs holds a secret under a top-level value with dependencies, and one
// under a key with a dot in it.
var secretInputs = property.NewMap(map[string]property.Value{
	"labels": property.New(map[string]property.Value{
		"site": property.New(testSecret).WithSecret(true),
		"team": property.New("web"),
	}).WithDependencies([]urn.URN{"urn:pulumi:dev::p::t:index:T::x"}),
	"a.b":  property.New(testSecret).WithSecret(true),
	"size": property.New(3.0),
})

func TestSecretAt(t *testing.T) {
	t.Parallel()
	for path, want := range map[string]bool{
		"labels.site": true, "labels": true, "": true, `["a.b"]`: true,
		"labels.team": false, "size": false, "missing": false, "a.b": false,
	} {
		if got := secretAt(path, secretInputs); got != want {
			t.Errorf("secretAt(%q) = %v, want %v", path, got, want)
		}
	}
}

// The engine prints the input at a detail's path (all inputs for an empty
// one), so such details go into the message instead.
func TestConstructDetailsNeverPointAtSecrets(t *testing.T) {
	t.Parallel()
	ie := &diag.InputError{Message: "invalid inputs", Failures: []diag.CheckFailure{
		{Property: "labels.site", Reason: "bad site"},
		{Property: "", Reason: "inputs do not fit together"},
		{Property: "size", Reason: "too big"},
	}}
	got := constructInputError(ie, secretInputs).(*diag.InputError)
	var details []string
	for _, f := range got.Failures {
		details = append(details, f.Property)
	}
	if strings.Join(details, ",") != "size" {
		t.Errorf("details at %v, want only size", details)
	}
	for _, want := range []string{"labels.site: bad site", ": inputs do not fit together"} {
		if !strings.Contains(got.Message, want) {
			t.Errorf("message %q does not say %q", got.Message, want)
		}
	}
}

// The engine prints the input under a check failure's property as a
// top-level key, so a failure about a secret names no property.
func TestCheckFailuresNeverPointAtSecrets(t *testing.T) {
	t.Parallel()
	fs := printable([]diag.CheckFailure{
		{Property: "a.b", Reason: "unknown property"},
		{Property: "labels.site", Reason: "is " + testSecret},
		{Property: "size", Reason: "too big"},
	}, secretInputs)
	var got []string
	for _, f := range fs {
		got = append(got, f.Property+"|"+f.Reason)
	}
	want := []string{"|a.b: unknown property", `|labels.site: is [secret]`, "size|too big"}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("failures\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}
