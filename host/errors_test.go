package host_test

import (
	"context"
	"errors"
	"fmt"
	"os"
	"runtime"
	"strings"
	"testing"

	"github.com/pulumi/pulumi/sdk/v3/go/common/resource"
	"github.com/pulumi/pulumi/sdk/v3/go/common/resource/plugin"
	"github.com/pulumi/pulumi/sdk/v3/go/common/util/rpcutil/rpcerror"
	"github.com/pulumi/pulumi/sdk/v3/go/property"
	pulumirpc "github.com/pulumi/pulumi/sdk/v3/proto/go"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"

	"github.com/polyhost/polyhost/host"
	"github.com/polyhost/polyhost/host/custom"
	"github.com/polyhost/polyhost/host/diag"
	"github.com/polyhost/polyhost/host/hosttest"
)

type vaultArgs struct {
	Password string `pulumi:"password"` // decoded by plaintext
}

// wireError is what the engine gets: code, message and the
// InputPropertiesError details as "path: reason".
func wireError(t *testing.T, err error) (codes.Code, string, []string) {
	t.Helper()
	rerr, ok := rpcerror.FromError(err)
	if !ok {
		t.Fatalf("not a gRPC error: %v", err)
	}
	var details []string
	for _, d := range rerr.InputPropertiesErrors() {
		details = append(details, d.PropertyPath+": "+d.Reason)
	}
	return rerr.Code(), rerr.Message(), details
}

// A Construct's bad input goes out as a summary plus one detail per
// property: the engine prints each detail on its own line after the
// message, so the message must not repeat them. The engine prints the
// input's value in each detail, so a property holding a secret is named in
// the message instead. Secrets are redacted from both; an InputError wrapped
// in more context keeps it in the message, and its details.
func TestConstructInputErrorOnTheWire(t *testing.T) {
	t.Parallel()
	mon := hosttest.Start(t)
	client := serve(t, mon.Addr(), host.WithComponent("test:index:Vault",
		func(ctx context.Context, c *host.Component, args vaultArgs) (compOut, error) {
			if strings.HasPrefix(args.Password, "wrap") {
				return compOut{}, fmt.Errorf("checking the vault: %w", diag.Errorf("password", "%q is too weak", args.Password))
			}
			return compOut{}, diag.Errorf("password", "%q is too weak", args.Password)
		}),
		host.WithComponent("test:index:Comp", func(ctx context.Context, c *host.Component, args compArgs) (compOut, error) {
			if args.Greeting == "shout" {
				return compOut{}, fmt.Errorf("greeting the world: %w", diag.Errorf("greeting", "too loud"))
			}
			return compOut{}, nil
		}))
	secretReq := func(name, password string) *pulumirpc.ConstructRequest {
		req := constructReq(mon, "test:index:Vault", name, nil)
		req.Inputs, _ = plugin.MarshalProperties(resource.PropertyMap{
			"password": resource.MakeSecret(resource.NewProperty(password)),
		}, plugin.MarshalOptions{KeepSecrets: true})
		return req
	}
	cases := []struct {
		name        string
		req         *pulumirpc.ConstructRequest
		wantMessage string
		wantDetails []string
	}{{
		name:        "schema",
		req:         constructReq(mon, "test:index:Comp", "c", map[string]any{"greeting": 42}),
		wantMessage: "invalid inputs",
		wantDetails: []string{"greeting: expected a string, got the number 42"},
	}, {
		name:        "component code, secret property and reason",
		req:         secretReq("v1", "hunter2-xyz"),
		wantMessage: `invalid input; password: "[secret]" is too weak`,
	}, {
		name:        "wrapped, secret reason",
		req:         secretReq("v2", "wrap-hunter2"),
		wantMessage: `checking the vault: invalid input; password: "[secret]" is too weak`,
	}, {
		name:        "wrapped",
		req:         constructReq(mon, "test:index:Comp", "c2", map[string]any{"greeting": "shout"}),
		wantMessage: "greeting the world: invalid input",
		wantDetails: []string{"greeting: too loud"},
	}}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			_, err := client.Construct(context.Background(), tc.req)
			if err == nil {
				t.Fatal("construct succeeded")
			}
			code, msg, details := wireError(t, err)
			if code != codes.InvalidArgument || msg != tc.wantMessage || fmt.Sprint(details) != fmt.Sprint(tc.wantDetails) {
				t.Errorf("got %s %q details %q, want InvalidArgument %q details %q", code, msg, details, tc.wantMessage, tc.wantDetails)
			}
		})
	}
}

