package wire

import (
	"fmt"
	"strings"
	"testing"

	"github.com/pulumi/pulumi/sdk/v3/go/common/resource/urn"
	"github.com/pulumi/pulumi/sdk/v3/go/property"
	"google.golang.org/protobuf/proto"
)

// nested is {"k": {"k": ... leaf}}, depth maps deep.
func nested(depth int, leaf property.Value) property.Map {
	v := leaf
	for range depth - 1 {
		v = property.New(map[string]property.Value{"k": v})
	}
	return property.NewMap(map[string]property.Value{"k": v})
}

// wide is one map of n string entries.
func wide(n int) property.Map {
	m := make(map[string]property.Value, n)
	for i := range n {
		m[fmt.Sprintf("key%06d", i)] = property.New(strings.Repeat("v", 40))
	}
	return property.NewMap(m)
}

// BenchmarkAppendMapFieldScale shows how AppendMapField's cost grows with
// the depth and size of a value, beside MarshalMap and proto: ns/op per
// byte written should stay flat as either grows.
func BenchmarkAppendMapFieldScale(b *testing.B) {
	cases := []struct {
		name string
		m    property.Map
	}{
		{"registration", property.NewMap(map[string]property.Value{ // a page object's inputs
			"bucket": property.New("site-bucket-1a2b3c4d"), "key": property.New("pages/p0017.html"),
			"content": property.New("<p>p0017.html</p>").WithSecret(true), "contentType": property.New("text/html"),
		})},
		{"wide=1000", wide(1000)},
		{"wide=10000", wide(10000)},
		{"wide=100000", wide(100000)},
		{"depth=10/leaf=64KiB", nested(10, property.New(strings.Repeat("x", 64<<10)))},
		{"depth=100/leaf=64KiB", nested(100, property.New(strings.Repeat("x", 64<<10)))},
		{"depth=1000/leaf=64KiB", nested(1000, property.New(strings.Repeat("x", 64<<10)))},
		{"depth=100/leaf=wide=1000", nested(100, property.New(wide(1000)))},
	}
	o := MarshalOptions{Secrets: true, Resources: true}
	for _, c := range cases {
		b.Run("bytes/"+c.name, func(b *testing.B) {
			b.ReportAllocs()
			var n int
			for b.Loop() {
				out, err := AppendMapField(nil, 1, c.m, o)
				if err != nil {
					b.Fatal(err)
				}
				n = len(out)
			}
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/float64(n), "ns/byte")
		})
		b.Run("proto/"+c.name, func(b *testing.B) {
			b.ReportAllocs()
			var n int
			for b.Loop() {
				s, err := MarshalMap(c.m, o)
				if err != nil {
					b.Fatal(err)
				}
				out, err := proto.Marshal(s)
				if err != nil {
					b.Fatal(err)
				}
				n = len(out)
			}
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/float64(n), "ns/byte")
		})
	}
}

// TestAppendMapFieldDeep checks values measured before they are written
// (measureDepth and deeper) against proto, errors included: each leaf at
// each depth, in a map and in an array, beside plain siblings.
func TestAppendMapFieldDeep(t *testing.T) {
	t.Parallel()
	u := "urn:pulumi:dev::p::t:index:T::r"
	leaves := map[string]property.Value{
		"string":   property.New(strings.Repeat("x", 300)),
		"secret":   property.New("s").WithSecret(true),
		"unknown":  property.New(property.Computed),
		"output":   property.New("o").WithDependencies([]urn.URN{urn.URN(u)}),
		"ref":      property.New(property.ResourceReference{URN: urn.URN(u), ID: property.New("id")}),
		"number":   property.New(1.5),
		"null":     property.New(property.Null),
		"array":    property.New([]property.Value{property.New(true), property.New("a")}),
		"badutf8":  property.New("\xff"),
		"badkey":   property.New(map[string]property.Value{"\xff": property.New(1.0)}),
		"secretmp": property.New(map[string]property.Value{"a": property.New(wide(3))}).WithSecret(true),
	}
	for name, leaf := range leaves {
		for depth := measureDepth - 2; depth <= measureDepth+3; depth++ {
			m := nested(depth, leaf)
			m = m.Set("sibling", property.New(map[string]property.Value{"big": property.New(strings.Repeat("y", 200))}))
			inArray := property.NewMap(map[string]property.Value{
				"list": property.New([]property.Value{property.New(nested(depth, leaf)), leaf, property.New(1.0)}),
			})
			t.Run(fmt.Sprintf("%s/depth=%d", name, depth), func(t *testing.T) {
				for _, o := range marshalOptions {
					checkAppend(t, m, o)
					checkAppend(t, inArray, o)
				}
			})
		}
	}
}
