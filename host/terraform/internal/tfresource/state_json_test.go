package tfresource

import (
	"bytes"
	"encoding/json"
	"math"
	"testing"

	"github.com/pulumi/pulumi/sdk/v3/go/property"

	"github.com/polyhost/polyhost/host/terraform/internal/tfvalue"
)

// TestStateJSONAsJSONOf: the state JSON written straight from the
// properties (tfvalue.Block.StateJSON) is, byte for byte, what converting
// the known ones to a Terraform value and writing that (jsonOf) gives;
// what it leaves to that way, that way writes or refuses.
func TestStateJSONAsJSONOf(t *testing.T) {
	conv := tfvalue.NewBlock(testBlock)
	strs := []property.Value{{}, property.New(""), property.New("plain"), property.New(`<a href="x">&amp;</a>`),
		property.New("tab\there \\ \x00 é 😀 \u2028"), property.New("x").WithSecret(true), property.New(property.Computed), property.New(1.0)}
	nums := []property.Value{{}, property.New(0.0), property.New(-1.0), property.New(1767225600.0), property.New(float64(1 << 53)),
		property.New(float64(1<<53 + 2)), property.New(1e21), property.New(0.1), property.New(-2.5e-7), property.New(math.MaxFloat64),
		property.New(math.Inf(1)), property.New("7")}
	cfgs := []property.Value{{}, property.New(map[string]property.Value{}), property.New(map[string]property.Value{"mode": property.New("fast")}),
		property.New(map[string]property.Value{"mode": property.New("a"), "stamp": property.New("<t>")}),
		property.New(map[string]property.Value{"nope": property.New("a")}), property.New("not an object")}
	port := func(n float64, uid property.Value) property.Value {
		m := map[string]property.Value{"number": property.New(n)}
		if !uid.IsNull() {
			m["uid"] = uid
		}
		return property.New(m)
	}
	ports := []property.Value{{}, property.New([]property.Value{}), property.New([]property.Value{port(80, property.Value{})}),
		property.New([]property.Value{port(443, property.New("u443")), port(80, property.New("u80"))}), property.New(property.Computed)}
	anys := []property.Value{{}, property.New("dynamic")}
	fast, slow := 0, 0
	for i, name := range strs {
		for j, size := range nums {
			for _, cfg := range cfgs {
				for _, p := range ports {
					for _, a := range anys {
						m := map[string]property.Value{"name": name, "arn": strs[(i+j)%len(strs)], "size": size, "cfg": cfg, "port": p, "any": a}
						if i == 2 && j == 2 {
							m["extra"] = property.New("x")
						}
						for k, v := range m {
							if v.IsNull() && (k != "name" || j%2 == 0) {
								delete(m, k)
							}
						}
						pm := property.NewMap(m)
						want, wantErr := viaJSONOf(conv, conv.Known(pm))
						got, ok := conv.StateJSON(pm)
						if !ok {
							slow++
							continue
						}
						fast++
						if wantErr != nil || !bytes.Equal(got, want) {
							t.Fatalf("%v:\n got %s\nwant %s (%v)", pm, got, want, wantErr)
						}
					}
				}
			}
		}
	}
	if fast == 0 || slow == 0 {
		t.Fatalf("%d written straight, %d the long way: both ways must be tried", fast, slow)
	}
	t.Logf("%d written straight, %d the long way", fast, slow)
}

func viaJSONOf(conv *tfvalue.Block, m property.Map) ([]byte, error) {
	v, err := conv.ToTerraform(m)
	if err != nil {
		return nil, err
	}
	j, err := jsonOf(conv.Type(), v)
	if err != nil {
		return nil, err
	}
	return json.Marshal(j)
}
