// Package provider wires the sitekit components and resources into a host
// provider. The plugin binary is cmd/pulumi-resource-sitekit; tests build
// the same provider in-process with [New].
package provider
