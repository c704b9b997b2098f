package rpc

import (
	"strings"
	"testing"

	"github.com/polyhost/polyhost/host/custom"
	"github.com/polyhost/polyhost/host/diag"

	"github.com/pulumi/pulumi/sdk/v3/go/common/resource/urn"
	"github.com/pulumi/pulumi/sdk/v3/go/common/util/rpcutil/rpcerror"
	"github.com/pulumi/pulumi/sdk/v3/go/property"
	pulumirpc "github.com/pulumi/pulumi/sdk/v3/proto/go"
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

// The engine prints the input at a detail's path (all inputs for an empty
// one), so such details go into the message instead.
func TestConstructDetailsNeverPointAtSecrets(t *testing.T) {
	t.Parallel()
	ie := &diag.InputError{Message: "invalid inputs", Failures: []diag.CheckFailure{
		{Property: "labels.site", Reason: "bad site"},
		{Property: "", Reason: "inputs do not fit together"},
		{Property: "size", Reason: "too big"},
	}}
	got := inputPropertiesError(ie, secretInputs)
	var details []string
	for _, d := range got.Errors {
		details = append(details, d.PropertyPath)
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
	fs := checkFailures([]diag.CheckFailure{
		{Property: "a.b", Reason: "unknown property"},
		{Property: "labels.site", Reason: "is " + testSecret},
		{Property: "size", Reason: "too big"},
	}, secretInputs)
	var got []string
	for _, f := range fs {
		got = append(got, f.GetProperty()+"|"+f.GetReason())
	}
	want := []string{"|a.b: unknown property", `|labels.site: is [secret]`, "size|too big"}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("failures\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}

// A partial create keeps its ID for the engine even when its error is an
// input error and the inputs hold secrets.
func TestPartialInputErrorKeepsID(t *testing.T) {
	t.Parallel()
	err := newServer(nil).crudError(&custom.PartialError{ID: "i-1", Err: diag.Errorf("size", "%s is too big", testSecret)}, secretInputs)
	rerr, ok := rpcerror.FromError(err)
	if !ok {
		t.Fatalf("not a gRPC error: %v", err)
	}
	var id string
	for _, d := range rerr.Details() {
		if f, ok := d.(*pulumirpc.ErrorResourceInitFailed); ok {
			id = f.GetId()
			if strings.Contains(strings.Join(f.GetReasons(), " "), testSecret) {
				t.Errorf("reasons hold the secret: %v", f.GetReasons())
			}
		}
	}
	if id != "i-1" {
		t.Errorf("ErrorResourceInitFailed id = %q, want i-1 (error %v)", id, err)
	}
	if strings.Contains(err.Error(), testSecret) {
		t.Errorf("error holds the secret: %v", err)
	}
}
