// Command pulumi-resource-sitekit-peer is the sitekit provider with Site,
// PageSet and Site.pageUrl built on the Go SDK (tests/peer), for the
// benchmarks in tests/bench. The engine launches it like any plugin.
package main

import (
	"fmt"
	"os"

	"github.com/polyhost/polyhost/tests/peer"
)

var version = "0.1.0"

func main() {
	if err := peer.Main(version); err != nil {
		fmt.Fprintf(os.Stderr, "pulumi-resource-sitekit-peer: %v\n", err)
		os.Exit(1)
	}
}
