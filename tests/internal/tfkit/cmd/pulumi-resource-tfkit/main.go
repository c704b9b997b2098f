// Command pulumi-resource-tfkit is the tfkit test provider plugin
// (tests/internal/tfkit), built by TestScripts beside sitekit's; it needs
// terraform-provider-time and terraform-provider-kv on PATH.
package main

import (
	"github.com/polyhost/polyhost/host"
	"github.com/polyhost/polyhost/tests/internal/tfkit"
)

var version = "0.1.0"

func main() {
	host.Main(tfkit.Name, tfkit.Options(version)...)
}
