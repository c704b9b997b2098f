package host_test

import (
	"context"
	_ "embed"
	"encoding/json"
	"errors"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/pulumi/pulumi/sdk/v3/go/common/resource"
	"github.com/pulumi/pulumi/sdk/v3/go/common/resource/plugin"
	"github.com/pulumi/pulumi/sdk/v3/go/property"
	pulumirpc "github.com/pulumi/pulumi/sdk/v3/proto/go"
	"google.golang.org/protobuf/types/known/structpb"
	"gopkg.in/yaml.v3"

	"github.com/polyhost/polyhost/host"
	"github.com/polyhost/polyhost/host/custom"
	"github.com/polyhost/polyhost/host/hosttest"
)

// The shop package: one of each thing a schema built from Go types says.

type Size string

const (
	SizeSmall Size = "small"
	SizeLarge Size = "large"
)

func (Size) Values() []host.EnumValue[Size] {
	return []host.EnumValue[Size]{{Name: "Small", Value: SizeSmall}, {Name: "Large", Value: SizeLarge, Description: "The big one."}}
}

type Priority int

func (Priority) Values() []host.EnumValue[Priority] {
	return []host.EnumValue[Priority]{{Name: "Low", Value: 1}, {Name: "High", Value: 2}}
}

type Address struct {
	Street string   `pulumi:"street"`
	Floor  *int     `pulumi:"floor"`
	Next   *Address `pulumi:"next"`
}

type StoreArgs struct {
	Name     string            `pulumi:"name,replaceOnChanges"`
	Size     Size              `pulumi:"size,optional"`
	Tags     map[string]string `pulumi:"tags,omitempty"`
	Address  Address           `pulumi:"address"`
	Branches []Address         `pulumi:"branches,optional"`
	Motto    property.Value    `pulumi:"motto,type=string,optional"`
	Key      string            `pulumi:"key,secret"`
	Extra    any               `pulumi:"extra,optional"`
}

type StoreOutputs struct {
	URL    property.Value   `pulumi:"url,type=string"`
	Till   property.Value   `pulumi:"till,type=shop:index:Till"`
	Counts map[string][]int `pulumi:"counts"`
}

type TillArgs struct {
	Store    string   `pulumi:"store"`
	Priority Priority `pulumi:"priority,optional"`
}

type TillState struct {
	TillID string `pulumi:"tillId"`
	Pin    string `pulumi:"pin,secret"`
}

type till struct{ custom.Resource }

type OpenArgs struct {
	Hour int `pulumi:"hour"`
}

type DescribeResult struct {
	Text string `pulumi:"text"`
}

type LookupArgs struct {
	Key string `pulumi:"key"`
}

type LookupResult struct {
	Value property.Value `pulumi:"value,type=json"`
}

type ShopConfig struct {
	Region string `pulumi:"region,optional"`
	Token  string `pulumi:"token,secret"`
}

func buildStore(ctx context.Context, c *host.Component, args StoreArgs) (StoreOutputs, error) {
	return StoreOutputs{}, nil
}

func openStore(ctx context.Context, self *host.Component, args OpenArgs) (string, error) {
	return "", nil
}

func shopOptions() []host.Option {
	return []host.Option{
		host.WithVersion("1.2.3"),
		host.WithConfig(func(ctx context.Context, c ShopConfig) error { return nil }),
		host.WithComponent("shop:index:Store", buildStore),
		host.WithRawResource[TillArgs, TillState]("shop:index:Till", till{}),
		host.WithMethod("shop:index:Store/open", openStore),
		host.WithMethod("shop:index:Store/describe", func(ctx context.Context, self *host.Component, args struct{}) (DescribeResult, error) {
			return DescribeResult{}, nil
		}),
		host.WithFunction("shop:index:lookup", func(ctx context.Context, args LookupArgs) (LookupResult, error) {
			return LookupResult{}, errors.New("none")
		}),
		host.WithMethod("pulumi:providers:shop/describe", func(ctx context.Context, self *host.Component, args struct{}) (string, error) {
			return self.ProviderConfig().Get("region").AsString(), nil
		}),
	}
}

