// Package polyhost holds the reference package's schema, embedded so the
// provider binary can serve it. The host is in host/, the components in
// components/, and the provider binary in provider/.
package polyhost

import _ "embed"

// Schema is schema.yaml: the sitekit package's Pulumi schema.
//
//go:embed schema.yaml
var Schema []byte
