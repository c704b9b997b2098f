package core

import (
	"slices"
	"testing"

	"github.com/pulumi/pulumi/sdk/v3/go/common/resource/urn"
	"github.com/pulumi/pulumi/sdk/v3/go/property"
)

// withDependency adds the child to each output's dependencies, once, and
// keeps the markers each had.
func TestWithDependency(t *testing.T) {
	const child, other = urn.URN("urn:pulumi:dev::p::t:index:T::child"), urn.URN("urn:pulumi:dev::p::t:index:T::other")
	got := withDependency(property.NewMap(map[string]property.Value{
		"plain":  property.New("a"),
		"secret": property.New("b").WithSecret(true),
		"dep":    property.New("c").WithDependencies([]urn.URN{other}),
		"again":  property.New("d").WithDependencies([]urn.URN{child}),
	}), child)
	for k, want := range map[string][]urn.URN{"plain": {child}, "secret": {child}, "dep": {child, other}, "again": {child}} {
		if deps := got.Get(k).Dependencies(); !slices.Equal(deps, want) {
			t.Errorf("%s depends on %v, want %v", k, deps, want)
		}
	}
	if !got.Get("secret").Secret() || got.Get("plain").Secret() {
		t.Error("secret markers changed")
	}
	if m := withDependency(property.Map{}, child); m.Len() != 0 {
		t.Errorf("empty map became %v", m)
	}
}
