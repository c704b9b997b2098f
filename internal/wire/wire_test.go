package wire

import (
	"errors"
	"fmt"
	"math"
	"slices"
	"strings"
	"testing"

	"github.com/pulumi/pulumi/sdk/v3/go/common/resource"
	"github.com/pulumi/pulumi/sdk/v3/go/common/resource/archive"
	"github.com/pulumi/pulumi/sdk/v3/go/common/resource/asset"
	"github.com/pulumi/pulumi/sdk/v3/go/common/resource/plugin"
	"github.com/pulumi/pulumi/sdk/v3/go/common/resource/sig"
	"github.com/pulumi/pulumi/sdk/v3/go/common/resource/urn"
	"github.com/pulumi/pulumi/sdk/v3/go/property"
	"google.golang.org/protobuf/proto"
	"google.golang.org/protobuf/types/known/structpb"
)

// The reference: the SDK's plugin package and the property conversions,
// which this package replaces.

func sdkMarshal(m property.Map, o MarshalOptions) (s *structpb.Struct, err error, panicked bool) {
	defer func() {
		if recover() != nil {
			panicked = true
		}
	}()
	s, err = plugin.MarshalProperties(resource.ToResourcePropertyMap(m), plugin.MarshalOptions{
		KeepUnknowns: true, KeepSecrets: o.Secrets, KeepResources: o.Resources,
		KeepOutputValues: o.OutputValues, KeepByteString: o.ByteStrings,
	})
	return s, err, false
}

func sdkUnmarshal(s *structpb.Struct, o UnmarshalOptions) (m property.Map, err error, panicked bool) {
	defer func() {
		if recover() != nil {
			panicked = true
		}
	}()
	pm, err := plugin.UnmarshalProperties(s, plugin.MarshalOptions{
		KeepUnknowns: true, KeepSecrets: true, KeepResources: o.Resources, KeepOutputValues: o.OutputValues,
	})
	if err != nil {
		return property.Map{}, err, false
	}
	return resource.FromResourcePropertyMap(pm), nil, false
}

var (
	marshalOptions = func() []MarshalOptions {
		var out []MarshalOptions
		for i := range 16 {
			out = append(out, MarshalOptions{Secrets: i&1 != 0, Resources: i&2 != 0, OutputValues: i&4 != 0, ByteStrings: i&8 != 0})
		}
		return out
	}()
	unmarshalOptions = []UnmarshalOptions{{}, {Resources: true}, {OutputValues: true}, {Resources: true, OutputValues: true}}
)

func checkMarshal(t *testing.T, m property.Map) {
	t.Helper()
	for _, o := range marshalOptions {
		checkAppend(t, m, o)
		want, wantErr, panicked := sdkMarshal(m, o)
		if panicked {
			continue
		}
		got, err := MarshalMap(m, o)
		if (err != nil) != (wantErr != nil) {
			t.Fatalf("%+v: MarshalMap(%v) error %v, SDK error %v", o, m, err, wantErr)
		}
		if err == nil && !proto.Equal(got, want) {
			t.Fatalf("%+v: MarshalMap(%v)\n got: %v\nwant: %v", o, m, got, want)
		}
	}
}

func checkUnmarshal(t *testing.T, s *structpb.Struct) {
	t.Helper()
	for _, o := range unmarshalOptions {
		want, wantErr, panicked := sdkUnmarshal(s, o)
		if panicked {
			continue
		}
		got, err := UnmarshalMap(s, o)
		if (err != nil) != (wantErr != nil) {
			t.Fatalf("%+v: UnmarshalMap(%v) error %v, SDK error %v", o, s, err, wantErr)
		}
		if err == nil && !sameMaps(t, got, want) {
			t.Fatalf("%+v: UnmarshalMap(%v)\n got: %v\nwant: %v", o, s, got, want)
		}
	}
}

