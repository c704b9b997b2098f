package monitorclient

import (
	"context"
	"errors"
	"sync"

	"golang.org/x/sync/singleflight"
)

// Pool keeps one *Client per monitor endpoint: one gRPC connection and one
// feature negotiation per endpoint, reused by every Construct/Call. Safe for
// concurrent use. A failed dial is not cached; the next Get retries.
type Pool struct {
	mu      sync.Mutex
	clients map[string]*Client
	closed  bool

	dials singleflight.Group
}

// NewPool returns an empty pool.
func NewPool() *Pool {
	return &Pool{clients: map[string]*Client{}}
}

// Get returns the client for monitorAddr, dialling and negotiating on first
// use. Concurrent first calls share one dial; a caller whose ctx ends
// stops waiting, but the shared dial goes on for the others.
func (p *Pool) Get(ctx context.Context, monitorAddr string) (*Client, error) {
	if c, err := p.lookup(monitorAddr); c != nil || err != nil {
		return c, err
	}
	ch := p.dials.DoChan(monitorAddr, func() (any, error) {
		if c, err := p.lookup(monitorAddr); c != nil || err != nil {
			return c, err
		}
		// The dial outlives the caller that happened to start it, so it
		// must not be cancelled with that caller's context.
		c, err := Dial(context.WithoutCancel(ctx), monitorAddr)
		if err != nil {
			return nil, err
		}
		p.mu.Lock()
		defer p.mu.Unlock()
		if p.closed {
			_ = c.Close()
			return nil, ErrPoolClosed
		}
		p.clients[monitorAddr] = c
		return c, nil
	})
	select {
	case r := <-ch:
		if r.Err != nil {
			return nil, r.Err
		}
		return r.Val.(*Client), nil
	case <-ctx.Done():
		return nil, ctx.Err()
	}
}

func (p *Pool) lookup(addr string) (*Client, error) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.closed {
		return nil, ErrPoolClosed
	}
	return p.clients[addr], nil
}

// Close closes every client; later Gets fail with ErrPoolClosed.
func (p *Pool) Close() error {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.closed = true
	var errs []error
	for addr, c := range p.clients {
		errs = append(errs, c.Close())
		delete(p.clients, addr)
	}
	return errors.Join(errs...)
}
