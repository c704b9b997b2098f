package host_test

import (
	"context"
	_ "embed"
	"strings"
	"testing"

	"github.com/pulumi/pulumi/sdk/v3/go/common/resource"
	"github.com/pulumi/pulumi/sdk/v3/go/common/resource/plugin"
	"github.com/pulumi/pulumi/sdk/v3/go/property"
	pulumirpc "github.com/pulumi/pulumi/sdk/v3/proto/go"
	"google.golang.org/protobuf/types/known/structpb"

	"github.com/polyhost/polyhost/host"
	"github.com/polyhost/polyhost/host/custom"
	"github.com/polyhost/polyhost/host/hosttest"
)

// readSchemaYAML is the rd package, for Read.
//
//go:embed testdata/schemas/read.yaml
var readSchemaYAML string

// plainDoc answers every Read with plain values, as a backend reading
// live state does. With exact set it says it marks its own secrets.
type plainDoc struct {
	slowResource
	ins, outs property.Map
	exact     bool
}

func (d plainDoc) ExactSecrets() bool { return d.exact }

func (d plainDoc) Read(_ context.Context, req custom.ReadRequest) (custom.ReadResponse, error) {
	return custom.ReadResponse{ID: req.ID, Inputs: d.ins, Outputs: d.outs}, nil
}

func readDoc(t *testing.T, backend plainDoc, olds, state resource.PropertyMap) (resource.PropertyMap, resource.PropertyMap) {
	t.Helper()
	return readDocWith(t, host.WithResource("rd:index:Document", backend), olds, state)
}

// readDocWith reads rd:index:Document from the backend registered by opt.
func readDocWith(t *testing.T, opt host.Option, olds, state resource.PropertyMap) (resource.PropertyMap, resource.PropertyMap) {
	t.Helper()
	p, err := host.New("rd", host.WithSchema([]byte(readSchemaYAML)), opt)
	if err != nil {
		t.Fatal(err)
	}
	opts := plugin.MarshalOptions{KeepSecrets: true}
	wire := func(m resource.PropertyMap) *structpb.Struct {
		if m == nil {
			return nil
		}
		s, err := plugin.MarshalProperties(m, opts)
		if err != nil {
			t.Fatal(err)
		}
		return s
	}
	resp, err := hosttest.NewServer(p).Read(context.Background(), &pulumirpc.ReadRequest{
		Urn: "urn:pulumi:dev::proj::rd:index:Document::d", Name: "d", Type: "rd:index:Document", Id: "d1",
		Inputs: wire(olds), Properties: wire(state),
	})
	if err != nil {
		t.Fatal(err)
	}
	ins, err := plugin.UnmarshalProperties(resp.GetInputs(), opts)
	if err != nil {
		t.Fatal(err)
	}
	outs, err := plugin.UnmarshalProperties(resp.GetProperties(), opts)
	if err != nil {
		t.Fatal(err)
	}
	return ins, outs
}

// wantSecret checks which top-level keys of m are secret: exactly those
// listed.
func wantSecret(t *testing.T, what string, m resource.PropertyMap, secret ...string) {
	t.Helper()
	want := map[resource.PropertyKey]bool{}
	for _, k := range secret {
		want[resource.PropertyKey(k)] = true
	}
	for k, v := range m {
		if v.IsSecret() != want[k] {
			t.Errorf("%s %s = %v, want secret %v", what, k, v, want[k])
		}
	}
	for k := range want {
		if _, ok := m[k]; !ok {
			t.Errorf("%s has no %s", what, k)
		}
	}
}

// A refresh keeps secret what was secret: the engine takes a Read answer
// as is from a provider that accepts secrets, so a backend's plain values
// would otherwise land in the state in plaintext.
func TestReadKeepsOldSecrets(t *testing.T) {
	t.Parallel()
	sec := func(s string) resource.PropertyValue { return resource.MakeSecret(resource.NewProperty(s)) }
	olds := resource.PropertyMap{
		"title":   resource.NewProperty("t"),
		"content": sec("<p>news</p>"),
		"meta":    resource.NewProperty(resource.PropertyMap{"a": sec("x"), "b": resource.NewProperty("y")}),
	}
	state := resource.PropertyMap{
		"title": resource.NewProperty("t"), "content": sec("<p>news</p>"),
		"etag": resource.NewProperty("e1"), "token": sec("tok"),
	}
	str := func(s string) property.Value { return property.New(s) }
	backend := plainDoc{
		ins: property.NewMap(map[string]property.Value{
			"title": str("t"), "content": str("<p>news</p>"),
			"meta": property.New(map[string]property.Value{"a": str("x"), "b": str("y")}),
		}),
		outs: property.NewMap(map[string]property.Value{
			"title": str("t"), "content": str("<p>news</p>"), "meta": property.New(map[string]property.Value{"a": str("x")}),
			"etag": str("e2"), "token": str("tok"), "password": str("pw"),
		}),
	}
	backend.exact = true
	ins, outs := readDoc(t, backend, olds, state)
	// A secret nested in meta makes all of meta secret.
	wantSecret(t, "inputs", ins, "content", "meta")
	wantSecret(t, "outputs", outs, "content", "meta", "token", "password")
	if v := outs["content"]; !v.IsSecret() || v.SecretValue().Element.StringValue() != "<p>news</p>" {
		t.Errorf("content = %v, want the backend's value", v)
	}

	// A backend that does not mark its own secrets: with a secret among
	// the inputs, every output is secret, etag (computed from content) too.
	backend.exact = false
	ins, outs = readDoc(t, backend, olds, state)
	wantSecret(t, "inputs", ins, "content", "meta")
	wantSecret(t, "outputs", outs, "title", "content", "meta", "etag", "token", "password")
}

