package main

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/pulumi/pulumi/sdk/v3/go/common/resource"
	"github.com/pulumi/pulumi/sdk/v3/go/common/resource/plugin"
	pulumirpc "github.com/pulumi/pulumi/sdk/v3/proto/go"

	"github.com/polyhost/polyhost/host"
	"github.com/polyhost/polyhost/host/hosttest"
	"github.com/polyhost/polyhost/host/terraform/internal/tftest"
)

func TestMain(m *testing.M) {
	code := m.Run()
	tftest.Cleanup()
	os.Exit(code)
}

// server is the plugin as main builds it; it stops with the test.
func server(t *testing.T) pulumirpc.ResourceProviderServer {
	t.Helper()
	p, err := host.New(Name, host.WithVersion(version), host.WithoutSchema(), host.WithParameterize(Parameterize))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = p.Close() })
	return hosttest.NewServer(p)
}

func withArgs(args ...string) *pulumirpc.ParameterizeRequest {
	return &pulumirpc.ParameterizeRequest{Parameters: &pulumirpc.ParameterizeRequest_Args{
		Args: &pulumirpc.ParameterizeRequest_ParametersArgs{Args: args}}}
}

func withValue(name, version string, value []byte) *pulumirpc.ParameterizeRequest {
	return &pulumirpc.ParameterizeRequest{Parameters: &pulumirpc.ParameterizeRequest_Value{
		Value: &pulumirpc.ParameterizeRequest_ParametersValue{Name: name, Version: version, Value: value}}}
}

// schemaOf is the served schema's name, version, resources and recorded
// parameter.
type schemaDoc struct {
	Name             string
	Version          string
	Resources        map[string]any
	Functions        map[string]any
	Parameterization struct {
		BaseProvider struct{ Name, Version string }
		Parameter    []byte
	}
}

func schemaOf(t *testing.T, srv pulumirpc.ResourceProviderServer) schemaDoc {
	t.Helper()
	resp, err := srv.GetSchema(context.Background(), &pulumirpc.GetSchemaRequest{})
	if err != nil {
		t.Fatal(err)
	}
	var doc schemaDoc
	if err := json.Unmarshal([]byte(resp.GetSchema()), &doc); err != nil {
		t.Fatal(err)
	}
	return doc
}

// link is a symbolic link named name, in a folder of its own, to the
// binary at target.
func link(t *testing.T, target, name string) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), name)
	if err := os.Symlink(target, path); err != nil {
		t.Fatal(err)
	}
	return path
}

// Parameterized with a binary's path, the plugin serves the package named
// after it, version 0.0.0, its schema recording the absolute path; a
// later process given that parameter serves the same package, and its
// resources work.
func TestParameterizeByPathThenValue(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	bin := tftest.TimeProvider(t)
	rel, err := filepath.Rel(mustGetwd(t), bin)
	if err != nil {
		t.Fatal(err)
	}
	srv := server(t)
	resp, err := srv.Parameterize(ctx, withArgs(rel))
	if err != nil {
		t.Fatal(err)
	}
	if resp.GetName() != "time" || resp.GetVersion() != "0.0.0" {
		t.Fatalf("parameterized as %s %s, want time 0.0.0", resp.GetName(), resp.GetVersion())
	}
	doc := schemaOf(t, srv)
	if doc.Name != "time" || doc.Version != "0.0.0" || doc.Parameterization.BaseProvider.Name != Name || doc.Parameterization.BaseProvider.Version != version {
		t.Errorf("schema %s %s on %+v, want time 0.0.0 on %s %s", doc.Name, doc.Version, doc.Parameterization.BaseProvider, Name, version)
	}
	for _, tok := range []string{"time:index:Static", "time:index:Offset", "time:index:Sleep"} {
		if _, ok := doc.Resources[tok]; !ok {
			t.Errorf("schema lacks %s", tok)
		}
	}
	if _, ok := doc.Functions["time:index:rfc3339Parse"]; !ok {
		t.Error("schema lacks time:index:rfc3339Parse")
	}
	var param Parameter
	if err := json.Unmarshal(doc.Parameterization.Parameter, &param); err != nil {
		t.Fatalf("parameter %q: %v", doc.Parameterization.Parameter, err)
	}
	if want := (Parameter{Path: bin, Name: "time", Version: "0.0.0"}); param != want {
		t.Errorf("parameter %+v, want %+v", param, want)
	}

	// A later run: the engine hands back the parameter.
	later := server(t)
	resp, err = later.Parameterize(ctx, withValue("time", "0.0.0", doc.Parameterization.Parameter))
	if err != nil {
		t.Fatal(err)
	}
	if resp.GetName() != "time" || resp.GetVersion() != "0.0.0" {
		t.Fatalf("parameterized by value as %s %s, want time 0.0.0", resp.GetName(), resp.GetVersion())
	}
	if got := schemaOf(t, later); string(got.Parameterization.Parameter) != string(doc.Parameterization.Parameter) {
		t.Errorf("later schema records %q, want the parameter handed back, %q", got.Parameterization.Parameter, doc.Parameterization.Parameter)
	}
	if _, err := later.Configure(ctx, &pulumirpc.ConfigureRequest{}); err != nil {
		t.Fatal(err)
	}
	const at = "2026-11-28T10:00:00Z"
	props, err := plugin.MarshalProperties(resource.PropertyMap{"rfc3339": resource.NewProperty(at)}, plugin.MarshalOptions{})
	if err != nil {
		t.Fatal(err)
	}
	created, err := later.Create(ctx, &pulumirpc.CreateRequest{Urn: "urn:pulumi:dev::p::time:index:Static::s", Type: "time:index:Static", Name: "s", Properties: props})
	if err != nil {
		t.Fatal(err)
	}
	if created.GetId() != at || created.GetProperties().GetFields()["year"].GetNumberValue() != 2026 {
		t.Errorf("created %s %v, want ID %s and year 2026", created.GetId(), created.GetProperties(), at)
	}
}

