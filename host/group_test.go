package host

import (
	"context"
	"errors"
	"strings"
	"sync/atomic"
	"testing"
)

func TestGroupReusesAtMostLimitGoroutines(t *testing.T) {
	g, _ := newGroup(context.Background(), 3, "pkg:index:C", "c")
	var running, peak, ran atomic.Int32
	for range 100 {
		g.Go(func() error {
			n := running.Add(1)
			for p := peak.Load(); n > p && !peak.CompareAndSwap(p, n); p = peak.Load() {
			}
			ran.Add(1)
			running.Add(-1)
			return nil
		})
	}
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
	var se *StepError
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
