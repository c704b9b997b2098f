// Command pulumi-language-polyhost is the test language host of
// tests/langhost with Pulumi's SDK generators (pkg/v3 codegen/nodejs,
// codegen/python, codegen/go) for `pulumi package gen-sdk` and `pulumi
// package add`. Installed (or linked) as pulumi-language-go,
// pulumi-language-nodejs or pulumi-language-python, it serves the runtime
// its name says; the real pulumi CLI starts it from PATH. tests/setup.sh
// builds it into tests/.deps/bin.
//
// It is a module of its own, like the CLI's in tests/tools, so that pkg/v3
// stays out of the main module's graph; it uses the main module's packages
// through a replace directive.
package main

import (
	"fmt"
	"os"

	"github.com/polyhost/polyhost/tests/langhost"
)

func main() {
	runtime, err := langhost.RuntimeFromName(os.Args[0])
	if err != nil {
		fmt.Fprintln(os.Stderr, "usage:", err)
		os.Exit(2)
	}
	os.Exit(langhost.Main(runtime, os.Args[1:], langhost.WithGenerator(generator{runtime: runtime})))
}
