package provider_test

import (
	"bufio"
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/pulumi/pulumi/sdk/v3/go/common/resource"
	"github.com/pulumi/pulumi/sdk/v3/go/common/resource/config"
	"github.com/pulumi/pulumi/sdk/v3/go/common/resource/plugin"
	"github.com/pulumi/pulumi/sdk/v3/go/common/resource/urn"
	"github.com/pulumi/pulumi/sdk/v3/go/common/tokens"
	"github.com/pulumi/pulumi/sdk/v3/go/common/util/rpcutil/rpcerror"
	"github.com/pulumi/pulumi/sdk/v3/go/property"
	perrors "github.com/pulumi/pulumi/sdk/v3/go/pulumi/errors"
	pulumirpc "github.com/pulumi/pulumi/sdk/v3/proto/go"
	"google.golang.org/grpc"
	"google.golang.org/grpc/credentials/insecure"
	"google.golang.org/protobuf/types/known/structpb"

	"github.com/polyhost/polyhost/host/hosttest"
)

// binary is the provider plugin, built once for the package's tests.
var binary string

func TestMain(m *testing.M) {
	dir, err := os.MkdirTemp("", "sitekit-plugin")
	if err != nil {
		panic(err)
	}
	binary = filepath.Join(dir, "pulumi-resource-sitekit")
	build := exec.Command("go", "build", "-ldflags", "-X main.version=1.2.3", "-o", binary, "./cmd/pulumi-resource-sitekit")
	build.Stderr = os.Stderr
	if err := build.Run(); err != nil {
		panic("building the provider: " + err.Error())
	}
	code := m.Run()
	os.RemoveAll(dir)
	os.Exit(code)
}

const (
	stackURN    = "urn:pulumi:dev::proj::pulumi:pulumi:Stack::proj-dev"
	providerRef = "urn:pulumi:dev::proj::pulumi:providers:sitekit::explicit::prov-id"
)

