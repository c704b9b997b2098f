// Command terraform-provider-kv serves the kv test provider
// (internal/tfprov6) as a Terraform plugin binary, protocol 6.
package main

import (
	"log"

	"github.com/hashicorp/terraform-plugin-go/tfprotov6"
	"github.com/hashicorp/terraform-plugin-go/tfprotov6/tf6server"

	"github.com/polyhost/polyhost/internal/tfprov6"
)

var version = "0.1.0"

func main() {
	err := tf6server.Serve("registry.terraform.io/polyhost/kv", func() tfprotov6.ProviderServer { return tfprov6.New(version) })
	if err != nil {
		log.Fatal(err)
	}
}