func TestSchemaFromTypes(t *testing.T) {
	t.Parallel()
	got, err := host.SchemaFromTypes("shop", nil, shopOptions()...)
	if err != nil {
		t.Fatal(err)
	}
	if want := strings.TrimPrefix(shopSchema, "\n"); string(got) != want {
		t.Errorf("got\n%s\nwant\n%s", got, want)
	}
	// Given back as the schema, it agrees with the types it came from.
	if _, err := host.New("shop", append(shopOptions(), host.WithSchema(got))...); err != nil {
		t.Errorf("New with the schema built from its own types: %v", err)
	}
}

// shopSchema is what the shop package's Go types make.
//
//go:embed testdata/schemas/shop.yaml
var shopSchema string

// docsOf describes every Go thing by its name, to see where each goes.
type docsOf struct{}

func (docsOf) Type(t reflect.Type) string                { return "type " + t.Name() }
func (docsOf) Field(t reflect.Type, field string) string { return "field " + t.Name() + "." + field }
func (docsOf) Func(name string) string                   { return "func " + name[strings.LastIndex(name, "/")+1:] }

// Descriptions come from the doc comments Docs gives: a component's from
// its function, a custom resource's from its Resource's type, a property's
// from its field, a type's from the Go type.
func TestSchemaFromTypesDescriptions(t *testing.T) {
	t.Parallel()
	src, err := host.SchemaFromTypes("shop", docsOf{}, shopOptions()...)
	if err != nil {
		t.Fatal(err)
	}
	var doc struct {
		Config struct {
			Variables map[string]struct{ Description string }
		}
		Types     map[string]struct{ Description string }
		Resources map[string]struct {
			Description     string
			InputProperties map[string]struct{ Description string } `yaml:"inputProperties"`
		}
		Functions map[string]struct{ Description string }
	}
	if err := yaml.Unmarshal(src, &doc); err != nil {
		t.Fatal(err)
	}
	for what, got := range map[string]string{
		"func host_test.buildStore": doc.Resources["shop:index:Store"].Description,
		"type till":                 doc.Resources["shop:index:Till"].Description,
		"field StoreArgs.Motto":     doc.Resources["shop:index:Store"].InputProperties["motto"].Description,
		"field TillArgs.Store":      doc.Resources["shop:index:Till"].InputProperties["store"].Description,
		"field ShopConfig.Token":    doc.Config.Variables["token"].Description,
		"type Size":                 doc.Types["shop:index:Size"].Description,
		"type Address":              doc.Types["shop:index:Address"].Description,
		"func host_test.openStore":  doc.Functions["shop:index:Store/open"].Description,
	} {
		if got != what {
			t.Errorf("description %q, want %q", got, what)
		}
	}
}

// WithDescription describes components, custom resources, methods,
// functions and the provider in Go code the running plugin sees: the
// schema served by a Go-first provider has them, and they win over the
// doc comments Docs gives.
func TestWithDescription(t *testing.T) {
	t.Parallel()
	described := append(shopOptions(),
		host.WithDescription("shop:index:Store", "A shop."),
		host.WithDescription("shop:index:Till", "A till."),
		host.WithDescription("shop:index:Store/open", "Opens the shop."),
		host.WithDescription("shop:index:lookup", "Looks a key up."),
		host.WithDescription("pulumi:providers:shop", "The shop provider."),
	)
	_, resp := servedSchema(t, "shop", described...)
	fromDocs, err := host.SchemaFromTypes("shop", docsOf{}, described...)
	if err != nil {
		t.Fatal(err)
	}
	for name, src := range map[string][]byte{"served": []byte(resp.GetSchema()), "SchemaFromTypes": fromDocs} {
		var doc struct {
			Provider  struct{ Description string }
			Resources map[string]struct{ Description string }
			Functions map[string]struct{ Description string }
		}
		if err := yaml.Unmarshal(src, &doc); err != nil {
			t.Fatal(err)
		}
		for got, want := range map[string]string{
			doc.Provider.Description:                           "The shop provider.",
			doc.Resources["shop:index:Store"].Description:      "A shop.",
			doc.Resources["shop:index:Till"].Description:       "A till.",
			doc.Functions["shop:index:Store/open"].Description: "Opens the shop.",
			doc.Functions["shop:index:lookup"].Description:     "Looks a key up.",
		} {
			if got != want {
				t.Errorf("%s: description %q, want %q", name, got, want)
			}
		}
		// Left alone, the method keeps its doc comment.
		if got := doc.Functions["shop:index:Store/describe"].Description; name == "SchemaFromTypes" && !strings.HasPrefix(got, "func host_test.shopOptions") {
			t.Errorf("describe's description %q, want its doc comment", got)
		}
	}
	for _, tc := range []struct {
		opts []host.Option
		want string
	}{
		{[]host.Option{host.WithDescription("shop:index:Nope", "x")}, `WithDescription("shop:index:Nope"): no component, resource, method or function of package shop has that token`},
		{[]host.Option{host.WithDescription("shop:index:Store", "x"), host.WithDescription("shop:index:Store", "y")}, "shop:index:Store described twice"},
	} {
		if _, err := host.New("shop", append(shopOptions(), tc.opts...)...); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("New = %v, want an error with %q", err, tc.want)
		}
	}
}

