// Command sitekit-floor is the sitekit provider with the engine-bound floor's
// Construct of Site (tests/bench/floor), for the benchmarks in tests/bench.
// The engine launches it like any plugin.
package main

import (
	"fmt"
	"os"

	"github.com/polyhost/polyhost/tests/bench/floor"
)

func main() {
	if err := floor.Main("0.1.0", floor.AllAtOnce); err != nil {
		fmt.Fprintf(os.Stderr, "sitekit-floor: %v\n", err)
		os.Exit(1)
	}
}
