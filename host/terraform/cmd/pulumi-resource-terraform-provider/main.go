package main

import "github.com/polyhost/polyhost/host"

// Name is the plugin's package, the base of every package it serves.
const Name = "terraform-provider"

// version is the plugin's version, which each package's schema records
// as its base provider's.
var version = "0.1.0"

func main() {
	host.Main(Name, host.WithVersion(version), host.WithoutSchema(), host.WithParameterize(Parameterize))
}
