package gosdk_test

import (
	"context"
	_ "embed"
	"reflect"
	"strings"
	"testing"

	"github.com/pulumi/pulumi/sdk/v3/go/common/resource"
	"github.com/pulumi/pulumi/sdk/v3/go/common/resource/plugin"
	"github.com/pulumi/pulumi/sdk/v3/go/pulumi"
	pulumirpc "github.com/pulumi/pulumi/sdk/v3/proto/go"
	"google.golang.org/grpc/status"

	"github.com/polyhost/polyhost/host"
	"github.com/polyhost/polyhost/host/gosdk"
	"github.com/polyhost/polyhost/host/hosttest"
)

// The lamps package: a component and a method written with the Go SDK that
// take and return an enum written as a generated Go SDK writes one (a
// string type, its Input interface and its Output type), with the values
// the host reads from Values, as on the raw path.

// Glow is how a lamp glows.
type Glow string

const (
	GlowWarm Glow = "warm"
	GlowCold Glow = "cold"
)

func (Glow) Values() []host.EnumValue[Glow] {
	return []host.EnumValue[Glow]{{Name: "Warm", Value: GlowWarm}, {Name: "Cold", Value: GlowCold, Description: "Blue-ish."}}
}

func (Glow) ElementType() reflect.Type { return reflect.TypeFor[Glow]() }

func (g Glow) ToGlowOutput() GlowOutput { return pulumi.ToOutput(g).(GlowOutput) }

func (g Glow) ToGlowOutputWithContext(ctx context.Context) GlowOutput {
	return pulumi.ToOutputWithContext(ctx, g).(GlowOutput)
}

type GlowInput interface {
	pulumi.Input
	ToGlowOutput() GlowOutput
	ToGlowOutputWithContext(context.Context) GlowOutput
}

type GlowOutput struct{ *pulumi.OutputState }

func (GlowOutput) ElementType() reflect.Type { return reflect.TypeFor[Glow]() }

func (o GlowOutput) ToGlowOutput() GlowOutput { return o }

func (o GlowOutput) ToGlowOutputWithContext(context.Context) GlowOutput { return o }

func init() {
	pulumi.RegisterInputType(reflect.TypeFor[GlowInput](), GlowWarm)
	pulumi.RegisterOutputType(GlowOutput{})
}

type BulbArgs struct {
	Glow GlowInput `pulumi:"glow"`
}

type Bulb struct {
	pulumi.ResourceState
	Glow GlowOutput `pulumi:"glow"`
}

func NewBulb(ctx *pulumi.Context, name string, args *BulbArgs, opts ...pulumi.ResourceOption) (*Bulb, error) {
	l := &Bulb{}
	if err := ctx.RegisterComponentResource("lamps:index:Bulb", name, l, opts...); err != nil {
		return nil, err
	}
	l.Glow = args.Glow.ToGlowOutput()
	return l, ctx.RegisterResourceOutputs(l, pulumi.Map{"glow": l.Glow})
}

type switchArgs struct {
	To GlowInput `pulumi:"to"`
}

// switchTo answers the glow it is asked for.
func switchTo(ctx *pulumi.Context, self *Bulb, args switchArgs) (GlowOutput, error) {
	return args.To.ToGlowOutput(), nil
}

func lampOptions() []host.Option {
	return []host.Option{
		gosdk.Component("lamps:index:Bulb", NewBulb),
		gosdk.Method("lamps:index:Bulb/switch", switchTo),
	}
}

// lampsSchema is what the lamps package's Go types make.
//
//go:embed testdata/lamps.yaml
var lampsSchema string

// An enum written with the Go SDK's types is an enum in the schema, with
// the values it declares, wherever it is used: an Input field, an Output
// field, a method's result. Schema-first, its values are compared with the
// schema's.
func TestSDKEnumSchema(t *testing.T) {
	t.Parallel()
	got, err := host.SchemaFromTypes("lamps", nil, lampOptions()...)
	if err != nil {
		t.Fatal(err)
	}
	if string(got) != lampsSchema {
		t.Errorf("got\n%s\nwant testdata/lamps.yaml:\n%s", got, lampsSchema)
	}
	if _, err := host.New("lamps", append(lampOptions(), host.WithSchema(got))...); err != nil {
		t.Errorf("New with the schema built from its own types: %v", err)
	}
	other := strings.Replace(lampsSchema, "value: cold", "value: blue", 1)
	_, err = host.New("lamps", append(lampOptions(), host.WithSchema([]byte(other)))...)
	if want := `enum gosdk_test.Glow lists the values ["cold" "warm"], but enum lamps:index:Glow in the schema ["blue" "warm"]`; err == nil || !strings.Contains(err.Error(), want) {
		t.Errorf("New with other values: %v\nwant %q", err, want)
	}
}

