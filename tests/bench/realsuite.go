package bench

import (
	"context"
	"fmt"
	"io"
	"slices"
	"time"
)

// RealConfig says how much work a real-engine suite run does.
type RealConfig struct {
	// Rounds of the whole suite; in each round every implementation runs
	// every workload once, in a rotating order.
	Rounds int
	// Sizes are page counts of one Site, run every round; BigSizes only in
	// the first BigRounds rounds.
	Sizes, BigSizes []int
	BigRounds       int
	// Impls are compared on one Site; ours first.
	Impls []Impl
	// ScaleSites Sites of ScalePages pages each are run with ours only,
	// in the first BigRounds rounds, for the scale table.
	ScaleSites []int
	ScalePages int
	// ColdStarts per round and implementation.
	ColdStarts int
	// Reup sizes (of Sizes) also get a second update without changes.
	Reup []int
	// Progress receives one line per measurement (optional).
	Progress io.Writer
}

// DefaultRealConfig is what polybench runs on the real engine by default.
func DefaultRealConfig() RealConfig {
	return RealConfig{
		Rounds: 5, Sizes: []int{1, 100, 1000}, BigSizes: []int{10000}, BigRounds: 1,
		Impls:      []Impl{Ours, Peer, TypeScript, Python},
		ScaleSites: []int{10, 100, 1000}, ScalePages: 6,
		ColdStarts: 3, Reup: []int{1000},
	}
}

// RealResults are the metrics of a real-engine suite run.
type RealResults struct {
	Config   RealConfig
	Started  time.Time
	Elapsed  time.Duration
	Metrics  []*Metric
	byKey    map[string]*Metric
	LoadAvgs []string // /proc/loadavg before and after
	Versions map[string]string
	// Scale is the ours-only scale series, in order.
	Scale []ScaleRow
}

// ScaleRow is one workload of the scale series: Sites Sites of Pages pages.
type ScaleRow struct {
	Sites, Pages int
	Key          string // metric key prefix
}

// Resources is how many resources the workload's Sites register in the
// provider: per Site the Site, a Bucket, two Objects, a PageSet and the
// pages.
func (s ScaleRow) Resources() int { return s.Sites * (s.Pages + 5) }

// Metric returns the metric with key, or nil.
func (r *RealResults) Metric(key string) *Metric { return r.byKey[key] }

func (r *RealResults) metric(key, name, unit string) *Metric {
	if m, ok := r.byKey[key]; ok {
		return m
	}
	m := &Metric{Key: key, Name: name, Unit: unit, Samples: map[Impl][]float64{}}
	r.byKey[key] = m
	r.Metrics = append(r.Metrics, m)
	return m
}

func realKey(sites, pages int) string { return fmt.Sprintf("real.%dx%d", sites, pages) }

// RoundRatio is the median, over rounds, of a's sample over b's sample of
// the same round; ok is false unless both have one sample per round.
func (m *Metric) RoundRatio(a, b Impl) (float64, bool) {
	return roundRatio(m.Samples[a], m.Samples[b])
}

// roundRatio is the median of xa[i]/xb[i], samples of the same rounds.
func roundRatio(xa, xb []float64) (float64, bool) {
	if len(xa) == 0 || len(xa) != len(xb) {
		return 0, false
	}
	rs := make([]float64, len(xa))
	for i := range xa {
		if xb[i] == 0 {
			return 0, false
		}
		rs[i] = xa[i] / xb[i]
	}
	return median(rs)
}

