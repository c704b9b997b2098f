// Command terraform-provider-kv serves the kv test provider
// (internal/tfprov6) as a Terraform plugin binary, protocol 6.
package main

import (
	"context"
	"log"

	"github.com/hashicorp/terraform-plugin-framework/providerserver"

	"github.com/polyhost/polyhost/internal/tfprov6"
)

var version = "0.1.0"

func main() {
	err := providerserver.Serve(context.Background(), tfprov6.Provider(version), providerserver.ServeOpts{
		Address:         "registry.terraform.io/polyhost/kv",
		ProtocolVersion: 6,
	})
	if err != nil {
		log.Fatal(err)
	}
}
