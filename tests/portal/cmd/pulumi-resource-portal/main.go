// Command pulumi-resource-portal is the portal test package's plugin.
package main

import (
	"github.com/polyhost/polyhost/host"
	"github.com/polyhost/polyhost/tests/portal"
)

func main() { host.Main("portal", portal.Options("0.1.0")...) }
