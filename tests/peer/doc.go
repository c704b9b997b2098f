// Package peer is a second implementation of the sitekit Site and PageSet
// components on the Go SDK's path (provider.Construct with a
// pulumi.Context), for comparison with the host in tests/bench. It is test
// code and is not shipped.
//
// [NewServer] wraps the normal sitekit provider's gRPC server and replaces
// only Construct (Site, PageSet) and Call (Site.pageUrl), so custom
// resource CRUD is the same code in both providers. The plugin binary is
// tests/peer/cmd/pulumi-resource-sitekit-peer.
package peer
