package host

import (
	"testing"

	"github.com/polyhost/polyhost/host/internal/core"
)

// The packages beside host reach a Provider's core through core.Of, which
// finds the handle Provider embeds: no global, no name an author sees.
func TestCoreOfFindsTheProvidersCore(t *testing.T) {
	t.Parallel()
	p, err := New("test")
	if err != nil {
		t.Fatal(err)
	}
	if got := core.Of(p); got != p.core {
		t.Errorf("core.Of(p) = %p, want p's core %p", got, p.core)
	}
	if got := core.Of(p.core); got != nil {
		t.Errorf("core.Of of a value embedding no handle = %p, want nil", got)
	}
}
