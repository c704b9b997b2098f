package bench

import (
	"context"
	"slices"
	"strings"
	"testing"
)

// requireHosts skips when tests/.deps lacks what the TypeScript and Python
// peers need (bash tests/setup.sh installs it).
func requireHosts(t *testing.T) {
	t.Helper()
	if !shared.hosts {
		t.Skip("needs node, TypeScript, @pulumi/pulumi and the Python virtualenv in tests/.deps (bash tests/setup.sh)")
	}
}

// sameAsOurs masks what differs by construction: the package of the
// component (sitekitts, sitekitpy) and the component provider itself,
// which has no storage configuration.
func sameAsOurs(lines []string) []string {
	var out []string
	for _, l := range lines {
		if strings.HasPrefix(l, "urn:pulumi:dev::bench::pulumi:providers:") && strings.Contains(l, "::bench\n") {
			continue
		}
		l = strings.NewReplacer("sitekitts:", "sitekit:", "sitekitpy:", "sitekit:").Replace(l)
		out = append(out, l)
	}
	slices.Sort(out)
	return out
}

// TestHostsParity checks that the TypeScript and Python peers, on the
// embedded engine, leave the same children with the same inputs and
// outputs as ours, and return the same Site outputs.
func TestHostsParity(t *testing.T) {
	_, r := setup(t)
	requireHosts(t)
	ctx := context.Background()
	ours, err := r.Run(ctx, Ours, Workload{Pages: 3})
	if err != nil {
		t.Fatal(err)
	}
	want := sameAsOurs(describe(ours.State))
	t.Logf("ours: %d resources; Site outputs %s", len(want), mask(ours.Outputs))
	for _, impl := range Hosts {
		s, err := r.Run(ctx, impl, Workload{Pages: 3})
		if err != nil {
			t.Fatal(err)
		}
		if got := sameAsOurs(describe(s.State)); !slices.Equal(got, want) {
			t.Errorf("%s state differs from ours:\n%s\nours:\n%s", impl, strings.Join(got, "\n"), strings.Join(want, "\n"))
		}
		if got, want := strings.ReplaceAll(mask(s.Outputs), impl.Package()+":", "sitekit:"), mask(ours.Outputs); got != want {
			t.Errorf("%s Site outputs %s, ours %s", impl, got, want)
		}
	}
}
