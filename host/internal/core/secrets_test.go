package core

import (
	"testing"

	"github.com/pulumi/pulumi/sdk/v3/go/common/resource/urn"
	"github.com/pulumi/pulumi/sdk/v3/go/property"
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
		if got := SecretAt(path, secretInputs); got != want {
			t.Errorf("SecretAt(%q) = %v, want %v", path, got, want)
		}
	}
}
