package host

import (
	"context"
	"sync"
	"sync/atomic"
)

// Group runs functions concurrently on at most limit goroutines, like an
// errgroup with SetLimit, but each goroutine runs function after function
// instead of exiting: a component registering a thousand children starts
// limit goroutines, not a thousand, and their stacks grow once.
//
// The first error cancels the Group's context and is what Wait returns. A
// panic in a function becomes that function's error. Functions may call Go;
// once Wait has returned, the Group is spent. Always call Wait: it also
// releases the Group's goroutines.
type Group struct {
	token, name string // the component, for panics
	cancel      context.CancelCauseFunc
	work        chan func() error // hands a function to an idle goroutine
	tasks       sync.WaitGroup    // functions given to Go and not yet returned
	workers     sync.WaitGroup
	done        atomic.Bool // Wait has closed work

	mu      sync.Mutex
	started int
	limit   int

	errOnce sync.Once
	err     error
}

func newGroup(ctx context.Context, limit int, token, name string) (*Group, context.Context) {
	ctx, cancel := context.WithCancelCause(ctx)
	return &Group{token: token, name: name, cancel: cancel, work: make(chan func() error), limit: limit}, ctx
}

// Go runs f on an idle goroutine of the Group, on a new one if fewer than
// the limit are running, or else blocks until one is idle.
func (g *Group) Go(f func() error) {
	if g.done.Load() {
		panic("host: Group.Go called after Wait returned")
	}
	g.tasks.Add(1)
	select {
	case g.work <- f:
		return
	default:
	}
	g.mu.Lock()
	if g.started < g.limit {
		g.started++
		g.workers.Add(1)
		g.mu.Unlock()
		go g.run(f)
		return
	}
	g.mu.Unlock()
	g.work <- f
}

// run runs f, then every function handed to it, until Wait.
func (g *Group) run(f func() error) {
	defer g.workers.Done()
	for ok := true; ok; f, ok = <-g.work {
		if err := g.call(f); err != nil {
			g.errOnce.Do(func() {
				g.err = err
				g.cancel(err)
			})
		}
		g.tasks.Done()
	}
}

func (g *Group) call(f func() error) (err error) {
	defer func() {
		if r := recover(); r != nil {
			err = panicError(g.token, g.name, "group task", r)
		}
	}()
	return f()
}

// Wait waits for every function to return, cancels the Group's context and
// returns the first error.
func (g *Group) Wait() error {
	g.tasks.Wait()
	if !g.done.Swap(true) {
		close(g.work)
	}
	g.workers.Wait()
	g.cancel(g.err)
	return g.err
}
