package host_test

import (
	"context"
	"encoding/json"
	"strings"
	"testing"

	"github.com/pulumi/pulumi/sdk/v3/go/common/resource"
	"github.com/pulumi/pulumi/sdk/v3/go/common/resource/plugin"
	"github.com/pulumi/pulumi/sdk/v3/go/property"
	pulumirpc "github.com/pulumi/pulumi/sdk/v3/proto/go"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"
	"google.golang.org/protobuf/types/known/emptypb"

	"github.com/polyhost/polyhost/host"
	"github.com/polyhost/polyhost/host/custom"
	"github.com/polyhost/polyhost/host/diag"
	"github.com/polyhost/polyhost/host/hosttest"
)

type itemIn struct {
	Title string `pulumi:"title"`
}

type itemState struct {
	Title   string `pulumi:"title"`
	Package string `pulumi:"package"`
}

// item is a custom resource that records which package served it.
type item struct{ pkg string }

func (i item) Create(_ context.Context, req custom.CreateRequest) (custom.CreateResponse, error) {
	return custom.CreateResponse{ID: "item", Outputs: req.Inputs.Set("package", property.New(i.pkg))}, nil
}
func (item) Read(_ context.Context, req custom.ReadRequest) (custom.ReadResponse, error) {
	return custom.ReadResponse{ID: req.ID, Inputs: req.Inputs, Outputs: req.Outputs}, nil
}
func (item) Update(_ context.Context, req custom.UpdateRequest) (custom.UpdateResponse, error) {
	return custom.UpdateResponse{Outputs: req.OldOutputs}, nil
}
func (item) Delete(context.Context, custom.DeleteRequest) (custom.DeleteResponse, error) {
	return custom.DeleteResponse{}, nil
}

// shelfServer is a plugin "shelf" whose parameter is the name of the
// package it serves, with one resource, <name>:index:Item.
func shelfServer(t *testing.T) pulumirpc.ResourceProviderServer {
	t.Helper()
	p, err := host.New("shelf", host.WithVersion("0.3.0"), host.WithoutSchema(),
		host.WithParameterize(func(_ context.Context, req host.ParameterizeRequest) (host.Parameterized, error) {
			name, version, value := req.Name, req.Version, req.Value
			if req.Args != nil { // pulumi package add shelf <name>
				if len(req.Args) != 1 {
					return host.Parameterized{}, diag.Errorf("", "want one argument, the package name; got %q", req.Args)
				}
				name, version, value = req.Args[0], "1.0.0", []byte(req.Args[0])
			}
			if string(value) != name {
				return host.Parameterized{}, diag.Errorf("", "parameter %q names another package than %q", value, name)
			}
			q, err := host.New(name, host.WithVersion(version),
				host.WithRawResource[itemIn, itemState](name+":index:Item", item{pkg: name}))
			return host.Parameterized{Provider: q, Value: value}, err
		}))
	if err != nil {
		t.Fatal(err)
	}
	return hosttest.NewServer(p)
}

