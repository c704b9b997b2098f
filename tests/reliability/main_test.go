package reliability

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"testing"
)

// pluginBin is the sitekit provider binary; faultyPlugin the same built with
// -tags faultinject, whose object creates fail, stall or panic on demand
// (SITEKIT_FAULT, see provider/fault_inject.go).
var pluginBin, faultyPlugin string

func TestMain(m *testing.M) {
	dir, err := os.MkdirTemp("", "reliability-")
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	pluginBin = filepath.Join(dir, "plain", "pulumi-resource-sitekit")
	faultyPlugin = filepath.Join(dir, "faulty", "pulumi-resource-sitekit")
	for out, flags := range map[string][]string{pluginBin: nil, faultyPlugin: {"-tags", "faultinject"}} {
		args := append(append([]string{"build"}, flags...), "-o", out, "../../provider/cmd/pulumi-resource-sitekit")
		cmd := exec.Command("go", args...)
		cmd.Stdout, cmd.Stderr = os.Stderr, os.Stderr
		if err := cmd.Run(); err != nil {
			fmt.Fprintf(os.Stderr, "building the provider %v: %v\n", flags, err)
			os.Exit(1)
		}
	}
	code := m.Run()
	_ = os.RemoveAll(dir)
	os.Exit(code)
}
