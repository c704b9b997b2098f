package host_test

import (
	"context"
	"encoding/base64"
	"strings"
	"testing"

	"github.com/pulumi/pulumi/sdk/v3/go/common/resource/sig"
	"github.com/pulumi/pulumi/sdk/v3/go/property"
	pulumirpc "github.com/pulumi/pulumi/sdk/v3/proto/go"
	"google.golang.org/protobuf/types/known/structpb"

	"github.com/polyhost/polyhost/host"
	"github.com/polyhost/polyhost/host/custom"
	"github.com/polyhost/polyhost/host/diag"
	"github.com/polyhost/polyhost/host/hosttest"
)

// namingResource takes its name from the engine's autonaming options.
type namingResource struct{ slowResource }

func (namingResource) Check(_ context.Context, req custom.CheckRequest) (custom.CheckResponse, error) {
	name := "generated-" + req.Name
	if a := req.Autonaming; a != nil {
		switch a.Mode {
		case custom.AutonamingDisable:
			return custom.CheckResponse{Failures: []diag.CheckFailure{{Property: "name", Reason: "autonaming is off: give a name"}}}, nil
		default:
			name = a.ProposedName
		}
	}
	return custom.CheckResponse{Inputs: req.Inputs.Set("name", property.New(name))}, nil
}

// Handshake offers byte strings and autonaming; Check hands the engine's
// autonaming options to the backend.
func TestHandshakeAndAutonaming(t *testing.T) {
	t.Parallel()
	mon := hosttest.Start(t)
	client := serve(t, mon.Addr(), host.WithResource("test:index:Thing", namingResource{}))
	hs, err := client.Handshake(context.Background(), &pulumirpc.ProviderHandshakeRequest{EngineAddress: mon.Addr()})
	if err != nil {
		t.Fatal(err)
	}
	if !hs.GetAcceptsByteString() || !hs.GetSupportsAutonamingConfiguration() || !hs.GetAcceptSecrets() {
		t.Errorf("handshake = %v, want byte strings, autonaming and secrets", hs)
	}
	check := func(a *pulumirpc.CheckRequest_AutonamingOptions) *pulumirpc.CheckResponse {
		t.Helper()
		resp, err := client.Check(context.Background(), &pulumirpc.CheckRequest{
			Urn: "urn:pulumi:dev::proj::test:index:Thing::t", Name: "t", Type: "test:index:Thing", Autonaming: a,
		})
		if err != nil {
			t.Fatal(err)
		}
		return resp
	}
	for _, tc := range []struct {
		opts *pulumirpc.CheckRequest_AutonamingOptions
		want string
	}{
		{nil, "generated-t"},
		{&pulumirpc.CheckRequest_AutonamingOptions{ProposedName: "dev-t-x1"}, "dev-t-x1"},
		{&pulumirpc.CheckRequest_AutonamingOptions{ProposedName: "exact", Mode: pulumirpc.CheckRequest_AutonamingOptions_ENFORCE}, "exact"},
	} {
		if got := check(tc.opts).GetInputs().GetFields()["name"].GetStringValue(); got != tc.want {
			t.Errorf("name with %v = %q, want %q", tc.opts, got, tc.want)
		}
	}
	off := check(&pulumirpc.CheckRequest_AutonamingOptions{Mode: pulumirpc.CheckRequest_AutonamingOptions_DISABLE})
	if f := off.GetFailures(); len(f) != 1 || f[0].GetProperty() != "name" {
		t.Errorf("with autonaming disabled: failures %v, want one naming name", f)
	}
}

