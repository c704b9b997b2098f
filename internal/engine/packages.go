package engine

import (
	"context"
	"encoding/base64"
	"errors"
	"fmt"
	"reflect"
	"sync"

	"github.com/blang/semver"
	"github.com/google/uuid"
	"github.com/pulumi/pulumi/sdk/v3/go/common/resource"
	"github.com/pulumi/pulumi/sdk/v3/go/common/resource/plugin"
	"github.com/pulumi/pulumi/sdk/v3/go/common/tokens"
	pulumirpc "github.com/pulumi/pulumi/sdk/v3/proto/go"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"
)

// providerRequest names the plugin that serves a package's default
// provider, as the real engine's providers.ProviderRequest does: the
// plugin (name, version, download URL) and, for a package a program
// registered with RegisterPackage, the parameterization that turns the
// plugin into that package.
type providerRequest struct {
	name      tokens.Package // the plugin
	version   string
	url       string
	checksums map[string][]byte
	param     *parameterization
}

// parameterization is a parameterized package: its name and version, and
// the parameter the plugin is given.
type parameterization struct {
	name    tokens.Package
	version semver.Version
	value   []byte
}

// pkg is the package the request serves: the parameterized package's name,
// else the plugin's.
func (r providerRequest) pkg() tokens.Package {
	if r.param != nil {
		return r.param.name
	}
	return r.name
}

// packages holds the packages programs and components registered
// (RegisterPackage), by the reference the engine handed out.
type packages struct {
	mu   sync.Mutex
	refs map[string]providerRequest
}

// register returns the reference of req, the same for equal requests, as
// the real engine dedups them.
func (p *packages) register(req providerRequest) string {
	p.mu.Lock()
	defer p.mu.Unlock()
	for ref, have := range p.refs {
		if reflect.DeepEqual(have, req) {
			return ref
		}
	}
	if p.refs == nil {
		p.refs = map[string]providerRequest{}
	}
	ref := uuid.NewString()
	p.refs[ref] = req
	return ref
}

// lookup resolves a package reference; an empty one is the request for pkg
// with version and url, as a registration without one asks.
func (p *packages) lookup(ref string, pkg tokens.Package, version, url string) (providerRequest, error) {
	if ref == "" {
		return providerRequest{name: pkg, version: version, url: url}, nil
	}
	p.mu.Lock()
	req, ok := p.refs[ref]
	p.mu.Unlock()
	if !ok {
		return providerRequest{}, fmt.Errorf("unknown provider package '%v'", ref)
	}
	return req, nil
}

// RegisterPackage records a package (a parameterized one, typically) and
// returns the reference registrations, invokes, calls and reads name it by.
func (m *monitorServer) RegisterPackage(_ context.Context, req *pulumirpc.RegisterPackageRequest) (*pulumirpc.RegisterPackageResponse, error) {
	if req.GetName() == "" {
		return nil, errors.New("package name is empty")
	}
	if req.GetExtension() != nil {
		return nil, status.Error(codes.Unimplemented, "the embedded engine does not support extension packages")
	}
	pr := providerRequest{name: tokens.Package(req.GetName()), url: req.GetDownloadUrl(), checksums: req.GetChecksums()}
	if v := req.GetVersion(); v != "" {
		parsed, err := semver.Parse(v)
		if err != nil {
			return nil, fmt.Errorf("parse package version %s: %w", v, err)
		}
		pr.version = parsed.String()
	}
	if p := req.GetParameterization(); p != nil {
		v, err := semver.Parse(p.GetVersion())
		if err != nil {
			return nil, fmt.Errorf("parse parameter version %s: %w", p.GetVersion(), err)
		}
		pr.param = &parameterization{name: tokens.Package(p.GetName()), version: v, value: p.GetValue()}
	}
	return &pulumirpc.RegisterPackageResponse{Ref: m.d.packages.register(pr)}, nil
}

// record writes into a provider's inputs, whose version is set, the
// plugin req names beyond its version, as the real engine does for a
// default provider and for an explicit one with a package reference: its
// download URL, checksums and parameterization.
func (r providerRequest) record(inputs resource.PropertyMap) {
	if r.url != "" {
		setProviderURL(inputs, r.url)
	}
	if r.checksums != nil {
		setProviderChecksums(inputs, r.checksums)
	}
	if r.param != nil {
		setProviderParameterization(inputs, r.name, r.param)
	}
}

// setProviderParameterization records in a provider's inputs the plugin
// that serves it and its parameter, as the real engine does: the plugin's
// name and version and the parameter (base64) under __internal, the
// package's version as "version".
func setProviderParameterization(inputs resource.PropertyMap, plugin tokens.Package, p *parameterization) {
	in := providerInternal(inputs)
	in["name"] = resource.NewProperty(string(plugin))
	in["version"] = inputs["version"] // the plugin's; null if none was asked
	inputs["version"] = resource.NewProperty(p.version.String())
	in["parameterization"] = resource.NewProperty(base64.StdEncoding.EncodeToString(p.value))
}

// providerPlugin reads from a provider resource's inputs which plugin serves
// it: __internal's name (else the package of its type), and the
// parameterization, if any, to give that plugin.
func providerPlugin(pkg tokens.Package, inputs resource.PropertyMap) (tokens.Package, *parameterization, error) {
	in := inputs["__internal"]
	if !in.IsObject() {
		return pkg, nil, nil
	}
	internal := in.ObjectValue()
	name := pkg
	if n, ok := internal["name"]; ok {
		if !n.IsString() || n.StringValue() == "" {
			return "", nil, errors.New("provider '__internal.name' must be a non-empty string")
		}
		name = tokens.Package(n.StringValue())
	}
	raw, ok := internal["parameterization"]
	if !ok {
		return name, nil, nil
	}
	if !raw.IsString() {
		return "", nil, errors.New("provider '__internal.parameterization' must be a string")
	}
	value, err := base64.StdEncoding.DecodeString(raw.StringValue())
	if err != nil {
		return "", nil, fmt.Errorf("could not decode base64 parameter value: %w", err)
	}
	v := inputs["version"]
	if !v.IsString() {
		return "", nil, errors.New("a parameterized provider must have a string 'version'")
	}
	version, err := semver.Parse(v.StringValue())
	if err != nil {
		return "", nil, fmt.Errorf("could not parse provider version: %w", err)
	}
	return name, &parameterization{name: pkg, version: version, value: value}, nil
}

// parameterize turns a freshly loaded plugin into the package p.
func parameterize(ctx context.Context, prov plugin.Provider, p *parameterization) error {
	resp, err := prov.Parameterize(ctx, plugin.ParameterizeRequest{Parameters: &plugin.ParameterizeValue{
		Name: string(p.name), Version: p.version, Value: p.value,
	}})
	if err != nil {
		return fmt.Errorf("parameterize %s: %w", p.name, err)
	}
	if resp.Name != string(p.name) {
		return fmt.Errorf("parameterize response name %q does not match expected package %q", resp.Name, p.name)
	}
	return nil
}
