package host

import (
	"runtime/debug"
	"testing"
)

func TestGCPercent(t *testing.T) {
	const mb = 1 << 20
	for _, tt := range []struct {
		headroom, scanned uint64
		want              int
	}{
		{headroom: 4 * mb, scanned: 0, want: 100}, // before the first collection: Go's 4 MB
		{headroom: 8 * mb, scanned: 0, want: 200},
		{headroom: 4 * mb, scanned: 2 * mb, want: 200},
		{headroom: 4 * mb, scanned: 3 * mb, want: 133},
		{headroom: 4 * mb, scanned: 4 * mb, want: 100},
		{headroom: 4 * mb, scanned: 40 * mb, want: 100}, // never below Go's default
	} {
		if got := gcPercent(tt.headroom, tt.scanned); got != tt.want {
			t.Errorf("gcPercent(%d, %d) = %d, want %d", tt.headroom, tt.scanned, got, tt.want)
		}
	}
}

// With GOGC or GOMEMLIMIT set, tuneGC leaves the collector alone.
func TestTuneGCLeavesTheEnvironmentsSetting(t *testing.T) {
	for _, v := range []string{"GOGC", "GOMEMLIMIT"} {
		t.Run(v, func(t *testing.T) {
			t.Setenv(v, "")
			before := debug.SetGCPercent(77)
			tuneGC(64 << 20)
			if got := debug.SetGCPercent(before); got != 77 {
				t.Errorf("with %s set, GOGC became %d", v, got)
			}
		})
	}
}
