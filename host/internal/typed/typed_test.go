package typed

import (
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/pulumi/pulumi/sdk/v3/go/property"
)

type inner struct {
	N int `pulumi:"n"`
}

type args struct {
	S     string                    `pulumi:"s,optional"`
	B     bool                      `pulumi:"b,optional"`
	I     int                       `pulumi:"i,optional"`
	U8    uint8                     `pulumi:"u8,optional"`
	F     float64                   `pulumi:"f,optional"`
	P     *string                   `pulumi:"p,optional"`
	L     []string                  `pulumi:"l,optional"`
	M     map[string]int            `pulumi:"m,optional"`
	O     *inner                    `pulumi:"o,optional"`
	Raw   property.Value            `pulumi:"raw,optional"`
	Ref   string                    `pulumi:"ref,optional"`
	Any   any                       `pulumi:"any,optional"`
	Req   string                    `pulumi:"req"`
	Nest  map[string][]inner        `pulumi:"nest,optional"`
	Skip  string                    // untagged: ignored
	Props map[string]property.Value `pulumi:"props,optional"`
}

func m(kv map[string]property.Value) property.Map {
	if _, ok := kv["req"]; !ok {
		kv["req"] = property.New("r")
	}
	return property.NewMap(kv)
}

func TestDecode(t *testing.T) {
	t.Parallel()
	hello := "hello"
	ref := property.New(property.ResourceReference{URN: "urn:pulumi:dev::p::a:b:C::n", ID: property.New("id-1")})
	cases := []struct {
		name  string
		in    property.Map
		check func(args) bool
	}{
		{"zero", m(map[string]property.Value{}), func(a args) bool { return a.S == "" && a.Req == "r" && a.L == nil }},
		{"string", m(map[string]property.Value{"s": property.New("x")}), func(a args) bool { return a.S == "x" }},
		{"secret string decodes by plaintext", m(map[string]property.Value{"s": property.New("x").WithSecret(true)}), func(a args) bool { return a.S == "x" }},
		{"unknown leaves zero", m(map[string]property.Value{"s": property.New(property.Computed)}), func(a args) bool { return a.S == "" }},
		{"bool", m(map[string]property.Value{"b": property.New(true)}), func(a args) bool { return a.B }},
		{"int", m(map[string]property.Value{"i": property.New(3.0)}), func(a args) bool { return a.I == 3 }},
		{"uint8", m(map[string]property.Value{"u8": property.New(255.0)}), func(a args) bool { return a.U8 == 255 }},
		{"float", m(map[string]property.Value{"f": property.New(1.5)}), func(a args) bool { return a.F == 1.5 }},
		{"pointer", m(map[string]property.Value{"p": property.New(hello)}), func(a args) bool { return a.P != nil && *a.P == hello }},
		{"list", m(map[string]property.Value{"l": property.New([]property.Value{property.New("a")})}), func(a args) bool { return len(a.L) == 1 && a.L[0] == "a" }},
		{"map", m(map[string]property.Value{"m": property.New(map[string]property.Value{"k": property.New(1.0)})}), func(a args) bool { return a.M["k"] == 1 }},
		{"object", m(map[string]property.Value{"o": property.New(map[string]property.Value{"n": property.New(7.0)})}), func(a args) bool { return a.O != nil && a.O.N == 7 }},
		{"raw keeps markers", m(map[string]property.Value{"raw": property.New("s").WithSecret(true)}), func(a args) bool { return a.Raw.Secret() }},
		{"reference as string is its id", m(map[string]property.Value{"ref": ref}), func(a args) bool { return a.Ref == "id-1" }},
		{"any", m(map[string]property.Value{"any": property.New([]property.Value{property.New(1.0)})}), func(a args) bool { return len(a.Any.([]any)) == 1 }},
		{"nested list of objects", m(map[string]property.Value{"nest": property.New(map[string]property.Value{
			"x": property.New([]property.Value{property.New(map[string]property.Value{"n": property.New(2.0)})})})}),
			func(a args) bool { return a.Nest["x"][0].N == 2 }},
		{"map of raw values", m(map[string]property.Value{"props": property.New(map[string]property.Value{"k": property.New(property.Computed)})}),
			func(a args) bool { return a.Props["k"].IsComputed() }},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			var a args
			if _, err := Decode(tc.in, &a); err != nil {
				t.Fatal(err)
			}
			if !tc.check(a) {
				t.Errorf("decoded %+v", a)
			}
		})
	}
}

