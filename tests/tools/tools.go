//go:build tools

// Package tools pins the real pulumi CLI, built from pkg/v3 on the Go module
// proxy (`go install` refuses it: its go.mod has replace directives).
// tests/setup.sh builds it into tests/.deps/bin. A module of its own, so the
// CLI's dependencies stay out of the main module's graph.
package tools

import _ "github.com/pulumi/pulumi/pkg/v3/cmd/pulumi"
