package core

import (
	"context"
	"slices"
	"sync"
	"sync/atomic"
	"testing"
	"time"
)

// canAcquire reports whether w has a place now, taking it if so.
func canAcquire(w *window) bool {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	return w.acquire(ctx, 0) == nil
}

func TestWindowReopensWhenHalfAnswered(t *testing.T) {
	w := newWindowWait(8, time.Hour)
	for i := range 8 {
		if !canAcquire(w) {
			t.Fatalf("acquire %d of 8 waited", i+1)
		}
	}
	if canAcquire(w) {
		t.Fatal("a ninth registration got a place")
	}
	for i := range 3 {
		w.release()
		if canAcquire(w) {
			t.Fatalf("a place opened with %d of 8 in flight", 7-i)
		}
	}
	w.release() // 4 in flight: half answered
	for i := range 4 {
		if !canAcquire(w) {
			t.Fatalf("reopened window refused acquire %d of 4", i+1)
		}
	}
	if canAcquire(w) {
		t.Fatal("the reopened window let more than 8 be in flight")
	}
}

func TestWindowReopensWhenSlowOnesHoldIt(t *testing.T) {
	const wait = 20 * time.Millisecond
	w := newWindowWait(4, wait)
	start := time.Now()
	for range 4 {
		if !canAcquire(w) {
			t.Fatal("acquire waited on an empty window")
		}
	}
	w.release() // 3 slow ones stay in flight, more than half
	// On a loaded machine the wait may be over already; then a place is due.
	if canAcquire(w) && time.Since(start) < wait {
		t.Fatal("a place opened before half were answered or the wait was over")
	}
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	if err := w.acquire(ctx, 0); err != nil { // after the wait
		t.Fatalf("acquire behind slow registrations: %v", err)
	}
}

// Once its wait is over, a window still full lets one registration out
// per answer: never more than n in flight.
func TestWindowKeepsTheBoundAfterTheWait(t *testing.T) {
	w := newWindowWait(4, 5*time.Millisecond)
	for range 4 {
		if !canAcquire(w) {
			t.Fatal("acquire waited on an empty window")
		}
	}
	time.Sleep(30 * time.Millisecond) // the wait is over; all 4 still in flight
	if canAcquire(w) {
		t.Fatal("a fifth registration got a place")
	}
	w.release()
	if !canAcquire(w) {
		t.Fatal("an answer behind slow registrations let none out")
	}
	if canAcquire(w) {
		t.Fatal("one answer let two out")
	}
}

// An answer after the wait is over lets one out even if the timer that
// ends the hold has not run yet (a loaded machine).
func TestWindowAnswerAfterTheWaitDoesNotNeedTheTimer(t *testing.T) {
	w := newWindowWait(4, time.Millisecond)
	for range 4 {
		if !canAcquire(w) {
			t.Fatal("acquire waited on an empty window")
		}
	}
	w.timer.Stop() // as if it were late
	time.Sleep(5 * time.Millisecond)
	w.release()
	if !canAcquire(w) {
		t.Fatal("an answer after the wait let none out")
	}
}

// Registrations slower than the wait, from more goroutines than places.
func TestWindowNeverExceedsNWithSlowRegistrations(t *testing.T) {
	const n = 4
	if p := peakInFlight(t, newWindowWait(n, time.Millisecond), 5, 5*time.Millisecond); p > n {
		t.Errorf("peak in flight %d, window of %d", p, n)
	}
}

// peakInFlight has 16 goroutines each register rounds times through w,
// holding each registration for hold, and returns the most in flight.
func peakInFlight(t *testing.T, w *window, rounds int, hold time.Duration) int32 {
	var busy, peak atomic.Int32
	var wg sync.WaitGroup
	for range 16 {
		wg.Go(func() {
			for range rounds {
				if err := w.acquire(context.Background(), 0); err != nil {
					t.Error(err)
					return
				}
				b := busy.Add(1)
				for p := peak.Load(); b > p && !peak.CompareAndSwap(p, b); p = peak.Load() {
				}
				time.Sleep(hold)
				busy.Add(-1)
				w.release()
			}
		})
	}
	wg.Wait()
	return peak.Load()
}

func TestWindowNeverExceedsN(t *testing.T) {
	for _, n := range []int{1, 2, 3, 8} {
		if p := peakInFlight(t, newWindowWait(n, time.Millisecond), 200, 0); p > int32(n) || p < 1 {
			t.Errorf("window of %d: peak in flight %d", n, p)
		}
	}
}

func TestNilWindowBoundsNothing(t *testing.T) {
	var w *window
	for range 100 {
		if err := w.acquire(context.Background(), 0); err != nil {
			t.Fatal(err)
		}
	}
	w.release()
}

// waitQueued waits until n acquires wait in w's queue.
func waitQueued(w *window, n int) {
	for {
		w.mu.Lock()
		queued := len(w.queue)
		w.mu.Unlock()
		if queued == n {
			return
		}
		time.Sleep(time.Millisecond)
	}
}

// Waiting registrations get their place by priority, then in order of
// arrival, whatever order they come in.
func TestWindowServesTheFirstComponentsFirst(t *testing.T) {
	w := newWindowWait(1, time.Hour)
	if !canAcquire(w) {
		t.Fatal("acquire waited on an empty window")
	}
	var mu sync.Mutex
	var order []int
	var wg sync.WaitGroup
	arrive := func(id int, prio uint64) {
		wg.Go(func() {
			if err := w.acquire(context.Background(), prio); err != nil {
				t.Error(err)
				return
			}
			mu.Lock()
			order = append(order, id)
			mu.Unlock()
			w.release()
		})
		waitQueued(w, id) // each waits before the next arrives
	}
	arrive(1, 3)
	arrive(2, 1)
	arrive(3, 2)
	arrive(4, 1)
	w.release()
	wg.Wait()
	if want := []int{2, 4, 3, 1}; !slices.Equal(order, want) {
		t.Errorf("places given in order %v, want %v", order, want)
	}
}

// An acquire ends with its context, leaves the queue, and the place it
// waited for goes to the next.
func TestWindowCancelledWaiterLeavesTheQueue(t *testing.T) {
	w := newWindowWait(1, time.Hour)
	if !canAcquire(w) {
		t.Fatal("acquire waited on an empty window")
	}
	ctx, cancel := context.WithCancel(context.Background())
	gaveUp := make(chan error)
	go func() { gaveUp <- w.acquire(ctx, 0) }()
	next := make(chan error)
	go func() { next <- w.acquire(context.Background(), 1) }()
	waitQueued(w, 2)
	cancel()
	if err := <-gaveUp; err != context.Canceled {
		t.Fatalf("acquire after cancel = %v, want context.Canceled", err)
	}
	w.release()
	if err := <-next; err != nil {
		t.Fatal(err)
	}
	if w.busy != 1 || len(w.queue) != 0 {
		t.Errorf("busy %d, %d waiting; want 1 and none", w.busy, len(w.queue))
	}
}

// grow raises the bound and lets waiting registrations out; it never
// lowers it.
func TestWindowGrow(t *testing.T) {
	w := newWindowWait(0, time.Hour)
	done := make(chan error)
	go func() { done <- w.acquire(context.Background(), 0) }()
	waitQueued(w, 1)
	w.grow(2)
	if err := <-done; err != nil {
		t.Fatal(err)
	}
	w.grow(1)
	if !canAcquire(w) {
		t.Fatal("grow(1) lowered a bound of 2")
	}
	if canAcquire(w) {
		t.Fatal("a third registration got a place in a window of 2")
	}
}
