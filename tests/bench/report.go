package bench

import (
	"bufio"
	"fmt"
	"os"
	"os/exec"
	"runtime"
	"slices"
	"strings"
	"time"
)

func median(xs []float64) (float64, bool) {
	if len(xs) == 0 {
		return 0, false
	}
	s := slices.Clone(xs)
	slices.Sort(s)
	n := len(s)
	if n%2 == 1 {
		return s[n/2], true
	}
	return (s[n/2-1] + s[n/2]) / 2, true
}

func loadAvg() string {
	data, err := os.ReadFile("/proc/loadavg")
	if err != nil {
		return "unknown"
	}
	f := strings.Fields(string(data))
	if len(f) < 3 {
		return "unknown"
	}
	return strings.Join(f[:3], " ")
}

// Machine describes where a suite ran.
type Machine struct {
	CPU, Memory, Kernel, Go, Commit string
	Cores, MaxProcs                 int
}

// ThisMachine collects what /proc, the Go runtime and git say.
func ThisMachine() Machine {
	m := Machine{CPU: "unknown", Memory: "unknown", Kernel: "unknown", Commit: "unknown",
		Go: runtime.Version(), Cores: runtime.NumCPU(), MaxProcs: runtime.GOMAXPROCS(0)}
	if f, err := os.Open("/proc/cpuinfo"); err == nil {
		sc := bufio.NewScanner(f)
		for sc.Scan() {
			if k, v, ok := strings.Cut(sc.Text(), ":"); ok && strings.TrimSpace(k) == "model name" {
				m.CPU = strings.TrimSpace(v)
				break
			}
		}
		_ = f.Close()
	}
	if f, err := os.Open("/proc/meminfo"); err == nil {
		sc := bufio.NewScanner(f)
		for sc.Scan() {
			if k, v, ok := strings.Cut(sc.Text(), ":"); ok && k == "MemTotal" {
				var kb int64
				if _, err := fmt.Sscanf(strings.TrimSpace(v), "%d kB", &kb); err == nil {
					m.Memory = fmt.Sprintf("%.1f GiB", float64(kb)/(1<<20))
				}
				break
			}
		}
		_ = f.Close()
	}
	if data, err := os.ReadFile("/proc/sys/kernel/osrelease"); err == nil {
		m.Kernel = "Linux " + strings.TrimSpace(string(data))
	}
	if out, err := exec.Command("git", "rev-parse", "--short", "HEAD").Output(); err == nil {
		m.Commit = strings.TrimSpace(string(out))
		if st, err := exec.Command("git", "status", "--porcelain", "--untracked-files=no").Output(); err == nil && len(st) > 0 {
			m.Commit += " (with uncommitted changes)"
		}
	}
	return m
}

// Target is one of the performance targets, evaluated on medians,
// or, with Limit 0, a ratio shown beside them for context.
type Target struct {
	Name  string
	Value float64 // the measured ratio
	Limit float64 // met if Value <= Limit; 0 for context rows
	OK    bool    // measured at all
}

// Met reports whether the target is met.
func (t Target) Met() bool { return t.OK && t.Value <= t.Limit }

func (r *Results) ratio(key string, a, b Impl) (float64, bool) {
	m := r.Metric(key)
	if m == nil {
		return 0, false
	}
	x, ok1 := m.Median(a)
	y, ok2 := m.Median(b)
	if !ok1 || !ok2 || y == 0 {
		return 0, false
	}
	return x / y, true
}

