// Command pulumi-resource-echo is the echo test provider plugin
// (tests/breakage/echo): it serves the package schema in the file
// $ECHO_SCHEMA names.
package main

import (
	"fmt"
	"os"

	"github.com/polyhost/polyhost/host"
	"github.com/polyhost/polyhost/tests/breakage/echo"
)

func main() {
	file := os.Getenv(echo.EnvSchema)
	if file == "" {
		fmt.Fprintf(os.Stderr, "pulumi-resource-echo: set %s to the schema file to serve\n", echo.EnvSchema)
		os.Exit(1)
	}
	src, err := os.ReadFile(file)
	if err == nil {
		var name string
		var opts []host.Option
		if name, opts, err = echo.Options(src); err == nil {
			host.Main(name, opts...)
			return
		}
	}
	fmt.Fprintf(os.Stderr, "pulumi-resource-echo: %v\n", err)
	os.Exit(1)
}