// What Go types cannot say is refused, each named, all at once.
func TestSchemaFromTypesRefuses(t *testing.T) {
	t.Parallel()
	type anon struct {
		Inner struct {
			A string `pulumi:"a"`
		} `pulumi:"inner"`
	}
	type raw struct {
		V   property.Value             `pulumi:"v"`
		R   property.ResourceReference `pulumi:"r"`
		T   property.Value             `pulumi:"t,type=shop:index:Nope"`
		O   property.Value             `pulumi:"o,type=other:index:Thing"`
		I   property.Value             `pulumi:"i,type=int"`
		Bad int                        `pulumi:"bad,type=string"`
		C   chan int                   `pulumi:"c"`
	}
	comp := func(ctx context.Context, c *host.Component, args raw) (anon, error) { return anon{}, nil }
	_, err := host.SchemaFromTypes("shop",
		nil,
		host.WithComponent("shop:index:Comp", comp),
		host.WithResource("shop:index:Untyped", till{}),
		host.WithFunction("shop:index:raw", func(ctx context.Context, args property.Map) (string, error) { return "", nil }),
		host.WithConfig(func(ctx context.Context, config property.Map) error { return nil }),
	)
	want := []string{
		"field host_test.anon.Inner: an anonymous struct has no name for its schema type",
		"field host_test.raw.V: a property.Value carries no schema type: say it with the tag option type=T",
		"field host_test.raw.R: a property.ResourceReference: say which resource with the tag option type=<token>",
		"field host_test.raw.T: type=shop:index:Nope names no type of package shop",
		"field host_test.raw.O: type=other:index:Thing names no resource or type of this package",
		`field host_test.raw.I: type=int: unknown type "int"`,
		"field host_test.raw.Bad: its Go type int cannot hold the type=string its tag says",
		"field host_test.raw.C: chan int has no schema type",
		"shop:index:Untyped: registered with WithResource, which says nothing of its Go types; write it as a custom.TypedResource and register it with WithTypedResource, or give its types with WithRawResource[Inputs, State]",
		"shop:index:raw arguments: property.Map carries no schema; use a struct with `pulumi` tags",
		"shop:index:raw result: string is not a struct with `pulumi` tags",
		"configuration: property.Map carries no schema",
	}
	if err == nil {
		t.Fatal("no error")
	}
	for _, w := range want {
		if !strings.Contains(err.Error(), w) {
			t.Errorf("error lacks %q:\n%v", w, err)
		}
	}
}

