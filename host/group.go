package host

import (
	"context"
	"sync"

	"github.com/polyhost/polyhost/host/internal/core"
)

// Group runs functions on at most limit goroutines, as an errgroup with
// SetLimit whose Go never blocks.
type Group struct {
	token, name string // the component, for panics
	cancel      context.CancelCauseFunc
	tasks       sync.WaitGroup // functions given to Go and not yet returned

	mu      sync.Mutex
	queue   []func() error
	running int // goroutines, at most limit
	started int // goroutines started in all
	limit   int
	done    bool // Wait has returned

	errOnce sync.Once
	err     error
}

func newGroup(ctx context.Context, limit int, token, name string) (*Group, context.Context) {
	ctx, cancel := context.WithCancelCause(ctx)
	return &Group{token: token, name: name, cancel: cancel, limit: limit}, ctx
}

// Go runs f on a goroutine, or queues it while the limit runs.
func (g *Group) Go(f func() error) {
	g.mu.Lock()
	if g.done {
		g.mu.Unlock()
		panic("host: Group.Go called after Wait returned")
	}
	g.tasks.Add(1)
	if g.running < g.limit {
		g.running++
		g.started++
		g.mu.Unlock()
		go g.run(f)
		return
	}
	g.queue = append(g.queue, f)
	g.mu.Unlock()
}

// run runs f, then queued functions until there are none.
func (g *Group) run(f func() error) {
	finished := false
	defer func() {
		if !finished {
			// runtime.Goexit in f: a new goroutine takes this one's
			// place and the queue.
			if next := g.next(); next != nil {
				g.mu.Lock()
				g.started++
				g.mu.Unlock()
				go g.run(next)
			}
		}
	}()
	for ; f != nil; f = g.next() {
		g.call(f)
	}
	finished = true
}

// next takes the next queued function, or ends the calling goroutine's
// turn if there is none.
func (g *Group) next() func() error {
	g.mu.Lock()
	defer g.mu.Unlock()
	if len(g.queue) == 0 {
		g.running--
		return nil
	}
	f := g.queue[0]
	g.queue[0] = nil
	g.queue = g.queue[1:]
	return f
}

// call runs f, keeping its first error and turning a panic into one.
func (g *Group) call(f func() error) {
	defer g.tasks.Done()
	var err error
	defer func() {
		if r := recover(); r != nil {
			err = core.PanicError(g.token, g.name, "group task", r)
		}
		if err != nil {
			g.errOnce.Do(func() {
				g.err = err
				g.cancel(err)
			})
		}
	}()
	err = f()
}

// Wait waits for every function and returns the first error (or panic).
func (g *Group) Wait() error {
	g.tasks.Wait()
	g.mu.Lock()
	g.done = true
	g.mu.Unlock()
	g.cancel(g.err)
	return g.err
}
