// Command gen-schema writes the sitekit package's schema.yaml from the Go
// types of components/ and provider/ and schema.overlay.yaml. It is run by
// go generate (the directive is in the top-level schema.go):
//
//	go generate .
package main

import (
	"github.com/polyhost/polyhost/host/schemagen"
	"github.com/polyhost/polyhost/provider"
)

func main() {
	schemagen.Main(provider.Name, provider.Registrations("")...)
}
