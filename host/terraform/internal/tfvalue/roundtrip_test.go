package tfvalue

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/hashicorp/terraform-plugin-go/tfprotov6"
	"github.com/pulumi/pulumi/sdk/v3/go/common/resource/asset"
	"github.com/pulumi/pulumi/sdk/v3/go/property"
)

// gen makes a random property value of shape s, in the form FromTerraform
// gives back: secrets exactly where the schema says sensitive, no null
// object attributes, nested blocks present.
type gen struct{ r *rand.Rand }

func (g gen) str() string {
	const alphabet = "ab_Z \"\\.[é😀"
	rs := []rune(alphabet)
	n := g.r.IntN(4)
	out := make([]rune, n)
	for i := range out {
		out[i] = rs[g.r.IntN(len(rs))]
	}
	return string(out)
}

func (g gen) num() float64 {
	switch g.r.IntN(4) {
	case 0:
		return float64(g.r.IntN(2000) - 1000)
	case 1:
		return g.r.NormFloat64() * 1e6
	default:
		for {
			f := math.Float64frombits(g.r.Uint64())
			if !math.IsNaN(f) {
				return f
			}
		}
	}
}

func (g gen) value(s *shape, depth int) property.Value {
	if g.r.IntN(20) == 0 {
		return property.New(property.Computed)
	}
	switch s.kind {
	case kString:
		return property.New(g.str())
	case kNumber:
		return property.New(g.num())
	case kBool:
		return property.New(g.r.IntN(2) == 0)
	case kDynamic:
		return g.dynamic(depth)
	case kList, kSet, kTuple:
		n := len(s.elems)
		if s.kind != kTuple {
			n = g.r.IntN(3)
			if depth > 3 {
				n = 0
			}
		}
		out := make([]property.Value, n)
		for i := range out {
			es := s.elem
			if s.kind == kTuple {
				es = s.elems[i]
			}
			if g.r.IntN(10) == 0 {
				continue // a null element
			}
			out[i] = g.value(es, depth+1)
		}
		return property.New(property.NewArray(out))
	case kMap:
		out := map[string]property.Value{}
		for range g.r.IntN(3) {
			out[g.str()] = g.value(s.elem, depth+1)
		}
		return property.New(out)
	case kObject:
		return property.New(g.object(s.obj, depth+1))
	}
	panic("unexpected shape")
}

func (g gen) object(o *object, depth int) property.Map {
	out := map[string]property.Value{}
	for _, f := range o.order {
		var v property.Value
		switch f.nesting {
		case tfprotov6.SchemaNestedBlockNestingModeInvalid, tfprotov6.SchemaNestedBlockNestingModeSingle:
			if g.r.IntN(2) == 0 || depth > 3 {
				continue
			}
			v = g.value(f.shape, depth)
		case tfprotov6.SchemaNestedBlockNestingModeGroup:
			v = property.New(g.object(f.shape.obj, depth+1))
		default:
			if g.r.IntN(20) == 0 {
				v = property.New(property.Computed)
				break
			}
			n := g.r.IntN(3)
			if depth > 3 {
				n = 0
			}
			if f.nesting == tfprotov6.SchemaNestedBlockNestingModeMap {
				m := map[string]property.Value{}
				for range n {
					m[g.str()] = property.New(g.object(f.shape.elem.obj, depth+1))
				}
				v = property.New(m)
			} else {
				a := make([]property.Value, n)
				for i := range a {
					a[i] = property.New(g.object(f.shape.elem.obj, depth+1))
				}
				v = property.New(property.NewArray(a))
			}
		}
		if v.IsNull() {
			continue // FromTerraform leaves null attributes out
		}
		if f.sensitive {
			v = v.WithSecret(true)
		}
		out[f.prop] = v
	}
	return property.NewMap(out)
}

func (g gen) dynamic(depth int) property.Value {
	k := g.r.IntN(8)
	if depth > 3 {
		k %= 5
	}
	switch k {
	case 0:
		return property.New(g.str())
	case 1:
		return property.New(g.num())
	case 2:
		return property.New(g.r.IntN(2) == 0)
	case 3:
		return property.Value{}
	case 4:
		return property.New(property.Computed)
	case 5, 6:
		out := make([]property.Value, g.r.IntN(3))
		for i := range out {
			out[i] = g.dynamic(depth + 1)
		}
		return property.New(property.NewArray(out))
	default:
		out := map[string]property.Value{}
		for range g.r.IntN(3) {
			out[g.str()] = g.dynamic(depth + 1)
		}
		return property.New(out)
	}
}

func checkRoundTrip(t *testing.T, seed uint64) {
	block := testBlock()
	g := gen{rand.New(rand.NewPCG(seed, 1))}
	m := g.object(shapeOfBlock(block).obj, 0)
	got := roundTrip(t, block, m)
	if !got.Equals(m) {
		t.Fatalf("seed %d: round trip:\n got %v\nwant %v", seed, got, m)
	}
}

func TestRandomRoundTrips(t *testing.T) {
	for seed := range uint64(500) {
		checkRoundTrip(t, seed)
	}
}

func FuzzRoundTrip(f *testing.F) {
	f.Add(uint64(0))
	f.Add(uint64(12345))
	f.Fuzz(checkRoundTrip)
}

// TestArbitraryInputs gives ToTerraform values of any kind at every
// property: it errs or converts, never panics, and what it converts comes
// back.
func TestArbitraryInputs(t *testing.T) {
	block := testBlock()
	var props []string
	for _, f := range shapeOfBlock(block).obj.order {
		props = append(props, f.prop)
	}
	props = append(props, "nope", "foo_bar")
	converted := 0
	for seed := range uint64(500) {
		g := gen{rand.New(rand.NewPCG(seed, 2))}
		m := map[string]property.Value{}
		for range 1 + g.r.IntN(4) {
			v := g.dynamic(0)
			if g.r.IntN(10) == 0 {
				v = property.New(&asset.Asset{Text: "x"})
			}
			m[props[g.r.IntN(len(props))]] = v
		}
		tv, err := ToTerraform(block, property.NewMap(m))
		if err != nil {
			continue
		}
		converted++
		if _, err := FromTerraform(block, tv); err != nil {
			t.Errorf("seed %d: %v converted, but not back: %v", seed, m, err)
		}
	}
	if converted == 0 {
		t.Errorf("no input converted: the test tests only errors")
	}
	t.Logf("%d of 500 converted", converted)
}