// startPlugin launches the binary with the SDK plugin client, the same
// client code the engine uses, and configures it.
func startPlugin(t *testing.T, engineAddr string) plugin.Provider {
	t.Helper()
	host := &plugin.MockHost{ServerAddrF: func() string { return engineAddr }}
	pctx, err := plugin.NewContextWithHost(context.Background(), nil, nil, host, t.TempDir(), t.TempDir(), nil)
	if err != nil {
		t.Fatal(err)
	}
	prov, err := plugin.NewProviderFromPath(host, pctx, binary)
	if err != nil {
		t.Fatalf("launching the plugin: %v", err)
	}
	t.Cleanup(func() { _ = prov.Close() })
	info, err := prov.GetPluginInfo(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	if info.Version == nil || info.Version.String() != "1.2.3" {
		t.Fatalf("version = %v, want the one set at build time, 1.2.3", info.Version)
	}
	typ := tokens.Type("pulumi:providers:sitekit")
	name := "default"
	urn := resource.URN("urn:pulumi:dev::proj::pulumi:providers:sitekit::default")
	id := resource.ID("default-id")
	_, err = prov.Configure(context.Background(), plugin.ConfigureRequest{
		Type: &typ, Name: &name, URN: &urn, ID: &id,
		Inputs: resource.PropertyMap{"storageUrl": resource.NewProperty("mem://")},
	})
	if err != nil {
		t.Fatalf("configure: %v", err)
	}
	return prov
}

// fakeResources answers child registrations roughly as the sitekit
// provider would: buckets get a name and endpoint, objects an etag.
func fakeResources(r hosttest.Registration) (resource.ID, property.Map, error) {
	switch r.Type {
	case "sitekit:index:Bucket":
		return "bucket-1", r.Inputs.
			Set("bucketName", property.New("bucket-1")).
			Set("endpoint", property.New("mem://bucket-1")), nil
	case "sitekit:index:BucketObject":
		return resource.ID("obj-" + r.Name), r.Inputs.Set("etag", property.New("etag-"+r.Name)).Set("url", property.New("mem://"+r.Name)), nil
	}
	return "", r.Inputs, nil
}

func construct(t *testing.T, prov plugin.Provider, mon *hosttest.Monitor, dryRun bool, inputs resource.PropertyMap, opts plugin.ConstructOptions) (plugin.ConstructResult, error) {
	t.Helper()
	return prov.Construct(context.Background(), plugin.ConstructRequest{
		Info: plugin.ConstructInfo{
			Project: "proj", Stack: "dev", DryRun: dryRun, Parallel: 4, MonitorAddress: mon.Addr(),
			Config: map[config.Key]string{
				config.MustMakeKey("proj", "greeting"): "hello",
				config.MustMakeKey("proj", "password"): "hunter2",
			},
			ConfigSecretKeys: []config.Key{config.MustMakeKey("proj", "password")},
		},
		Type: "sitekit:index:Site", Name: "www", Parent: stackURN,
		Inputs: inputs, Options: opts,
	})
}

func byName(regs []hosttest.Registration) map[string]hosttest.Registration {
	out := map[string]hosttest.Registration{}
	for _, r := range regs {
		out[r.Name] = r
	}
	return out
}

func TestConstructUpdate(t *testing.T) {
	t.Parallel()
	mon := hosttest.Start(t, hosttest.WithRegisterHook(fakeResources))
	prov := startPlugin(t, mon.Addr())
	protect := true
	depURN := resource.URN("urn:pulumi:dev::proj::pulumi:pulumi:Stack$random:index:Thing::dep")
	res, err := construct(t, prov, mon, false, resource.PropertyMap{
		"indexContent": resource.MakeSecret(resource.NewProperty("<h1>secret welcome</h1>")),
		"pages": resource.NewProperty(resource.PropertyMap{
			"about.html": resource.NewProperty("About us"),
			"blog.html":  resource.NewProperty("Blog"),
		}),
	}, plugin.ConstructOptions{
		Protect:              &protect,
		Providers:            map[string]string{"sitekit": providerRef},
		Dependencies:         []resource.URN{depURN},
		PropertyDependencies: map[resource.PropertyKey][]resource.URN{"indexContent": {depURN}},
	})
	if err != nil {
		t.Fatalf("construct: %v", err)
	}

	regs := byName(mon.Registrations())
	site := regs["www"]
	if res.URN != site.URN || site.Parent != stackURN || site.Custom || site.Remote {
		t.Fatalf("component registration = %+v, result URN %s", site, res.URN)
	}
	if site.Protect == nil || !*site.Protect || len(site.Dependencies) != 1 || site.Providers["sitekit"].String() != providerRef {
		t.Errorf("component options not applied to its registration: protect=%v deps=%v providers=%v", site.Protect, site.Dependencies, site.Providers)
	}
	wantParents := map[string]urn.URN{
		"www-bucket": site.URN, "www-index": site.URN, "www-error": site.URN, "www-pages": site.URN,
		"www-pages-about.html": regs["www-pages"].URN, "www-pages-blog.html": regs["www-pages"].URN,
	}
	for name, parent := range wantParents {
		r, ok := regs[name]
		if !ok {
			t.Errorf("child %s was not registered", name)
			continue
		}
		if r.Parent != parent {
			t.Errorf("%s parent = %s, want %s", name, r.Parent, parent)
		}
		if r.Custom && r.Provider.String() != providerRef {
			t.Errorf("%s provider = %q, want the explicit provider passed to the component", name, r.Provider)
		}
	}
	if got := regs["www-pages"].Type; got != "sitekit:index:PageSet" || regs["www-pages"].Custom {
		t.Errorf("nested component registered as %s custom=%v", got, regs["www-pages"].Custom)
	}
	bucketURN := regs["www-bucket"].URN
	index := regs["www-index"]
	if c := index.Inputs.Get("content"); !c.Secret() || c.AsString() != "<h1>secret welcome</h1>" {
		t.Errorf("index content reached the child as %v, want the secret", c)
	}
	if !slices.Contains(index.PropertyDependencies["bucket"], bucketURN) || !slices.Contains(index.Dependencies, bucketURN) {
		t.Errorf("index object does not depend on the bucket: %v / %v", index.PropertyDependencies, index.Dependencies)
	}
	if !slices.Contains(index.PropertyDependencies["content"], depURN) {
		t.Errorf("index content lost the input's dependency: %v", index.PropertyDependencies["content"])
	}

	out := res.Outputs
	if got := out["url"]; !got.IsString() || got.StringValue() != "mem://bucket-1/index.html" {
		t.Errorf("url = %v", got)
	}
	if got := out["pageCount"]; !got.IsNumber() || got.NumberValue() != 4 {
		t.Errorf("pageCount = %v, want 4", got)
	}
	if deps := res.OutputDependencies["url"]; len(deps) != 1 || deps[0] != bucketURN {
		t.Errorf("url dependencies = %v, want the bucket", deps)
	}
	recorded, ok := mon.Outputs(site.URN)
	if !ok || recorded.Get("url").AsString() != "mem://bucket-1/index.html" {
		t.Errorf("RegisterResourceOutputs for the component = %v", recorded)
	}
}

func TestConstructPreviewKeepsUnknowns(t *testing.T) {
	t.Parallel()
	mon := hosttest.Start(t, hosttest.WithDryRun(true), hosttest.WithRegisterHook(fakeResources),
		hosttest.WithPreviewUnknowns(func(r hosttest.Registration) []string {
			return []string{"bucketName", "endpoint", "etag"}
		}))
	prov := startPlugin(t, mon.Addr())
	res, err := construct(t, prov, mon, true, resource.PropertyMap{
		"indexContent": resource.NewProperty("<h1>hi</h1>"),
		"errorContent": resource.MakeComputed(resource.NewProperty("")),
	}, plugin.ConstructOptions{})
	if err != nil {
		t.Fatalf("construct: %v", err)
	}
	if !res.Outputs["url"].ContainsUnknowns() || !res.Outputs["bucketName"].ContainsUnknowns() {
		t.Errorf("outputs derived from unknown child outputs must stay unknown: %v", res.Outputs)
	}
	if got := res.Outputs["pageCount"]; !got.IsNumber() || got.NumberValue() != 2 {
		t.Errorf("pageCount = %v, want 2 (known without the children's outputs)", got)
	}
	errPage := byName(mon.Registrations())["www-error"]
	if !errPage.Inputs.Get("content").IsComputed() {
		t.Errorf("unknown errorContent reached the child as %v", errPage.Inputs.Get("content"))
	}
}

func TestConstructBadInput(t *testing.T) {
	t.Parallel()
	mon := hosttest.Start(t, hosttest.WithRegisterHook(fakeResources))
	prov := startPlugin(t, mon.Addr())
	cases := []struct {
		name   string
		typ    tokens.Type
		inputs resource.PropertyMap
		path   string // property path the error must name
		want   string
	}{
		{"wrong type", "sitekit:index:Site", resource.PropertyMap{"indexContent": resource.NewProperty(42.0)}, "indexContent", "expected a string"},
		{"missing required", "sitekit:index:Site", resource.PropertyMap{}, "indexContent", "missing required property"},
		{"wrong element type", "sitekit:index:Site", resource.PropertyMap{
			"indexContent": resource.NewProperty("x"),
			"pages":        resource.NewProperty(resource.PropertyMap{"a.html": resource.NewProperty(true)}),
		}, `pages["a.html"]`, "expected a string"},
		{"unknown token", "sitekit:index:Nope", resource.PropertyMap{}, "", `unknown component type "sitekit:index:Nope": provider sitekit serves sitekit:index:Mirror, sitekit:index:PageSet, sitekit:index:Site`},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			_, err := prov.Construct(context.Background(), plugin.ConstructRequest{
				Info: plugin.ConstructInfo{Project: "proj", Stack: "dev", MonitorAddress: mon.Addr()},
				Type: tc.typ, Name: "bad", Parent: stackURN, Inputs: tc.inputs,
			})
			if err == nil {
				t.Fatal("construct succeeded")
			}
			if tc.path == "" {
				if !strings.Contains(err.Error(), tc.want) {
					t.Errorf("error %q does not say %q", err, tc.want)
				}
				return
			}
			// The engine prints the details after the message: each
			// reason must be in a detail, and not in the message too.
			msg, details := inputPropertiesError(err)
			if msg != "invalid inputs" {
				t.Errorf("message = %q, want only the summary", msg)
			}
			var found int
			for _, d := range details {
				if d.PropertyPath == tc.path && strings.Contains(d.Reason, tc.want) {
					found++
				}
			}
			if found != 1 {
				t.Errorf("InputPropertiesError details = %v, want one for %s saying %q", details, tc.path, tc.want)
			}
		})
	}
	// The provider answers the next request normally.
	if _, err := construct(t, prov, mon, false, resource.PropertyMap{"indexContent": resource.NewProperty("ok")}, plugin.ConstructOptions{}); err != nil {
		t.Fatalf("construct after bad input: %v", err)
	}
}

