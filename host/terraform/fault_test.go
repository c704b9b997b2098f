package terraform

import (
	"context"
	"strings"
	"testing"

	"github.com/hashicorp/terraform-plugin-go/tfprotov6"
	"github.com/hashicorp/terraform-plugin-go/tftypes"
	"github.com/pulumi/pulumi/sdk/v3/go/property"

	"github.com/polyhost/polyhost/host"
	"github.com/polyhost/polyhost/host/hosttest"
	"github.com/polyhost/polyhost/host/terraform/internal/tfwire"
	"github.com/polyhost/polyhost/internal/tfprov6"
)

// liar is the kv provider answering its applies, reads and data source
// reads with bad, a value not of the schema.
type liar struct {
	tfprotov6.ProviderServer
	bad *tfprotov6.DynamicValue
}

func (l liar) ApplyResourceChange(ctx context.Context, req *tfprotov6.ApplyResourceChangeRequest) (*tfprotov6.ApplyResourceChangeResponse, error) {
	resp, err := l.ProviderServer.ApplyResourceChange(ctx, req)
	if resp != nil && resp.NewState != nil {
		resp.NewState = l.bad
	}
	return resp, err
}

func (l liar) ReadResource(ctx context.Context, req *tfprotov6.ReadResourceRequest) (*tfprotov6.ReadResourceResponse, error) {
	resp, err := l.ProviderServer.ReadResource(ctx, req)
	if resp != nil {
		resp.NewState = l.bad
	}
	return resp, err
}

func (l liar) ReadDataSource(ctx context.Context, req *tfprotov6.ReadDataSourceRequest) (*tfprotov6.ReadDataSourceResponse, error) {
	resp, err := l.ProviderServer.ReadDataSource(ctx, req)
	if resp != nil {
		resp.State = l.bad
	}
	return resp, err
}

// liarSource serves an honest kv provider for the schema, a liar after.
type liarSource struct{ bad *tfprotov6.DynamicValue }

func (liarSource) name() string { return "terraform-provider-kv" }

func (s liarSource) start(context.Context) (tfwire.Server, func() error, error) {
	return liar{tfprov6.New("1.0.0"), s.bad}, func() error { return nil }, nil
}

// A provider answering with a value not of its schema fails the step with
// an error naming the provider and the resource type, never a panic.
func TestValueNotOfTheSchema(t *testing.T) {
	t.Parallel()
	str, err := tfprotov6.NewDynamicValue(tftypes.String, tftypes.NewValue(tftypes.String, "not an object"))
	if err != nil {
		t.Fatal(err)
	}
	for name, bad := range map[string]*tfprotov6.DynamicValue{
		"a string":             &str,
		"a number as a string": {JSON: []byte(`{"id":"k","key":"k","value":"v","revision":"many"}`)},
		"garbage":              {MsgPack: []byte{0xc1, 0xff, 0x00}},
	} {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			hp, err := host.New("kvkit", serve(liarSource{bad}, options{prefix: "kv"}))
			if err != nil {
				t.Fatal(err)
			}
			t.Cleanup(func() { _ = hp.Close() })
			h := hosttest.New(t, hp)
			ctx := context.Background()
			if err := h.Configure(ctx, property.NewMap(map[string]property.Value{"root": property.New(t.TempDir())})); err != nil {
				t.Fatal(err)
			}
			_, err = h.Create(ctx, hosttest.CreateRequest{Type: "kvkit:index:Entry", Name: "e", Inputs: entryInputs("k", "v")})
			wantNamed(t, "create", err, "kv_entry")
			_, err = h.Invoke(ctx, "kvkit:index:getEntry", property.NewMap(map[string]property.Value{"key": property.New("k")}))
			wantNamed(t, "getEntry", err, "kv_entry")
		})
	}
}

func wantNamed(t *testing.T, step string, err error, what string) {
	t.Helper()
	if err == nil {
		t.Fatalf("%s: no error", step)
	}
	for _, s := range []string{"terraform-provider-kv", what} {
		if !strings.Contains(err.Error(), s) {
			t.Errorf("%s: %v; want it to name %s", step, err, s)
		}
	}
}
