package engine_test

import (
	"context"
	"slices"
	"sort"
	"strings"
	"testing"

	"github.com/polyhost/polyhost/internal/engine"
	"github.com/pulumi/pulumi/sdk/v3/go/common/resource"
	pulumirpc "github.com/pulumi/pulumi/sdk/v3/proto/go"
)

const (
	defProv010 = "urn:pulumi:dev::proj::pulumi:providers:test::default_0_1_0"
	compC      = "urn:pulumi:dev::proj::test:index:Comp::c"
	compChildC = "urn:pulumi:dev::proj::test:index:Comp$test:index:Thing::c-child"
)

func version(v string) regOpt {
	return func(r *pulumirpc.RegisterResourceRequest) { r.Version = v }
}

// providerURNs lists the live provider rows of the state.
func (f *fixture) providerURNs() []string {
	var out []string
	for urn := range f.resources() {
		if strings.Contains(urn, "::pulumi:providers:") {
			out = append(out, urn)
		}
	}
	sort.Strings(out)
	return out
}

// versionedComp registers component c with the given version, as a
// generated SDK does; the test provider registers c-child with none.
func versionedComp(v string) program {
	return program(func(ctx context.Context, c *client) error {
		_, err := c.register(ctx, "test:index:Comp", "c", false,
			resource.NewPropertyMapFromMap(map[string]any{"prefix": "p"}), remote(), version(v))
		return err
	})
}

// The language host reports the package's version (a generated SDK), so a
// request without one, such as the component's children registered by the
// provider, gets the same versioned default provider (the real engine's
// defaultProviders.normalizeProviderRequest).
func TestVersionedDefaultProvider(t *testing.T) {
	t.Parallel()
	f := newFixture(t, func(o *engine.Options) {
		o.Packages = []engine.Package{{Name: "test", Version: "0.1.0"}}
	})
	var invokedBy string
	f.up(program(func(ctx context.Context, c *client) error {
		if err := versionedComp("0.1.0")(ctx, c); err != nil {
			return err
		}
		if _, err := c.thing(ctx, "plain", map[string]any{"value": "v"}); err != nil {
			return err
		}
		info, err := c.invoke(ctx, "test:index:getInfo", resource.PropertyMap{}, "")
		invokedBy = strOut(info, "providerId")
		if err != nil {
			return err
		}
		_, err = c.register(ctx, "pulumi:providers:test", "explicit", true,
			resource.NewPropertyMapFromMap(map[string]any{"dir": f.cloud}))
		return err
	}))
	rs := f.resources()
	explicit := "urn:pulumi:dev::proj::pulumi:providers:test::explicit"
	if got := f.providerURNs(); !slices.Equal(got, []string{defProv010, explicit}) {
		t.Fatalf("providers %v, want one default provider %s and %s", got, defProv010, explicit)
	}
	prov := rs[defProv010]
	if v := prov.Inputs.Get("version"); !v.IsString() || v.AsString() != "0.1.0" {
		t.Fatalf("default provider inputs %v, want version 0.1.0", prov.Inputs)
	}
	// As the real engine's providers.SetProviderVersion, a version comes
	// with an (empty) "__internal" object.
	if in := prov.Inputs.Get("__internal"); !in.IsMap() || in.AsMap().Len() != 0 {
		t.Fatalf("default provider inputs %v, want __internal: {}", prov.Inputs)
	}
	ref := defProv010 + "::" + prov.ID
	if rs[compChildC].Provider != ref || rs[thingURN("plain")].Provider != ref || invokedBy != prov.ID {
		t.Fatalf("c-child uses %q, plain %q, invoke served by %q; want %q", rs[compChildC].Provider,
			rs[thingURN("plain")].Provider, invokedBy, ref)
	}
	// An explicit provider without a version gets the default's, as in
	// the real engine's RegisterResource.
	if v := rs[explicit].Inputs.Get("version"); !v.IsString() || v.AsString() != "0.1.0" {
		t.Fatalf("explicit provider inputs %v, want version 0.1.0", rs[explicit].Inputs)
	}
	if in := rs[explicit].Inputs.Get("__internal"); !in.IsMap() || in.AsMap().Len() != 0 {
		t.Fatalf("explicit provider inputs %v, want __internal: {}", rs[explicit].Inputs)
	}
	// stack, provider, c, c-child, plain, explicit.
	if len(rs) != 6 {
		t.Fatalf("%d resources, want 6: %v", len(rs), rs)
	}
}

// No version anywhere: the default provider is "default", without a
// version input.
func TestUnversionedDefaultProvider(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	f.up(versionedComp(""))
	rs := f.resources()
	if got := f.providerURNs(); !slices.Equal(got, []string{defProv}) {
		t.Fatalf("providers %v, want only %s", got, defProv)
	}
	if _, ok := rs[defProv].Inputs.GetOk("version"); ok {
		t.Fatalf("default provider inputs %v, want no version", rs[defProv].Inputs)
	}
	if _, ok := rs[defProv].Inputs.GetOk("__internal"); ok {
		t.Fatalf("default provider inputs %v, want no __internal", rs[defProv].Inputs)
	}
	if want := defProv + "::" + rs[defProv].ID; rs[compChildC].Provider != want {
		t.Fatalf("c-child uses %q, want %q", rs[compChildC].Provider, want)
	}
}

// Without a language host report, the real engine takes the default
// versions from the old state's providers: a fresh stack gets both
// defaults, the next update moves the children to the versioned one
// without replacing them, and "default" goes.
func TestDefaultProviderVersionFromState(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	f.up(versionedComp("0.1.0"))
	if got := f.providerURNs(); !slices.Equal(got, []string{defProv, defProv010}) {
		t.Fatalf("first run: providers %v, want %s and %s", got, defProv, defProv010)
	}
	if rs := f.resources(); rs[compChildC].Provider != defProv+"::"+rs[defProv].ID {
		t.Fatalf("first run: c-child uses %q, want %s", rs[compChildC].Provider, defProv)
	}

	res := f.up(versionedComp("0.1.0"))
	rs := f.resources()
	if got := f.providerURNs(); !slices.Equal(got, []string{defProv010}) {
		t.Fatalf("second run: providers %v, want only %s", got, defProv010)
	}
	if want := defProv010 + "::" + rs[defProv010].ID; rs[compChildC].Provider != want {
		t.Fatalf("second run: c-child uses %q, want %q", rs[compChildC].Provider, want)
	}
	if ops := res.OpsFor(compChildC); !slices.Equal(ops, []engine.Op{engine.OpSame}) {
		t.Fatalf("second run: c-child ops %v, want same", ops)
	}
	if ops := res.OpsFor(defProv); !slices.Equal(ops, []engine.Op{engine.OpDelete}) {
		t.Fatalf("second run: %s ops %v, want delete", defProv, ops)
	}
}