// Configure's bad input keeps its whole text, with no details: the engine
// shows it by its message alone at the next Check, or, at the next
// Construct, would print details as if they were the component's inputs.
func TestConfigureInputErrorOnTheWire(t *testing.T) {
	t.Parallel()
	mon := hosttest.Start(t)
	client := serve(t, mon.Addr(), host.WithConfig(func(ctx context.Context, config property.Map) error {
		return diag.Errorf("token", "%q is revoked", config.Get("token").AsString())
	}))
	args, err := plugin.MarshalProperties(resource.PropertyMap{
		"token": resource.MakeSecret(resource.NewProperty("tok-hunter2")),
	}, plugin.MarshalOptions{KeepSecrets: true})
	if err != nil {
		t.Fatal(err)
	}
	_, err = client.Configure(context.Background(), &pulumirpc.ConfigureRequest{Args: args, AcceptSecrets: true})
	if err == nil {
		t.Fatal("configure succeeded")
	}
	code, msg, details := wireError(t, err)
	want := `configure test: invalid input: token: "[secret]" is revoked`
	if code != codes.InvalidArgument || msg != want || len(details) != 0 {
		t.Errorf("got %s %q details %q, want InvalidArgument %q and no details", code, msg, details, want)
	}
	if st, _ := status.FromError(err); strings.Contains(fmt.Sprint(st.Proto()), "hunter2") {
		t.Errorf("the status carries the secret: %v", st.Proto())
	}
}

// checkedResource fails Check on every input it is given.
type checkedResource struct{ slowResource }

func (checkedResource) Check(_ context.Context, req custom.CheckRequest) (custom.CheckResponse, error) {
	var fs []diag.CheckFailure
	for k := range req.Inputs.All {
		fs = append(fs, diag.CheckFailure{Property: k, Reason: "is not allowed"})
	}
	return custom.CheckResponse{Inputs: req.Inputs, Failures: fs}, nil
}

// The engine prints the input at a check failure's property beside it, so a
// failure about a secret input names the property in its reason instead.
func TestCheckFailureAboutSecretNamesNoProperty(t *testing.T) {
	t.Parallel()
	mon := hosttest.Start(t)
	client := serve(t, mon.Addr(), host.WithResource("test:index:Thing", checkedResource{}))
	news, err := plugin.MarshalProperties(resource.PropertyMap{
		"password": resource.MakeSecret(resource.NewProperty("hunter2-xyz")),
		"size":     resource.NewProperty(3.0),
	}, plugin.MarshalOptions{KeepSecrets: true})
	if err != nil {
		t.Fatal(err)
	}
	resp, err := client.Check(context.Background(), &pulumirpc.CheckRequest{
		Urn: "urn:pulumi:dev::proj::test:index:Thing::t", Name: "t", Type: "test:index:Thing", News: news,
	})
	if err != nil {
		t.Fatal(err)
	}
	got := map[string]string{}
	for _, f := range resp.GetFailures() {
		got[f.GetProperty()] = f.GetReason()
	}
	want := map[string]string{"": "password: is not allowed", "size": "is not allowed"}
	if fmt.Sprint(got) != fmt.Sprint(want) {
		t.Errorf("failures %v, want %v", got, want)
	}
}

