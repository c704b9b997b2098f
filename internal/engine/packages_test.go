package engine_test

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/pulumi/pulumi/sdk/v3/go/common/providers"
	pulumirpc "github.com/pulumi/pulumi/sdk/v3/proto/go"
	"google.golang.org/protobuf/types/known/structpb"
)

// RegisterPackage hands out one reference per package, which names the
// default provider of a child and of an invoke; that provider records the
// plugin's checksums as the real engine does; an unknown reference is an
// error. A child's hideDiffs are recorded in the state. (Parameterized
// packages, and reads by reference, run end to end in real_compose_params,
// on both engines.)
func TestRegisterPackageAndHideDiffs(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	var invokedBy string
	f.up(program(func(ctx context.Context, c *client) error {
		reg := func(version string) (string, error) {
			resp, err := c.mon.RegisterPackage(ctx, &pulumirpc.RegisterPackageRequest{
				Name: "test", Version: version, Checksums: map[string][]byte{"linux-amd64": {0xab, 0xcd}},
			})
			return resp.GetRef(), err
		}
		ref, err := reg("2.0.0")
		if err != nil {
			return err
		}
		again, _ := reg("2.0.0")
		other, _ := reg("3.0.0")
		if again != ref || other == ref || ref == "" {
			return fmt.Errorf("references %q, %q (same package), %q (another version): want the first two equal", ref, again, other)
		}
		if _, err := c.mon.RegisterPackage(ctx, &pulumirpc.RegisterPackageRequest{}); err == nil {
			return errors.New("a package without a name was registered")
		}
		if _, err := c.thing(ctx, "bad", map[string]any{"value": "x"}, func(r *pulumirpc.RegisterResourceRequest) { r.PackageRef = "nope" }); err == nil ||
			!strings.Contains(err.Error(), "unknown provider package 'nope'") {
			return fmt.Errorf("unknown package reference: %v", err)
		}
		if _, err = c.thing(ctx, "t", map[string]any{"value": "x"}, func(r *pulumirpc.RegisterResourceRequest) {
			r.PackageRef, r.HideDiffs = ref, []string{"value", "nested.key"}
		}); err != nil {
			return err
		}
		info, err := c.mon.Invoke(ctx, &pulumirpc.ResourceInvokeRequest{Tok: "test:index:getInfo", Args: &structpb.Struct{}, PackageRef: ref})
		if err != nil {
			return err
		}
		invokedBy = info.GetReturn().GetFields()["providerUrn"].GetStringValue()
		return nil
	}))
	rs := f.resources()
	th := rs[thingURN("t")]
	if !strings.HasPrefix(th.Provider, "urn:pulumi:dev::proj::pulumi:providers:test::default_2_0_0::") {
		t.Errorf("provider %q, want the default provider of test 2.0.0", th.Provider)
	}
	if !slices.Equal(th.HideDiff, []string{"value", "nested.key"}) {
		t.Errorf("hideDiff %q, want [value nested.key]", th.HideDiff)
	}
	pref, err := providers.ParseReference(th.Provider)
	if err != nil {
		t.Fatal(err)
	}
	prov := rs[string(pref.URN())]
	sums := prov.Inputs.Get("__internal").AsMap().Get("pluginChecksums")
	if !sums.IsMap() || sums.AsMap().Get("linux-amd64").AsString() != "abcd" {
		t.Errorf("provider __internal.pluginChecksums %v, want {linux-amd64: abcd}", sums)
	}
	if invokedBy != prov.URN {
		t.Errorf("the invoke by package reference was answered by %q, want %q", invokedBy, prov.URN)
	}
}