// An import reads with no old values: the schema's secret properties are
// still secret, in inputs and outputs.
func TestImportReadMarksSchemaSecrets(t *testing.T) {
	t.Parallel()
	backend := plainDoc{
		ins:   property.NewMap(map[string]property.Value{"title": property.New("t"), "password": property.New("pw")}),
		outs:  property.NewMap(map[string]property.Value{"title": property.New("t"), "password": property.New("pw")}),
		exact: true,
	}
	ins, outs := readDoc(t, backend, nil, nil)
	wantSecret(t, "inputs", ins, "password")
	wantSecret(t, "outputs", outs, "password")
}

// A backend that marks its own secrets and forgets one it copied leaks
// nothing: an output holding the text of a secret input (here in another
// case, inside a URL) is secret, and an output holding none stays plain.
func TestExactBackendForgetsACopiedSecret(t *testing.T) {
	t.Parallel()
	olds := resource.PropertyMap{
		"title":   resource.NewProperty("t"),
		"content": resource.MakeSecret(resource.NewProperty("news-8831")),
	}
	str := func(s string) property.Value { return property.New(s) }
	backend := plainDoc{exact: true,
		ins: property.NewMap(map[string]property.Value{"title": str("t"), "content": str("news-8831")}),
		outs: property.NewMap(map[string]property.Value{
			"title": str("t"), "content": str("news-8831"),
			"etag": str("https://store/NEWS-8831"), "token": str("tok-1"), "password": str("pw"),
		}),
	}
	_, outs := readDoc(t, backend, olds, nil)
	wantSecret(t, "outputs", outs, "content", "etag", "password")
}

// copyingBackend marks its secrets itself and forgets the provider's
// configuration: its url is built from the configured endpoint.
type copyingBackend struct{ slowResource }

func (copyingBackend) ExactSecrets() bool { return true }

func (copyingBackend) Create(_ context.Context, req custom.CreateRequest) (custom.CreateResponse, error) {
	return custom.CreateResponse{ID: "t1", Outputs: property.NewMap(map[string]property.Value{
		"url":  property.New(req.Config.Get("endpoint").AsString() + "/t1"),
		"size": property.New("small"),
	})}, nil
}

// An output holding the text of a secret provider configuration is
// secret, whatever the backend says.
func TestOutputFromSecretConfigIsSecret(t *testing.T) {
	t.Parallel()
	p, err := host.New("cf", host.WithoutSchema(), host.WithResource("cf:index:Thing", copyingBackend{}))
	if err != nil {
		t.Fatal(err)
	}
	srv := hosttest.NewServer(p)
	ctx := context.Background()
	opts := plugin.MarshalOptions{KeepSecrets: true}
	args, err := plugin.MarshalProperties(resource.PropertyMap{"endpoint": resource.MakeSecret(resource.NewProperty("https://Hidden-Host-9931"))}, opts)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := srv.Configure(ctx, &pulumirpc.ConfigureRequest{Args: args, AcceptSecrets: true, AcceptResources: true}); err != nil {
		t.Fatal(err)
	}
	resp, err := srv.Create(ctx, &pulumirpc.CreateRequest{Urn: "urn:pulumi:dev::proj::cf:index:Thing::t", Name: "t", Type: "cf:index:Thing", Properties: &structpb.Struct{}})
	if err != nil {
		t.Fatal(err)
	}
	outs, err := plugin.UnmarshalProperties(resp.GetProperties(), opts)
	if err != nil {
		t.Fatal(err)
	}
	wantSecret(t, "outputs", outs, "url")
}

type tagArgs struct {
	Key property.Value `pulumi:"key,type=string"`
}

// tag's Create reads its key as the string the schema says it is.
type tag struct{}

func (tag) Create(_ context.Context, req custom.TypedCreateRequest[tagArgs]) (custom.TypedCreateResponse[tagArgs], error) {
	return custom.TypedCreateResponse[tagArgs]{ID: resource.ID(req.Inputs.Key.AsString()), Outputs: req.Inputs}, nil
}