// Where the Go types cannot say the schema, New names every way out,
// WithoutSchema among them: a plugin written before schemas were built
// from Go types keeps its behaviour with it.
func TestGoFirstRefusalNamesWithoutSchema(t *testing.T) {
	t.Parallel()
	type rawArgs struct {
		V property.Value `pulumi:"v"`
	}
	comp := host.WithComponent("shop:index:Raw", func(ctx context.Context, c *host.Component, args rawArgs) (rawArgs, error) { return args, nil })
	configure := host.WithConfig(func(ctx context.Context, config property.Map) error { return nil })
	for name, opts := range map[string][]host.Option{"property.Value": {comp}, "raw configuration": {configure}} {
		_, err := host.New("shop", opts...)
		if err == nil || !strings.Contains(err.Error(), "host.WithoutSchema") || !strings.Contains(err.Error(), "host.WithSchema") {
			t.Errorf("%s: New: %v, want an error naming host.WithSchema and host.WithoutSchema", name, err)
		}
		if _, err := host.New("shop", append(opts, host.WithoutSchema())...); err != nil {
			t.Errorf("%s with WithoutSchema: %v", name, err)
		}
	}
}

// The configuration is set one way: a second WithConfig is refused rather
// than silently replacing the first.
func TestConfigurationIsSetOnce(t *testing.T) {
	t.Parallel()
	raw := host.WithConfig(func(ctx context.Context, config property.Map) error { return nil })
	_, err := host.New("shop", host.WithoutSchema(), raw, raw)
	if err == nil || !strings.Contains(err.Error(), "WithConfig given twice") {
		t.Errorf("two WithConfig: %v, want an error saying so", err)
	}
}

// A provider given no schema serves the one its Go types make, and checks
// inputs against it as against a given one: an enum value it does not
// list is refused, naming the property.
func TestGoFirstProviderServesAndChecksItsSchema(t *testing.T) {
	t.Parallel()
	srv, resp := servedSchema(t, "shop", shopOptions()...)
	var served, want any
	if err := json.Unmarshal([]byte(resp.GetSchema()), &served); err != nil {
		t.Fatal(err)
	}
	if err := yaml.Unmarshal([]byte(shopSchema), &want); err != nil {
		t.Fatal(err)
	}
	js, _ := json.Marshal(want) // numbers as JSON reads them
	_ = json.Unmarshal(js, &want)
	if !reflect.DeepEqual(served, want) {
		t.Errorf("served %s\nwant the schema SchemaFromTypes writes:\n%s", resp.GetSchema(), shopSchema)
	}

	mon := hosttest.Start(t)
	_, err := srv.Construct(context.Background(), constructReq(mon, "shop:index:Store", "s", map[string]any{
		"name": "n", "key": "k", "address": map[string]any{"street": "High St"}, "size": "medium",
	}))
	if err == nil {
		t.Fatal("Construct accepted an enum value its type does not list")
	}
	if _, _, details := wireError(t, err); !slices.Contains(details, `size: "medium" is not a valid shop:index:Size; allowed: ["large" "small"]`) {
		t.Errorf("Construct = %v %q, want the enum value refused", err, details)
	}
}

// servedSchema builds provider name from opts and asks it for its schema,
// as the engine does.
func servedSchema(t *testing.T, name string, opts ...host.Option) (pulumirpc.ResourceProviderServer, *pulumirpc.GetSchemaResponse) {
	t.Helper()
	p, err := host.New(name, opts...)
	if err != nil {
		t.Fatal(err)
	}
	srv := hosttest.NewServer(p)
	resp, err := srv.GetSchema(context.Background(), &pulumirpc.GetSchemaRequest{})
	if err != nil {
		t.Fatal(err)
	}
	return srv, resp
}

