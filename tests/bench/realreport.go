package bench

import (
	"fmt"
	"maps"
	"slices"
	"strings"
	"time"
)

// implTitle names an implementation in the report's columns.
func implTitle(i Impl) string {
	switch i {
	case Ours:
		return "ours"
	case Peer:
		return "Go SDK peer"
	case TypeScript:
		return "TypeScript host"
	case Python:
		return "Python host"
	}
	return string(i)
}

// med is the median of impl's samples of key, if there are any.
func (r *RealResults) med(key string, impl Impl) (float64, bool) {
	if m := r.Metric(key); m != nil {
		return m.Median(impl)
	}
	return 0, false
}

func (r *RealResults) has(impl Impl) bool { return slices.Contains(r.Config.Impls, impl) }

func (r *RealResults) sizes() []int {
	return append(append([]int{}, r.Config.Sizes...), r.Config.BigSizes...)
}

// Targets evaluates the real-engine targets; Limit 0 marks
// context rows.
func (r *RealResults) Targets() []Target {
	var ts []Target
	add := func(name string, limit float64, key string, a, b Impl) {
		v, ok := 0.0, false
		if m := r.Metric(key); m != nil {
			v, ok = m.RoundRatio(a, b)
		}
		ts = append(ts, Target{Name: name, Value: v, Limit: limit, OK: ok})
	}
	for _, n := range r.sizes() {
		k, at := realKey(1, n), fmt.Sprintf(", %d pages", n)
		if r.has(Peer) && n >= 1000 {
			add("provider CPU ours/Go SDK peer"+at, 0.5, k+".cpu", Ours, Peer)
			limit := 0.0
			if n >= 10000 {
				limit = 0.15
			}
			add("provider peak RSS ours/Go SDK peer"+at, limit, k+".rss", Ours, Peer)
			limit = 0
			if n >= 10000 {
				limit = 0.6
			}
			add("`pulumi up` wall time ours/Go SDK peer"+at, limit, k+".wall", Ours, Peer)
			add("context: CPU of the CLI process itself (the engine) ours/Go SDK peer"+at, 0, k+".engine_cpu", Ours, Peer)
			v, ok := r.freeBound(k)
			ts = append(ts, Target{Name: "context: the least `pulumi up` wall time a provider costing nothing could reach (ours' wall less ours' CPU)/Go SDK peer's wall" + at, Value: v, OK: ok})
		}
		for _, h := range Hosts {
			if !r.has(h) {
				continue
			}
			add("provider peak RSS ours/"+implTitle(h)+at, 1.0/3, k+".rss", Ours, h)
			if m := r.Metric(k + ".rss"); m != nil {
				v, ok := hostsTotalRSS(m, h)
				ts = append(ts, Target{Name: "context: peak RSS ours/(" + implTitle(h) + " + its sitekit process)" + at, Value: v, OK: ok})
			}
			if n < 1000 {
				continue
			}
			add("context: provider CPU ours (Construct and CRUD)/"+implTitle(h)+" (Construct only)"+at, 0, k+".cpu", Ours, h)
			add("context: CPU of all plugin processes ours/"+implTitle(h)+at, 0, k+".total_cpu", Ours, h)
			add("context: `pulumi up` wall time ours/"+implTitle(h)+at, 0, k+".wall", Ours, h)
		}
	}
	for _, n := range r.Config.Reup {
		if r.has(Peer) {
			add(fmt.Sprintf("context: provider CPU ours/Go SDK peer, second update without changes, %d pages", n), 0, realKey(1, n)+".reup.cpu", Ours, Peer)
		}
	}
	for _, h := range Hosts {
		if r.has(h) {
			add("cold start (exec to port line) ours/"+implTitle(h), 1.0/3, "real.coldstart.port", Ours, h)
		}
	}
	return ts
}

