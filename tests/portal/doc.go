// Package portal is a test package whose component is written with the Go
// SDK (host/gosdk) on another package's generated Go SDK: sitekit's, which
// tests/setup.sh generates into sdk/go. Its Portal builds a sitekit Site
// (a component of another plugin) with sitekit.NewSite, reads an object
// with the sitekit function getObject, and calls pageUrl on the Site it
// receives as a reference. RawPortal does exactly the same on the raw path
// (host.WithComponent: Component.Register, Invoke and Call), so that one
// e2e scenario (real_compose) can hold both kinds to the same assertions.
// Its schema.yaml is generated from the Go types,
// the SDK's Input and Output types among them, and an overlay (go
// generate). It is a module of its own, since it imports the generated SDK.
package portal