// The engine prints the resource's type and name before a Construct's
// error, and the method's token before a Call's, so the message leaves them
// out; a nested component's error still names the nested one.
func TestErrorsDoNotRepeatWhatTheEngineNames(t *testing.T) {
	t.Parallel()
	mon := hosttest.Start(t)
	client := serve(t, mon.Addr(),
		host.WithComponent("test:index:Comp", func(ctx context.Context, c *host.Component, args compArgs) (compOut, error) {
			if args.Greeting != "nested" {
				return compOut{}, errors.New("bucket name taken")
			}
			_, err := host.Nested(ctx, c, "test:index:Greeter", c.Name()+"-greeter", struct{}{},
				func(context.Context, *host.Component, struct{}) (property.Map, error) {
					return property.Map{}, errors.New("no greeting")
				})
			return compOut{}, err
		}),
		host.WithMethod("test:index:Comp/greet", func(ctx context.Context, self *host.Component, args greetArgs) (string, error) {
			return "", fmt.Errorf("cannot greet %s", args.Name)
		}))
	construct := func(name, greeting string) string {
		_, err := client.Construct(context.Background(), constructReq(mon, "test:index:Comp", name, map[string]any{"greeting": greeting}))
		return status.Convert(err).Message()
	}
	if got, want := construct("c", "hi"), "bucket name taken"; got != want {
		t.Errorf("component error %q, want %q", got, want)
	}
	if got, want := construct("n", "nested"), `test:index:Greeter "n-greeter": construct: no greeting`; got != want {
		t.Errorf("nested component error %q, want %q", got, want)
	}
	compURN := "urn:pulumi:dev::proj::test:index:Comp::c"
	_, err := client.Call(context.Background(), &pulumirpc.CallRequest{
		Tok: "test:index:Comp/greet", Args: greetCallArgs(compURN), MonitorEndpoint: mon.Addr(),
	})
	if got, want := status.Convert(err).Message(), `on "c": cannot greet world`; got != want {
		t.Errorf("method error %q, want %q", got, want)
	}
}

// A panic in component code, and an error made with diag.Failf, reach the
// user with the frames of the author's code, file and line, innermost
// first, and none of the host's or Go's runtime.
func TestAuthorFramesReachTheUser(t *testing.T) {
	t.Parallel()
	mon := hosttest.Start(t)
	var failLine, panicLine int
	client := serve(t, mon.Addr(),
		host.WithComponent("test:index:Comp", func(ctx context.Context, c *host.Component, args compArgs) (compOut, error) {
			if args.Greeting == "panic" {
				_, _, panicLine, _ = runtime.Caller(0)
				_ = []string{}[len(args.Greeting)] // a runtime error: index out of range
			}
			return compOut{}, fetchGreeting(&failLine)
		}))
	construct := func(greeting string) string {
		_, err := client.Construct(context.Background(), constructReq(mon, "test:index:Comp", greeting, map[string]any{"greeting": greeting}))
		return status.Convert(err).Message()
	}
	failed, panicked := construct("fail"), construct("panic")
	for got, want := range map[string][]string{
		failed: {"no greeting today\n    at host_test.fetchGreeting (", fmt.Sprintf("(github.com/polyhost/polyhost/host/errors_test.go:%d)\n", failLine+1),
			"host_test.TestAuthorFramesReachTheUser.func1 ("},
		panicked: {"panic in component code: runtime error: index out of range [5] with length 0\n    at host_test.TestAuthorFramesReachTheUser.func1 (",
			fmt.Sprintf("errors_test.go:%d)", panicLine+1)},
	} {
		for _, w := range want {
			if !strings.Contains(got, w) {
				t.Errorf("error\n%s\nwant it to contain %q", got, w)
			}
		}
		// Paths as -trimpath writes them: no folder of the build machine.
		wd, _ := os.Getwd()
		for _, not := range []string{"register.go", "host/internal", "runtime.", "polyhost/host.", wd} {
			if strings.Contains(got, not) {
				t.Errorf("error\n%s\nnames a frame of %s", got, not)
			}
		}
	}
}

// fetchGreeting fails as author code does, recording the line of its Failf.
func fetchGreeting(line *int) error {
	_, _, *line, _ = runtime.Caller(0)
	return diag.Failf("no greeting today")
}
