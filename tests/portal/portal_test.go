package portal

import (
	"testing"

	"github.com/polyhost/polyhost/host"
)

// The package starts: its Go types agree with its schema, Go SDK and raw
// registrations side by side.
func TestProviderStarts(t *testing.T) {
	if _, err := host.New("portal", Options("0.1.0")...); err != nil {
		t.Fatal(err)
	}
}
