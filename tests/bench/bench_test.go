package bench

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/polyhost/polyhost/internal/engine"
)

var shared struct {
	once  sync.Once
	dir   string
	deps  string
	hosts bool // the TypeScript and Python peers are built
	bins  *Binaries
	r     *Runner
	err   error
}

func TestMain(m *testing.M) {
	code := m.Run()
	if shared.dir != "" {
		_ = os.RemoveAll(shared.dir)
	}
	os.Exit(code)
}

// setup builds the plugins once per test binary. Tests and benchmarks
// using the runner must not run in parallel with each other.
func setup(tb testing.TB) (*Binaries, *Runner) {
	tb.Helper()
	shared.once.Do(func() {
		if shared.dir, shared.err = os.MkdirTemp("", "polybench-test-"); shared.err != nil {
			return
		}
		ctx := context.Background()
		if shared.bins, shared.err = Build(ctx, filepath.Join(shared.dir, "bin")); shared.err != nil {
			return
		}
		if shared.deps, shared.err = Deps(ctx); shared.err != nil {
			return
		}
		if HaveHosts(shared.deps) {
			if shared.err = BuildHosts(ctx, shared.bins, filepath.Join(shared.dir, "bin"), shared.deps); shared.err != nil {
				return
			}
			shared.hosts = true
		}
		shared.r, shared.err = NewRunner(shared.bins, shared.dir)
	})
	if shared.err != nil {
		tb.Fatal(shared.err)
	}
	return shared.bins, shared.r
}

// randomHex matches the random parts of bucket names and access keys.
var randomHex = regexp.MustCompile(`-[0-9a-f]{8}\b|\b[0-9a-f]{32}\b`)

// describe renders a deployment's state one line per resource, with random
// names and IDs masked, for comparing implementations.
func describe(state []engine.Resource) []string {
	var out []string
	for _, r := range state {
		prov := r.Provider
		if i := strings.LastIndex(prov, "::"); i >= 0 {
			prov = prov[:i] // the ID is random
		}
		deps := slices.Clone(r.Dependencies)
		slices.Sort(deps)
		line := fmt.Sprintf("%s\n  type=%s parent=%s custom=%v provider=%s deps=%v\n  inputs=%v\n  outputs=%v",
			r.URN, r.Type, r.Parent, r.Custom, prov, deps, r.Inputs, r.Outputs)
		out = append(out, randomHex.ReplaceAllString(line, "-X"))
	}
	slices.Sort(out)
	return out
}

func mask(v any) string { return randomHex.ReplaceAllString(fmt.Sprint(v), "-X") }

// TestParity checks that the comparison is fair: the peer and the floors
// leave the same resources, inputs and outputs as ours, and pageUrl
// answers the same with each.
func TestParity(t *testing.T) {
	_, r := setup(t)
	ctx := context.Background()
	for _, preview := range []bool{true, false} {
		samples := map[Impl]Sample{}
		for _, impl := range Impls {
			s, err := r.Run(ctx, impl, Workload{Pages: 3, Calls: 2, Preview: preview})
			if err != nil {
				t.Fatal(err)
			}
			if s.Wall <= 0 || s.CPU <= 0 || s.MaxRSSKB <= 0 {
				t.Errorf("%s: implausible measurements %+v", impl, s)
			}
			samples[impl] = s
		}
		ours := samples[Ours]
		if !preview && len(ours.State) != 4+4+4 { // stack, two providers, builtin provider; Site, PageSet, Bucket, 2+3 Objects
			t.Fatalf("ours left %d resources:\n%s", len(ours.State), strings.Join(describe(ours.State), "\n"))
		}
		want := describe(ours.State)
		for _, impl := range Impls[1:] {
			if got := describe(samples[impl].State); !slices.Equal(got, want) {
				t.Errorf("preview=%v: %s state differs from ours:\n%s\nours:\n%s", preview, impl, strings.Join(got, "\n"), strings.Join(want, "\n"))
			}
		}
		for _, impl := range Impls[1:] {
			if got, want := mask(samples[impl].Outputs), mask(ours.Outputs); got != want {
				t.Errorf("preview=%v: %s Site outputs %s, ours %s", preview, impl, got, want)
			}
		}
		for _, impl := range Impls[1:] {
			if got, want := mask(samples[impl].CallReturns), mask(ours.CallReturns); got != want || len(ours.CallReturns) != 2 {
				t.Errorf("preview=%v: pageUrl returned %s with %s, %s with ours", preview, got, impl, want)
			}
		}
	}
}

func report(b *testing.B, samples []Sample) {
	var wall, cpu, childrenCPU time.Duration
	var rss int64
	for _, s := range samples {
		wall += s.Wall
		cpu += s.CPU
		childrenCPU += s.ChildrenCPU
		rss = max(rss, s.MaxRSSKB)
	}
	n := float64(len(samples))
	b.ReportMetric(ms(wall)/n, "wall-ms/op")
	b.ReportMetric(ms(cpu)/n, "cpu-ms/op")
	b.ReportMetric(ms(childrenCPU)/n, "children-cpu-ms/op")
	b.ReportMetric(float64(rss)/1024, "peak-rss-MB")
}

// The benchmarks below measure one implementation at a time; polybench
// alternates them and reports medians and ratios. Each op is one whole
// deployment; the custom metrics are what matters.

func BenchmarkConstruct(b *testing.B) {
	_, r := setup(b)
	for _, mode := range []string{"preview", "update"} {
		for _, n := range []int{1, 100, 1000} {
			for _, impl := range Impls {
				b.Run(fmt.Sprintf("%s/pages=%d/%s", mode, n, impl), func(b *testing.B) {
					var samples []Sample
					for b.Loop() {
						s, err := r.Run(context.Background(), impl, Workload{Pages: n, Preview: mode == "preview"})
						if err != nil {
							b.Fatal(err)
						}
						samples = append(samples, s)
					}
					report(b, samples)
				})
			}
		}
	}
}

func BenchmarkConcurrent(b *testing.B) {
	_, r := setup(b)
	for _, impl := range Impls {
		b.Run(string(impl), func(b *testing.B) {
			var samples []Sample
			for b.Loop() {
				s, err := r.Run(context.Background(), impl, Workload{Sites: 50, Pages: 10})
				if err != nil {
					b.Fatal(err)
				}
				samples = append(samples, s)
			}
			report(b, samples)
		})
	}
}

func BenchmarkCall(b *testing.B) {
	_, r := setup(b)
	for _, impl := range []Impl{Ours, Peer} {
		b.Run(string(impl), func(b *testing.B) {
			var total time.Duration
			calls := 0
			for b.Loop() {
				s, err := r.Run(context.Background(), impl, Workload{Pages: 1, Calls: 21})
				if err != nil {
					b.Fatal(err)
				}
				for _, d := range s.CallTimes[1:] {
					total += d
					calls++
				}
			}
			b.ReportMetric(ms(total)/float64(calls), "ms/call")
		})
	}
}

func BenchmarkColdStart(b *testing.B) {
	bins, _ := setup(b)
	stub, err := startStubEngine()
	if err != nil {
		b.Fatal(err)
	}
	defer stub.Close()
	for _, impl := range []Impl{Ours, Peer} {
		b.Run(string(impl), func(b *testing.B) {
			var total time.Duration
			n := 0
			for b.Loop() {
				d, err := ColdStart(context.Background(), bins.Direct[impl], stub.addr)
				if err != nil {
					b.Fatal(err)
				}
				total += d
				n++
			}
			b.ReportMetric(ms(total)/float64(n), "ms/start")
		})
	}
}
