// Package sitekit is the thin Go SDK for the sitekit package: typed
// wrappers over pulumi.Context for its components, resources, methods and
// functions, kept in step with schema.yaml by hand.
package sitekit