// Schema-first: an author's schema that disagrees with the Go types stops
// the provider at start-up, every difference named, through arrays, maps,
// object types and enums, and for resources and the configuration too.
func TestNewNamesEachDifferenceFromTheSchema(t *testing.T) {
	t.Parallel()
	src := strings.NewReplacer(
		"token: {type: string, secret: true}\n  defaults", "token: {type: integer, secret: true}\n  defaults",
		"{name: Large, value: large, description: The big one.}", "{name: Huge, value: huge}",
		"street: {type: string}", "street: {type: integer}",
		"tags: {type: object, additionalProperties: {type: string}}", "tags: {type: object, additionalProperties: {type: integer}}",
		"key: {type: string, secret: true}", "key: {type: string}",
		"name: {type: string, replaceOnChanges: true}", "name: {type: string}",
		"counts: {type: object, additionalProperties: {type: array, items: {type: integer}}}", "counts: {type: object, additionalProperties: {type: array, items: {type: string}}}",
		`till: {$ref: "#/resources/shop:index:Till"}`, `till: {$ref: "#/resources/shop:index:Store"}`,
		"pin: {type: string, secret: true}\n    required: [tillId, pin]", "spare: {type: string}\n    required: [tillId, spare]",
		`value: {$ref: "pulumi.json#/Json"}`, "value: {type: string}",
	).Replace(shopSchema)
	_, err := host.New("shop", append(shopOptions(), host.WithSchema([]byte(src)))...)
	want := `provider shop: the Go types and the schema disagree in 11 places:
	shop:index:Store: field host_test.StoreArgs.Name is tagged replaceOnChanges, but input "name" is not in the schema
	shop:index:Store: enum host_test.Size lists the values ["large" "small"], but enum shop:index:Size in the schema ["huge" "small"]
	shop:index:Store: field host_test.StoreArgs.Tags is map[string]string, but input "tags" is a map of integer in the schema
	shop:index:Store: field host_test.Address.Street is string, but property "street" of type shop:index:Address is an integer in the schema
	shop:index:Store: field host_test.StoreArgs.Key is tagged secret, but input "key" is not secret in the schema
	shop:index:Store: field host_test.StoreOutputs.Till has type=shop:index:Till, but output "till" is a reference to a shop:index:Store in the schema
	shop:index:Store: field host_test.StoreOutputs.Counts is map[string][]int, but output "counts" is a map of array of string in the schema
	shop:index:Till: field host_test.TillState.Pin sets output "pin", which the schema does not declare
	shop:index:Till: output "spare" is required in the schema, but host_test.TillState has no field for it
	shop:index:lookup: field host_test.LookupResult.Value has type=json, but output "value" is a string in the schema
	configuration: field host_test.ShopConfig.Token is string, but variable "token" is an integer in the schema
(if the schema is generated from these Go types, it is stale: run go generate)`
	if err == nil || err.Error() != want {
		t.Errorf("New = %v\nwant %s", err, want)
	}
}

// The meter package names its types' tokens: an enum and an object type
// in modules of their own.

type Gauge int

func (Gauge) Values() []host.EnumValue[Gauge] {
	return []host.EnumValue[Gauge]{{Name: "Fine", Value: 1}, {Name: "Coarse", Value: 2}}
}

func (Gauge) PulumiType() string { return "meter:units:Gauge" }

type Reading struct {
	Value float64 `pulumi:"value"`
	Gauge Gauge   `pulumi:"gauge"`
}

func (Reading) PulumiType() string { return "meter:data/sample:Reading" }

type MeterArgs struct {
	Last    Reading   `pulumi:"last"`
	History []Reading `pulumi:"history,optional"`
}

func meterOptions(extra ...host.Option) []host.Option {
	return append([]host.Option{host.WithComponent("meter:index:Meter", func(ctx context.Context, c *host.Component, args MeterArgs) (struct{}, error) {
		return struct{}{}, nil
	})}, extra...)
}

// A type that declares its token with PulumiType gets it, module and all;
// refs write the module's "/" as %2F.
func TestDeclaredTypeTokens(t *testing.T) {
	t.Parallel()
	src, err := host.SchemaFromTypes("meter", nil, meterOptions()...)
	if err != nil {
		t.Fatal(err)
	}
	if string(src) != meterSchema {
		t.Errorf("got\n%s\nwant testdata/schemas/meter.yaml:\n%s", src, meterSchema)
	}
	for _, want := range []string{
		"\n  meter:data/sample:Reading:\n    type: object\n",
		"\n  meter:units:Gauge:\n    type: integer\n",
		`gauge: {$ref: "#/types/meter:units:Gauge"}`,
		`last: {$ref: "#/types/meter:data%2Fsample:Reading"}`,
		`history: {type: array, items: {$ref: "#/types/meter:data%2Fsample:Reading"}}`,
	} {
		if !strings.Contains(string(src), want) {
			t.Errorf("schema lacks %q:\n%s", want, src)
		}
	}
	if _, err := host.New("meter", meterOptions()...); err != nil {
		t.Errorf("Go-first: %v", err)
	}
}

