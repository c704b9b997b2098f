package host_test

import (
	"context"
	_ "embed"
	"strings"
	"testing"

	"github.com/pulumi/pulumi/sdk/v3/go/common/resource"
	"github.com/pulumi/pulumi/sdk/v3/go/common/resource/plugin"
	"github.com/pulumi/pulumi/sdk/v3/go/common/util/rpcutil/rpcerror"
	"github.com/pulumi/pulumi/sdk/v3/go/property"
	pulumirpc "github.com/pulumi/pulumi/sdk/v3/proto/go"

	"github.com/polyhost/polyhost/host"
	"github.com/polyhost/polyhost/host/hosttest"
)

// refSchema has tokens with modules; the specs of a component's input and
// output and a method's argument and result are marked # IN, # OUT, # ARG
// and # RES, for withSpecs.
//
//go:embed testdata/schemas/ref.yaml
var refSchema string

// withSpecs is refSchema with the specs marked by the keys of specs.
func withSpecs(specs map[string]string) string {
	src := refSchema
	for mark, spec := range specs {
		src = strings.Replace(src, `{$ref: "pulumi.json#/Any"} # `+mark+"\n", spec+"\n", 1)
	}
	return src
}

// A $ref written as Pulumi's tools write it, with a module's "/" as "%2F",
// is resolved to the unescaped token wherever it is used (a component's
// input and output, a method's argument and result): a value of that type
// passes the checks of Construct and Call, and one of another type is
// refused naming the unescaped token. Another package's type passes
// unchecked.
func TestEscapedRefs(t *testing.T) {
	t.Parallel()
	ref := func(typ string) resource.PropertyValue {
		return resource.MakeCustomResourceReference(resource.URN("urn:pulumi:dev::proj::"+typ+"::r"), "id", "")
	}
	point := resource.NewProperty(resource.PropertyMap{"x": resource.NewProperty(1.0)})
	refs := []struct {
		name, ref string
		good, bad resource.PropertyValue
		want      string // in the failure for bad
	}{
		{"local resource", "#/resources/test:mod%2Fsub:Thing", ref("test:mod/sub:Thing"), ref("test:index:Holder"),
			"expected a reference to a test:mod/sub:Thing resource, got a test:index:Holder"},
		{"local object type", "#/types/test:mod%2Fsub:Point", point, resource.NewProperty("p"),
			`expected an object of type test:mod/sub:Point, got "p"`},
		{"local enum", "#/types/test:mod%2Fsub:Kind", resource.NewProperty("a"), resource.NewProperty("z"),
			`"z" is not a valid test:mod/sub:Kind`},
		{"other package's resource", "/random/v4.16.0/schema.json#/resources/random:index%2FrandomPet:RandomPet",
			ref("random:index/randomPet:RandomPet"), ref("random:index/randomString:RandomString"),
			"expected a reference to a random:index/randomPet:RandomPet resource, got a random:index/randomString:RandomString"},
		// The host has no schema of another package's type: it checks
		// nothing, and must not refuse the value (nor read the token as
		// this package's).
		{"other package's type", "/aws/v6.0.0/schema.json#/types/aws:s3%2FBucketWebsite:BucketWebsite",
			resource.NewProperty(resource.PropertyMap{"indexDocument": resource.NewProperty("index.html")}), resource.PropertyValue{}, ""},
		{"own package's type by path", "/test/v1.0.0/schema.json#/types/test:mod%2Fsub:Point", point, resource.NewProperty("p"),
			`expected an object of type test:mod/sub:Point, got "p"`},
	}
	for _, where := range []string{"IN", "OUT", "ARG", "RES"} {
		for _, r := range refs {
			t.Run(where+" "+r.name, func(t *testing.T) {
				t.Parallel()
				src := withSpecs(map[string]string{where: `{$ref: "` + r.ref + `"}`})
				mon := hosttest.Start(t)
				client := serve(t, mon.Addr(), host.WithSchema([]byte(src)),
					host.WithComponent("test:index:Holder", func(ctx context.Context, c *host.Component, args property.Map) (property.Map, error) {
						return property.NewMap(map[string]property.Value{"out": args.Get("in")}), nil
					}),
					host.WithMethod("test:index:Holder/echo", func(ctx context.Context, self *host.Component, args property.Map) (property.Value, error) {
						return args.Get("arg"), nil
					}))
				for i, v := range []resource.PropertyValue{r.good, r.bad} {
					if v.V == nil {
						continue // nothing the host can refuse
					}
					got := echoThrough(t, mon, client, []string{"good", "bad"}[i], where == "IN" || where == "OUT", v)
					if i == 0 && got != "" {
						t.Errorf("%s: %s", r.ref, got)
					}
					if i == 1 && !strings.Contains(got, r.want) {
						t.Errorf("%s: failure %q, want %q", r.ref, got, r.want)
					}
				}
			})
		}
	}
}

// echoThrough constructs a Holder named name with v as its input or, if !construct,
// calls echo on one with v as the argument. It returns what failed, if
// anything: an error's message and details, or the call's failures.
func echoThrough(t *testing.T, mon *hosttest.Monitor, client pulumirpc.ResourceProviderClient, name string, construct bool, v resource.PropertyValue) string {
	t.Helper()
	opts := plugin.MarshalOptions{KeepResources: true}
	problem := func(err error) string {
		rerr, ok := rpcerror.FromError(err)
		if !ok {
			return err.Error()
		}
		msg := rerr.Message()
		for _, d := range rerr.InputPropertiesErrors() {
			msg += "; " + d.PropertyPath + ": " + d.Reason
		}
		return msg
	}
	req := constructReq(mon, "test:index:Holder", name, nil)
	if construct {
		req.Inputs, _ = plugin.MarshalProperties(resource.PropertyMap{"in": v}, opts)
	}
	comp, err := client.Construct(context.Background(), req)
	if err != nil || construct {
		if err != nil {
			return problem(err)
		}
		return ""
	}
	args, _ := plugin.MarshalProperties(resource.PropertyMap{
		"__self__": resource.MakeComponentResourceReference(resource.URN(comp.GetUrn()), ""),
		"arg":      v,
	}, opts)
	resp, err := client.Call(context.Background(), &pulumirpc.CallRequest{
		Tok: "test:index:Holder/echo", Args: args, MonitorEndpoint: mon.Addr(),
	})
	if err != nil {
		return problem(err)
	}
	var fs []string
	for _, f := range resp.GetFailures() {
		fs = append(fs, f.GetProperty()+": "+f.GetReason())
	}
	return strings.Join(fs, "; ")
}

type kindArgs struct {
	In int `pulumi:"in,optional"`
}

// New's shape checks see the type behind an escaped $ref: an enum of
// strings does not fit an int field.
func TestShapesResolveEscapedRefs(t *testing.T) {
	t.Parallel()
	src := withSpecs(map[string]string{"IN": `{$ref: "#/types/test:mod%2Fsub:Kind"}`,
		"OUT": "{type: string}", "ARG": "{type: string}", "RES": "{type: string}"})
	_, err := host.New("test", host.WithSchema([]byte(src)), host.WithComponent("test:index:Holder",
		func(ctx context.Context, c *host.Component, args kindArgs) (property.Map, error) {
			return property.Map{}, nil
		}))
	want := `field host_test.kindArgs.In is int, but input "in" is a string in the schema`
	if err == nil || !strings.Contains(err.Error(), want) {
		t.Errorf("New = %v, want %q", err, want)
	}
}
