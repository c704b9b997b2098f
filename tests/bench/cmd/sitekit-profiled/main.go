// Command sitekit-profiled is the sitekit plugin that also writes a CPU
// profile and an allocation profile of its whole life to
// $POLYBENCH_PROFILE_DIR/<pid>.{cpu,allocs}.pprof, for finding where a
// provider spends its time. $POLYBENCH_PROFILE_IMPL says which plugin it is:
// ours (provider/cmd/pulumi-resource-sitekit, the default), peer
// (tests/peer), floor or floor-bounded (tests/bench/floor). As a children's provider (see
// rusagewrap) it is always ours and writes no profiles. polybench -profile
// uses it. For profiles taken by hand, $POLYBENCH_PROFILE_HZ samples CPU
// faster than pprof's 100 Hz (the runtime then warns on stderr that the
// rate was set already) and $POLYBENCH_PROFILE_MEMRATE sets
// runtime.MemProfileRate (1: every allocation).
package main

import (
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"runtime/pprof"
	"strconv"

	"github.com/polyhost/polyhost/host"
	"github.com/polyhost/polyhost/provider"
	"github.com/polyhost/polyhost/tests/bench/floor"
	"github.com/polyhost/polyhost/tests/bench/internal/usage"
	"github.com/polyhost/polyhost/tests/peer"
)

func main() {
	impl, dir := os.Getenv("POLYBENCH_PROFILE_IMPL"), os.Getenv("POLYBENCH_PROFILE_DIR")
	if os.Getenv(usage.RoleEnv) == usage.Children {
		impl, dir = "ours", "" // the children's provider: ours, unprofiled
	}
	stop, err := startProfile(dir)
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	switch impl {
	case "peer":
		err = peer.Main("0.1.0")
	case "floor":
		err = floor.Main("0.1.0", floor.AllAtOnce)
	case "floor-bounded":
		err = floor.Main("0.1.0", floor.Bounded)
	default:
		host.Main(provider.Name, provider.Options("0.1.0")...)
	}
	stop()
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
}

func startProfile(dir string) (stop func(), err error) {
	if dir == "" {
		return func() {}, nil
	}
	base := filepath.Join(dir, fmt.Sprint(os.Getpid()))
	cpu, err := os.Create(base + ".cpu.pprof")
	if err != nil {
		return nil, err
	}
	if hz, err := strconv.Atoi(os.Getenv("POLYBENCH_PROFILE_HZ")); err == nil && hz > 0 {
		runtime.SetCPUProfileRate(hz)
	}
	if rate, err := strconv.Atoi(os.Getenv("POLYBENCH_PROFILE_MEMRATE")); err == nil && rate > 0 {
		runtime.MemProfileRate = rate
	}
	if err := pprof.StartCPUProfile(cpu); err != nil {
		return nil, err
	}
	return func() {
		pprof.StopCPUProfile()
		_ = cpu.Close()
		if f, err := os.Create(base + ".allocs.pprof"); err == nil {
			runtime.GC()
			_ = pprof.Lookup("allocs").WriteTo(f, 0)
			_ = f.Close()
		}
	}, nil
}