// Targets evaluates the targets at the largest size, each mode
// followed by its context rows.
func (r *Results) Targets() []Target {
	n := slices.Max(r.Config.Sizes)
	var ts []Target
	add := func(name string, limit float64, v float64, ok bool) {
		ts = append(ts, Target{Name: name, Value: v, Limit: limit, OK: ok})
	}
	for _, mode := range []string{"update", "preview"} {
		k := fmt.Sprintf("construct.%s.%d", mode, n)
		at := fmt.Sprintf(", %s, %d pages", mode, n)
		v, ok := r.ratio(k+".cpu", Ours, Peer)
		add("provider CPU ours/peer"+at, 0.5, v, ok)
		v, ok = r.ratio(k+".rss", Ours, Peer)
		add("provider peak RSS ours/peer"+at, 0.5, v, ok)
		v, ok = r.ratio(k+".wall", Ours, Floor)
		add("Construct wall time ours/floor"+at, 1.3, v, ok)
		v, ok = r.ratio(k+".cpu", Floor, Peer)
		add("context: provider CPU floor/peer, the least a provider on our monitor client reaches"+at, 0, v, ok)
		v, ok = r.ratio(k+".cpu", BoundedFloor, Peer)
		add("context: provider CPU bounded floor/peer, a plain semaphore of `parallel`"+at, 0, v, ok)
		v, ok = r.ratio(k+".cpu", Ours, BoundedFloor)
		add("context: provider CPU ours/bounded floor"+at, 0, v, ok)
		v, ok = r.ratio(k+".cpu", OursAllProcs, Peer)
		add("context: provider CPU ours with a thread per core/peer"+at, 0, v, ok)
		v, ok = r.ratio(k+".cpu", OursGoSDK, Ours)
		add("context: provider CPU ours on the Go SDK path (host/gosdk)/ours on the raw path"+at, 0, v, ok)
		v, ok = r.ratio(k+".rss", OursGoSDK, Ours)
		add("context: provider peak RSS ours on the Go SDK path/raw path"+at, 0, v, ok)
	}
	return ts
}

func fmtNum(v float64, ok bool) string {
	switch {
	case !ok:
		return "–"
	case v >= 100:
		return fmt.Sprintf("%.0f", v)
	case v >= 10:
		return fmt.Sprintf("%.1f", v)
	default:
		return fmt.Sprintf("%.2f", v)
	}
}

func fmtRatio(v float64, ok bool) string {
	if !ok {
		return "–"
	}
	return fmt.Sprintf("%.2f", v)
}

// Markdown renders the results as docs/performance.md. command is the
// command line that produced them; notes and profile are extra sections
// (hand-written notes, profile output), left out when empty; sections
// (the real engine's) go after the embedded engine's results.
func (r *Results) Markdown(m Machine, command, notes, profile string, sections ...string) string {
	var b strings.Builder
	w := func(format string, a ...any) { fmt.Fprintf(&b, format, a...) }
	w("# Performance\n\n")
	w("<!-- Generated by polybench (tests/bench/cmd/polybench). Edit only the notes section; the rest is rewritten on every run. -->\n\n")
	w("Generated by\n\n```sh\n%s\n```\n\n", command)
	w("on %s; the measurements took %s.\n\n", r.Started.UTC().Format("2006-01-02 15:04 MST"), r.Elapsed.Round(time.Second))

	w("## Machine\n\n")
	w("- CPU: %s, %d cores (GOMAXPROCS %d)\n", m.CPU, m.Cores, m.MaxProcs)
	w("- Memory: %s; kernel: %s; Go: %s\n", m.Memory, m.Kernel, m.Go)
	w("- Commit: %s\n", m.Commit)
	w("- ")
	if len(r.LoadAvgs) > 0 {
		w("Load average (1, 5, 15 min) before the embedded engine's runs: %s; after: %s. ", r.LoadAvgs[0], r.LoadAvgs[len(r.LoadAvgs)-1])
	}
	w("The machine is shared, so other work adds noise: compare ratios from one run, not absolute numbers across runs.\n\n")
	if len(r.Metrics) > 0 {
		r.embeddedMarkdown(w)
	}
	for _, sec := range sections {
		w("%s\n", strings.TrimSpace(sec)+"\n")
	}
	if profile != "" {
		w("## Profile\n\n%s\n", strings.TrimSpace(profile)+"\n")
	}
	w("## Notes\n\n%s\n\n", notesBegin)
	if notes = strings.TrimSpace(notes); notes != "" {
		w("%s\n\n", notes)
	}
	w("%s\n", notesEnd)
	return b.String()
}

