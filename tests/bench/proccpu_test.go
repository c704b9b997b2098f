package bench

import (
	"os"
	"testing"
	"time"
)

func TestParseSelfCPU(t *testing.T) {
	t.Parallel()
	// The command name may hold spaces and parentheses; utime 250 and
	// stime 30 ticks, children's 999 and 999 left out.
	stat := "4242 (pulumi (x) y) S 1 4242 4242 0 -1 4194560 100 0 0 0 250 30 999 999 20 0 8 0 100 0 0\n"
	got, err := parseSelfCPU([]byte(stat))
	if err != nil || got != 2800*time.Millisecond {
		t.Errorf("parseSelfCPU = %v, %v; want 2.8s", got, err)
	}
	if _, err := parseSelfCPU([]byte("4242 (pulumi) S 1 2")); err == nil {
		t.Error("parseSelfCPU of a short line did not fail")
	}
}

func TestSelfCPUCounts(t *testing.T) {
	t.Parallel()
	before, err := selfCPU(os.Getpid())
	if err != nil {
		t.Fatal(err)
	}
	for deadline := time.Now().Add(5 * time.Second); time.Now().Before(deadline); {
		now, err := selfCPU(os.Getpid())
		if err != nil {
			t.Fatal(err)
		}
		if now > before {
			return
		}
		for i := 0; i < 1e6; i++ { // burn a little CPU
			_ = i * i
		}
	}
	t.Error("selfCPU of this busy process did not grow in 5 s")
}
