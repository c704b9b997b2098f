package bench

import (
	"strings"
	"testing"
	"time"
)

func TestRoundRatio(t *testing.T) {
	t.Parallel()
	m := &Metric{Samples: map[Impl][]float64{Ours: {1, 4, 9}, Peer: {2, 2, 10}, Python: {1}}}
	if v, ok := m.RoundRatio(Ours, Peer); !ok || v != 0.9 { // 0.5, 2, 0.9
		t.Errorf("RoundRatio = %v, %v; want the median of the rounds' ratios, 0.9", v, ok)
	}
	if _, ok := m.RoundRatio(Ours, Python); ok {
		t.Error("RoundRatio of unequal round counts is ok")
	}
}

func TestRealReportTargets(t *testing.T) {
	t.Parallel()
	cfg := RealConfig{Rounds: 1, Sizes: []int{1000}, BigSizes: []int{10000}, BigRounds: 1,
		Impls: []Impl{Ours, Peer, TypeScript, Python}, ScaleSites: []int{10}, ScalePages: 6}
	r := &RealResults{Config: cfg, Started: time.Unix(0, 0), byKey: map[string]*Metric{}, LoadAvgs: []string{"1 1 1", "1 1 1"},
		Scale: []ScaleRow{{Sites: 10, Pages: 6, Key: realKey(10, 6)}}}
	set := func(key string, vals map[Impl]float64) {
		m := r.metric(key, key, "ms")
		for impl, v := range vals {
			m.add(impl, v)
		}
	}
	set("real.1x1000.cpu", map[Impl]float64{Ours: 40, Peer: 100, TypeScript: 800, Python: 400})
	set("real.1x1000.rss", map[Impl]float64{Ours: 30, Peer: 60, TypeScript: 300, Python: 60, Python + ".crud": 30})
	set("real.1x10000.rss", map[Impl]float64{Ours: 50, Peer: 500})
	set("real.1x10000.wall", map[Impl]float64{Ours: 70, Peer: 100})
	set("real.1x10000.cpu", map[Impl]float64{Ours: 5})
	set("real.1x10000.engine_cpu", map[Impl]float64{Ours: 130, Peer: 140})
	set("real.10x6.cpu", map[Impl]float64{Ours: 20})
	set("real.10x6.rss", map[Impl]float64{Ours: 25})
	set("real.10x6.wall", map[Impl]float64{Ours: 500})
	got := map[string]string{}
	for _, tg := range r.Targets() {
		switch {
		case !tg.OK:
			got[tg.Name] = "not measured"
		case tg.Limit == 0:
			got[tg.Name] = fmtRatio(tg.Value, true)
		case tg.Met():
			got[tg.Name] = "met"
		default:
			got[tg.Name] = "missed"
		}
	}
	for name, want := range map[string]string{
		"provider CPU ours/Go SDK peer, 1000 pages":                                         "met",
		"provider peak RSS ours/Python host, 1000 pages":                                    "missed", // 0.50
		"context: peak RSS ours/(Python host + its sitekit process), 1000 pages":            "0.33",
		"provider peak RSS ours/TypeScript host, 1000 pages":                                "met",
		"provider peak RSS ours/Go SDK peer, 10000 pages":                                   "met",    // 0.10
		"`pulumi up` wall time ours/Go SDK peer, 10000 pages":                               "missed", // 0.70
		"provider CPU ours/Go SDK peer, 10000 pages":                                        "not measured",
		"context: CPU of the CLI process itself (the engine) ours/Go SDK peer, 10000 pages": "0.93",
		// ours' 70 ms of wall time less its 5 ms of CPU, against 100 ms
		"context: the least `pulumi up` wall time a provider costing nothing could reach (ours' wall less ours' CPU)/Go SDK peer's wall, 10000 pages": "0.65",
	} {
		if got[name] != want {
			t.Errorf("%s: %q, want %q", name, got[name], want)
		}
	}
	doc := r.Markdown()
	for _, want := range []string{
		"| real.1x1000.cpu | ms | 40.0 | 100 | 800 | 400 | 0.40 | 0.05 | 0.10 |",
		"| 10 Sites of 6 pages | 110 | 20.0 | 182 |",
	} {
		if !strings.Contains(doc, want) {
			t.Errorf("report lacks %q:\n%s", want, doc)
		}
	}
	if strings.Contains(doc, ".crud") {
		t.Errorf("report shows the sitekit processes' pseudo-implementation:\n%s", doc)
	}
}