// A program's registered package (name, version, parameter) makes the
// plugin serve that package: its resources and its schema, which records
// the plugin and the parameter; the plugin keeps its own version.
func TestParameterizeWithValueServesThePackage(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	srv := shelfServer(t)
	resp, err := srv.Parameterize(ctx, &pulumirpc.ParameterizeRequest{Parameters: &pulumirpc.ParameterizeRequest_Value{
		Value: &pulumirpc.ParameterizeRequest_ParametersValue{Name: "books", Version: "1.2.0", Value: []byte("books")}}})
	if err != nil {
		t.Fatal(err)
	}
	if resp.GetName() != "books" || resp.GetVersion() != "1.2.0" {
		t.Errorf("parameterized as %s %s, want books 1.2.0", resp.GetName(), resp.GetVersion())
	}
	props, _ := plugin.MarshalProperties(resource.PropertyMap{"title": resource.NewProperty("Dune")}, plugin.MarshalOptions{})
	created, err := srv.Create(ctx, &pulumirpc.CreateRequest{Urn: "urn:pulumi:dev::p::books:index:Item::i", Type: "books:index:Item",
		Name: "i", Properties: props})
	if err != nil {
		t.Fatal(err)
	}
	if got := created.GetProperties().GetFields()["package"].GetStringValue(); got != "books" {
		t.Errorf("served by package %q, want books", got)
	}
	info, err := srv.GetPluginInfo(ctx, &emptypb.Empty{})
	if err != nil || info.GetVersion() != "0.3.0" {
		t.Errorf("plugin version %q (%v), want 0.3.0", info.GetVersion(), err)
	}
	schema, err := srv.GetSchema(ctx, &pulumirpc.GetSchemaRequest{SubpackageName: "books"})
	if err != nil {
		t.Fatal(err)
	}
	var doc struct {
		Name             string
		Version          string
		Resources        map[string]any
		Parameterization struct {
			BaseProvider struct{ Name, Version string }
			Parameter    []byte
		}
	}
	if err := json.Unmarshal([]byte(schema.GetSchema()), &doc); err != nil {
		t.Fatal(err)
	}
	pz := doc.Parameterization
	if doc.Name != "books" || doc.Version != "1.2.0" || pz.BaseProvider.Name != "shelf" || pz.BaseProvider.Version != "0.3.0" || string(pz.Parameter) != "books" {
		t.Errorf("schema %s %s, parameterization %+v; want books 1.2.0 on shelf 0.3.0 with parameter books", doc.Name, doc.Version, pz)
	}
	if _, ok := doc.Resources["books:index:Item"]; !ok {
		t.Errorf("schema resources %v, want books:index:Item", doc.Resources)
	}
	// The engine may ask again for the same package; not for another.
	if _, err := srv.Parameterize(ctx, &pulumirpc.ParameterizeRequest{Parameters: &pulumirpc.ParameterizeRequest_Value{
		Value: &pulumirpc.ParameterizeRequest_ParametersValue{Name: "books", Version: "1.2.0", Value: []byte("books")}}}); err != nil {
		t.Errorf("the same package again: %v", err)
	}
	_, err = srv.Parameterize(ctx, &pulumirpc.ParameterizeRequest{Parameters: &pulumirpc.ParameterizeRequest_Value{
		Value: &pulumirpc.ParameterizeRequest_ParametersValue{Name: "films", Version: "1.0.0", Value: []byte("films")}}})
	if status.Code(err) != codes.FailedPrecondition || !strings.Contains(err.Error(), "already serves package books 1.2.0") {
		t.Errorf("another package: %v, want FailedPrecondition naming books", err)
	}
}

// `pulumi package add shelf films` parameterizes with arguments: the
// function picks name, version and the parameter the schema records.
func TestParameterizeWithArgs(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	srv := shelfServer(t)
	resp, err := srv.Parameterize(ctx, &pulumirpc.ParameterizeRequest{Parameters: &pulumirpc.ParameterizeRequest_Args{
		Args: &pulumirpc.ParameterizeRequest_ParametersArgs{Args: []string{"films"}}}})
	if err != nil {
		t.Fatal(err)
	}
	if resp.GetName() != "films" || resp.GetVersion() != "1.0.0" {
		t.Errorf("parameterized as %s %s, want films 1.0.0", resp.GetName(), resp.GetVersion())
	}
	schema, err := srv.GetSchema(ctx, &pulumirpc.GetSchemaRequest{})
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(schema.GetSchema(), `"parameter":"ZmlsbXM="`) { // base64 of "films"
		t.Errorf("schema %s does not record the parameter films", schema.GetSchema())
	}
}

