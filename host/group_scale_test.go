package host

import (
	"context"
	"fmt"
	"testing"
)

// BenchmarkGroupQueue gives a Group n functions at once on 8 goroutines,
// as a PageSet of n pages does, and reports bytes and time per function:
// flat as n grows means the queue costs linear memory and time.
func BenchmarkGroupQueue(b *testing.B) {
	for _, n := range []int{100, 1000, 10000, 100000} {
		b.Run(fmt.Sprintf("n=%d", n), func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				g, _ := newGroup(context.Background(), 8, "pkg:index:C", "c")
				release := make(chan struct{})
				for range n {
					g.Go(func() error { <-release; return nil })
				}
				close(release)
				if err := g.Wait(); err != nil {
					b.Fatal(err)
				}
			}
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*n), "ns/func")
		})
	}
}
