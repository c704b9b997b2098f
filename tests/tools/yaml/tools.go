//go:build tools

// Package tools pins pulumi-language-yaml, the YAML language host the real
// CLI runs YAML programs with. tests/setup.sh builds it into tests/.deps/bin.
// A module of its own: its pkg/v3 differs from the CLI's in tests/tools.
package tools

import _ "github.com/pulumi/pulumi-yaml/cmd/pulumi-language-yaml"