// A provider the function returns for another package than the one asked
// for, a function's error and a plugin without WithParameterize each fail
// with what went wrong, and leave the plugin serving what it did.
func TestParameterizeRefusals(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	value := func(name, version, param string) *pulumirpc.ParameterizeRequest {
		return &pulumirpc.ParameterizeRequest{Parameters: &pulumirpc.ParameterizeRequest_Value{
			Value: &pulumirpc.ParameterizeRequest_ParametersValue{Name: name, Version: version, Value: []byte(param)}}}
	}
	for _, tc := range []struct {
		name string
		req  *pulumirpc.ParameterizeRequest
		code codes.Code
		want string
	}{
		{"function error", value("books", "1.0.0", "films"), codes.InvalidArgument, `parameter "films" names another package than "books"`},
		{"args error", &pulumirpc.ParameterizeRequest{Parameters: &pulumirpc.ParameterizeRequest_Args{
			Args: &pulumirpc.ParameterizeRequest_ParametersArgs{Args: []string{"a", "b"}}}}, codes.InvalidArgument, "want one argument"},
		{"bad version", value("books", "one", "books"), codes.Unknown, `version "one" is not semver`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			srv := shelfServer(t)
			_, err := srv.Parameterize(ctx, tc.req)
			if status.Code(err) != tc.code || !strings.Contains(err.Error(), tc.want) || !strings.Contains(err.Error(), "parameterize shelf") {
				t.Errorf("got %v, want %s naming the plugin and %q", err, tc.code, tc.want)
			}
			// Still the plugin itself: nothing parameterized.
			if _, err := srv.Parameterize(ctx, value("books", "1.0.0", "books")); err != nil {
				t.Errorf("after a failed Parameterize: %v", err)
			}
		})
	}

	plain, err := host.New("plain", host.WithoutSchema())
	if err != nil {
		t.Fatal(err)
	}
	_, err = hosttest.NewServer(plain).Parameterize(ctx, value("books", "1.0.0", "books"))
	if status.Code(err) != codes.Unimplemented || !strings.Contains(err.Error(), "provider plain is not parameterized") {
		t.Errorf("unparameterized plugin: %v, want Unimplemented naming it", err)
	}
}

// A function that returns no provider, one of another version than asked
// for, or no parameter for arguments, is refused naming what is wrong:
// the engine would record resources under what it asked for.
func TestParameterizeRefusesFunctionMistakes(t *testing.T) {
	t.Parallel()
	books := &pulumirpc.ParameterizeRequest{Parameters: &pulumirpc.ParameterizeRequest_Value{
		Value: &pulumirpc.ParameterizeRequest_ParametersValue{Name: "books", Version: "1.2.0", Value: []byte("books")}}}
	args := &pulumirpc.ParameterizeRequest{Parameters: &pulumirpc.ParameterizeRequest_Args{
		Args: &pulumirpc.ParameterizeRequest_ParametersArgs{Args: []string{"books"}}}}
	provider := func(name, version string) *host.Provider {
		q, err := host.New(name, host.WithoutSchema(), host.WithVersion(version))
		if err != nil {
			t.Fatal(err)
		}
		return q
	}
	for _, tc := range []struct {
		name string
		req  *pulumirpc.ParameterizeRequest
		got  host.Parameterized
		want string
	}{
		{"no provider", books, host.Parameterized{}, "the function returned no provider"},
		{"other name", books, host.Parameterized{Provider: provider("films", "1.2.0")}, `asked for package "books", the function returned a provider for "films"`},
		{"other version", books, host.Parameterized{Provider: provider("books", "9.9.9")}, "asked for books version 1.2.0, the function returned version 9.9.9"},
		{"no value for args", args, host.Parameterized{Provider: provider("books", "1.0.0")}, "the function returned no Value for the arguments"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			p, err := host.New("shelf", host.WithoutSchema(),
				host.WithParameterize(func(context.Context, host.ParameterizeRequest) (host.Parameterized, error) { return tc.got, nil }))
			if err != nil {
				t.Fatal(err)
			}
			_, err = hosttest.NewServer(p).Parameterize(context.Background(), tc.req)
			if err == nil || !strings.Contains(err.Error(), "parameterize shelf: "+tc.want) {
				t.Errorf("got %v, want %q", err, tc.want)
			}
		})
	}
}
