// Command sitekit-floor-bounded is the sitekit provider with the bounded floor's
// Construct of Site (tests/bench/floor), for the benchmarks in tests/bench.
// The engine launches it like any plugin.
package main

import (
	"fmt"
	"os"

	"github.com/polyhost/polyhost/tests/bench/floor"
)

func main() {
	if err := floor.Main("0.1.0", floor.Bounded); err != nil {
		fmt.Fprintf(os.Stderr, "sitekit-floor-bounded: %v\n", err)
		os.Exit(1)
	}
}