// Markdown renders the real-engine section of docs/performance.md.
func (r *RealResults) Markdown() string {
	var b strings.Builder
	w := func(format string, a ...any) { fmt.Fprintf(&b, format, a...) }
	w("## Real engine\n\n")
	w("The measurements took %s. Load average (1, 5, 15 min) before: %s; after: %s.\n\n",
		r.Elapsed.Round(time.Second), r.LoadAvgs[0], r.LoadAvgs[len(r.LoadAvgs)-1])
	w("Versions:\n\n")
	for _, k := range slices.Sorted(maps.Keys(r.Versions)) {
		w("- %s: %s\n", k, r.Versions[k])
	}
	w("\nEach deployment is `pulumi up --yes --skip-preview --non-interactive` of a YAML program (`runtime: yaml`) on a fresh stack in a file backend in a temporary directory, with `PULUMI_SKIP_CHECKPOINTS=true`, as a user runs it: one Site (or, in the scale series, many), its provider named by `plugins.providers` in Pulumi.yaml, sitekit configured with `mem://` storage. Implementations:\n\n")
	w("- **ours**: the shipped plugin, serving Construct and the children's CRUD in one process.\n")
	w("- **Go SDK peer**: `tests/peer`, the same plugin with Construct on the Go SDK's `provider.Construct`, also one process, served by the SDK's `provider.Main`: its CRUD runs the host's code, but its requests and answers go through proto, where `host.Serve` reads and writes the values of Check, Create and Diff as bytes (`host/internal/rpc/codec.go`).\n")
	w("- **TypeScript host**: the same Site, PageSet and children written in TypeScript on `componentProviderHost` (`tests/bench/peers/typescript`, package sitekitts, compiled with tsc beforehand and run with node; the host's analyzer reads the TypeScript source to infer the schema, on the first GetSchema or Construct of each process).\n")
	w("- **Python host**: the same in Python on `component_provider_host` (`tests/bench/peers/python`, package sitekitpy, run with the virtualenv's python).\n\n")
	w("The hosts serve Construct only: the Site's children (sitekit:index:Bucket, BucketObject) are served by a second process, ours, so their *provider* columns are Construct alone, and ours does more work in its one process than theirs does. Neither host serves methods (Call): Node's answers `unknown function`, Python's base provider raises; so Site.pageUrl is not compared, and neither host can type the Site's `bucket` output as a reference to another package's resource (their analyzers take resource types only from Pulumi package SDKs), so both declare it `Any`; it still travels as a resource reference. *Provider CPU* and *peak RSS* are the serving plugin process's whole life (`wait4` in `tests/bench/cmd/rusagewrap`); the YAML host also starts each plugin once more to read its schema, shown apart (*other processes*). *Wall time* is the CLI's, exec to exit. *CPU of the CLI process itself* is the engine's work: the `pulumi` process's own threads, without its children (the language host, the plugins), read from `/proc/<pid>/stat` every 5 ms until it exits. Taking all of a provider's CPU away saves at most that CPU in wall time, so ours' wall less ours' CPU is the least wall time any provider doing the same work could reach with this engine on this machine (a context row of the targets). The *second update without changes* runs `pulumi up` again on the same stack: Construct again, and Check and Diff for every child. *Cold start* is the plugin started directly against a stub engine.\n\n")
	w("Medians of %d round(s) at %s pages", r.Config.Rounds, joinInts(r.Config.Sizes))
	if len(r.Config.BigSizes) > 0 {
		w(", %d at %s pages", min(r.Config.BigRounds, r.Config.Rounds), joinInts(r.Config.BigSizes))
	}
	w("; the scale series ran in %d round(s). Ratios are medians of the ratios within each round.\n\n", min(r.Config.BigRounds, r.Config.Rounds))

	w("### Targets\n\n| target | measured | limit | met |\n|---|---:|---:|---|\n")
	for _, t := range r.Targets() {
		limit, met := fmt.Sprintf("%.2f", t.Limit), "no"
		switch {
		case t.Limit == 0:
			limit, met = "–", "–"
		case !t.OK:
			met = "not measured"
		case t.Met():
			met = "yes"
		}
		w("| %s | %s | %s | %s |\n", t.Name, fmtRatio(t.Value, t.OK), limit, met)
	}

	w("\n### Results (medians)\n\n| measurement | unit |")
	for _, impl := range r.Config.Impls {
		w(" %s |", implTitle(impl))
	}
	others := r.Config.Impls[1:]
	for _, impl := range others {
		w(" ours/%s |", implTitle(impl))
	}
	w("\n|---|---|%s\n", strings.Repeat("---:|", len(r.Config.Impls)+len(others)))
	for _, m := range r.Metrics {
		if !strings.HasPrefix(m.Key, "real.1x") && !strings.HasPrefix(m.Key, "real.coldstart") {
			continue // the scale series has a table of its own
		}
		if len(m.Samples) == 0 {
			continue
		}
		w("| %s | %s |", m.Name, m.Unit)
		for _, impl := range r.Config.Impls {
			v, ok := m.Median(impl)
			w(" %s |", fmtNum(v, ok))
		}
		for _, impl := range others {
			w(" %s |", fmtRatio(m.RoundRatio(Ours, impl)))
		}
		w("\n")
	}

	w("\n### Scale (ours)\n\n")
	w("Ours alone, one Site of N pages and many Sites of %d pages (10 children each). *Per resource* divides by the resources the provider registers (per Site: the Site, a Bucket, two Objects, a PageSet and the pages) and serves the CRUD of; *over the smallest* is the cost less that of the smallest workload (start-up, schema, the stack), per further resource. Flat columns mean linear cost.\n\n", r.Config.ScalePages)
	w("| workload | resources | provider CPU (ms) | CPU per resource (µs) | CPU over the smallest per resource (µs) | peak RSS (MB) | RSS over the smallest per resource (KB) | wall (ms) | wall per resource (ms) | Go SDK peer CPU per resource (µs) |\n|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|\n")
	var rows []ScaleRow
	for _, n := range r.sizes() {
		rows = append(rows, ScaleRow{Sites: 1, Pages: n, Key: realKey(1, n)})
	}
	rows = append(rows, r.Scale...)
	rows = slices.DeleteFunc(rows, func(row ScaleRow) bool {
		_, ok := r.med(row.Key+".cpu", Ours)
		return !ok
	})
	// The base is the workload with the fewest resources.
	base, baseCPU, baseRes := 0.0, 0.0, 0
	if len(rows) > 0 {
		b := slices.MinFunc(rows, func(a, b ScaleRow) int { return a.Resources() - b.Resources() })
		base, _ = r.med(b.Key+".rss", Ours)
		baseCPU, _ = r.med(b.Key+".cpu", Ours)
		baseRes = b.Resources()
	}
	for _, row := range rows {
		cpu, _ := r.med(row.Key+".cpu", Ours)
		rss, _ := r.med(row.Key+".rss", Ours)
		wall, _ := r.med(row.Key+".wall", Ours)
		n := row.Resources()
		over, overCPU := "–", "–"
		if n > baseRes {
			over = fmtNum((rss-base)*1024/float64(n-baseRes), true)
			overCPU = fmtNum((cpu-baseCPU)*1000/float64(n-baseRes), true)
		}
		peer, pok := r.med(row.Key+".cpu", Peer)
		what := fmt.Sprintf("1 Site of %d pages", row.Pages)
		if row.Sites > 1 {
			what = fmt.Sprintf("%d Sites of %d pages", row.Sites, row.Pages)
		}
		w("| %s | %d | %s | %s | %s | %s | %s | %s | %s | %s |\n", what, n, fmtNum(cpu, true), fmtNum(cpu*1000/float64(n), true), overCPU,
			fmtNum(rss, true), over, fmtNum(wall, true), fmtNum(wall/float64(n), true), fmtNum(peer*1000/float64(n), pok))
	}
	w("\n")
	return b.String()
}

