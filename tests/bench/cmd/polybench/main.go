// Command polybench compares the host's Construct with the Go SDK's
// (tests/peer) and with the engine-bound floors on the embedded engine,
// and, on the real CLI with a YAML program, ours with the Go SDK peer and
// the TypeScript and Python component provider hosts; it writes the
// medians as Markdown (docs/performance.md). Run it from the repository
// root:
//
//	go run ./tests/bench/cmd/polybench -o docs/performance.md
//
// -quick runs one short round of each to check that everything works;
// -profile adds CPU and allocation profiles of every plugin at 1,000 pages
// on the embedded engine, -real-profile of ours and the peer, Construct
// and CRUD in one process, on the real engine. -engines, -real-* and
// -scale-* choose the work.
package main

import (
	"context"
	goflag "flag"
	"fmt"
	"io"
	"os"
	"os/signal"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"github.com/polyhost/polyhost/tests/bench"
)

func main() {
	if err := run(); err != nil {
		fmt.Fprintf(os.Stderr, "polybench: %v\n", err)
		os.Exit(1)
	}
}

func run() error {
	cfg := bench.DefaultConfig()
	// An own flag set: packages the SDK links in register flags (-v) on
	// the global one.
	flag := goflag.NewFlagSet("polybench", goflag.ContinueOnError)
	out := flag.String("o", "", "write the Markdown report to `file` (default: stdout); its notes section is kept")
	flag.IntVar(&cfg.Rounds, "rounds", cfg.Rounds, "rounds of the whole suite")
	quick := flag.Bool("quick", false, "one round at 1 and 100 pages, to check the setup")
	profile := flag.Bool("profile", false, "also profile both plugins at the largest size")
	verbose := flag.Bool("v", false, "print every sample on stderr")
	engines := flag.String("engines", "embedded,real", "which engines to run, comma-separated")
	rcfg := bench.DefaultRealConfig()
	flag.IntVar(&rcfg.Rounds, "real-rounds", rcfg.Rounds, "rounds on the real engine")
	realSizes := intsFlag(flag, "real-sizes", rcfg.Sizes, "page counts of one Site on the real engine, every round")
	bigSizes := intsFlag(flag, "real-big-sizes", rcfg.BigSizes, "page counts of one Site on the real engine, only in the first -real-big-rounds rounds")
	flag.IntVar(&rcfg.BigRounds, "real-big-rounds", rcfg.BigRounds, "rounds with -real-big-sizes and the scale series")
	impls := flag.String("real-impls", "ours,peer,typescript,python", "implementations on the real engine, ours first")
	scaleSites := intsFlag(flag, "scale-sites", rcfg.ScaleSites, "Site counts of the scale series (ours, real engine)")
	flag.IntVar(&rcfg.ScalePages, "scale-pages", rcfg.ScalePages, "pages per Site in the scale series")
	reup := intsFlag(flag, "real-reup", rcfg.Reup, "page counts (of -real-sizes) that also get a second update without changes")
	realProfile := flag.Int("real-profile", 0, "also profile ours and the peer on the real engine at this many pages (0: no)")
	if err := flag.Parse(os.Args[1:]); err == goflag.ErrHelp {
		return nil
	} else if err != nil {
		return err
	}
	if flag.NArg() > 0 {
		return fmt.Errorf("unexpected arguments %q", flag.Args())
	}
	rcfg.Sizes, rcfg.BigSizes, rcfg.ScaleSites, rcfg.Reup = *realSizes, *bigSizes, *scaleSites, *reup
	rcfg.Impls = nil
	for _, name := range strings.Split(*impls, ",") {
		rcfg.Impls = append(rcfg.Impls, bench.Impl(strings.TrimSpace(name)))
	}
	if *quick {
		cfg.Rounds, cfg.Sizes, cfg.ConcurrentSites = 1, []int{1, 100}, 10
		rcfg.Rounds, rcfg.Sizes, rcfg.BigSizes, rcfg.ScaleSites, rcfg.Reup = 1, []int{1, 100}, nil, []int{10}, []int{100}
	}
	if cfg.Rounds < 1 || rcfg.Rounds < 1 {
		return fmt.Errorf("-rounds and -real-rounds must be at least 1")
	}
	if len(rcfg.Impls) == 0 || rcfg.Impls[0] != bench.Ours {
		return fmt.Errorf("-real-impls must start with ours")
	}
	runEmbedded, runReal := false, false
	for _, e := range strings.Split(*engines, ",") {
		switch strings.TrimSpace(e) {
		case "embedded":
			runEmbedded = true
		case "real":
			runReal = true
		default:
			return fmt.Errorf("-engines: unknown engine %q", e)
		}
	}
	cfg.Progress = os.Stderr
	if !*verbose {
		cfg.Progress = roundsOnly{os.Stderr}
	}
	rcfg.Progress = cfg.Progress

	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()
	work, err := os.MkdirTemp("", "polybench-")
	if err != nil {
		return err
	}
	defer func() { _ = os.RemoveAll(work) }()

	fmt.Fprintln(os.Stderr, "building the plugins")
	bins, err := bench.Build(ctx, filepath.Join(work, "bin"))
	if err != nil {
		return err
	}
	deps, err := bench.Deps(ctx)
	if err != nil {
		return err
	}
	for _, impl := range rcfg.Impls {
		if impl.IsHost() && runReal {
			if !bench.HaveHosts(deps) {
				return fmt.Errorf("the TypeScript and Python peers need node, TypeScript, @pulumi/pulumi and the virtualenv in %s (bash tests/setup.sh), or leave them out with -real-impls", deps)
			}
			if err := bench.BuildHosts(ctx, bins, filepath.Join(work, "bin"), deps); err != nil {
				return err
			}
			break
		}
	}
	started := time.Now()
	res := &bench.Results{Config: cfg}
	if runEmbedded {
		runner, err := bench.NewRunner(bins, work)
		if err != nil {
			return err
		}
		if res, err = bench.RunSuite(ctx, bins, runner, cfg); err != nil {
			return err
		}
	}
	var sections []string
	if runReal {
		rr, err := bench.NewRealRunner(bins, work, deps)
		if err != nil {
			return err
		}
		real, err := bench.RunRealSuite(ctx, bins, rr, rcfg, bench.Versions(ctx, deps))
		if err != nil {
			return err
		}
		sections = append(sections, real.Markdown())
	}
	res.Started, res.Elapsed = started, time.Since(started)
	var prof string
	if *profile && runEmbedded {
		fmt.Fprintln(os.Stderr, "profiling")
		n := cfg.Sizes[len(cfg.Sizes)-1]
		if prof, err = bench.Profile(ctx, filepath.Join(work, "profile"), n, 5); err != nil {
			return err
		}
	}
	if *realProfile > 0 {
		fmt.Fprintln(os.Stderr, "profiling on the real engine")
		p, err := bench.RealProfile(ctx, filepath.Join(work, "real-profile"), deps, *realProfile, 3)
		if err != nil {
			return err
		}
		prof += "\n" + p
	}

	command := "go run ./tests/bench/cmd/polybench"
	if len(os.Args) > 1 {
		command += " " + strings.Join(os.Args[1:], " ")
	}
	var notes string
	if *out != "" {
		if old, err := os.ReadFile(*out); err == nil {
			notes = bench.KeptNotes(string(old))
		}
	}
	doc := res.Markdown(bench.ThisMachine(), command, notes, prof, sections...)
	if *out == "" {
		_, err = io.WriteString(os.Stdout, doc)
		return err
	}
	return os.WriteFile(*out, []byte(doc), 0o644)
}

// intsFlag is a comma-separated list of integers; "" is none.
func intsFlag(fs *goflag.FlagSet, name string, def []int, usage string) *[]int {
	v := &def
	fs.Func(name, fmt.Sprintf("%s (default %v)", usage, def), func(s string) error {
		*v = nil
		for _, f := range strings.Split(s, ",") {
			if f = strings.TrimSpace(f); f == "" {
				continue
			}
			n, err := strconv.Atoi(f)
			if err != nil || n < 0 {
				return fmt.Errorf("not a count: %q", f)
			}
			*v = append(*v, n)
		}
		return nil
	})
	return v
}

// roundsOnly passes on the "round i/n" progress lines only.
type roundsOnly struct{ w io.Writer }

func (r roundsOnly) Write(p []byte) (int, error) {
	if strings.HasPrefix(string(p), "round ") || strings.HasPrefix(string(p), "real engine, round ") {
		return r.w.Write(p)
	}
	return len(p), nil
}
