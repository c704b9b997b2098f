// Package gctune tunes the Go collector of a plugin that host.Main runs:
// a heap headroom between collections (Tune), and a collection before a
// large request is decoded (BeforeLargeRequest, called by the wire
// adapter's codec). It is not a concern of serving requests.
package gctune

import (
	"math"
	"os"
	"runtime"
	"runtime/debug"
	"runtime/metrics"
	"sync/atomic"
)

// HeapHeadroom is how much a plugin's heap may grow, at least, between
// collections when host.Main runs it.
const HeapHeadroom = 4 << 20

// Tune lets the heap grow by at least headroom bytes over what the last
// collection found live (with the stacks and globals it scans) before the
// next one. Go's default (GOGC 100) lets it grow by as much as that: a
// plugin whose live heap is 3 MB collects every 3 MB it allocates, some 13
// times in a deployment of 1,000 resources, and marking is a large share of
// its CPU (docs/performance.md). When more than headroom is live, GOGC
// stays 100. After each collection it sets GOGC to
// 100 × max(1, headroom/scanned). It leaves the collector alone if the
// GOGC or GOMEMLIMIT environment variable is set, or the plugin's own code
// sets a GOGC or a memory limit (debug.SetGCPercent, SetMemoryLimit),
// before host.Main or later.
func Tune(headroom uint64) {
	for _, v := range []string{"GOGC", "GOMEMLIMIT"} {
		if _, set := os.LookupEnv(v); set {
			return
		}
	}
	set, ok := retune(headroom, 0, 100)
	if !ok {
		return
	}
	tuning.Store(true)
	var after func(int)
	// The sentinel is large enough not to share a tiny allocation with
	// anything that stays reachable.
	arm := func() { runtime.AddCleanup(new([32]byte), after, 0) }
	after = func(int) { // a collection has run
		if set, ok = retune(headroom, scanned(), set); ok {
			arm()
		} else {
			tuning.Store(false)
		}
		if f := retuned.Load(); f != nil {
			(*f)()
		}
	}
	arm()
}

// retuned, if set, is called after each retuning: tests wait on it.
var retuned atomic.Pointer[func()]

// tuning says Tune is tuning the collector: the plugin has not chosen
// its own settings.
var tuning atomic.Bool

// LargeRequest is the size from which BeforeLargeRequest collects.
const LargeRequest = 16 << 20

// BeforeLargeRequest collects garbage before a request of n bytes is
// decoded, when n is at least LargeRequest and Tune is tuning the
// collector. A large request's values, and the answer that echoed them,
// are garbage once it is answered, but the collector's goal after it is
// twice what it held: without this, the next large request (the Create
// after a Check) would be decoded beside all of the last one. The
// request's own frames are all the collection finds that is large, and
// they hold no pointers, so it costs little beside the request.
func BeforeLargeRequest(n int) {
	if collectsBefore(n, tuning.Load()) {
		runtime.GC()
	}
}

func collectsBefore(n int, tuning bool) bool { return tuning && n >= LargeRequest }

// retune sets GOGC for a heap of scanned bytes, where was is the GOGC
// Tune set last (Go's 100 at first). It sets nothing and answers false if
// the plugin has chosen its own since: another GOGC, or a memory limit.
func retune(headroom, scanned uint64, was int) (int, bool) {
	if debug.SetMemoryLimit(-1) != math.MaxInt64 {
		return was, false
	}
	next := gcPercent(headroom, scanned)
	if prev := debug.SetGCPercent(next); prev != was {
		debug.SetGCPercent(prev)
		return was, false
	}
	return next, true
}

// scanned is what the last collection scanned: live heap, stacks, globals.
func scanned() uint64 {
	samples := []metrics.Sample{{Name: "/gc/heap/live:bytes"}, {Name: "/gc/scan/stack:bytes"}, {Name: "/gc/scan/globals:bytes"}}
	metrics.Read(samples)
	var n uint64
	for _, s := range samples {
		if s.Value.Kind() == metrics.KindUint64 {
			n += s.Value.Uint64()
		}
	}
	return n
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