func (r *Results) embeddedMarkdown(w func(string, ...any)) {
	w("## Embedded engine\n\n")
	w("### What is measured\n\n")
	w("- **ours**: the shipped plugin, `provider/cmd/pulumi-resource-sitekit`.\n")
	w("- **peer**: the same plugin with Construct of Site/PageSet and Call of Site.pageUrl replaced by the Go SDK's `provider.Construct`/`provider.Call` with a `pulumi.Context` implementation, served by the SDK's `provider.Main` (`tests/peer`); every other RPC is the same code.\n")
	w("- **floor**: the same plugin with Construct of Site replaced by a bare monitor client (`monitorclient`, as ours uses) sending exactly the registrations ours sends (same names, parents, inputs, dependencies and outputs, all at once) and nothing else (`tests/bench/floor`), served like ours: without the Go SDK's program model, on one Go thread. This is the engine-bound limit: for wall time, and for the CPU a provider spends on the same Construct with the same client.\n")
	w("- **bounded floor**: the floor with a plain semaphore keeping at most the engine's `parallel` registrations in flight, so that each answer lets one more out. Ours keeps the same bound, but refills it in halves (`host/internal/core/window.go`).\n")
	w("- **ours, thread per core**: ours with Go's default GOMAXPROCS (here a thread per core) instead of the one thread `host.Main` sets (`host.WithMaxProcs(0)`, `tests/bench/cmd/sitekit-allprocs`): what that setting saves. The peer runs with Go's default; the children's provider, always ours, with one thread.\n")
	w("- **ours, Go SDK path**: ours with Site, PageSet and Site.pageUrl written with the Go SDK (the peer's code) and served by `host/gosdk` in the same host, on one thread (`tests/bench/cmd/sitekit-gosdk`): what a component written on a `pulumi.Context` costs against the raw path.\n\n")
	w("Each deployment runs on the embedded engine (`internal/engine`) on a fresh stack, with a program written directly against the monitor (`tests/bench/program.go`). It registers the stack and two explicit sitekit providers, each its own plugin process, started before the clock does: the *component provider* gets the Site registrations (Construct) and the Site.pageUrl calls; the Site's custom children name the *children's provider* in the Site's providers map, so their CRUD runs there, as the children of a real component package usually belong to other packages' providers. *Construct wall time* is timed by the program from sending the Site registration to its answer. A Site with N pages has N+4 children: a Bucket, index and error Objects, and a PageSet with N Objects. *Provider CPU* (user+system) and *peak RSS* are the component provider process's whole life, from `wait4` in a wrapper (`tests/bench/cmd/rusagewrap`) that the engine starts in place of the plugin; the children's provider is measured the same way and shown for completeness. Storage is `mem://`.\n\n")
	w("Every number is the median of %d round(s); in each round each implementation does each measurement once, in an order that rotates from round to round. Call round trips: %d calls per round after one warm-up call, timed by the program. Cold start: the plugin binary started directly with a stub engine address, %d times per round.\n\n",
		r.Config.Rounds, max(r.Config.Calls-1, 0), r.Config.ColdStarts)

	w("### Targets\n\n")
	w("| target | measured | limit | met |\n|---|---:|---:|---|\n")
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
	w("\nThe *context* rows are not targets. The floors send the same registrations with a bare client and do nothing else, so floor/peer is the lowest provider CPU ratio a provider on our monitor client can reach; bounded floor/peer is what a bare client pays for keeping the bound with a plain semaphore. Ours with a thread per core/peer is the ratio without `host.Main`'s GOMAXPROCS; the Go SDK path/raw path rows are what `host/gosdk` costs.\n\n")

	w("### Results (medians)\n\n")
	w("| measurement | unit | ours | peer | floor | bounded floor | ours, thread per core | ours, Go SDK path | ours/peer | ours/floor | ours/bounded floor |\n|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|\n")
	for _, mt := range r.Metrics {
		o, ook := mt.Median(Ours)
		p, pok := mt.Median(Peer)
		f, fok := mt.Median(Floor)
		bf, bfok := mt.Median(BoundedFloor)
		all, allok := mt.Median(OursAllProcs)
		sdk, sdkok := mt.Median(OursGoSDK)
		ratio := func(d float64, dok bool) string { return fmtRatio(o/d, ook && dok && d != 0) }
		w("| %s | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s |\n", mt.Name, mt.Unit,
			fmtNum(o, ook), fmtNum(p, pok), fmtNum(f, fok), fmtNum(bf, bfok), fmtNum(all, allok), fmtNum(sdk, sdkok), ratio(p, pok), ratio(f, fok), ratio(bf, bfok))
	}
	w("\n")
}

const (
	notesBegin = "<!-- notes: kept across runs -->"
	notesEnd   = "<!-- end of notes -->"
)

// KeptNotes returns the notes section of an earlier report, if any.
func KeptNotes(doc string) string {
	_, rest, ok := strings.Cut(doc, notesBegin)
	if !ok {
		return ""
	}
	notes, _, _ := strings.Cut(rest, notesEnd)
	return strings.TrimSpace(notes)
}
