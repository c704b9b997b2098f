package portal

import (
	"bytes"
	"testing"

	"github.com/polyhost/polyhost/host"
	"github.com/polyhost/polyhost/host/schemagen"
)

// The package starts: its Go types agree with its schema, Go SDK and raw
// registrations side by side.
func TestProviderStarts(t *testing.T) {
	if _, err := host.New("portal", Options("0.1.0")...); err != nil {
		t.Fatal(err)
	}
}

// schema.yaml is what go generate makes from the Go types (the Go SDK's
// Input and Output types among them) and the overlay.
func TestSchemaIsGenerated(t *testing.T) {
	src, err := schemagen.Generate("portal", "schema.overlay.yaml", Registrations("")...)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(src, Schema) {
		t.Errorf("schema.yaml is stale: run go generate in tests/portal (diff -u schema.yaml <(go run ./cmd/gen-schema -o /dev/stdout -overlay schema.overlay.yaml))")
	}
}
