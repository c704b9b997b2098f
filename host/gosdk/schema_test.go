package gosdk_test

import (
	"context"
	_ "embed"
	"fmt"
	"strings"
	"testing"

	"github.com/pulumi/pulumi/sdk/v3/go/property"
	"github.com/pulumi/pulumi/sdk/v3/go/pulumi"

	"github.com/polyhost/polyhost/host"
	"github.com/polyhost/polyhost/host/gosdk"
)

// The kiosk package: a component and methods written with the Go SDK, with
// each kind of SDK type a schema can be built from.

type Theme struct {
	Colour pulumi.StringInput      `pulumi:"colour"`
	Fonts  pulumi.StringArrayInput `pulumi:"fonts,optional"`
}

type KioskArgs struct {
	Name      pulumi.StringInput      `pulumi:"name"`
	Screens   pulumi.IntInput         `pulumi:"screens"`
	Labels    pulumi.StringMapInput   `pulumi:"labels,optional"`
	Aliases   pulumi.StringArrayInput `pulumi:"aliases,omitempty"`
	Motto     pulumi.StringPtrInput   `pulumi:"motto"`
	Open      pulumi.BoolPtrInput     `pulumi:"open"`
	Theme     Theme                   `pulumi:"theme"`
	Spare     *Theme                  `pulumi:"spare"`
	Poster    pulumi.AssetInput       `pulumi:"poster,optional"`
	Bundle    pulumi.ArchiveInput     `pulumi:"bundle,optional"`
	Extra     pulumi.Input            `pulumi:"extra,optional"`
	Neighbour *Kiosk                  `pulumi:"neighbour,optional"`
	Token     pulumi.StringInput      `pulumi:"token,secret"`
	Plain     string                  `pulumi:"plain"`
}

type Kiosk struct {
	pulumi.ResourceState
	URL     pulumi.StringOutput      `pulumi:"url"`
	Count   pulumi.IntOutput         `pulumi:"count"`
	Names   pulumi.StringArrayOutput `pulumi:"names"`
	Tags    pulumi.StringMapOutput   `pulumi:"tags"`
	Note    pulumi.StringPtrOutput   `pulumi:"note"`
	ThingID pulumi.IDOutput          `pulumi:"thingId"`
	Self    *Kiosk                   `pulumi:"self"`
	Score   pulumi.Float64Output     `pulumi:"score"`
}

func NewKiosk(ctx *pulumi.Context, name string, args *KioskArgs, opts ...pulumi.ResourceOption) (*Kiosk, error) {
	return nil, fmt.Errorf("not built in this test")
}

type ringArgs struct {
	Times pulumi.IntInput `pulumi:"times"`
}

type ringResult struct {
	Sound pulumi.StringOutput `pulumi:"sound"`
}

func ring(ctx *pulumi.Context, self *Kiosk, args ringArgs) (ringResult, error) {
	return ringResult{}, nil
}

func name(ctx *pulumi.Context, self *Kiosk, args struct{}) (pulumi.StringOutput, error) {
	return pulumi.StringOutput{}, nil
}

func kioskOptions() []host.Option {
	return []host.Option{
		gosdk.Component("kiosk:index:Kiosk", NewKiosk),
		gosdk.Method("kiosk:index:Kiosk/ring", ring),
		gosdk.Method("kiosk:index:Kiosk/name", name),
	}
}

// Lamp is a custom resource of another package, as its generated SDK
// declares it.
type Lamp struct {
	pulumi.CustomResourceState
}

type LitArgs struct {
	Lamp *Lamp `pulumi:"lamp"`
}

type Lit struct {
	pulumi.ResourceState
	Lamps []*Lamp `pulumi:"lamps"`
}

func NewLit(ctx *pulumi.Context, name string, args *LitArgs, opts ...pulumi.ResourceOption) (*Lit, error) {
	return nil, fmt.Errorf("not built in this test")
}

