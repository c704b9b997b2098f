// Package polyhost holds the reference package's schema, embedded so the
// provider binary can serve it. The host is in host/, the components in
// components/, and the provider binary in provider/.
package polyhost

import _ "embed"

// Schema is schema.yaml: the sitekit package's Pulumi schema, generated
// from the Go types of components/ and provider/ with schema.overlay.yaml
// merged in (provider/cmd/gen-schema; provider's tests fail when it is
// stale).
//
//go:embed schema.yaml
var Schema []byte

//go:generate go run ./provider/cmd/gen-schema -o schema.yaml -overlay schema.overlay.yaml
