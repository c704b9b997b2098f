package host

import (
	"context"
	"sync"
	"time"
)

// reopenAfter is how long a full window waits for half its registrations
// to be answered before it lets the next ones go anyway.
const reopenAfter = 10 * time.Millisecond

// window bounds a component's registrations in flight to the engine's
// parallel. When full, it is held until half of them are answered: the next
// registrations then go out together, and gRPC sends them in one write
// instead of one each. If that takes longer than reopenAfter, it lets one
// out per answer instead, so that slow registrations do not hold back the
// rest. It never lets more than n be in flight. A nil window bounds nothing.
type window struct {
	mu      sync.Mutex
	n, busy int
	held    bool          // full, until half are answered or the wait is over
	until   time.Time     // when the wait of the current hold is over
	waiters int           // acquires waiting for a place
	changed chan struct{} // closed, and replaced, when a place may be free
	timer   *time.Timer   // ends a hold at until
	wait    time.Duration
}

func newWindow(n int) *window { return newWindowWait(n, reopenAfter) }

func newWindowWait(n int, wait time.Duration) *window {
	w := &window{n: n, changed: make(chan struct{}), wait: wait}
	w.timer = time.AfterFunc(time.Hour, w.waitOver)
	w.timer.Stop()
	return w
}

// acquire waits for a place in the window, or for ctx to end.
func (w *window) acquire(ctx context.Context) error {
	if w == nil {
		return nil
	}
	w.mu.Lock()
	for w.held || w.busy >= w.n {
		changed := w.changed
		w.waiters++
		w.mu.Unlock()
		select {
		case <-changed:
		case <-ctx.Done():
			w.mu.Lock()
			w.waiters--
			w.mu.Unlock()
			return ctx.Err()
		}
		w.mu.Lock()
		w.waiters--
	}
	w.busy++
	if w.busy == w.n {
		w.held = true
		w.until = time.Now().Add(w.wait)
		w.timer.Reset(w.wait)
	}
	w.mu.Unlock()
	return nil
}

// release gives back a place taken by acquire.
func (w *window) release() {
	if w == nil {
		return
	}
	w.mu.Lock()
	w.busy--
	switch {
	case !w.held:
		w.notify()
	case w.busy <= w.n/2 || !time.Now().Before(w.until):
		// Half answered, or the wait is over and the timer is late.
		w.held = false
		w.timer.Stop()
		w.notify()
	}
	w.mu.Unlock()
}

// waitOver ends a hold whose wait is over: from now on each answer lets one
// registration out. A timer stopped too late to keep this from running
// finds a later until and leaves a newer hold alone.
func (w *window) waitOver() {
	w.mu.Lock()
	if w.held && !time.Now().Before(w.until) {
		w.held = false
		w.notify()
	}
	w.mu.Unlock()
}

// notify wakes the acquires waiting, if any, to look again; w.mu is held.
func (w *window) notify() {
	if w.waiters > 0 {
		close(w.changed)
		w.changed = make(chan struct{})
	}
}
