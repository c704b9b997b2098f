package provider_test

import (
	"testing"

	"github.com/polyhost/polyhost/host"
	"github.com/polyhost/polyhost/provider"
)

// BenchmarkNewGoFirst is host.New of a Go-first sitekit, given no schema:
// the schema built from the Go types (what SchemaFromTypes writes, as
// JSON) and loaded. docs/performance.md compares it with BenchmarkNew and
// with the plugin's cold start.
func BenchmarkNewGoFirst(b *testing.B) {
	benchmarkNew(b, provider.Registrations("0.1.0"))
}

// BenchmarkNew is host.New of the shipped plugin: schema.yaml loaded and
// the Go types checked against it.
func BenchmarkNew(b *testing.B) {
	benchmarkNew(b, provider.Options("0.1.0"))
}

func benchmarkNew(b *testing.B, opts []host.Option) {
	for b.Loop() {
		p, err := host.New(provider.Name, opts...)
		if err != nil {
			b.Fatal(err)
		}
		_ = p.Close()
	}
}
