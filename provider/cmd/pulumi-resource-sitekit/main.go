// Command pulumi-resource-sitekit is the sitekit provider plugin. The Pulumi
// engine starts it; it is not meant to be run by hand, except with no
// arguments for PULUMI_DEBUG_PROVIDERS.
package main

import (
	"github.com/polyhost/polyhost/host"
	"github.com/polyhost/polyhost/provider"
)

// version is set at build time: -ldflags "-X main.version=1.2.3".
var version = "0.1.0"

func main() {
	host.Main(provider.Name, provider.Options(version)...)
}