// The schema is built from the SDK's types: an Input or Output stands for
// its value's type, a Ptr one is optional (a resource only when tagged
// so), a nested struct of Inputs is an
// object type, a resource type a reference, the asset and archive types
// builtins, and a method's single Output its "res".
func TestSchemaFromSDKTypes(t *testing.T) {
	t.Parallel()
	got, err := host.SchemaFromTypes("kiosk", nil, kioskOptions()...)
	if err != nil {
		t.Fatal(err)
	}
	if want := strings.TrimPrefix(kioskSchema, "\n"); string(got) != want {
		t.Errorf("got\n%s\nwant\n%s", got, want)
	}
	// Go-first, and given back as the schema: both agree with the types.
	if _, err := host.New("kiosk", kioskOptions()...); err != nil {
		t.Errorf("Go-first: %v", err)
	}
	if _, err := host.New("kiosk", append(kioskOptions(), host.WithSchema(got))...); err != nil {
		t.Errorf("New with the schema built from its own types: %v", err)
	}
}

// kioskSchema is what the kiosk package's Go types make.
//
//go:embed testdata/kiosk.yaml
var kioskSchema string

// A resource of another package is a reference once WithResourceRef says
// which; without it, the error names the field and the option.
func TestSDKResourceOfAnotherPackage(t *testing.T) {
	t.Parallel()
	_, err := host.New("kiosk", gosdk.Component("kiosk:index:Lit", NewLit))
	for _, want := range []string{"field gosdk_test.LitArgs.Lamp", "field gosdk_test.Lit.Lamps",
		"gosdk_test.Lamp is the Go type of no component or resource this provider registers", "host.WithResourceRef[gosdk_test.Lamp]"} {
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("error = %v\nwant %q", err, want)
		}
	}
	const ref = "/lamps/v1.2.0/schema.json#/resources/lamps:index%2Flamp:Lamp"
	src, err := host.SchemaFromTypes("kiosk", nil, gosdk.Component("kiosk:index:Lit", NewLit), host.WithResourceRef[Lamp](ref))
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"lamp: {$ref: \"" + ref + "\"}", "lamps: {type: array, items: {$ref: \"" + ref + "\"}}"} {
		if !strings.Contains(string(src), want) {
			t.Errorf("schema has no %q:\n%s", want, src)
		}
	}
}

type standArgs struct {
	Kiosk property.Value `pulumi:"kiosk,type=kiosk:index:Kiosk"`
}

// A raw-path component's tag names a Go SDK component by its token.
func TestTagNamesGoSDKComponent(t *testing.T) {
	t.Parallel()
	src, err := host.SchemaFromTypes("kiosk", nil, append(kioskOptions(),
		host.WithComponent("kiosk:index:Stand", func(ctx context.Context, c *host.Component, args standArgs) (struct{}, error) {
			return struct{}{}, nil
		}))...)
	if want := `kiosk: {$ref: "#/resources/kiosk:index:Kiosk"}`; err != nil || !strings.Contains(string(src), want) {
		t.Errorf("schema %s (%v), want %s", src, err, want)
	}
}

// Schema-first, the SDK's types are checked against the schema as plain
// Go types are, each difference named.
func TestSDKTypesCheckedAgainstTheSchema(t *testing.T) {
	t.Parallel()
	src := strings.NewReplacer(
		"screens: {type: integer}", "screens: {type: string}",
		"count: {type: integer}", "count: {type: boolean}",
		"neighbour: {$ref: \"#/resources/kiosk:index:Kiosk\"}", "neighbour: {$ref: \"pulumi.json#/Asset\"}",
		"sound: {type: string}", "sound: {type: array, items: {type: string}}",
		"requiredInputs: [name, screens, theme, token, plain]", "requiredInputs: [name, screens, theme, plain]",
	).Replace(kioskSchema)
	_, err := host.New("kiosk", append(kioskOptions(), host.WithSchema([]byte(src)))...)
	for _, want := range []string{
		`field gosdk_test.KioskArgs.Screens is pulumi.IntInput, but input "screens" is a string in the schema`,
		`field gosdk_test.Kiosk.Count is pulumi.IntOutput, but output "count" is a boolean in the schema`,
		`field gosdk_test.KioskArgs.Neighbour is *gosdk_test.Kiosk, but input "neighbour" is an asset in the schema`,
		`field gosdk_test.ringResult.Sound is pulumi.StringOutput, but output "sound" is an array of string in the schema`,
		`input "token" is optional in the schema, so field gosdk_test.KioskArgs.Token needs the tag`,
	} {
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("error = %v\nwant %q", err, want)
		}
	}
}
