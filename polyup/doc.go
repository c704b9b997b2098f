// Package polyup is a compact `pulumi up` on the embedded engine: it runs
// one program directory through preview, up, refresh or destroy and prints
// each resource with its operation, then the stack outputs. The command is
// cmd/polyup; the e2e suite runs the same code inside testscript.
package polyup
