package core

import (
	"container/heap"
	"context"
	"sync"
	"time"
)

// reopenAfter is how long a full window waits for half its registrations
// to be answered before it lets the next ones go anyway.
const reopenAfter = 10 * time.Millisecond

// window bounds the registrations in flight of a whole provider process to
// the engine's parallel: one window for every component, so that a
// thousand components constructed at once hold a thousand waiting
// registrations, not a thousand times parallel in flight, each with its
// call's state (docs/performance.md). When full, it is held until half of
// them are answered: the next registrations then go out together, and
// gRPC sends them in one write instead of one each. If that takes longer
// than reopenAfter, it lets one out per answer instead, so that slow
// registrations do not hold back the rest. It never lets more than n be in
// flight.
//
// Waiting registrations get their place in order of priority, then of
// arrival: a component constructed earlier (a lower number) goes first, so
// the components in progress finish before later ones start and the memory
// of those waiting stays small. A nil window bounds nothing.
//
// Nothing waits on a place while holding one, so the window cannot
// deadlock by itself; its users must not hold a place while waiting for
// work that needs one (see Component.Register).
type window struct {
	mu      sync.Mutex
	n, busy int
	held    bool        // full, until half are answered or the wait is over
	until   time.Time   // when the wait of the current hold is over
	queue   waiters     // acquires waiting for a place
	arrived uint64      // acquires that have waited, for their order
	timer   *time.Timer // ends a hold at until
	wait    time.Duration
}

func newWindow(n int) *window { return newWindowWait(n, reopenAfter) }

func newWindowWait(n int, wait time.Duration) *window {
	w := &window{n: n, wait: wait}
	w.timer = time.AfterFunc(time.Hour, w.waitOver)
	w.timer.Stop()
	return w
}

// grow raises the bound to n if it is lower.
func (w *window) grow(n int) {
	w.mu.Lock()
	if n > w.n {
		w.n = n
		w.grant()
	}
	w.mu.Unlock()
}

// acquire waits for a place in the window, or for ctx to end; prio orders
// it among the waiting, lowest first.
func (w *window) acquire(ctx context.Context, prio uint64) error {
	if w == nil {
		return nil
	}
	w.mu.Lock()
	if !w.held && w.busy < w.n { // then nobody waits
		w.take()
		w.mu.Unlock()
		return nil
	}
	wt := &waiter{prio: prio, order: w.arrived, ready: make(chan struct{})}
	w.arrived++
	heap.Push(&w.queue, wt)
	w.mu.Unlock()
	select {
	case <-wt.ready:
		return nil
	case <-ctx.Done():
	}
	w.mu.Lock()
	defer w.mu.Unlock()
	if wt.index < 0 { // given a place meanwhile: keep it
		return nil
	}
	heap.Remove(&w.queue, wt.index)
	return ctx.Err()
}

// release gives back a place taken by acquire.
func (w *window) release() {
	if w == nil {
		return
	}
	w.mu.Lock()
	w.busy--
	if w.held && (w.busy <= w.n/2 || !time.Now().Before(w.until)) {
		// Half answered, or the wait is over and the timer is late.
		w.held = false
		w.timer.Stop()
	}
	w.grant()
	w.mu.Unlock()
}

// take takes a place; w.mu is held and a place is free.
func (w *window) take() {
	w.busy++
	if w.busy == w.n {
		w.held = true
		w.until = time.Now().Add(w.wait)
		w.timer.Reset(w.wait)
	}
}

// grant gives the free places to the first waiting; w.mu is held.
func (w *window) grant() {
	for !w.held && w.busy < w.n && len(w.queue) > 0 {
		wt := heap.Pop(&w.queue).(*waiter)
		w.take()
		close(wt.ready)
	}
}

// waitOver ends a hold whose wait is over: from now on each answer lets one
// registration out. A timer stopped too late to keep this from running
// finds a later until and leaves a newer hold alone.
func (w *window) waitOver() {
	w.mu.Lock()
	if w.held && !time.Now().Before(w.until) {
		w.held = false
		w.grant()
	}
	w.mu.Unlock()
}

// waiter is an acquire waiting for a place.
type waiter struct {
	prio, order uint64
	ready       chan struct{} // closed when it has its place
	index       int           // in the queue; -1 once out of it
}

// waiters is a heap of waiting acquires, first the lowest prio, then the
// earliest.
type waiters []*waiter

func (q waiters) Len() int { return len(q) }
func (q waiters) Less(i, j int) bool {
	if q[i].prio != q[j].prio {
		return q[i].prio < q[j].prio
	}
	return q[i].order < q[j].order
}
func (q waiters) Swap(i, j int) {
	q[i], q[j] = q[j], q[i]
	q[i].index, q[j].index = i, j
}
func (q *waiters) Push(x any) {
	wt := x.(*waiter)
	wt.index = len(*q)
	*q = append(*q, wt)
}
func (q *waiters) Pop() any {
	old := *q
	wt := old[len(old)-1]
	old[len(old)-1] = nil
	wt.index = -1
	*q = old[:len(old)-1]
	return wt
}
