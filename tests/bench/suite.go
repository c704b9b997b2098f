package bench

import (
	"context"
	"fmt"
	"io"
	"time"
)

// Config says how much work a suite run does.
type Config struct {
	// Rounds of the whole suite; in each round every implementation does
	// every measurement once, in a rotating order.
	Rounds int
	// Sizes are the page counts of the single-Site measurements.
	Sizes []int
	// ConcurrentSites Sites of ConcurrentPages pages each are registered
	// at once in the concurrency measurement.
	ConcurrentSites, ConcurrentPages int
	// Calls is the number of Site.pageUrl calls per round and
	// implementation; the first of each run is a warm-up and not counted.
	Calls int
	// ColdStarts per round and implementation.
	ColdStarts int
	// Progress receives one line per measurement (optional).
	Progress io.Writer
}

// DefaultConfig is the configuration polybench runs by default.
func DefaultConfig() Config {
	return Config{
		Rounds: 15, Sizes: []int{1, 100, 1000},
		ConcurrentSites: 50, ConcurrentPages: 10,
		Calls: 21, ColdStarts: 3,
	}
}

// Metric is one measured quantity with its samples per implementation.
type Metric struct {
	Key     string // stable identifier, e.g. "construct.update.1000.cpu"
	Name    string // for people
	Unit    string // "ms" or "MB"
	Samples map[Impl][]float64
}

func (m *Metric) add(impl Impl, v float64) { m.Samples[impl] = append(m.Samples[impl], v) }

// Median of impl's samples; ok is false if there are none.
func (m *Metric) Median(impl Impl) (float64, bool) {
	return median(m.Samples[impl])
}

// Results are the metrics of a suite run, in report order.
type Results struct {
	Config   Config
	Started  time.Time
	Elapsed  time.Duration
	Metrics  []*Metric
	byKey    map[string]*Metric
	LoadAvgs []string // /proc/loadavg before and after
}

// Metric returns the metric with key, or nil.
func (r *Results) Metric(key string) *Metric { return r.byKey[key] }

func (r *Results) metric(key, name, unit string) *Metric {
	if m, ok := r.byKey[key]; ok {
		return m
	}
	m := &Metric{Key: key, Name: name, Unit: unit, Samples: map[Impl][]float64{}}
	r.byKey[key] = m
	r.Metrics = append(r.Metrics, m)
	return m
}

func ms(d time.Duration) float64 { return float64(d) / float64(time.Millisecond) }

// rotate returns impls starting at index round, so no implementation
// always runs first (or right after a particular other one).
func rotate(impls []Impl, round int) []Impl {
	out := make([]Impl, len(impls))
	for i := range impls {
		out[i] = impls[(i+round)%len(impls)]
	}
	return out
}

// RunSuite runs every measurement cfg.Rounds times, alternating the
// implementations within each round.
func RunSuite(ctx context.Context, bins *Binaries, r *Runner, cfg Config) (*Results, error) {
	res := &Results{Config: cfg, Started: time.Now(), byKey: map[string]*Metric{}}
	res.LoadAvgs = append(res.LoadAvgs, loadAvg())
	progress := func(format string, a ...any) {
		if cfg.Progress != nil {
			fmt.Fprintf(cfg.Progress, format+"\n", a...)
		}
	}
	// Declare the metrics up front so the report order does not depend on
	// which sample came first.
	for _, mode := range []string{"preview", "update"} {
		for _, n := range cfg.Sizes {
			k := fmt.Sprintf("construct.%s.%d", mode, n)
			what := fmt.Sprintf("%s, Site with %d page(s)", mode, n)
			res.metric(k+".wall", "Construct wall time, "+what, "ms")
			res.metric(k+".cpu", "provider CPU, "+what, "ms")
			res.metric(k+".rss", "provider peak RSS, "+what, "MB")
			res.metric(k+".children_cpu", "children's provider CPU (CRUD, same code in all), "+what, "ms")
		}
	}
	concurrent := fmt.Sprintf("%d Sites of %d pages at once", cfg.ConcurrentSites, cfg.ConcurrentPages)
	res.metric("concurrent.wall", "wall time, "+concurrent+" (update)", "ms")
	res.metric("concurrent.cpu", "provider CPU, "+concurrent+" (update)", "ms")
	res.metric("concurrent.rss", "provider peak RSS, "+concurrent+" (update)", "MB")
	res.metric("concurrent.children_cpu", "children's provider CPU, "+concurrent+" (update)", "ms")
	res.metric("call.roundtrip", "Site.pageUrl call round trip (program to program)", "ms")
	res.metric("coldstart", "cold start, exec to answered Handshake", "ms")

	stub, err := startStubEngine()
	if err != nil {
		return nil, err
	}
	defer stub.Close()
	// Warm the page cache and the build's first-run costs.
	for _, impl := range []Impl{Ours, Peer, OursGoSDK} {
		if _, err := ColdStart(ctx, bins.Direct[impl], stub.addr); err != nil {
			return nil, err
		}
	}

	all := Impls
	for round := range cfg.Rounds {
		progress("round %d/%d", round+1, cfg.Rounds)
		for _, preview := range []bool{true, false} {
			mode := "update"
			if preview {
				mode = "preview"
			}
			for _, n := range cfg.Sizes {
				k := fmt.Sprintf("construct.%s.%d", mode, n)
				for _, impl := range rotate(all, round) {
					s, err := r.Run(ctx, impl, Workload{Pages: n, Preview: preview})
					if err != nil {
						return nil, err
					}
					res.Metric(k+".wall").add(impl, ms(s.Wall))
					res.Metric(k+".cpu").add(impl, ms(s.CPU))
					res.Metric(k+".rss").add(impl, float64(s.MaxRSSKB)/1024)
					res.Metric(k+".children_cpu").add(impl, ms(s.ChildrenCPU))
					progress("  %-5s %-7s %4d pages: wall %7.1fms cpu %7.1fms rss %5.1fMB children cpu %7.1fms", impl, mode, n, ms(s.Wall), ms(s.CPU), float64(s.MaxRSSKB)/1024, ms(s.ChildrenCPU))
				}
			}
		}
		for _, impl := range rotate(all, round) {
			s, err := r.Run(ctx, impl, Workload{Sites: cfg.ConcurrentSites, Pages: cfg.ConcurrentPages})
			if err != nil {
				return nil, err
			}
			res.Metric("concurrent.wall").add(impl, ms(s.Wall))
			res.Metric("concurrent.cpu").add(impl, ms(s.CPU))
			res.Metric("concurrent.rss").add(impl, float64(s.MaxRSSKB)/1024)
			res.Metric("concurrent.children_cpu").add(impl, ms(s.ChildrenCPU))
			progress("  %-5s concurrent: wall %7.1fms cpu %7.1fms", impl, ms(s.Wall), ms(s.CPU))
		}
		for _, impl := range rotate([]Impl{Ours, Peer, OursGoSDK}, round) {
			if cfg.Calls > 1 {
				s, err := r.Run(ctx, impl, Workload{Pages: 1, Calls: cfg.Calls})
				if err != nil {
					return nil, err
				}
				for _, d := range s.CallTimes[1:] {
					res.Metric("call.roundtrip").add(impl, ms(d))
				}
			}
			for range cfg.ColdStarts {
				d, err := ColdStart(ctx, bins.Direct[impl], stub.addr)
				if err != nil {
					return nil, err
				}
				res.Metric("coldstart").add(impl, ms(d))
			}
		}
	}
	res.Elapsed = time.Since(res.Started)
	res.LoadAvgs = append(res.LoadAvgs, loadAvg())
	return res, nil
}
