package bench

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
)

const profiledPackage = "github.com/polyhost/polyhost/tests/bench/cmd/sitekit-profiled"

// profiledImpls are the implementations sitekit-profiled can be: ours with
// all cores runs the same code as ours.
var profiledImpls = []Impl{Ours, Peer, Floor, BoundedFloor}

// Profile deploys a Site with pages pages (update) runs times with ours, the
// peer and the floor, each built as tests/bench/cmd/sitekit-profiled, and
// returns the CPU and allocation profiles of the component provider
// processes as pprof text (Markdown), limited to the frames of this project
// and the Go SDK.
func Profile(ctx context.Context, dir string, pages, runs int) (string, error) {
	bins := &Binaries{Wrapped: map[Impl]string{}, Direct: map[Impl]string{}}
	real := filepath.Join(dir, "bin", "real", pluginName)
	if err := goBuild(ctx, real, profiledPackage); err != nil {
		return "", err
	}
	if err := goBuild(ctx, filepath.Join(dir, "bin", pluginName), wrapperPackage); err != nil {
		return "", err
	}
	for _, impl := range profiledImpls {
		bins.Wrapped[impl] = filepath.Join(dir, "bin", pluginName)
	}
	r, err := NewRunner(bins, dir)
	if err != nil {
		return "", err
	}
	var b strings.Builder
	fmt.Fprintf(&b, "CPU and allocation profiles of the component provider process, %d update deployments of a Site with %d pages each (`polybench -profile`). `cum` is the time (or bytes) spent in a function and everything it calls; only frames of this project, the Go SDK and gRPC's client call are shown.\n\n", runs, pages)
	for _, impl := range profiledImpls {
		profDir := filepath.Join(dir, "profiles", string(impl))
		if err := os.MkdirAll(profDir, 0o755); err != nil {
			return "", err
		}
		_ = os.Setenv("POLYBENCH_PROFILE_IMPL", string(impl))
		_ = os.Setenv("POLYBENCH_PROFILE_DIR", profDir)
		for range runs {
			if _, err := r.Run(ctx, impl, Workload{Pages: pages}); err != nil {
				return "", err
			}
		}
		_ = os.Unsetenv("POLYBENCH_PROFILE_IMPL")
		_ = os.Unsetenv("POLYBENCH_PROFILE_DIR")
		for _, kind := range []struct{ glob, index, title string }{
			{"*.cpu.pprof", "", "CPU"},
			{"*.allocs.pprof", "alloc_space", "allocated bytes"},
		} {
			files, err := filepath.Glob(filepath.Join(profDir, kind.glob))
			if err != nil || len(files) == 0 {
				return "", fmt.Errorf("no %s profiles in %s", kind.title, profDir)
			}
			args := []string{"tool", "pprof", "-top", "-cum", "-nodecount=30",
				"-show=polyhost|pulumi/sdk/v3/go/pulumi\\.|grpc\\.\\(\\*ClientConn\\)\\.Invoke$"}
			if kind.index != "" {
				args = append(args, "-sample_index="+kind.index)
			}
			args = append(args, real)
			args = append(args, files...)
			out, err := exec.CommandContext(ctx, "go", args...).Output()
			if err != nil {
				return "", fmt.Errorf("go tool pprof: %w", err)
			}
			fmt.Fprintf(&b, "**%s, %s** (%d runs):\n\n```\n%s```\n\n", impl, kind.title, len(files), trimPprof(string(out)))
		}
	}
	return b.String(), nil
}

