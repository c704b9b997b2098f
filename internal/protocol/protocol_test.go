package protocol

import (
	"reflect"
	"testing"

	"github.com/pulumi/pulumi/sdk/v3/go/common/resource/urn"
	pulumirpc "github.com/pulumi/pulumi/sdk/v3/proto/go"

	"github.com/polyhost/polyhost/host/diag"
)

func TestAliasRoundTrip(t *testing.T) {
	const parent = urn.URN("urn:pulumi:dev::proj::pkg:index:Parent::p")
	for _, tt := range []struct {
		name string
		urn  urn.URN
		spec *AliasSpec
	}{
		{"urn", "urn:pulumi:dev::proj::pkg:index:Thing::old", nil},
		{"spec", "", &AliasSpec{Name: "old", Type: "pkg:index:Old", Stack: "dev", Project: "proj"}},
		{"spec with parent", "", &AliasSpec{Name: "old", ParentURN: parent}},
		{"spec without parent", "", &AliasSpec{Name: "old", NoParent: true}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			a, err := ToAlias(tt.urn, tt.spec)
			if err != nil {
				t.Fatal(err)
			}
			u, spec := FromAlias(a)
			if u != tt.urn || !reflect.DeepEqual(spec, tt.spec) {
				t.Errorf("read back %q, %+v; wrote %q, %+v", u, spec, tt.urn, tt.spec)
			}
		})
	}
}

func TestToAliasRejects(t *testing.T) {
	for name, a := range map[string]struct {
		urn  urn.URN
		spec *AliasSpec
	}{
		"neither":         {},
		"both":            {"urn:pulumi:dev::proj::pkg:index:Thing::old", &AliasSpec{Name: "old"}},
		"parent and none": {"", &AliasSpec{ParentURN: "urn:pulumi:dev::proj::pkg:index:Parent::p", NoParent: true}},
	} {
		if _, err := ToAlias(a.urn, a.spec); err == nil {
			t.Errorf("%s: no error", name)
		}
	}
}

func TestFromCheckFailures(t *testing.T) {
	if got := FromCheckFailures(nil); got != nil {
		t.Errorf("no failures read as %#v, want nil", got)
	}
	got := FromCheckFailures([]*pulumirpc.CheckFailure{{Property: "a.b", Reason: "wrong"}, {Reason: "all wrong"}})
	want := []diag.CheckFailure{{Property: "a.b", Reason: "wrong"}, {Reason: "all wrong"}}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("got %#v, want %#v", got, want)
	}
}

func TestFromDependencies(t *testing.T) {
	if got := FromDependencies(map[string]*pulumirpc.CallResponse_ReturnDependencies{}); got != nil {
		t.Errorf("no dependencies read as %#v, want nil", got)
	}
	got := FromDependencies(map[string]*pulumirpc.RegisterResourceResponse_PropertyDependencies{
		"x": {Urns: []string{"urn:a", "urn:b"}}, "y": {},
	})
	want := map[string][]urn.URN{"x": {"urn:a", "urn:b"}, "y": nil}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("got %#v, want %#v", got, want)
	}
}
