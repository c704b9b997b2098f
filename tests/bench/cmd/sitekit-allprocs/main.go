// Command sitekit-allprocs is the shipped sitekit plugin run with Go's
// default GOMAXPROCS, one thread per core (host.WithMaxProcs(0)), instead
// of host.Main's one, for the benchmarks in tests/bench: it shows what
// that default saves.
package main

import (
	"github.com/polyhost/polyhost/host"
	"github.com/polyhost/polyhost/provider"
)

func main() {
	host.Main(provider.Name, append(provider.Options("0.1.0"), host.WithMaxProcs(0))...)
}
