//go:build tools

// Package tools pins terraform-provider-time, the protocol 5 provider that
// host/terraform/internal/tfwire's tests build and run. A module of its own,
// so the provider's dependencies stay out of the main module's graph.
package tools

import _ "github.com/hashicorp/terraform-provider-time"
