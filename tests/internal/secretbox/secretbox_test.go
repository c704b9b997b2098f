package secretbox

import (
	"testing"

	"github.com/polyhost/polyhost/host"
)

// TestOptions: the schema loads and every component, method and function
// fits it (host.New checks the Go types against the schema).
func TestOptions(t *testing.T) {
	p, err := host.New(Name, Options("0.1.0")...)
	if err != nil {
		t.Fatal(err)
	}
	_ = p.Close()
}
