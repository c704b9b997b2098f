// Command polyup runs a Pulumi program on the embedded test engine, like a
// compact `pulumi up`. See polyup.
package main

import (
	"os"

	"github.com/polyhost/polyhost/polyup"
)

func main() {
	os.Exit(polyup.Main(os.Args[1:], os.Stdout, os.Stderr))
}
