package bench

import (
	"strings"
	"testing"
	"time"
)

func TestMedian(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		in   []float64
		want float64
		ok   bool
	}{
		{nil, 0, false},
		{[]float64{3}, 3, true},
		{[]float64{5, 1, 3}, 3, true},
		{[]float64{4, 1, 3, 2}, 2.5, true},
	} {
		got, ok := median(c.in)
		if got != c.want || ok != c.ok {
			t.Errorf("median(%v) = %v, %v; want %v, %v", c.in, got, ok, c.want, c.ok)
		}
	}
}

func TestReportKeepsNotesAndEvaluatesTargets(t *testing.T) {
	t.Parallel()
	r := &Results{Config: Config{Rounds: 1, Sizes: []int{10}}, Started: time.Unix(0, 0), byKey: map[string]*Metric{},
		LoadAvgs: []string{"1 1 1", "2 2 2"}}
	add := func(key string, ours, peer, floor, bounded, allProcs, goSDK float64) {
		m := r.metric(key, key, "ms")
		m.add(Ours, ours)
		m.add(Peer, peer)
		m.add(Floor, floor)
		m.add(BoundedFloor, bounded)
		m.add(OursAllProcs, allProcs)
		m.add(OursGoSDK, goSDK)
	}
	add("construct.update.10.cpu", 40, 100, 20, 25, 55, 90)  // 0.40 of the peer, 1.60 of the bounded floor; Go SDK path 2.25
	add("construct.update.10.rss", 60, 100, 20, 20, 65, 90)  // 0.60 of the peer; Go SDK path 1.50
	add("construct.update.10.wall", 14, 20, 10, 10, 14, 16)  // 1.40 of the floor
	add("construct.preview.10.wall", 12, 20, 10, 10, 12, 14) // 1.20 of the floor
	met := map[string]bool{}
	context := map[string]float64{}
	for _, tg := range r.Targets() {
		switch {
		case tg.OK && tg.Limit == 0:
			context[tg.Name] = tg.Value
		case tg.OK:
			met[tg.Name] = tg.Met()
		}
	}
	want := map[string]bool{
		"provider CPU ours/peer, update, 10 pages":          true,
		"provider peak RSS ours/peer, update, 10 pages":     false,
		"Construct wall time ours/floor, update, 10 pages":  false,
		"Construct wall time ours/floor, preview, 10 pages": true,
	}
	for k, v := range want {
		if got, ok := met[k]; !ok || got != v {
			t.Errorf("target %q: met=%v (evaluated %v), want %v", k, got, ok, v)
		}
	}
	wantContext := map[string]float64{
		"context: provider CPU floor/peer, the least a provider on our monitor client reaches, update, 10 pages": 0.20,
		"context: provider CPU bounded floor/peer, a plain semaphore of `parallel`, update, 10 pages":            0.25,
		"context: provider CPU ours/bounded floor, update, 10 pages":                                             1.60,
		"context: provider CPU ours with a thread per core/peer, update, 10 pages":                               0.55,
		"context: provider CPU ours on the Go SDK path (host/gosdk)/ours on the raw path, update, 10 pages":      2.25,
		"context: provider peak RSS ours on the Go SDK path/raw path, update, 10 pages":                          1.50,
	}
	for k, v := range wantContext {
		if got, ok := context[k]; !ok || got != v {
			t.Errorf("context row %q = %v (present %v), want %v", k, got, ok, v)
		}
	}
	if len(met)+len(context) != 10 {
		t.Errorf("evaluated %d targets and %d context rows: %v %v", len(met), len(context), met, context)
	}
	doc := r.Markdown(Machine{}, "polybench", "kept *notes*", "")
	if got := KeptNotes(doc); got != "kept *notes*" {
		t.Errorf("KeptNotes = %q", got)
	}
	if !strings.Contains(doc, "| construct.update.10.cpu | ms | 40.0 | 100 | 20.0 | 25.0 | 55.0 | 90.0 | 0.40 | 2.00 | 1.60 |") {
		t.Errorf("results table row missing:\n%s", doc)
	}
}