// inputPropertiesError splits a gRPC error into its message and its
// InputPropertiesError details.
func inputPropertiesError(err error) (string, []perrors.InputPropertyErrorDetails) {
	if err == nil {
		return "", nil
	}
	rerr, ok := rpcerror.FromError(err)
	if !ok {
		return err.Error(), nil
	}
	return rerr.Message(), rerr.InputPropertiesErrors()
}

// A malformed resource reference (no URN) is rejected at the wire and named.
func TestConstructMalformedReference(t *testing.T) {
	t.Parallel()
	mon := hosttest.Start(t, hosttest.WithRegisterHook(fakeResources))
	conn := dialPlugin(t, mon.Addr())
	inputs := mustStruct(t, map[string]any{
		"indexContent": map[string]any{
			"4dabf18193072939515e22adb298388d": "5cf8f73096256a8f31e491e813e4eb8e",
			"id":                               "x",
		},
	})
	_, err := conn.Construct(context.Background(), &pulumirpc.ConstructRequest{
		Project: "proj", Stack: "dev", MonitorEndpoint: mon.Addr(),
		Type: "sitekit:index:Site", Name: "bad", Parent: stackURN, Inputs: inputs,
	})
	if err == nil || !strings.Contains(err.Error(), "indexContent") {
		t.Fatalf("error = %v, want one naming indexContent", err)
	}
}