// Decode names the fields an unknown left at zero, but not property.Value
// fields, which hold it.
func TestDecodeReportsUnknowns(t *testing.T) {
	t.Parallel()
	unknown := property.New(property.Computed)
	var a args
	got, err := Decode(m(map[string]property.Value{
		"s": unknown, "l": property.New([]property.Value{property.New("a"), unknown}),
		"o":   property.New(map[string]property.Value{"n": unknown}),
		"raw": unknown, "props": unknown, "b": property.New(true),
	}), &a)
	if err != nil {
		t.Fatal(err)
	}
	if want := []string{"l[1]", "o.n", "props", "s"}; !slices.Equal(sorted(got.Unknown), want) {
		t.Errorf("unknown = %q, want %q", got.Unknown, want)
	}
	if got, _ := Decode(m(map[string]property.Value{"s": property.New("x")}), &a); got.Unknown != nil || got.Secret != nil {
		t.Errorf("lost = %+v with every value known and plain", got)
	}
}

// Secrets decoded into fields that cannot carry the marker are reported by
// path, at any depth; property.Value fields keep them and are not.
func TestDecodeReportsSecrets(t *testing.T) {
	t.Parallel()
	secret := func(v property.Value) property.Value { return v.WithSecret(true) }
	var a args
	got, err := Decode(m(map[string]property.Value{
		"s": secret(property.New("pw")), "l": property.New([]property.Value{property.New("a"), secret(property.New("b"))}),
		"o":   property.New(map[string]property.Value{"n": secret(property.New(3.0))}),
		"raw": secret(property.New("d")), "b": secret(property.New(true)),
		"props": property.New(map[string]property.Value{"k": secret(property.New("e"))}),
	}), &a)
	if err != nil {
		t.Fatal(err)
	}
	if want := []string{"b", "l[1]", "o.n", "s"}; !slices.Equal(sorted(got.Secret), want) {
		t.Errorf("secret = %q, want %q", got.Secret, want)
	}
	if got, _ := Decode(m(map[string]property.Value{"s": property.New("x"), "props": secret(property.New(map[string]property.Value{}))}), &a); !slices.Equal(got.Secret, []string{"props"}) {
		t.Errorf("secret = %q, want the secret map itself", got.Secret)
	}
}

func sorted(xs []string) []string { return slices.Sorted(slices.Values(xs)) }

func TestDecodeErrors(t *testing.T) {
	t.Parallel()
	cases := []struct {
		name string
		in   property.Map
		want string
	}{
		{"missing required", property.NewMap(map[string]property.Value{}), `req: missing required property "req"`},
		{"wrong type", m(map[string]property.Value{"s": property.New(1.0)}), "s: expected a string, got the number 1"},
		{"fraction into int", m(map[string]property.Value{"i": property.New(1.5)}), "i: expected an integer"},
		{"overflow", m(map[string]property.Value{"u8": property.New(256.0)}), "u8: expected a non-negative integer that fits uint8"},
		{"negative unsigned", m(map[string]property.Value{"u8": property.New(-1.0)}), "u8: expected a non-negative integer"},
		{"element", m(map[string]property.Value{"l": property.New([]property.Value{property.New(true)})}), "l[0]: expected a string"},
		{"map value", m(map[string]property.Value{"m": property.New(map[string]property.Value{"k": property.New("x")})}), `m["k"]: expected a number`},
		{"nested field", m(map[string]property.Value{"o": property.New(map[string]property.Value{})}), `o.n: missing required property "n"`},
		{"secret never printed", m(map[string]property.Value{"b": property.New("hunter2").WithSecret(true)}), "b: expected a boolean, got a secret string"},
		{"secret named by its kind", m(map[string]property.Value{"s": property.New(map[string]property.Value{"k": property.New("hunter2")}).WithSecret(true)}), "s: expected a string, got a secret object"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			var a args
			_, err := Decode(tc.in, &a)
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("error = %v, want %q", err, tc.want)
			}
			if strings.Contains(err.Error(), "hunter2") {
				t.Errorf("error reveals a secret: %v", err)
			}
		})
	}
}

