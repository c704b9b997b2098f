// Command pulumi-resource-secretbox is the secretbox test provider plugin
// (tests/internal/secretbox), built by TestScripts beside sitekit's.
package main

import (
	"github.com/polyhost/polyhost/host"
	"github.com/polyhost/polyhost/tests/internal/secretbox"
)

var version = "0.1.0"

func main() {
	host.Main(secretbox.Name, secretbox.Options(version)...)
}
