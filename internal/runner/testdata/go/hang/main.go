// Command hang starts a child process, writes its pid to the file named by
// PULUMI_CONFIG's runnertest:pidfile, registers the stack and blocks forever.
package main

import (
	"encoding/json"
	"os"
	"os/exec"
	"strconv"

	"github.com/pulumi/pulumi/sdk/v3/go/pulumi"
)

func main() {
	var raw map[string]string
	if err := json.Unmarshal([]byte(os.Getenv("PULUMI_CONFIG")), &raw); err != nil {
		panic(err)
	}
	child := exec.Command("sleep", "600")
	if err := child.Start(); err != nil {
		panic(err)
	}
	if err := os.WriteFile(raw["runnertest:pidfile"], []byte(strconv.Itoa(child.Process.Pid)), 0o644); err != nil {
		panic(err)
	}
	pulumi.Run(func(ctx *pulumi.Context) error {
		select {}
	})
}