// sameMaps compares through the SDK's wire form with everything kept:
// Equals would hash assets, fetching their URIs.
func sameMaps(t *testing.T, a, b property.Map) bool {
	all := MarshalOptions{Secrets: true, Resources: true, OutputValues: true, ByteStrings: true}
	wa, errA, _ := sdkMarshal(a, all)
	wb, errB, _ := sdkMarshal(b, all)
	if errA != nil || errB != nil {
		t.Fatalf("marshalling to compare: %v, %v", errA, errB)
	}
	return proto.Equal(wa, wb)
}

// gen turns fuzz bytes into choices.
type gen struct{ b []byte }

func (g *gen) next(n int) int {
	if len(g.b) == 0 || n <= 1 {
		return 0
	}
	c := int(g.b[0]) % n
	g.b = g.b[1:]
	return c
}

var (
	urns    = []string{"urn:pulumi:dev::proj::pkg:index:Thing::t", "urn:pulumi:dev::proj::pkg:index:Site$pkg:index:Bucket::b", "not-a-urn", ""}
	strs    = []string{"", "a", "hello", "\xff\xfe", sig.UnknownStringValue, sig.UnknownNumberValue, "aGk=", "!!", sig.Secret}
	keys    = []string{sig.Key, "value", "secret", "dependencies", "urn", "name", "type", "id", "packageVersion", "x", "text", "hash", "assets", "path", "uri", "a.html", "\xfe"}
	sigVals = []string{sig.Secret, sig.ResourceReference, sig.OutputValue, sig.ByteString, sig.AssetSig, sig.ArchiveSig, "nope", sig.UnknownStringValue}
)

// value generates a property value.
func (g *gen) value(depth int) property.Value {
	var v property.Value
	kinds := 11
	if depth > 3 {
		kinds = 5
	}
	switch g.next(kinds) {
	case 0:
		v = property.Value{}
	case 1:
		v = property.New(g.next(2) == 1)
	case 2:
		v = property.New(float64(g.next(256)) - 7.5)
	case 3:
		v = property.New(strs[g.next(len(strs))])
	case 4:
		v = property.New(property.Computed)
	case 5:
		n := g.next(4)
		elems := make([]property.Value, n)
		for i := range elems {
			elems[i] = g.value(depth + 1)
		}
		v = property.New(elems)
	case 6:
		n := g.next(4)
		m := map[string]property.Value{}
		for range n {
			m[keys[g.next(len(keys))]] = g.value(depth + 1)
		}
		v = property.New(m)
	case 7, 8:
		ref := property.ResourceReference{URN: urn.URN(urns[g.next(len(urns))]), PackageVersion: []string{"", "1.2.3", "\xff"}[g.next(3)]}
		ref.Name = []string{"", "n", "\xfe"}[g.next(3)]
		ref.Type = []string{"", "pkg:index:T", "\xfd"}[g.next(3)]
		switch g.next(7) {
		case 1:
			ref.ID = property.New(strs[g.next(len(strs))])
		case 2:
			ref.ID = property.New(property.Computed)
		case 3:
			ref.ID = property.New("id-1").WithSecret(true)
		case 4:
			ref.ID = property.Value{}.WithSecret(true)
		case 5:
			ref.ID = property.Value{}.WithDependencies([]urn.URN{urn.URN(urns[0])})
		case 6:
			ref.ID = property.New(property.Computed).WithSecret(g.next(2) == 1).WithDependencies([]urn.URN{urn.URN(urns[g.next(len(urns))])})
		}
		if g.next(4) == 1 {
			ref.ID = property.New(float64(g.next(9)))
		}
		v = property.New(ref)
	case 9:
		var a *asset.Asset
		var err error
		switch g.next(3) {
		case 0:
			a, err = asset.FromText(strs[g.next(len(strs))])
		case 1: // built directly: the constructors would read the file
			a = &asset.Asset{Sig: asset.AssetSig, Path: "some/file\xff"[:9+g.next(2)], Hash: []string{"", "h"}[g.next(2)]}
		default:
			a = &asset.Asset{Sig: asset.AssetSig, URI: "https://example.com/a"}
		}
		if err != nil {
			panic(err)
		}
		v = property.New(a)
	case 10:
		a, _ := asset.FromText("t")
		inner, err := archive.FromAssets(map[string]any{"f": a})
		if err != nil {
			panic(err)
		}
		members := map[string]any{"f": a}
		if g.next(2) == 1 {
			members["nested"] = inner
		}
		arch, err := archive.FromAssets(members)
		if err != nil {
			panic(err)
		}
		if g.next(3) == 1 {
			arch = &archive.Archive{Sig: archive.ArchiveSig, Path: "dir"}
		}
		v = property.New(arch)
	}
	if g.next(3) == 1 {
		v = v.WithSecret(true)
	}
	if g.next(3) == 1 {
		deps := []urn.URN{urn.URN(urns[0])}
		switch g.next(3) {
		case 1:
			deps = append(deps, urn.URN(urns[1]))
		case 2:
			deps = append(deps, "urn:\xff")
		}
		v = v.WithDependencies(deps)
	}
	return v
}