// A Create or Update that skipped Check still meets the schema: a number,
// an unknown or a secret number where a string is declared is an input
// error naming the property, never the backend's panic (issue 38, item 4).
func TestApplyWithoutCheckFitsTheSchema(t *testing.T) {
	t.Parallel()
	p, err := host.New("tags", host.WithTypedResource("tags:index:Tag", tag{}))
	if err != nil {
		t.Fatal(err)
	}
	srv := hosttest.NewServer(p)
	ctx := context.Background()
	if _, err := srv.Configure(ctx, &pulumirpc.ConfigureRequest{Args: &structpb.Struct{}, AcceptSecrets: true}); err != nil {
		t.Fatal(err)
	}
	opts := plugin.MarshalOptions{KeepUnknowns: true, KeepSecrets: true}
	for name, key := range map[string]resource.PropertyValue{
		"a number":        resource.NewProperty(7.0),
		"an unknown":      resource.MakeComputed(resource.NewProperty("")),
		"a secret number": resource.MakeSecret(resource.NewProperty(7.0)),
	} {
		props, err := plugin.MarshalProperties(resource.PropertyMap{"key": key}, opts)
		if err != nil {
			t.Fatal(err)
		}
		_, err = srv.Create(ctx, &pulumirpc.CreateRequest{Urn: "urn:pulumi:dev::p::tags:index:Tag::t", Name: "t", Type: "tags:index:Tag", Properties: props})
		if err == nil || strings.Contains(err.Error(), "panic") || !strings.Contains(err.Error(), "key") {
			t.Errorf("create with %s key: %v; want an input error naming key", name, err)
		}
		_, err = srv.Update(ctx, &pulumirpc.UpdateRequest{Urn: "urn:pulumi:dev::p::tags:index:Tag::t", Name: "t", Type: "tags:index:Tag", Id: "t",
			Olds: &structpb.Struct{}, OldInputs: &structpb.Struct{}, News: props})
		if err == nil || strings.Contains(err.Error(), "panic") || !strings.Contains(err.Error(), "key") {
			t.Errorf("update with %s key: %v; want an input error naming key", name, err)
		}
	}
}

// One backend over property maps, registered both ways: a Read answering
// no inputs records none under WithResource, and keeps the recorded ones
// under WithTypedResource, as package custom's doc says.
func TestReadZeroInputsByRegistration(t *testing.T) {
	backend := plainDoc{outs: property.NewMap(map[string]property.Value{"title": property.New("t")})}
	olds := resource.PropertyMap{"title": resource.NewProperty("t")}
	state := resource.PropertyMap{"title": resource.NewProperty("t")}

	ins, _ := readDocWith(t, host.WithResource("rd:index:Document", backend), olds, state)
	if len(ins) != 0 {
		t.Errorf("WithResource: inputs %v, want none", ins)
	}
	ins, _ = readDocWith(t, host.WithTypedResource("rd:index:Document", backend), olds, state)
	if !ins.DeepEquals(olds) {
		t.Errorf("WithTypedResource: inputs %v, want the recorded %v", ins, olds)
	}
}

// zeroCheck's Check answers no inputs and no failures.
type zeroCheck struct{ slowResource }

func (zeroCheck) Check(context.Context, custom.CheckRequest) (custom.CheckResponse, error) {
	return custom.CheckResponse{}, nil
}

// The same for Check: an answer with no inputs is taken as it is under
// WithResource, and is the request's inputs under WithTypedResource.
func TestCheckZeroInputsByRegistration(t *testing.T) {
	news := resource.PropertyMap{"title": resource.NewProperty("t")}
	check := func(opt host.Option) resource.PropertyMap {
		t.Helper()
		p, err := host.New("rd", host.WithSchema([]byte(readSchemaYAML)), opt)
		if err != nil {
			t.Fatal(err)
		}
		s, err := plugin.MarshalProperties(news, plugin.MarshalOptions{KeepSecrets: true})
		if err != nil {
			t.Fatal(err)
		}
		resp, err := hosttest.NewServer(p).Check(context.Background(), &pulumirpc.CheckRequest{
			Urn: "urn:pulumi:dev::proj::rd:index:Document::d", Name: "d", Type: "rd:index:Document", News: s,
		})
		if err != nil {
			t.Fatal(err)
		}
		ins, err := plugin.UnmarshalProperties(resp.GetInputs(), plugin.MarshalOptions{KeepSecrets: true})
		if err != nil {
			t.Fatal(err)
		}
		return ins
	}
	if ins := check(host.WithResource("rd:index:Document", zeroCheck{})); len(ins) != 0 {
		t.Errorf("WithResource: inputs %v, want none", ins)
	}
	if ins := check(host.WithTypedResource("rd:index:Document", zeroCheck{})); !ins.DeepEquals(news) {
		t.Errorf("WithTypedResource: inputs %v, want the request's %v", ins, news)
	}
}