func TestDecodeRejectsNonStruct(t *testing.T) {
	t.Parallel()
	var s string
	if _, err := Decode(property.Map{}, &s); err == nil {
		t.Fatal("decoding into a string succeeded")
	}
	if _, err := Decode(property.Map{}, nil); err == nil {
		t.Fatal("decoding into nil succeeded")
	}
}

func TestEncodeRoundTrip(t *testing.T) {
	t.Parallel()
	p := "p"
	in := args{S: "s", B: true, I: -2, U8: 8, F: 0.5, P: &p, L: []string{"a"}, M: map[string]int{"k": 1},
		O: &inner{N: 3}, Raw: property.New("r").WithSecret(true), Req: "req"}
	enc, err := Encode(in)
	if err != nil {
		t.Fatal(err)
	}
	if _, ok := enc.GetOk("ref"); ok {
		t.Error("optional zero field encoded")
	}
	if !enc.Get("raw").Secret() {
		t.Error("raw field lost its secret marker")
	}
	var out args
	if _, err := Decode(enc, &out); err != nil {
		t.Fatal(err)
	}
	if out.S != "s" || !out.B || out.I != -2 || out.U8 != 8 || out.F != 0.5 || *out.P != "p" || out.L[0] != "a" || out.M["k"] != 1 || out.O.N != 3 || out.Req != "req" {
		t.Errorf("round trip = %+v", out)
	}
}

func TestBadTags(t *testing.T) {
	t.Parallel()
	type dup struct {
		A string `pulumi:"x"`
		B string `pulumi:"x"`
	}
	if _, err := Decode(property.Map{}, &dup{}); err == nil || !strings.Contains(err.Error(), `both use property "x"`) {
		t.Errorf("error = %v", err)
	}
}

func TestParseTag(t *testing.T) {
	t.Parallel()
	cases := []struct {
		tag, name string
		want      Tag
		err       string
	}{
		{tag: "n", name: "n"},
		{tag: "n,optional", name: "n", want: Tag{Optional: true}},
		{tag: "n,omitempty", name: "n", want: Tag{Optional: true}},
		{tag: "n,secret,replaceOnChanges", name: "n", want: Tag{Secret: true, ReplaceOnChanges: true}},
		{tag: "n,type=map[string][]integer,optional", name: "n", want: Tag{Optional: true, SchemaType: "map[string][]integer"}},
		{tag: "n,type=pkg:index:Thing", name: "n", want: Tag{SchemaType: "pkg:index:Thing"}},
		{tag: "n,type=", err: `unknown tag option "type="`},
		{tag: "n,optinal", err: `unknown tag option "optinal"`},
	}
	for _, tc := range cases {
		name, got, err := ParseTag(tc.tag)
		switch {
		case tc.err != "":
			if err == nil || !strings.Contains(err.Error(), tc.err) {
				t.Errorf("%q: error = %v, want %q", tc.tag, err, tc.err)
			}
		case err != nil:
			t.Errorf("%q: %v", tc.tag, err)
		case name != tc.name || got != tc.want:
			t.Errorf("%q: got %q %+v, want %q %+v", tc.tag, name, got, tc.name, tc.want)
		}
	}
}

// A misspelt option stops decoding with the field's name, rather than
// being ignored as the only option used to be.
func TestUnknownTagOption(t *testing.T) {
	t.Parallel()
	type bad struct {
		A string `pulumi:"a,optinal"`
	}
	_, err := Decode(property.Map{}, &bad{})
	if err == nil || !strings.Contains(err.Error(), "typed.bad.A: unknown tag option \"optinal\"") {
		t.Errorf("error = %v", err)
	}
}

