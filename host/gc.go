package host

import (
	"os"
	"runtime"
	"runtime/debug"
	"runtime/metrics"
)

// heapHeadroom is how much a plugin's heap may grow, at least, between
// collections when Main runs it.
const heapHeadroom = 4 << 20

// tuneGC lets the heap grow by at least headroom bytes over what the last
// collection found live (with the stacks and globals it scans) before the
// next one. Go's default (GOGC 100) lets it grow by as much as that: a
// plugin whose live heap is 3 MB collects every 3 MB it allocates, some 13
// times in a deployment of 1,000 resources, and marking is a large share of
// its CPU (docs/performance.md). When more than headroom is live, GOGC
// stays 100. After each collection it sets GOGC to
// 100 × max(1, headroom/scanned). It does nothing if the GOGC or GOMEMLIMIT
// environment variable is set.
func tuneGC(headroom uint64) {
	for _, v := range []string{"GOGC", "GOMEMLIMIT"} {
		if _, set := os.LookupEnv(v); set {
			return
		}
	}
	samples := []metrics.Sample{{Name: "/gc/heap/live:bytes"}, {Name: "/gc/scan/stack:bytes"}, {Name: "/gc/scan/globals:bytes"}}
	var after func(int)
	// The sentinel is large enough not to share a tiny allocation with
	// anything that stays reachable.
	arm := func() { runtime.AddCleanup(new([32]byte), after, 0) }
	after = func(int) { // a collection has run
		metrics.Read(samples)
		var scanned uint64
		for _, s := range samples {
			if s.Value.Kind() == metrics.KindUint64 {
				scanned += s.Value.Uint64()
			}
		}
		debug.SetGCPercent(gcPercent(headroom, scanned))
		arm()
	}
	debug.SetGCPercent(gcPercent(headroom, 0))
	arm()
}

// gcPercent is the GOGC that lets a heap of scanned bytes grow by at least
// headroom.
func gcPercent(headroom, scanned uint64) int {
	if scanned == 0 || scanned >= headroom {
		if scanned == 0 {
			return int(100 * headroom / (4 << 20)) // Go's smallest goal is 4 MB at 100
		}
		return 100
	}
	return int(100 * headroom / scanned)
}
