// Package protocol holds the converters of the Pulumi protocol's messages
// (pulumirpc) that the plugin's server (host/internal/rpc), hosttest's fake
// engine and monitorclient share: one converter per message.
//
// It sits below monitorclient, which imports nothing above itself, so it
// cannot name monitorclient's types: where a message carries one of them,
// the converter takes a type of the same shape here, which the caller
// converts to (monitorclient.AliasSpec ↔ [AliasSpec]); a change to one
// shape then fails to compile rather than drift.
package protocol
