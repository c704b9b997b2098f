// Command polybench compares the host's Construct with the Go SDK's
// (tests/peer) and with the engine-bound floors on the embedded engine, and
// writes the medians as Markdown (docs/performance.md). Run it from the
// repository root:
//
//	go run ./tests/bench/cmd/polybench -o docs/performance.md
//
// -quick runs one short round to check that everything works; -profile
// adds CPU and allocation profiles of every plugin at 1,000 pages.
package main

import (
	"context"
	goflag "flag"
	"fmt"
	"io"
	"os"
	"os/signal"
	"path/filepath"
	"strings"

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
	if err := flag.Parse(os.Args[1:]); err == goflag.ErrHelp {
		return nil
	} else if err != nil {
		return err
	}
	if flag.NArg() > 0 {
		return fmt.Errorf("unexpected arguments %q", flag.Args())
	}
	if *quick {
		cfg.Rounds, cfg.Sizes, cfg.ConcurrentSites = 1, []int{1, 100}, 10
	}
	if cfg.Rounds < 1 {
		return fmt.Errorf("-rounds must be at least 1")
	}
	cfg.Progress = os.Stderr
	if !*verbose {
		cfg.Progress = roundsOnly{os.Stderr}
	}

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
	runner, err := bench.NewRunner(bins, work)
	if err != nil {
		return err
	}
	res, err := bench.RunSuite(ctx, bins, runner, cfg)
	if err != nil {
		return err
	}
	var prof string
	if *profile {
		fmt.Fprintln(os.Stderr, "profiling")
		n := cfg.Sizes[len(cfg.Sizes)-1]
		if prof, err = bench.Profile(ctx, filepath.Join(work, "profile"), n, 5); err != nil {
			return err
		}
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
	doc := res.Markdown(bench.ThisMachine(), command, notes, prof)
	if *out == "" {
		_, err = io.WriteString(os.Stdout, doc)
		return err
	}
	return os.WriteFile(*out, []byte(doc), 0o644)
}

// roundsOnly passes on the "round i/n" progress lines only.
type roundsOnly struct{ w io.Writer }

func (r roundsOnly) Write(p []byte) (int, error) {
	if strings.HasPrefix(string(p), "round ") {
		return r.w.Write(p)
	}
	return len(p), nil
}
