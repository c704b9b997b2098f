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
// parallel. When full, it reopens only once half of them are answered (or
// after reopenAfter, so that slow ones do not hold back the rest): the
// next registrations then go out together, and gRPC sends them in one
// write instead of one each. A nil window bounds nothing.
type window struct {
	mu     sync.Mutex
	n      int
	busy   int
	full   bool
	opened chan struct{} // closed when a full window reopens
	timer  *time.Timer   // reopens a full window after wait
	wait   time.Duration
}

func newWindow(n int) *window { return newWindowWait(n, reopenAfter) }

func newWindowWait(n int, wait time.Duration) *window {
	w := &window{n: n, opened: make(chan struct{}), wait: wait}
	w.timer = time.AfterFunc(time.Hour, w.reopen)
	w.timer.Stop()
	return w
}

// acquire waits for a place in the window, or for ctx to end.
func (w *window) acquire(ctx context.Context) error {
	if w == nil {
		return nil
	}
	for {
		w.mu.Lock()
		if !w.full {
			w.busy++
			if w.busy == w.n {
				w.full = true
				w.timer.Reset(w.wait)
			}
			w.mu.Unlock()
			return nil
		}
		opened := w.opened
		w.mu.Unlock()
		select {
		case <-opened:
		case <-ctx.Done():
			return ctx.Err()
		}
	}
}

// release gives back a place taken by acquire.
func (w *window) release() {
	if w == nil {
		return
	}
	w.mu.Lock()
	w.busy--
	if w.full && w.busy <= w.n/2 {
		w.open()
	}
	w.mu.Unlock()
}

func (w *window) reopen() {
	w.mu.Lock()
	if w.full {
		w.open()
	}
	w.mu.Unlock()
}

// open reopens a full window; w.mu is held.
func (w *window) open() {
	w.full = false
	w.timer.Stop()
	close(w.opened)
	w.opened = make(chan struct{})
}
