package bench

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"

	"golang.org/x/sync/errgroup"
)

// Impl names what a sample measures.
type Impl string

const (
	// Ours is the shipped plugin, provider/cmd/pulumi-resource-sitekit.
	Ours Impl = "ours"
	// OursAllProcs is ours with Go's default GOMAXPROCS instead of
	// host.Main's 1, tests/bench/cmd/sitekit-allprocs.
	OursAllProcs Impl = "ours-allprocs"
	// Peer is the Go SDK implementation, tests/peer.
	Peer Impl = "peer"
	// Floor is a plugin whose Construct sends the same registrations with
	// a bare client and does nothing else, tests/bench/floor.
	Floor Impl = "floor"
	// BoundedFloor is the floor keeping at most the engine's parallel
	// registrations in flight, as ours does.
	BoundedFloor Impl = "floor-bounded"
	// OursGoSDK is ours with Site, PageSet and Site.pageUrl written with
	// the Go SDK (the peer's code) and served by host/gosdk,
	// tests/bench/cmd/sitekit-gosdk.
	OursGoSDK Impl = "ours-gosdk"
	// TypeScript is Site on @pulumi/pulumi's componentProviderHost,
	// tests/bench/peers/typescript, package sitekitts.
	TypeScript Impl = "typescript"
	// Python is Site on the Python SDK's component_provider_host,
	// tests/bench/peers/python, package sitekitpy.
	Python Impl = "python"
)

// Hosts are the language SDKs' component provider hosts. They serve only
// Construct: the Site's children go to a sitekit plugin (ours), and they
// have no methods.
var Hosts = []Impl{TypeScript, Python}

// Package is the Pulumi package impl's plugin serves.
func (i Impl) Package() string {
	switch i {
	case TypeScript:
		return "sitekitts"
	case Python:
		return "sitekitpy"
	}
	return "sitekit"
}

// IsHost reports whether impl is one of Hosts.
func (i Impl) IsHost() bool { return i == TypeScript || i == Python }

// Impls are the implementations the deployment measurements compare, in
// report order.
var Impls = []Impl{Ours, Peer, Floor, BoundedFloor, OursAllProcs, OursGoSDK}

const pluginName = "pulumi-resource-sitekit"

var packages = map[Impl]string{
	Ours:         "github.com/polyhost/polyhost/provider/cmd/pulumi-resource-sitekit",
	Peer:         "github.com/polyhost/polyhost/tests/peer/cmd/pulumi-resource-sitekit-peer",
	Floor:        "github.com/polyhost/polyhost/tests/bench/cmd/sitekit-floor",
	BoundedFloor: "github.com/polyhost/polyhost/tests/bench/cmd/sitekit-floor-bounded",
	OursAllProcs: "github.com/polyhost/polyhost/tests/bench/cmd/sitekit-allprocs",
	OursGoSDK:    "github.com/polyhost/polyhost/tests/bench/cmd/sitekit-gosdk",
}

const wrapperPackage = "github.com/polyhost/polyhost/tests/bench/cmd/rusagewrap"

// Binaries are the plugins under test, built into one directory.
type Binaries struct {
	// Wrapped is the path to give the engine: rusagewrap in front of the
	// real plugin, reporting the plugin's CPU and peak memory.
	Wrapped map[Impl]string
	// Direct is the real plugin, for cold-start timing.
	Direct map[Impl]string
	// Wrapper is the rusagewrap binary.
	Wrapper string
}

// Build builds every implementation and the wrapper into dir. Run it from inside
// the module.
func Build(ctx context.Context, dir string) (*Binaries, error) {
	wrapper := filepath.Join(dir, "rusagewrap")
	b := &Binaries{Wrapped: map[Impl]string{}, Direct: map[Impl]string{}, Wrapper: wrapper}
	if err := goBuild(ctx, wrapper, wrapperPackage); err != nil {
		return nil, err
	}
	wrapperBytes, err := os.ReadFile(wrapper)
	if err != nil {
		return nil, err
	}
	var g errgroup.Group
	for _, impl := range Impls {
		direct := filepath.Join(dir, string(impl), "real", pluginName)
		wrapped := filepath.Join(dir, string(impl), pluginName)
		b.Direct[impl], b.Wrapped[impl] = direct, wrapped
		g.Go(func() error {
			if err := goBuild(ctx, direct, packages[impl]); err != nil {
				return err
			}
			return os.WriteFile(wrapped, wrapperBytes, 0o755)
		})
	}
	if err := g.Wait(); err != nil {
		return nil, err
	}
	// Every implementation's children's provider is ours, so the CRUD
	// work is the same code in all of them (see rusagewrap).
	for _, impl := range Impls[1:] {
		children := filepath.Join(dir, string(impl), "children", pluginName)
		if err := os.MkdirAll(filepath.Dir(children), 0o755); err != nil {
			return nil, err
		}
		ours, err := filepath.Abs(b.Direct[Ours])
		if err != nil {
			return nil, err
		}
		if err := os.Symlink(ours, children); err != nil {
			return nil, err
		}
	}
	return b, nil
}

func goBuild(ctx context.Context, out, pkg string) error {
	if err := os.MkdirAll(filepath.Dir(out), 0o755); err != nil {
		return err
	}
	cmd := exec.CommandContext(ctx, "go", "build", "-o", out, pkg)
	if msg, err := cmd.CombinedOutput(); err != nil {
		return fmt.Errorf("go build %s: %v\n%s", pkg, err, msg)
	}
	return nil
}
