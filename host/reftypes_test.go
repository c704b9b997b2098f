package host_test

import (
	"context"
	_ "embed"
	"strings"
	"testing"

	"github.com/pulumi/pulumi/sdk/v3/go/common/resource/urn"
	"github.com/pulumi/pulumi/sdk/v3/go/property"

	"github.com/polyhost/polyhost/host"
	"github.com/polyhost/polyhost/host/custom"
	"github.com/polyhost/polyhost/host/diag"
	"github.com/polyhost/polyhost/host/hosttest"
)

// The yard package refers to its resources by their Go types: a custom
// resource by its Resource's type, one with a module in its token, and a
// component by its outputs struct.

type shed struct{ custom.Resource }

type rack struct{ custom.Resource }

type ShedArgs struct {
	Size int `pulumi:"size"`
}

type YardArgs struct {
	Shed  host.Ref[shed]        `pulumi:"shed"`
	Racks []host.Ref[rack]      `pulumi:"racks,optional"`
	Peer  host.Ref[YardOutputs] `pulumi:"peer,optional"`
}

type YardOutputs struct {
	Shed host.Ref[shed] `pulumi:"shed"`
	// The tag form says the same.
	Again property.Value `pulumi:"again,type=yard:index:Shed"`
}

func yardOptions() []host.Option {
	return []host.Option{
		host.WithRawResource[ShedArgs, ShedArgs]("yard:index:Shed", shed{}),
		host.WithRawResource[ShedArgs, ShedArgs]("yard:tools/rack:Rack", rack{}),
		host.WithComponent("yard:index:Yard", func(ctx context.Context, c *host.Component, args YardArgs) (YardOutputs, error) {
			return YardOutputs{Shed: args.Shed, Again: args.Shed.Value}, nil
		}),
	}
}

// yardSchema is what the yard package's Go types make, kept as a file for
// Pulumi's binder (tests/tools/langhost/binder).
//
//go:embed testdata/schemas/yard.yaml
var yardSchema string

// A field of type host.Ref[T] is a reference to the resource registered
// with Go type T; a module's "/" is written %2F.
func TestRefByGoType(t *testing.T) {
	t.Parallel()
	src, err := host.SchemaFromTypes("yard", nil, yardOptions()...)
	if err != nil {
		t.Fatal(err)
	}
	if string(src) != yardSchema {
		t.Errorf("got\n%s\nwant testdata/schemas/yard.yaml:\n%s", src, yardSchema)
	}
	for _, want := range []string{
		`shed: {$ref: "#/resources/yard:index:Shed"}`,
		`racks: {type: array, items: {$ref: "#/resources/yard:tools%2Frack:Rack"}}`,
		`peer: {$ref: "#/resources/yard:index:Yard"}`,
		`again: {$ref: "#/resources/yard:index:Shed"}`,
	} {
		if !strings.Contains(string(src), want) {
			t.Errorf("schema lacks %s:\n%s", want, src)
		}
	}
	if _, err := host.New("yard", append(yardOptions(), host.WithSchema(src))...); err != nil {
		t.Errorf("New with the schema built from its own types: %v", err)
	}
	// Against a schema that names another resource, the difference is named.
	other := strings.Replace(string(src), `shed: {$ref: "#/resources/yard:index:Shed"}`, `shed: {$ref: "#/resources/yard:tools%2Frack:Rack"}`, 1)
	_, err = host.New("yard", append(yardOptions(), host.WithSchema([]byte(other)))...)
	if want := `field host_test.YardArgs.Shed is host.Ref[host_test.shed], but input "shed" is a reference to a yard:tools/rack:Rack in the schema`; err == nil || !strings.Contains(err.Error(), want) {
		t.Errorf("error = %v\nwant %q", err, want)
	}
}

// A Ref field holds the reference with its markers, and goes back out as it
// came; anything else is refused, naming the property.
func TestRefDecodesAndEncodes(t *testing.T) {
	t.Parallel()
	p, err := host.New("yard", yardOptions()...)
	if err != nil {
		t.Fatal(err)
	}
	h := hosttest.New(t, p)
	shedURN := urn.URN("urn:pulumi:dev::proj::yard:index:Shed::s")
	ref := property.New(property.ResourceReference{URN: shedURN, ID: property.New("s-1")}).WithSecret(true)
	resp, err := h.Construct(context.Background(), hosttest.ConstructRequest{Type: "yard:index:Yard", Name: "y",
		Inputs: property.NewMap(map[string]property.Value{"shed": ref})})
	if err != nil {
		t.Fatal(err)
	}
	for _, k := range []string{"shed", "again"} {
		got := resp.Outputs.Get(k)
		if !got.IsResourceReference() || got.AsResourceReference().URN != shedURN || !got.Secret() {
			t.Errorf("output %s = %v, want the secret reference to %s", k, got, shedURN)
		}
	}
	_, err = h.Construct(context.Background(), hosttest.ConstructRequest{Type: "yard:index:Yard", Name: "y2",
		Inputs: property.NewMap(map[string]property.Value{"shed": property.New("s-1")})})
	if ie, ok := err.(*diag.InputError); !ok || len(ie.Failures) != 1 || ie.Failures[0].Property != "shed" {
		t.Errorf("a string for a Ref: %v, want an input error naming shed", err)
	}
}

// A Go type that is no registered resource's, or two resources', is
// refused, naming the field and what to do.
func TestRefByGoTypeRefuses(t *testing.T) {
	t.Parallel()
	type args struct {
		Lost host.Ref[YardArgs] `pulumi:"lost"`
		Two  host.Ref[shed]     `pulumi:"two"`
	}
	_, err := host.SchemaFromTypes("yard", nil,
		host.WithRawResource[ShedArgs, ShedArgs]("yard:index:Shed", shed{}),
		host.WithRawResource[ShedArgs, ShedArgs]("yard:index:Barn", shed{}),
		host.WithComponent("yard:index:Yard", func(ctx context.Context, c *host.Component, a args) (struct{}, error) {
			return struct{}{}, nil
		}))
	for _, want := range []string{
		"field host_test.args.Lost: host_test.YardArgs is the Go type of no component or resource this provider registers",
		"host.WithResourceRef[host_test.YardArgs]",
		"field host_test.args.Two: host_test.shed is the Go type of yard:index:Barn and yard:index:Shed: say which with the tag option type=<token>",
	} {
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("error = %v\nwant %q", err, want)
		}
	}
	if err := host.WithResourceRef[shed]("shed")(nil); err == nil || !strings.Contains(err.Error(), "want a resource token or a $ref") {
		t.Errorf("WithResourceRef with a bad ref: %v", err)
	}
}
