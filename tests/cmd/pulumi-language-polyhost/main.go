// Command pulumi-language-polyhost is the test language host of
// tests/langhost. Installed (or linked) as pulumi-language-go,
// pulumi-language-nodejs or pulumi-language-python, it serves the runtime
// its name says; the real pulumi CLI starts it from PATH.
package main

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/polyhost/polyhost/tests/langhost"
)

func main() {
	name := strings.TrimSuffix(filepath.Base(os.Args[0]), ".exe")
	runtime, ok := strings.CutPrefix(name, "pulumi-language-")
	if !ok || runtime == "polyhost" {
		fmt.Fprintln(os.Stderr, "usage: install this command as pulumi-language-go, -nodejs or -python; the name picks the runtime")
		os.Exit(2)
	}
	os.Exit(langhost.Main(runtime, os.Args[1:]))
}
