// Command pulumi-resource-shelf is the shelf test package's plugin
// (tests/internal/shelf), built by TestScripts beside sitekit's.
package main

import (
	"github.com/polyhost/polyhost/host"
	"github.com/polyhost/polyhost/tests/internal/shelf"
)

func main() { host.Main(shelf.Name, shelf.Options()...) }
