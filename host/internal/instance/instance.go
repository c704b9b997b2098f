// Package instance gives host/hosttest a fresh instance of a provider (one
// per explicit provider, as the engine starts a plugin process per
// provider resource) without widening package host's API. Package host
// sets Fresh; it takes and returns a *host.Provider.
package instance

// Fresh returns a new instance of a *host.Provider: the same package and
// registrations, with its own configuration and engine connection.
var Fresh func(p any) any
