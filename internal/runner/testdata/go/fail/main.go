// Command fail leaks the secret config value to stderr, then fails as
// runnertest:mode says: "throw" returns an error from the program body
// (exit 32, logged), "exit" exits with status 3.
package main

import (
	"encoding/json"
	"errors"
	"fmt"
	"os"

	"github.com/pulumi/pulumi/sdk/v3/go/pulumi"
	"github.com/pulumi/pulumi/sdk/v3/go/pulumi/config"
)

func main() {
	var raw map[string]string
	_ = json.Unmarshal([]byte(os.Getenv("PULUMI_CONFIG")), &raw)
	fmt.Fprintf(os.Stderr, "leaking token=%s\n", raw["runnertest:token"])

	pulumi.Run(func(ctx *pulumi.Context) error {
		if config.Get(ctx, "mode") == "exit" {
			os.Exit(3)
		}
		return errors.New("boom from go")
	})
}
