// Command pulumi-resource-lamp is the lamp test provider plugin
// (tests/internal/lamp), built by TestScripts beside sitekit's.
package main

import (
	"github.com/polyhost/polyhost/host"
	"github.com/polyhost/polyhost/tests/internal/lamp"
)

var version = "0.1.0"

func main() {
	host.Main(lamp.Name, lamp.Options(version)...)
}
