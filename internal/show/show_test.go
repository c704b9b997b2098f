package show

import (
	"testing"

	"github.com/pulumi/pulumi/sdk/v3/go/common/resource/urn"
	"github.com/pulumi/pulumi/sdk/v3/go/property"
)

// The outputs scripts match (tests/testdata/*.txtar, polyup's display),
// for each of the three readers.
func TestValue(t *testing.T) {
	u := urn.URN("urn:pulumi:dev::proj::pkg:index:Thing::t")
	ref := property.New(property.ResourceReference{URN: u, ID: property.New("id-1"), PackageVersion: "1.2.3"})
	m := property.New(property.NewMap(map[string]property.Value{
		"k y": property.New("a"), "s": property.New(1e6).WithSecret(true), "u": property.New(property.Computed),
	}))
	for _, tt := range []struct {
		v                 property.Value
		exact, user, bare string
	}{
		{property.New("a\"b"), `"a\"b"`, `"a\"b"`, `a"b`},
		{property.New(1e6), "1e+06", "1e+06", "1000000"},
		{property.New(true), "true", "true", "true"},
		{property.New(property.Null), "null", "null", "null"},
		{property.New(property.Computed), "unknown", "[unknown]", "[unknown]"},
		{property.New("pw").WithSecret(true), `secret("pw")`, "[secret]", "[secret]"},
		{property.New(property.Computed).WithSecret(true), "secret(unknown)", "[secret]", "[secret]"},
		{ref, `ref(pkg:index:Thing::t, id "id-1", version "1.2.3")`, "resource " + string(u), "ref " + string(u) + " id id-1"},
		{property.New(property.ResourceReference{URN: u}), `ref(pkg:index:Thing::t, id null, version "")`, "resource " + string(u), "ref " + string(u)},
		{property.New(property.NewArray(nil)), "[]", "[]", "[]"},
		{m, `{"k y": "a", "s": secret(1e+06), "u": unknown}`, `{k y: "a", s: [secret], u: [unknown]}`, `{"k y": "a", "s": secret(1e+06), "u": unknown}`},
		{property.New(property.NewArray([]property.Value{m})).WithSecret(true),
			`secret([{"k y": "a", "s": secret(1e+06), "u": unknown}])`, "[secret]", "[secret]"},
	} {
		for _, c := range []struct {
			o    Options
			want string
		}{{Options{}, tt.exact}, {Options{User: true}, tt.user}, {Options{Bare: true}, tt.bare}} {
			if got := Value(tt.v, c.o); got != c.want {
				t.Errorf("Value(%s, %+v) = %s, want %s", tt.exact, c.o, got, c.want)
			}
		}
	}
}