// The enum's values reach the component and the method, and come back;
// a value the enum does not list is the user's mistake, naming the
// property and the values allowed.
func TestSDKEnumValues(t *testing.T) {
	t.Parallel()
	mon := hosttest.Start(t)
	p, err := host.New("lamps", lampOptions()...)
	if err != nil {
		t.Fatal(err)
	}
	srv := hosttest.NewServer(p)
	if _, err := srv.Attach(context.Background(), &pulumirpc.PluginAttach{Address: mon.Addr()}); err != nil {
		t.Fatal(err)
	}
	resp, err := construct(srv, mon, "lamps:index:Bulb", "l", false, resource.PropertyMap{"glow": resource.NewProperty("cold")})
	if err != nil {
		t.Fatal(err)
	}
	if got := state(t, resp)["glow"]; got != resource.NewProperty("cold") {
		t.Errorf("glow = %v, want cold", got)
	}
	_, err = construct(srv, mon, "lamps:index:Bulb", "bad", false, resource.PropertyMap{"glow": resource.NewProperty("pink")})
	if st := status.Convert(err); err == nil || !strings.Contains(st.Message()+detailsOf(st), `"pink" is not a valid lamps:index:Glow; allowed: ["cold" "warm"]`) {
		t.Errorf("construct with glow pink: %v %s, want the values allowed", err, detailsOf(st))
	}
	call := func(to string) *pulumirpc.CallResponse {
		args, err := plugin.MarshalProperties(resource.PropertyMap{
			"__self__": resource.MakeComponentResourceReference(resource.URN(resp.GetUrn()), ""),
			"to":       resource.NewProperty(to),
		}, plugin.MarshalOptions{KeepResources: true})
		if err != nil {
			t.Fatal(err)
		}
		r, err := srv.Call(context.Background(), &pulumirpc.CallRequest{
			Tok: "lamps:index:Bulb/switch", Args: args, MonitorEndpoint: mon.Addr(), Project: mon.Project(), Stack: mon.Stack(),
		})
		if err != nil {
			t.Fatal(err)
		}
		return r
	}
	if r := call("warm"); r.GetReturn().GetFields()["res"].GetStringValue() != "warm" || len(r.GetFailures()) > 0 {
		t.Errorf("switch to warm: %v %v", r.GetReturn(), r.GetFailures())
	}
	if r := call("dim"); len(r.GetFailures()) != 1 || r.GetFailures()[0].GetProperty() != "to" ||
		!strings.Contains(r.GetFailures()[0].GetReason(), `"dim" is not a valid lamps:index:Glow`) {
		t.Errorf("switch to dim: failures %v, want one naming to", r.GetFailures())
	}
}

// A concrete Input in the arguments, which the Go SDK cannot fill, is
// refused at start-up, naming the field and what to declare instead.
func TestSDKConcreteInputRefused(t *testing.T) {
	t.Parallel()
	type args struct {
		Glow Glow `pulumi:"glow"`
	}
	_, err := host.New("lamps", gosdk.Component("lamps:index:Bulb", func(*pulumi.Context, string, *args, ...pulumi.ResourceOption) (*Bulb, error) {
		return nil, nil
	}))
	if want := "lamps:index:Bulb: field gosdk_test.args.Glow is gosdk_test.Glow, which the Go SDK cannot fill (it sets an Output): declare it as its Input interface (GlowInput)"; err == nil || !strings.Contains(err.Error(), want) {
		t.Errorf("New = %v\nwant %q", err, want)
	}
}

// detailsOf joins an error's InputPropertiesError details.
func detailsOf(st *status.Status) string {
	var out []string
	for _, d := range st.Details() {
		if ipe, ok := d.(*pulumirpc.InputPropertiesError); ok {
			for _, e := range ipe.GetErrors() {
				out = append(out, e.GetPropertyPath()+": "+e.GetReason())
			}
		}
	}
	return strings.Join(out, "; ")
}

// Hue has a Values method of another shape than []host.EnumValue[Hue]: not
// an enum, as on the raw path, but a plain string.
type Hue string

func (Hue) ElementType() reflect.Type { return reflect.TypeFor[Hue]() }

func (Hue) Values() []string { return []string{"red"} }

type HueOutput struct{ *pulumi.OutputState }

func (HueOutput) ElementType() reflect.Type { return reflect.TypeFor[Hue]() }

type Shade struct {
	pulumi.ResourceState
	Hue HueOutput `pulumi:"hue"`
}

type ShadeArgs struct{}

func NewShade(*pulumi.Context, string, *ShadeArgs, ...pulumi.ResourceOption) (*Shade, error) {
	return nil, nil
}

func TestSDKValuesOfAnotherShapeIsNoEnum(t *testing.T) {
	t.Parallel()
	src, err := host.SchemaFromTypes("shades", nil, gosdk.Component("shades:index:Shade", NewShade))
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(src), "hue: {type: string}") || strings.Contains(string(src), "enum") {
		t.Errorf("schema:\n%s\nwant hue a plain string, no enum", src)
	}
}