// A release binary's name gives the version; a bare name is found on
// PATH and recorded, so that a later run can find it there again once the
// recorded path is gone.
func TestParameterizeByNameOnPath(t *testing.T) {
	ctx := context.Background()
	bin := link(t, tftest.TimeProvider(t), "terraform-provider-time_v0.14.2")
	t.Setenv("PATH", filepath.Dir(bin))
	srv := server(t)
	resp, err := srv.Parameterize(ctx, withArgs("terraform-provider-time_v0.14.2"))
	if err != nil {
		t.Fatal(err)
	}
	if resp.GetName() != "time" || resp.GetVersion() != "0.14.2" {
		t.Fatalf("parameterized as %s %s, want time 0.14.2", resp.GetName(), resp.GetVersion())
	}
	var param Parameter
	if err := json.Unmarshal(schemaOf(t, srv).Parameterization.Parameter, &param); err != nil {
		t.Fatal(err)
	}
	if want := (Parameter{Path: bin, Name: "time", Version: "0.14.2", Binary: "terraform-provider-time_v0.14.2"}); param != want {
		t.Errorf("parameter %+v, want %+v", param, want)
	}

	param.Path = filepath.Join(t.TempDir(), "gone", "terraform-provider-time_v0.14.2")
	value, _ := json.Marshal(param)
	later := server(t)
	if _, err := later.Parameterize(ctx, withValue("time", "0.14.2", value)); err != nil {
		t.Fatalf("recorded path gone, binary on PATH: %v", err)
	}
	if _, ok := schemaOf(t, later).Resources["time:index:Static"]; !ok {
		t.Error("schema lacks time:index:Static")
	}
}

// What cannot be served fails with an error naming the binary or the
// package, and leaves the plugin unparameterized.
func TestParameterizeErrors(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	fake := filepath.Join(dir, "terraform-provider-fake")
	if err := os.WriteFile(fake, []byte("#!/bin/sh\necho not a provider\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	missing := filepath.Join(dir, "terraform-provider-missing")
	oddName := link(t, tftest.TimeProvider(t), "timeprovider")
	value, _ := json.Marshal(Parameter{Path: missing, Name: "missing", Version: "0.0.0"})
	for _, tc := range []struct {
		name string
		req  *pulumirpc.ParameterizeRequest
		want []string
	}{
		{"missing binary", withArgs(missing), []string{missing, "no such file"}},
		{"not on PATH", withArgs("terraform-provider-nowhere-to-be-found"), []string{"terraform-provider-nowhere-to-be-found", "not on PATH"}},
		{"not a provider", withArgs(fake), []string{"terraform-provider-fake"}},
		{"not a provider's name", withArgs(oddName), []string{oddName, "terraform-provider-<name>"}},
		{"a directory", withArgs(dir + "/"), []string{dir, "a directory"}},
		{"no argument", withArgs(), []string{"want one argument"}},
		{"two arguments", withArgs(fake, fake), []string{"want one argument"}},
		{"recorded binary gone", withValue("missing", "0.0.0", value), []string{missing}},
		{"bad parameter", withValue("time", "0.0.0", []byte("time")), []string{"parameter of package time", "not a terraform-provider parameter"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			srv := server(t)
			_, err := srv.Parameterize(context.Background(), tc.req)
			if err == nil {
				t.Fatal("parameterized; want an error")
			}
			t.Log(err)
			for _, w := range append(tc.want, "parameterize terraform-provider") {
				if !strings.Contains(err.Error(), w) {
					t.Errorf("error %q does not say %q", err, w)
				}
			}
			if doc := schemaOf(t, srv); doc.Name != "" || len(doc.Resources) != 0 {
				t.Errorf("after the error the plugin serves %s with %d resources", doc.Name, len(doc.Resources))
			}
		})
	}
}

// Names and versions from binaries' file names.
func TestNameOf(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct{ path, name, version, err string }{
		{"/x/terraform-provider-time", "time", "0.0.0", ""},
		{"/x/terraform-provider-time_v0.14.2", "time", "0.14.2", ""},
		{"terraform-provider-google-beta_v6.1.0-rc1.exe", "google-beta", "6.1.0-rc1", ""},
		{"/x/terraform-provider-time_v1.2", "", "", "not a Terraform provider's name"},
		{"/x/tofu", "", "", "not a Terraform provider's name"},
		{"/x/terraform-provider-Time", "", "", "not a Terraform provider's name"},
	} {
		name, version, err := nameOf(tc.path)
		if name != tc.name || version != tc.version || (err == nil) != (tc.err == "") || (err != nil && !strings.Contains(err.Error(), tc.err)) {
			t.Errorf("nameOf(%s) = %q, %q, %v; want %q, %q, %q", tc.path, name, version, err, tc.name, tc.version, tc.err)
		}
	}
}

func mustGetwd(t *testing.T) string {
	t.Helper()
	wd, err := os.Getwd()
	if err != nil {
		t.Fatal(err)
	}
	return wd
}
