package provider

import (
	"github.com/polyhost/polyhost"
	"github.com/polyhost/polyhost/components"
	"github.com/polyhost/polyhost/host"
)

// Name is the package name.
const Name = "sitekit"

// DefaultStorageURL is where buckets live when storageUrl is not set: the
// directory .sitekit beside the program.
const DefaultStorageURL = "file://./.sitekit"

// Annotate sets storageUrl's default, which the running plugin applies to
// its configuration whether or not it serves schema.yaml.
func (c *Config) Annotate(a host.Annotator) {
	a.SetDefault(&c.StorageURL, DefaultStorageURL)
}

// Options describe the sitekit package to the host: its registrations
// and schema.yaml, which the host checks them against.
func Options(version string) []host.Option {
	return append([]host.Option{host.WithSchema(polyhost.Schema)}, Registrations(version)...)
}

// Registrations are the package's components, resources, methods,
// functions and configuration. Alone, they make a Go-first provider
// serving the schema built from their types, without schema.yaml's
// descriptions and overlay.
func Registrations(version string) []host.Option {
	return append(Resources(version), Components()...)
}

// Resources are the package's configuration, custom resources, function
// and the provider resource's method: all but its components and theirs.
func Resources(version string) []host.Option {
	b := &backend{}
	return []host.Option{
		host.WithVersion(version),
		host.WithConfig(b.configure),
		host.WithTypedResource[BucketArgs, BucketState](components.BucketType, Bucket{b}),
		host.WithTypedResource[BucketObjectArgs, BucketObjectState](components.BucketObjectType, BucketObject{b}),
		host.WithFunction(GetObjectToken, b.getObject),
		host.WithMethod(BucketEndpointMethod, BucketEndpoint),
	}
}

// Components are the package's components and methods (package
// components).
func Components() []host.Option {
	return []host.Option{
		host.WithComponent(components.SiteType, components.BuildSite),
		host.WithComponent(components.PageSetType, components.BuildPageSet),
		host.WithComponent(components.MirrorType, components.BuildMirror),
		host.WithMethod(components.SitePageURLMethod, components.PageURL),
		host.WithMethod(components.SiteAddPageMethod, components.AddPage),
	}
}

// New builds the sitekit provider.
func New(version string) (*host.Provider, error) {
	return host.New(Name, Options(version)...)
}