// An engine that skips Handshake reads the protocol flags from Configure's
// answer: the same as Handshake's, autonaming among them.
func TestConfigureAnswersHandshakeFlags(t *testing.T) {
	t.Parallel()
	mon := hosttest.Start(t)
	client := serve(t, mon.Addr(), host.WithResource("test:index:Thing", namingResource{}))
	conf, err := client.Configure(context.Background(), &pulumirpc.ConfigureRequest{Args: &structpb.Struct{}})
	if err != nil {
		t.Fatal(err)
	}
	hs, err := client.Handshake(context.Background(), &pulumirpc.ProviderHandshakeRequest{EngineAddress: mon.Addr()})
	if err != nil {
		t.Fatal(err)
	}
	if !conf.GetSupportsPreview() {
		t.Errorf("configure = %v, want supportsPreview", conf)
	}
	for _, f := range []struct {
		name            string
		configure, hand bool
	}{
		{"acceptSecrets", conf.GetAcceptSecrets(), hs.GetAcceptSecrets()},
		{"acceptResources", conf.GetAcceptResources(), hs.GetAcceptResources()},
		{"acceptOutputs", conf.GetAcceptOutputs(), hs.GetAcceptOutputs()},
		{"supportsAutonamingConfiguration", conf.GetSupportsAutonamingConfiguration(), hs.GetSupportsAutonamingConfiguration()},
	} {
		if !f.configure || f.configure != f.hand {
			t.Errorf("%s: configure %v, handshake %v, want true from both", f.name, f.configure, f.hand)
		}
	}
}

// A string that is not valid UTF-8 goes out as a byte string when the
// engine said it reads them, and is an error naming the output otherwise.
func TestByteStringsOnlyWhenNegotiated(t *testing.T) {
	t.Parallel()
	raw := string([]byte{0xff, 0xfe, 'o', 'k'})
	for _, accepts := range []bool{true, false} {
		mon := hosttest.Start(t)
		client := serve(t, mon.Addr(), host.WithComponent("test:index:Comp",
			func(ctx context.Context, c *host.Component, args compArgs) (compOut, error) {
				return compOut{Shout: raw}, nil
			}))
		if _, err := client.Handshake(context.Background(), &pulumirpc.ProviderHandshakeRequest{
			EngineAddress: mon.Addr(), AcceptsByteString: accepts,
		}); err != nil {
			t.Fatal(err)
		}
		resp, err := client.Construct(context.Background(), constructReq(mon, "test:index:Comp", "c", map[string]any{"greeting": "hi"}))
		if !accepts {
			if err == nil || !strings.Contains(err.Error(), "shout") {
				t.Errorf("without byte strings: %v, want an error naming shout", err)
			}
			continue
		}
		if err != nil {
			t.Fatal(err)
		}
		shout := resp.GetState().GetFields()["shout"].GetStructValue().GetFields()
		if shout[sig.Key].GetStringValue() != sig.ByteString || shout["value"].GetStringValue() != base64.StdEncoding.EncodeToString([]byte(raw)) {
			t.Errorf("shout = %v, want the byte string %q", resp.GetState().GetFields()["shout"], raw)
		}
	}
}

type probeArgs struct {
	Key string `pulumi:"key"`
}

type probeResult struct {
	Preview bool `pulumi:"preview"`
}

// A function learns whether it runs in a preview from InvokeRequest.preview.
func TestFunctionSeesPreview(t *testing.T) {
	t.Parallel()
	p, err := host.New("test", host.WithFunction("test:index:probe",
		func(ctx context.Context, args probeArgs) (probeResult, error) {
			return probeResult{Preview: host.InPreview(ctx)}, nil
		}))
	if err != nil {
		t.Fatal(err)
	}
	client := hosttest.NewServer(p)
	for _, preview := range []bool{true, false} {
		args, _ := structpb.NewStruct(map[string]any{"key": "k"})
		resp, err := client.Invoke(context.Background(), &pulumirpc.InvokeRequest{Tok: "test:index:probe", Args: args, Preview: preview})
		if err != nil {
			t.Fatal(err)
		}
		if got := resp.GetReturn().GetFields()["preview"].GetBoolValue(); got != preview {
			t.Errorf("InPreview = %v in an invoke with preview %v", got, preview)
		}
	}
}