// wire generates a protobuf value, often a signature object, well formed or
// not.
func (g *gen) wire(depth int) *structpb.Value {
	kinds := 7
	if depth > 3 {
		kinds = 4
	}
	switch g.next(kinds) {
	case 0:
		return structpb.NewNullValue()
	case 1:
		return structpb.NewBoolValue(g.next(2) == 1)
	case 2:
		return structpb.NewNumberValue(float64(g.next(256)))
	case 3:
		return structpb.NewStringValue(append(strs, urns...)[g.next(len(strs)+len(urns))])
	case 4:
		n := g.next(4)
		elems := make([]*structpb.Value, n)
		for i := range elems {
			elems[i] = g.wire(depth + 1)
		}
		return structpb.NewListValue(&structpb.ListValue{Values: elems})
	default:
		fields := map[string]*structpb.Value{}
		if g.next(3) != 0 {
			fields[sig.Key] = structpb.NewStringValue(sigVals[g.next(len(sigVals))])
		}
		for range g.next(5) {
			k := keys[g.next(len(keys))]
			switch g.next(3) {
			case 0: // a likely well-formed field
				switch k {
				case "urn":
					fields[k] = structpb.NewStringValue(urns[g.next(len(urns))])
				case "secret":
					fields[k] = structpb.NewBoolValue(g.next(2) == 1)
				case "dependencies":
					fields[k] = structpb.NewListValue(&structpb.ListValue{Values: []*structpb.Value{structpb.NewStringValue(urns[0])}})
				default:
					fields[k] = structpb.NewStringValue(strs[g.next(len(strs))])
				}
			default:
				fields[k] = g.wire(depth + 1)
			}
		}
		return structpb.NewStructValue(&structpb.Struct{Fields: fields})
	}
}

func FuzzMarshal(f *testing.F) {
	for _, seed := range [][]byte{{}, {7, 0, 1, 0, 1}, {6, 3, 0, 5, 2, 3, 4, 1, 1}, {8, 0, 1, 1, 0, 0}, {9, 3, 1, 1}, {10, 0, 0}, {3, 3, 1, 0}} {
		f.Add(seed)
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		g := &gen{b}
		m := map[string]property.Value{}
		for i := 0; len(g.b) > 0 && i < 4; i++ {
			m[fmt.Sprint("k", i)] = g.value(0)
		}
		checkMarshal(t, property.NewMap(m))
	})
}

func FuzzUnmarshal(f *testing.F) {
	for _, seed := range [][]byte{{}, {5, 1, 1, 0, 0, 5}, {5, 1, 2, 2, 0, 1, 0}, {6, 1, 1, 1, 0, 5, 1, 2, 0, 4}} {
		f.Add(seed)
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		g := &gen{b}
		fields := map[string]*structpb.Value{}
		for i := 0; len(g.b) > 0 && i < 4; i++ {
			fields[fmt.Sprint("k", i)] = g.wire(0)
		}
		s := &structpb.Struct{Fields: fields}
		checkUnmarshal(t, s)
		// What we send, we read back as the SDK does.
		if m, err := UnmarshalMap(s, UnmarshalOptions{Resources: true, OutputValues: true}); err == nil {
			checkMarshal(t, m)
		}
	})
}

