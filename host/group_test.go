package host

import (
	"context"
	"errors"
	"runtime"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/polyhost/polyhost/host/diag"
)

func TestGroupReusesAtMostLimitGoroutines(t *testing.T) {
	g, _ := newGroup(context.Background(), 3, "pkg:index:C", "c")
	var running, peak, ran atomic.Int32
	// Functions wait until all 100 are given, so the queue never empties
	// early: a goroutine that finds it empty ends, and a later Go would
	// then rightly start another.
	release := make(chan struct{})
	for range 100 {
		g.Go(func() error {
			<-release
			n := running.Add(1)
			for p := peak.Load(); n > p && !peak.CompareAndSwap(p, n); p = peak.Load() {
			}
			ran.Add(1)
			running.Add(-1)
			return nil
		})
	}
	close(release)
	if err := g.Wait(); err != nil {
		t.Fatal(err)
	}
	if ran.Load() != 100 {
		t.Errorf("ran %d functions, want 100", ran.Load())
	}
	if peak.Load() > 3 {
		t.Errorf("%d functions ran at once, limit 3", peak.Load())
	}
	if g.started > 3 {
		t.Errorf("started %d goroutines for 100 functions, limit 3", g.started)
	}
}

func TestGroupFirstErrorCancels(t *testing.T) {
	g, ctx := newGroup(context.Background(), 2, "pkg:index:C", "c")
	boom := errors.New("boom")
	g.Go(func() error { return boom })
	g.Go(func() error {
		<-ctx.Done() // released only by the first function's error
		return ctx.Err()
	})
	if err := g.Wait(); err != boom {
		t.Errorf("Wait = %v, want %v", err, boom)
	}
	if cause := context.Cause(ctx); cause != boom {
		t.Errorf("context cause = %v, want %v", cause, boom)
	}
}

func TestGroupPanicBecomesError(t *testing.T) {
	g, _ := newGroup(context.Background(), 1, "pkg:index:C", "c")
	var after atomic.Bool
	g.Go(func() error { panic("kaput") })
	g.Go(func() error { after.Store(true); return nil })
	err := g.Wait()
	var se *diag.StepError
	if !errors.As(err, &se) || !se.Panic {
		t.Fatalf("Wait = %v, want a panic StepError", err)
	}
	if msg := err.Error(); !strings.Contains(msg, `pkg:index:C "c"`) || !strings.Contains(msg, "kaput") {
		t.Errorf("error %q does not name the component and the panic", msg)
	}
	if !after.Load() {
		t.Error("the function after the panic did not run")
	}
}

func TestGroupFunctionsMayCallGo(t *testing.T) {
	g, _ := newGroup(context.Background(), 2, "pkg:index:C", "c")
	var ran atomic.Int32
	var spawn func(depth int) func() error
	spawn = func(depth int) func() error {
		return func() error {
			ran.Add(1)
			if depth > 0 {
				g.Go(spawn(depth - 1))
			}
			return nil
		}
	}
	g.Go(spawn(9))
	if err := g.Wait(); err != nil {
		t.Fatal(err)
	}
	if ran.Load() != 10 {
		t.Errorf("ran %d functions, want 10", ran.Load())
	}
}

func TestGroupGoAfterWaitPanics(t *testing.T) {
	g, _ := newGroup(context.Background(), 1, "pkg:index:C", "c")
	if err := g.Wait(); err != nil {
		t.Fatal(err)
	}
	defer func() {
		if r := recover(); r == nil || !strings.Contains(r.(string), "after Wait") {
			t.Errorf("Go after Wait: recovered %v, want a panic naming Wait", r)
		}
	}()
	g.Go(func() error { return nil })
}

// A function may call Go though every goroutine is busy: the call queues
// instead of waiting for a goroutine (errgroup with SetLimit would hang).
func TestGroupGoFromEveryBusyGoroutine(t *testing.T) {
	for _, limit := range []int{1, 2} {
		g, _ := newGroup(context.Background(), limit, "pkg:index:C", "c")
		var ran atomic.Int32
		for range limit {
			g.Go(func() error {
				for range 3 {
					g.Go(func() error { ran.Add(1); return nil })
				}
				return nil
			})
		}
		waitOrFail(t, g)
		if got := ran.Load(); got != int32(3*limit) {
			t.Errorf("limit %d: ran %d nested functions, want %d", limit, got, 3*limit)
		}
	}
}

// runtime.Goexit in a function (t.FailNow, say) ends its goroutine; the
// queued functions still run and Wait returns.
func TestGroupSurvivesGoexit(t *testing.T) {
	g, _ := newGroup(context.Background(), 1, "pkg:index:C", "c")
	var ran atomic.Int32
	g.Go(func() error { runtime.Goexit(); return nil })
	for range 3 {
		g.Go(func() error { ran.Add(1); return nil })
	}
	waitOrFail(t, g)
	if ran.Load() != 3 {
		t.Errorf("ran %d functions after the Goexit, want 3", ran.Load())
	}
}

// A Group whose Wait is never called (a component returning early) leaves
// no goroutine behind once its functions are done.
func TestGroupLeavesNoGoroutineWithoutWait(t *testing.T) {
	before := runtime.NumGoroutine()
	var wg sync.WaitGroup
	for range 10 {
		g, _ := newGroup(context.Background(), 8, "pkg:index:C", "c")
		for range 20 {
			wg.Add(1)
			g.Go(func() error { wg.Done(); return nil })
		}
	}
	wg.Wait()
	deadline := time.Now().Add(5 * time.Second)
	for runtime.NumGoroutine() > before && time.Now().Before(deadline) {
		time.Sleep(time.Millisecond)
	}
	if after := runtime.NumGoroutine(); after > before {
		t.Errorf("%d goroutines before, %d after the Groups' functions returned", before, after)
	}
}

// waitOrFail fails the test if g's Wait does not return within 5 s.
func waitOrFail(t *testing.T, g *Group) {
	t.Helper()
	done := make(chan error, 1)
	go func() { done <- g.Wait() }()
	select {
	case err := <-done:
		if err != nil {
			t.Fatal(err)
		}
	case <-time.After(5 * time.Second):
		t.Fatal("Wait did not return")
	}
}