// RunRealSuite runs the real-engine workloads cfg.Rounds times, rotating
// the implementations within each round. versions are written down with
// the results.
func RunRealSuite(ctx context.Context, bins *Binaries, r *RealRunner, cfg RealConfig, versions map[string]string) (*RealResults, error) {
	res := &RealResults{Config: cfg, Started: time.Now(), byKey: map[string]*Metric{}, Versions: versions}
	res.LoadAvgs = append(res.LoadAvgs, loadAvg())
	progress := func(format string, a ...any) {
		if cfg.Progress != nil {
			fmt.Fprintf(cfg.Progress, format+"\n", a...)
		}
	}
	declare := func(k, what string) {
		res.metric(k+".wall", "`pulumi up` wall time, "+what, "ms")
		res.metric(k+".cpu", "provider CPU, "+what, "ms")
		res.metric(k+".rss", "provider peak RSS, "+what, "MB")
		res.metric(k+".crud_cpu", "CPU of the separate sitekit process serving the children's CRUD, "+what, "ms")
		res.metric(k+".other_cpu", "CPU of the plugin's other processes (the YAML host's schema loads), "+what, "ms")
		res.metric(k+".total_cpu", "CPU of all plugin processes, "+what, "ms")
		res.metric(k+".engine_cpu", "CPU of the CLI process itself (the engine), "+what, "ms")
	}
	declareSites := func(sites, pages int) string {
		k := realKey(sites, pages)
		what := fmt.Sprintf("Site with %d page(s)", pages)
		if sites > 1 {
			what = fmt.Sprintf("%d Sites of %d pages", sites, pages)
		}
		declare(k, what)
		return k
	}
	for _, n := range append(append([]int{}, cfg.Sizes...), cfg.BigSizes...) {
		declareSites(1, n)
		if slices.Contains(cfg.Reup, n) {
			declare(realKey(1, n)+".reup", fmt.Sprintf("second update without changes, Site with %d page(s)", n))
		}
	}
	for _, s := range cfg.ScaleSites {
		res.Scale = append(res.Scale, ScaleRow{Sites: s, Pages: cfg.ScalePages, Key: declareSites(s, cfg.ScalePages)})
	}
	res.metric("real.coldstart.port", "cold start, exec to the port line", "ms")
	res.metric("real.coldstart.answer", "cold start, exec to answered Handshake", "ms")

	record := func(impl Impl, k string, s RealSample) {
		res.Metric(k+".wall").add(impl, ms(s.Wall))
		res.Metric(k+".cpu").add(impl, ms(s.CPU))
		res.Metric(k+".rss").add(impl, float64(s.MaxRSSKB)/1024)
		if impl.IsHost() {
			res.Metric(k+".crud_cpu").add(impl, ms(s.CRUDCPU))
			// The sitekit process's peak RSS, under a pseudo-implementation
			// the tables leave out, for hostsTotalRSS.
			res.Metric(k+".rss").add(impl+".crud", float64(s.CRUDRSSKB)/1024)
		}
		res.Metric(k+".other_cpu").add(impl, ms(s.OtherCPU))
		res.Metric(k+".total_cpu").add(impl, ms(s.TotalCPU))
		res.Metric(k+".engine_cpu").add(impl, ms(s.EngineCPU))
		progress("  %-10s %s: wall %8.0fms cpu %8.1fms rss %6.1fMB crud %7.1fms other %7.1fms engine %8.0fms (%d processes, %d created)",
			impl, k, ms(s.Wall), ms(s.CPU), float64(s.MaxRSSKB)/1024, ms(s.CRUDCPU), ms(s.OtherCPU), ms(s.EngineCPU), s.Processes, s.Created)
	}
	run := func(impl Impl, sites, pages int) error {
		reup := sites == 1 && slices.Contains(cfg.Reup, pages)
		s, err := r.Run(ctx, impl, Workload{Sites: sites, Pages: pages, Reup: reup})
		if err != nil {
			return err
		}
		if want := 1 + sites*(pages+5); s.Created != want {
			return fmt.Errorf("%s, %d Sites of %d pages: the CLI reported %d resources created, want %d", impl, sites, pages, s.Created, want)
		}
		record(impl, realKey(sites, pages), s)
		if s.Reup != nil {
			if s.Reup.Created != 0 {
				return fmt.Errorf("%s, %d pages: the second update created %d resources", impl, pages, s.Reup.Created)
			}
			record(impl, realKey(sites, pages)+".reup", *s.Reup)
		}
		return nil
	}

	stub, err := startStubEngine()
	if err != nil {
		return nil, err
	}
	defer stub.Close()
	for _, impl := range cfg.Impls { // warm the page cache
		if _, _, err := ColdStartTimes(ctx, bins.Direct[impl], stub.addr); err != nil {
			return nil, err
		}
	}
	for round := range cfg.Rounds {
		progress("real engine, round %d/%d", round+1, cfg.Rounds)
		sizes := cfg.Sizes
		if round < cfg.BigRounds {
			sizes = append(append([]int{}, sizes...), cfg.BigSizes...)
		}
		for _, n := range sizes {
			for _, impl := range rotate(cfg.Impls, round) {
				if err := run(impl, 1, n); err != nil {
					return nil, err
				}
			}
		}
		if round < cfg.BigRounds {
			for _, sites := range cfg.ScaleSites {
				if err := run(Ours, sites, cfg.ScalePages); err != nil {
					return nil, err
				}
			}
		}
		for range cfg.ColdStarts {
			for _, impl := range rotate(cfg.Impls, round) {
				port, answered, err := ColdStartTimes(ctx, bins.Direct[impl], stub.addr)
				if err != nil {
					return nil, err
				}
				res.Metric("real.coldstart.port").add(impl, ms(port))
				res.Metric("real.coldstart.answer").add(impl, ms(answered))
			}
		}
	}
	res.Elapsed = time.Since(res.Started)
	res.LoadAvgs = append(res.LoadAvgs, loadAvg())
	return res, nil
}