// RealProfile deploys a Site with pages pages runs times on the real
// engine (see RealRunner) with ours and the peer, each built as
// tests/bench/cmd/sitekit-profiled serving Construct and the children's
// CRUD in one process, and returns CPU and allocation profiles as pprof
// text (Markdown). The profiles include the YAML host's schema loads, a
// few milliseconds.
func RealProfile(ctx context.Context, dir, deps string, pages, runs int) (string, error) {
	real := filepath.Join(dir, "bin", "real", pluginName)
	if err := goBuild(ctx, real, profiledPackage); err != nil {
		return "", err
	}
	wrapped := filepath.Join(dir, "bin", pluginName)
	if err := goBuild(ctx, wrapped, wrapperPackage); err != nil {
		return "", err
	}
	bins := &Binaries{Wrapped: map[Impl]string{Ours: wrapped, Peer: wrapped}, Direct: map[Impl]string{}}
	r, err := NewRealRunner(bins, dir, deps)
	if err != nil {
		return "", err
	}
	var b strings.Builder
	fmt.Fprintf(&b, "CPU and allocation profiles of the plugin on the real engine, Construct and the children's CRUD in one process, %d `pulumi up` of a Site with %d pages each (`polybench -real-profile %d`); frames as above, plus gRPC's server (its handler, reader and writer) and the runtime's garbage collection, allocation, stack growth, scheduler (`mcall`, `findRunnable`) and system calls (`Syscall6`).\n\n", runs, pages, pages)
	for _, impl := range []Impl{Ours, Peer} {
		profDir := filepath.Join(dir, "profiles", string(impl))
		if err := os.MkdirAll(profDir, 0o755); err != nil {
			return "", err
		}
		r.Env = []string{"POLYBENCH_PROFILE_IMPL=" + string(impl), "POLYBENCH_PROFILE_DIR=" + profDir}
		for range runs {
			if _, err := r.Run(ctx, impl, Workload{Pages: pages}); err != nil {
				return "", err
			}
		}
		if err := pprofText(ctx, &b, string(impl)+", real engine", real, profDir, realShow); err != nil {
			return "", err
		}
	}
	return b.String(), nil
}

// realShow are the frames the real-engine profiles show: this project's
// and the Go SDK's, gRPC's client call, its server's handler, reader and
// writer, and the runtime's garbage collection, allocation, stack growth,
// scheduler and system calls.
const realShow = `polyhost|pulumi/sdk/v3/go/pulumi\.|grpc\.\(\*ClientConn\)\.Invoke$|grpc\.\(\*Server\)\.(processRPC|processUnaryRPC)$` +
	`|transport\.\(\*http2Server\)\.HandleStreams$|transport\.\(\*loopyWriter\)\.run$` +
	`|^runtime\.(gcBgMarkWorker|mallocgc|newstack|findRunnable|mcall)$|^internal/runtime/syscall/linux\.Syscall6$`

// pprofText appends the top CPU and allocation frames of the profiles in
// profDir matching show.
func pprofText(ctx context.Context, b *strings.Builder, title, binary, profDir, show string) error {
	for _, kind := range []struct{ glob, index, title string }{
		{"*.cpu.pprof", "", "CPU"},
		{"*.allocs.pprof", "alloc_space", "allocated bytes"},
	} {
		files, err := filepath.Glob(filepath.Join(profDir, kind.glob))
		if err != nil || len(files) == 0 {
			return fmt.Errorf("no %s profiles in %s", kind.title, profDir)
		}
		args := []string{"tool", "pprof", "-top", "-cum", "-nodecount=40", "-show=" + show}
		if kind.index != "" {
			args = append(args, "-sample_index="+kind.index)
		}
		args = append(args, binary)
		args = append(args, files...)
		out, err := exec.CommandContext(ctx, "go", args...).Output()
		if err != nil {
			return fmt.Errorf("go tool pprof: %w", err)
		}
		fmt.Fprintf(b, "**%s, %s** (%d processes):\n\n```\n%s```\n\n", title, kind.title, len(files), trimPprof(string(out)))
	}
	return nil
}

// trimPprof drops pprof's header lines (file, build ID, time) and shortens
// package paths.
func trimPprof(out string) string {
	var keep []string
	for _, line := range strings.Split(out, "\n") {
		switch {
		case strings.HasPrefix(line, "File:"), strings.HasPrefix(line, "Build ID:"),
			strings.HasPrefix(line, "Time:"), strings.HasPrefix(line, "Type:"),
			strings.HasPrefix(line, "Active filters:"), strings.HasPrefix(line, "   show="),
			strings.HasPrefix(line, "Showing top"), strings.HasPrefix(line, "Dropped"):
			continue
		}
		line = strings.ReplaceAll(line, "github.com/polyhost/polyhost/", "")
		line = strings.ReplaceAll(line, "github.com/pulumi/pulumi/sdk/v3/go/", "sdk/")
		line = strings.ReplaceAll(line, "google.golang.org/", "")
		if len(line) > 160 {
			line = line[:157] + "..."
		}
		keep = append(keep, line)
	}
	return strings.TrimLeft(strings.Join(keep, "\n"), "\n")
}