// meterSchema is what the meter package's Go types make, kept as a file
// for Pulumi's binder (tests/tools/langhost/binder).
//
//go:embed testdata/schemas/meter.yaml
var meterSchema string

type otherPkg struct{}

func (otherPkg) PulumiType() string { return "shop:index:Other" }

type noModule struct{}

func (noModule) PulumiType() string { return "Thing" }

type onPointer struct{}

func (*onPointer) PulumiType() string { return "meter:index:OnPointer" }

type badSig struct{}

func (badSig) PulumiType(int) string { return "" }

// A declared token of another package, or not a token, is refused,
// naming the Go type and the field.
func TestDeclaredTypeTokensRefused(t *testing.T) {
	t.Parallel()
	type args struct {
		A otherPkg  `pulumi:"a"`
		B noModule  `pulumi:"b"`
		C onPointer `pulumi:"c"`
		D badSig    `pulumi:"d"`
	}
	_, err := host.SchemaFromTypes("meter", nil, host.WithComponent("meter:index:Meter", func(ctx context.Context, c *host.Component, a args) (struct{}, error) {
		return struct{}{}, nil
	}))
	for _, want := range []string{
		`field host_test.args.A: host_test.otherPkg.PulumiType() says "shop:index:Other": the token's package is "shop", but the package is "meter"`,
		`field host_test.args.B: host_test.noModule.PulumiType() says "Thing": want a token of the form meter:module:Name`,
		`field host_test.args.C: host_test.onPointer declares PulumiType on *onPointer: declare it on onPointer (a value receiver)`,
		`field host_test.args.D: host_test.badSig.PulumiType must be func() string`,
	} {
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("error = %v\nwant %q", err, want)
		}
	}
}

// vaultConfig declares descriptions and defaults in Go code the running
// plugin sees, beside the doc comments go generate reads.
type vaultConfig struct {
	Endpoint string `pulumi:"endpoint,optional"`
	Password string `pulumi:"password,optional,secret"`
	Retries  int    `pulumi:"retries,optional"`
	Size     Size   `pulumi:"size,optional"`
}

func (c *vaultConfig) Annotate(a host.Annotator) {
	a.Describe(&c, "How to reach the vault.")
	a.Describe(&c.Endpoint, "Where the vault listens.")
	a.SetDefault(&c.Endpoint, "https://vault.local")
	a.SetDefault(&c.Password, nil, "POLYHOST_TEST_VAULT_PASSWORD")
	a.SetDefault(&c.Retries, 3, "POLYHOST_TEST_VAULT_RETRIES")
	a.SetDefault(&c.Size, SizeSmall)
}

// A Go-first provider with no generated file serves the descriptions and
// defaults its types' Annotate methods declare, and applies them to its
// configuration: a default, or the environment variable named, first.
func TestGoFirstDefaultsFromAnnotate(t *testing.T) { // not parallel: t.Setenv
	t.Setenv("POLYHOST_TEST_VAULT_PASSWORD", "from-env")
	t.Setenv("POLYHOST_TEST_VAULT_RETRIES", "7")
	srv, resp := servedSchema(t, "vault", host.WithConfig(func(ctx context.Context, c vaultConfig) error { return nil }))
	for _, want := range []string{
		`"endpoint":{"type":"string","description":"Where the vault listens.","default":"https://vault.local"}`,
		`"password":{"type":"string","secret":true,"defaultInfo":{"environment":["POLYHOST_TEST_VAULT_PASSWORD"]}}`,
		`"retries":{"type":"integer","default":3,"defaultInfo":{"environment":["POLYHOST_TEST_VAULT_RETRIES"]}}`,
		`"size":{"$ref":"#/types/vault:index:Size","default":"small"}`,
	} {
		if !strings.Contains(resp.GetSchema(), want) {
			t.Errorf("schema %s\nlacks %s", resp.GetSchema(), want)
		}
	}
	checked, err := srv.CheckConfig(context.Background(), &pulumirpc.CheckRequest{News: &structpb.Struct{}})
	if err != nil || len(checked.GetFailures()) > 0 {
		t.Fatal(err, checked.GetFailures())
	}
	got, err := plugin.UnmarshalProperties(checked.GetInputs(), plugin.MarshalOptions{KeepSecrets: true})
	if err != nil {
		t.Fatal(err)
	}
	want := resource.PropertyMap{
		"endpoint": resource.NewProperty("https://vault.local"),
		"password": resource.MakeSecret(resource.NewProperty("from-env")),
		"retries":  resource.NewProperty(7.0),
		"size":     resource.NewProperty("small"),
	}
	if !got.DeepEquals(want) {
		t.Errorf("checked configuration %v, want %v", got, want)
	}
}