// Every seed of both targets, plus values the generators cannot make.
func TestMatchesSDK(t *testing.T) {
	t.Parallel()
	secretRef := property.New(property.ResourceReference{URN: urn.URN(urns[0]), ID: property.New("x").WithDependencies([]urn.URN{urn.URN(urns[1])})})
	checkMarshal(t, property.NewMap(map[string]property.Value{
		"ref":          secretRef,
		"nullSecretID": property.New(property.ResourceReference{URN: urn.URN(urns[0]), ID: property.Value{}.WithSecret(true)}),
		"nullDepID": property.New(property.ResourceReference{URN: urn.URN(urns[0]),
			ID: property.Value{}.WithDependencies([]urn.URN{urn.URN(urns[1])})}),
		"nan":   property.New(math.Inf(1)),
		"empty": property.New(map[string]property.Value{}),
		"deep":  property.New([]property.Value{property.New(property.Computed).WithSecret(true).WithDependencies([]urn.URN{urn.URN(urns[0])})}),
		// Longer than a one-byte length, at each level (AppendMap).
		"long": property.New(map[string]property.Value{"s": property.New(strings.Repeat("x", 20000)),
			"l": property.New(slices.Repeat([]property.Value{property.New("yy")}, 100))}),
	}))
	checkUnmarshal(t, nil)
	checkUnmarshal(t, &structpb.Struct{Fields: map[string]*structpb.Value{
		"id-output": structpb.NewStructValue(&structpb.Struct{Fields: map[string]*structpb.Value{
			sig.Key: structpb.NewStringValue(sig.ResourceReference), "urn": structpb.NewStringValue(urns[0]),
			"id": structpb.NewStructValue(&structpb.Struct{Fields: map[string]*structpb.Value{
				sig.Key: structpb.NewStringValue(sig.OutputValue), "value": structpb.NewStringValue("i"), "secret": structpb.NewBoolValue(true),
			}}),
		}}),
		"bytes": structpb.NewStructValue(&structpb.Struct{Fields: map[string]*structpb.Value{
			sig.Key: structpb.NewStringValue(sig.ByteString), "value": structpb.NewStringValue("/w=="),
		}}),
	}})
}

// A signature that is not a plain string is named by its kind in the
// error: it may be a secret.
func TestUnrecognizedSignatureHidesItsValue(t *testing.T) {
	t.Parallel()
	secret := structpb.NewStructValue(&structpb.Struct{Fields: map[string]*structpb.Value{
		sig.Key: structpb.NewStringValue(sig.Secret), "value": structpb.NewStringValue("hunter2"),
	}})
	s := &structpb.Struct{Fields: map[string]*structpb.Value{"k": structpb.NewStructValue(&structpb.Struct{Fields: map[string]*structpb.Value{
		sig.Key: secret,
	}})}}
	_, err := UnmarshalMap(s, UnmarshalOptions{})
	if err == nil || strings.Contains(err.Error(), "hunter2") || !strings.Contains(err.Error(), `(a secret) in property map for "k"`) {
		t.Errorf("error %v, want one naming the kind and not the value", err)
	}
}

// An error anywhere in a value names its top-level key as a KeyError.
func TestUnmarshalErrorsNameTheTopLevelKey(t *testing.T) {
	t.Parallel()
	badRef := structpb.NewStructValue(&structpb.Struct{Fields: map[string]*structpb.Value{
		sig.Key: structpb.NewStringValue(sig.ResourceReference),
	}})
	for name, v := range map[string]*structpb.Value{
		"at the top": badRef,
		"in a map":   structpb.NewStructValue(&structpb.Struct{Fields: map[string]*structpb.Value{"inner": badRef}}),
		"in a list":  structpb.NewListValue(&structpb.ListValue{Values: []*structpb.Value{badRef}}),
	} {
		_, err := UnmarshalMap(&structpb.Struct{Fields: map[string]*structpb.Value{"ok": structpb.NewStringValue("x"), "top": v}}, UnmarshalOptions{Resources: true})
		var ke *KeyError
		if !errors.As(err, &ke) || ke.Key != "top" {
			t.Errorf("%s: error %v (%T), want a KeyError for \"top\"", name, err, err)
		}
	}
}