// dialPlugin starts the binary itself and returns a raw gRPC client, for
// requests the SDK client would refuse to send.
func dialPlugin(t *testing.T, engineAddr string) pulumirpc.ResourceProviderClient {
	t.Helper()
	cmd := exec.Command(binary, engineAddr)
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = cmd.Process.Signal(os.Interrupt); _ = cmd.Wait() })
	port, err := bufio.NewReader(stdout).ReadString('\n')
	if err != nil {
		t.Fatalf("reading the port line: %v", err)
	}
	conn, err := grpc.NewClient("127.0.0.1:"+strings.TrimSpace(port), grpc.WithTransportCredentials(insecure.NewCredentials()))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = conn.Close() })
	return pulumirpc.NewResourceProviderClient(conn)
}

func mustStruct(t *testing.T, m map[string]any) *structpb.Struct {
	t.Helper()
	s, err := structpb.NewStruct(m)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

func TestGetSchema(t *testing.T) {
	t.Parallel()
	mon := hosttest.Start(t)
	prov := startPlugin(t, mon.Addr())
	resp, err := prov.GetSchema(context.Background(), plugin.GetSchemaRequest{})
	if err != nil {
		t.Fatal(err)
	}
	var doc struct {
		Name      string                    `json:"name"`
		Resources map[string]map[string]any `json:"resources"`
		Functions map[string]any            `json:"functions"`
	}
	if err := json.Unmarshal(resp.Schema, &doc); err != nil {
		t.Fatalf("schema is not JSON: %v", err)
	}
	if doc.Name != "sitekit" || doc.Resources["sitekit:index:Site"]["isComponent"] != true || doc.Functions["sitekit:index:Site/pageUrl"] == nil {
		t.Errorf("schema = %s", resp.Schema)
	}
}
