package bench

import (
	"context"
	"os"
	"path/filepath"
	"testing"
)

func realRunner(t *testing.T) *RealRunner {
	t.Helper()
	bins, _ := setup(t)
	if _, err := os.Stat(filepath.Join(shared.deps, "bin", "pulumi")); err != nil {
		t.Skip("needs the real pulumi CLI in tests/.deps/bin (bash tests/setup.sh)")
	}
	r, err := NewRealRunner(bins, t.TempDir(), shared.deps)
	if err != nil {
		t.Fatal(err)
	}
	return r
}

// TestRealParity runs one YAML program per implementation on the real CLI
// and checks that each creates the same number of resources and exports
// the same Site outputs, and that the usage records were sorted: one
// serving process, plus a sitekit process for the CRUD under a host.
func TestRealParity(t *testing.T) {
	r := realRunner(t)
	impls := []Impl{Ours, Peer}
	if shared.hosts {
		impls = append(impls, Hosts...)
	}
	ctx := context.Background()
	var want RealSample
	for i, impl := range impls {
		s, err := r.Run(ctx, impl, Workload{Pages: 3})
		if err != nil {
			t.Fatal(err)
		}
		if s.Wall <= 0 || s.CPU <= 0 || s.MaxRSSKB <= 0 || s.TotalCPU < s.CPU+s.CRUDCPU+s.OtherCPU {
			t.Errorf("%s: implausible measurements %+v", impl, s)
		}
		if impl.IsHost() != (s.CRUDCPU > 0) {
			t.Errorf("%s: CRUD process CPU %v", impl, s.CRUDCPU)
		}
		if i == 0 {
			want = s
			continue
		}
		if s.Created != want.Created {
			t.Errorf("%s created %d resources, ours %d", impl, s.Created, want.Created)
		}
		if got, w := mask(s.Outputs), mask(want.Outputs); got != w {
			t.Errorf("%s outputs %s, ours %s", impl, got, w)
		}
	}
	if want.Created != 9 {
		t.Errorf("ours created %d resources, want 9 (stack, Site, Bucket, index and error, PageSet, 3 pages)", want.Created)
	}
}
