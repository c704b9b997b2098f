// Command gen-schema writes the portal package's schema.yaml from the Go
// types of its registrations and schema.overlay.yaml. It is run by go
// generate (the directive is in portal.go).
package main

import (
	"github.com/polyhost/polyhost/host/schemagen"
	"github.com/polyhost/polyhost/tests/portal"
)

func main() { schemagen.Main("portal", portal.Registrations("")...) }
