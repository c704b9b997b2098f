package gctune

import (
	"os"
	"runtime"
	"runtime/debug"
	"runtime/metrics"
	"testing"
	"time"
)

func TestGCPercent(t *testing.T) {
	const mb = 1 << 20
	for _, tt := range []struct {
		headroom, scanned uint64
		want              int
	}{
		{headroom: 4 * mb, scanned: 0, want: 100}, // before the first collection: Go's 4 MB
		{headroom: 8 * mb, scanned: 0, want: 200},
		{headroom: 4 * mb, scanned: 2 * mb, want: 200},
		{headroom: 4 * mb, scanned: 3 * mb, want: 133},
		{headroom: 4 * mb, scanned: 4 * mb, want: 100},
		{headroom: 4 * mb, scanned: 40 * mb, want: 100}, // never below Go's default
	} {
		if got := gcPercent(tt.headroom, tt.scanned); got != tt.want {
			t.Errorf("gcPercent(%d, %d) = %d, want %d", tt.headroom, tt.scanned, got, tt.want)
		}
	}
}

// With GOGC or GOMEMLIMIT set, or a GOGC the plugin set itself before
// Main, Tune leaves the collector alone.
func TestTuneLeavesTheEnvironmentsSetting(t *testing.T) {
	t.Run("the plugin's own", func(t *testing.T) {
		before := debug.SetGCPercent(77)
		Tune(64 << 20)
		if got := debug.SetGCPercent(before); got != 77 {
			t.Errorf("with the plugin's GOGC 77, GOGC became %d", got)
		}
	})
	for _, v := range []string{"GOGC", "GOMEMLIMIT"} {
		t.Run(v, func(t *testing.T) {
			t.Setenv(v, "")
			before := debug.SetGCPercent(77)
			Tune(64 << 20)
			if got := debug.SetGCPercent(before); got != 77 {
				t.Errorf("with %s set, GOGC became %d", v, got)
			}
		})
	}
}

// gogc reads GOGC without setting it.
func gogc() int {
	s := []metrics.Sample{{Name: "/gc/gogc:percent"}}
	metrics.Read(s)
	return int(s[0].Value.Uint64())
}

// retune sets GOGC for the heap, and stops as soon as the plugin has set
// its own GOGC or memory limit.
func TestRetune(t *testing.T) {
	const mb = 1 << 20
	defer debug.SetGCPercent(debug.SetGCPercent(100))
	defer debug.SetMemoryLimit(debug.SetMemoryLimit(-1))

	next, ok := retune(4*mb, 1*mb, 100)
	if !ok || next != 400 || gogc() != 400 {
		t.Fatalf("retune = %d, %v with GOGC %d; want 400, true", next, ok, gogc())
	}
	debug.SetGCPercent(55) // the plugin's own
	if _, ok := retune(4*mb, 1*mb, next); ok || gogc() != 55 {
		t.Errorf("after the plugin set GOGC 55, retune went on (%v) and GOGC is %d", ok, gogc())
	}
	debug.SetGCPercent(400)
	debug.SetMemoryLimit(1 << 40) // the plugin's own
	if _, ok := retune(4*mb, 1*mb, 400); ok || gogc() != 400 {
		t.Errorf("after the plugin set a memory limit, retune went on (%v) and GOGC is %d", ok, gogc())
	}
}

// After a collection Tune sets GOGC from what it scanned; setting GOGC
// stops it.
func TestTuneRetunesAfterACollection(t *testing.T) {
	for _, v := range []string{"GOGC", "GOMEMLIMIT"} {
		if _, set := os.LookupEnv(v); set {
			t.Skipf("%s is set", v)
		}
	}
	defer debug.SetGCPercent(debug.SetGCPercent(100))
	done := make(chan struct{}, 1)
	signal := func() {
		select {
		case done <- struct{}{}:
		default:
		}
	}
	retuned.Store(&signal)
	defer retuned.Store(nil)
	const headroom = 64 << 20
	Tune(headroom)
	// The cleanup runs after a collection, on its own goroutine: collect
	// until it has run once. The bound only ends a broken test.
	for i := 0; ; i++ {
		runtime.GC()
		select {
		case <-done:
		case <-time.After(10 * time.Millisecond):
			if i == 12000 {
				t.Fatal("no collection ran Tune's cleanup")
			}
			continue
		}
		break
	}
	// The test binary's heap is far below 64 MB, so the GOGC a collection
	// brings is above the one for an empty heap.
	if got, first := gogc(), gcPercent(headroom, 0); got <= first {
		t.Errorf("GOGC %d after a collection, want above %d", got, first)
	}
	debug.SetGCPercent(100) // stops it at the next collection
}

// A large request is decoded after a collection, while Tune tunes the
// collector; a small one, or one in a plugin that chose its own settings,
// is not.
func TestCollectsBeforeLargeRequests(t *testing.T) {
	for _, c := range []struct {
		n      int
		tuning bool
		want   bool
	}{
		{LargeRequest, true, true},
		{LargeRequest - 1, true, false},
		{LargeRequest, false, false},
		{200 << 10, true, false},
	} {
		if got := collectsBefore(c.n, c.tuning); got != c.want {
			t.Errorf("collectsBefore(%d, %v) = %v, want %v", c.n, c.tuning, got, c.want)
		}
	}
	var stats runtime.MemStats
	runtime.ReadMemStats(&stats)
	before := stats.NumGC
	tuning.Store(true)
	defer tuning.Store(false)
	BeforeLargeRequest(LargeRequest)
	runtime.ReadMemStats(&stats)
	if stats.NumGC == before {
		t.Error("no collection before a large request")
	}
}