type badDefaults struct {
	Name  string `pulumi:"name"`
	Count int    `pulumi:"count,optional"`
}

func (b *badDefaults) Annotate(a host.Annotator) {
	a.SetDefault(&b.Name, "x")
	a.SetDefault(&b.Count, "many")
	a.Describe(new(string), "nowhere")
}

// Defaults a field cannot take are named at start-up.
func TestGoFirstBadDefaultsNamed(t *testing.T) {
	t.Parallel()
	_, err := host.New("vault", host.WithConfig(func(ctx context.Context, c badDefaults) error { return nil }))
	for _, want := range []string{
		"field host_test.badDefaults.Name: has a default but is required; tag it optional",
		"field host_test.badDefaults.Count: its default many (string) is not a integer",
		"host_test.badDefaults.Annotate: *string is not a pointer to one of its fields",
	} {
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("New = %v, want an error with %q", err, want)
		}
	}
}

type boxArgs struct {
	Label *string `pulumi:"label,optional"`
}

func (b *boxArgs) Annotate(a host.Annotator) { a.SetDefault(&b.Label, "plain") }

type boxOut struct {
	Label string `pulumi:"label"`
}

// A method on the provider resource is called with the provider as
// __self__, its state the provider's configuration, defaults applied; a
// component given no label gets the default its Annotate declares.
func TestProviderMethodAndComponentDefaults(t *testing.T) {
	t.Parallel()
	p, err := host.New("vault",
		host.WithConfig(func(ctx context.Context, c vaultConfig) error { return nil }),
		host.WithMethod("pulumi:providers:vault/describe", func(ctx context.Context, self *host.Component, args struct{}) (string, error) {
			return self.Type() + " " + self.State().Get("endpoint").AsString(), nil
		}),
		host.WithComponent("vault:index:Box", func(ctx context.Context, c *host.Component, args boxArgs) (boxOut, error) {
			return boxOut{Label: *args.Label}, nil
		}))
	if err != nil {
		t.Fatal(err)
	}
	h := hosttest.New(t, p)
	ctx := context.Background()
	for _, cfg := range []map[string]property.Value{{}, {"endpoint": property.New("https://other")}} {
		ref, err := h.RegisterProvider(ctx, hosttest.ProviderRequest{Name: "store", Config: property.NewMap(cfg)})
		if err != nil {
			t.Fatal(err)
		}
		resp, err := h.Call(ctx, hosttest.CallRequest{Token: "pulumi:providers:vault/describe", Self: ref.URN(), Provider: ref})
		if err != nil {
			t.Fatal(err)
		}
		want := "pulumi:providers:vault https://vault.local"
		if e, ok := cfg["endpoint"]; ok {
			want = "pulumi:providers:vault " + e.AsString()
		}
		if got := resp.Return.Get("res").AsString(); got != want {
			t.Errorf("describe() = %q, want %q", got, want)
		}
		h = hosttest.New(t, p) // a fresh stack for the next provider named store
	}
	box, err := h.Construct(ctx, hosttest.ConstructRequest{Type: "vault:index:Box", Name: "b", Inputs: property.Map{}})
	if err != nil {
		t.Fatal(err)
	}
	if got := box.Outputs.Get("label").AsString(); got != "plain" {
		t.Errorf("label = %q, want the default plain", got)
	}
}