// freeBound is the median over rounds of ours' wall time less ours'
// CPU, over the peer's wall time: taking all of ours' CPU away saves at
// most that CPU, so no provider doing the same work with the same engine
// reaches a lower wall ratio.
func (r *RealResults) freeBound(k string) (float64, bool) {
	cpu, wall := r.Metric(k+".cpu"), r.Metric(k+".wall")
	if cpu == nil || wall == nil || len(cpu.Samples[Ours]) != len(wall.Samples[Ours]) {
		return 0, false
	}
	free := make([]float64, len(wall.Samples[Ours]))
	for i, w := range wall.Samples[Ours] {
		free[i] = w - cpu.Samples[Ours][i]
	}
	return roundRatio(free, wall.Samples[Peer])
}

// hostsTotalRSS is the median over rounds of ours' peak RSS over the sum
// of the host's and its sitekit process's, both alive for the whole update.
func hostsTotalRSS(m *Metric, h Impl) (float64, bool) {
	crud := m.Samples[h+".crud"]
	ours, host := m.Samples[Ours], m.Samples[h]
	if len(ours) == 0 || len(ours) != len(host) || len(host) != len(crud) {
		return 0, false
	}
	rs := make([]float64, len(ours))
	for i := range ours {
		rs[i] = ours[i] / (host[i] + crud[i])
	}
	return median(rs)
}

func joinInts(xs []int) string {
	s := make([]string, len(xs))
	for i, x := range xs {
		s[i] = fmt.Sprint(x)
	}
	return strings.Join(s, ", ")
}
