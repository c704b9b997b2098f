// Command sitekit-gosdk is the sitekit plugin with Site, PageSet and
// Site.pageUrl written with the Go SDK (tests/peer's) and served by
// host/gosdk, beside the shipped custom resources, for the benchmarks in
// tests/bench: the cost of the Go SDK path against the raw one, in the
// same host.
package main

import (
	"github.com/polyhost/polyhost"
	"github.com/polyhost/polyhost/components"
	"github.com/polyhost/polyhost/host"
	"github.com/polyhost/polyhost/host/gosdk"
	"github.com/polyhost/polyhost/provider"
	"github.com/polyhost/polyhost/tests/peer"
)

func main() {
	opts := append([]host.Option{host.WithSchema(polyhost.Schema)}, provider.Resources("0.1.0")...)
	host.Main(provider.Name, append(opts,
		gosdk.Component(components.SiteType, peer.NewSite),
		gosdk.Component(components.PageSetType, peer.NewPageSet),
		gosdk.Method(components.SitePageURLMethod, peer.PageURL),
		host.WithComponent(components.MirrorType, components.BuildMirror),
		host.WithMethod(components.SiteAddPageMethod, components.AddPage),
	)...)
}