// A secret-tagged field is encoded secret; a pointer is optional without
// a tag option, both for decoding and for Fields.
func TestSecretAndPointerFields(t *testing.T) {
	t.Parallel()
	type s struct {
		Key  string  `pulumi:"key,secret"`
		Note *string `pulumi:"note"`
		Pin  string  `pulumi:"pin,secret,optional"`
	}
	m, err := Encode(s{Key: "k"})
	if err != nil {
		t.Fatal(err)
	}
	if !m.Get("key").Secret() || m.Get("key").AsString() != "k" {
		t.Errorf("key = %v, want a secret \"k\"", m.Get("key"))
	}
	if _, ok := m.GetOk("note"); ok {
		t.Errorf("a nil pointer was encoded: %v", m)
	}
	if _, ok := m.GetOk("pin"); ok {
		t.Errorf("an empty optional field was encoded: %v", m)
	}
	if _, err := Decode(property.NewMap(map[string]property.Value{"key": property.New("k")}), &s{}); err != nil {
		t.Errorf("a missing pointer field is an error: %v", err)
	}
	fields, _, err := Fields(reflect.TypeFor[s]())
	if err != nil {
		t.Fatal(err)
	}
	if !fields[1].Optional || fields[0].Optional || !fields[0].Tag.Secret {
		t.Errorf("fields = %+v", fields)
	}
}

type Common struct {
	Region string `pulumi:"region"`
	Name   string `pulumi:"name,optional"` // hidden by the outer Name
}

type Extra struct {
	Level int `pulumi:"level,optional"`
}

type unexported struct {
	Zone string `pulumi:"zone,optional"`
}

type withEmbedded struct {
	Common
	*Extra
	unexported
	Name  string `pulumi:"name"`
	Named inner  `pulumi:"named"` // tagged: a property of its own
}

// The fields of an untagged embedded struct are the outer struct's, as
// encoding/json has them: an outer field hides an embedded one of the same
// name, an embedded pointer is allocated when one of its fields is set and
// left out when nil, and a tagged embedded struct is one property.
func TestEmbeddedStructsAreFlattened(t *testing.T) {
	t.Parallel()
	fields, _, err := Fields(reflect.TypeFor[withEmbedded]())
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, f := range fields {
		got = append(got, f.Name+"="+f.Owner.Name()+"."+f.GoName)
	}
	if want := []string{"region=Common.Region", "level=Extra.Level", "zone=unexported.Zone", "name=withEmbedded.Name", "named=withEmbedded.Named"}; !slices.Equal(got, want) {
		t.Errorf("fields %v, want %v", got, want)
	}
	var v withEmbedded
	in := property.NewMap(map[string]property.Value{"region": property.New("eu"), "level": property.New(3.0), "zone": property.New("a"),
		"name": property.New("outer"), "named": property.New(property.NewMap(map[string]property.Value{"n": property.New(1.0)}))})
	if _, err := Decode(in, &v); err != nil {
		t.Fatal(err)
	}
	if v.Region != "eu" || v.Extra == nil || v.Level != 3 || v.Zone != "a" || v.Name != "outer" || v.Common.Name != "" || v.Named.N != 1 {
		t.Errorf("decoded %+v (extra %+v)", v, v.Extra)
	}
	out, err := Encode(v)
	if err != nil || !property.New(out).Equals(property.New(in)) {
		t.Errorf("encoded %v (%v), want %v", out, err, in)
	}
	v.Extra = nil
	if out, err := Encode(v); err != nil || !out.Get("level").IsNull() {
		t.Errorf("a nil embedded pointer: encoded %v (%v), want no level", out, err)
	}
	if _, err := Decode(property.NewMap(map[string]property.Value{"name": property.New("x")}), &v); err == nil || !strings.Contains(err.Error(), `region: missing required property "region"`) {
		t.Errorf("a missing embedded property: %v", err)
	}
}

type alsoRegion struct {
	Region string `pulumi:"region"`
}

type ptrUnexported struct {
	*unexported
}

// Two embedded fields of one property at the same depth, or one that
// cannot be set, are refused, naming them.
func TestEmbeddedStructsRefused(t *testing.T) {
	t.Parallel()
	type clash struct {
		Common
		alsoRegion
	}
	for typ, want := range map[reflect.Type]string{
		reflect.TypeFor[clash]():         `fields Region and Region both use property "region"`,
		reflect.TypeFor[ptrUnexported](): "an embedded pointer to an unexported struct cannot be set; embed unexported",
	} {
		if _, _, err := Fields(typ); err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%s: %v, want %q", typ, err, want)
		}
	}
}
