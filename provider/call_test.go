package provider_test

import (
	"context"
	"strings"
	"testing"

	"github.com/pulumi/pulumi/sdk/v3/go/common/resource"
	"github.com/pulumi/pulumi/sdk/v3/go/common/resource/plugin"
	"github.com/pulumi/pulumi/sdk/v3/go/common/tokens"

	"github.com/polyhost/polyhost/host/hosttest"
)

func selfRef(urn string) resource.PropertyValue {
	return resource.MakeComponentResourceReference(resource.URN(urn), "")
}

func call(t *testing.T, prov plugin.Provider, mon *hosttest.Monitor, dryRun bool, tok string, args resource.PropertyMap) plugin.CallResult {
	t.Helper()
	res, err := prov.Call(context.Background(), plugin.CallRequest{
		Tok: tokens.ModuleMember(tok), Args: args,
		Info: plugin.CallInfo{Project: "proj", Stack: "dev", DryRun: dryRun, Parallel: 4, MonitorAddress: mon.Addr()},
	})
	if err != nil {
		t.Fatalf("call %s: %v", tok, err)
	}
	return res
}

func TestMethods(t *testing.T) {
	t.Parallel()
	mon := hosttest.Start(t, hosttest.WithRegisterHook(fakeResources))
	prov := startPlugin(t, mon.Addr())
	site, err := construct(t, prov, mon, false, resource.PropertyMap{"indexContent": resource.NewProperty("hi")}, plugin.ConstructOptions{})
	if err != nil {
		t.Fatal(err)
	}
	self := selfRef(string(site.URN))

	t.Run("value from state", func(t *testing.T) {
		res := call(t, prov, mon, false, "sitekit:index:Site/pageUrl", resource.PropertyMap{"__self__": self, "page": resource.NewProperty("about.html")})
		if len(res.Failures) > 0 || res.Return["url"].StringValue() != "mem://bucket-1/pages/about.html" {
			t.Fatalf("pageUrl = %v, failures %v", res.Return, res.Failures)
		}
	})
	t.Run("secret argument stays secret", func(t *testing.T) {
		res := call(t, prov, mon, false, "sitekit:index:Site/pageUrl", resource.PropertyMap{"__self__": self, "page": resource.MakeSecret(resource.NewProperty("hidden.html"))})
		if !res.Return["url"].IsSecret() {
			t.Fatalf("pageUrl of a secret page = %v, want a secret", res.Return["url"])
		}
	})
	t.Run("registers a child", func(t *testing.T) {
		res := call(t, prov, mon, false, "sitekit:index:Site/addPage", resource.PropertyMap{
			"__self__": self, "name": resource.NewProperty("new.html"), "content": resource.MakeSecret(resource.NewProperty("s3cret page")),
		})
		if len(res.Failures) > 0 {
			t.Fatalf("failures %v", res.Failures)
		}
		obj := byName(mon.Registrations())["www-extra-new.html"]
		if obj.Parent != site.URN || obj.Inputs.Get("key").AsString() != "pages/new.html" {
			t.Fatalf("page registered as %+v", obj)
		}
		if !obj.Inputs.Get("content").Secret() {
			t.Errorf("secret content reached the object as plaintext")
		}
		if deps := res.ReturnDependencies["url"]; len(deps) != 1 || deps[0] != obj.URN {
			t.Errorf("return dependencies = %v, want the new object", res.ReturnDependencies)
		}
	})
	t.Run("bad arguments are check failures", func(t *testing.T) {
		cases := []struct {
			args resource.PropertyMap
			path string
			want string
		}{
			{resource.PropertyMap{"__self__": self, "page": resource.NewProperty("../etc")}, "page", `must not contain ".."`},
			{resource.PropertyMap{"__self__": self}, "page", "missing required property"},
			{resource.PropertyMap{"__self__": self, "page": resource.NewProperty(3.0)}, "page", "expected a string"},
			{resource.PropertyMap{"page": resource.NewProperty("a")}, "__self__", "missing"},
		}
		for _, tc := range cases {
			res := call(t, prov, mon, false, "sitekit:index:Site/pageUrl", tc.args)
			if len(res.Failures) != 1 || string(res.Failures[0].Property) != tc.path || !strings.Contains(res.Failures[0].Reason, tc.want) {
				t.Errorf("args %v: failures %v, want %s: %s", tc.args, res.Failures, tc.path, tc.want)
			}
		}
	})
	t.Run("unknown method", func(t *testing.T) {
		_, err := prov.Call(context.Background(), plugin.CallRequest{Tok: "sitekit:index:Site/nope",
			Args: resource.PropertyMap{"__self__": self}, Info: plugin.CallInfo{MonitorAddress: mon.Addr()}})
		if err == nil || !strings.Contains(err.Error(), `unknown method "sitekit:index:Site/nope"`) {
			t.Fatalf("error = %v", err)
		}
	})
	t.Run("mirror reads its source through getResource", func(t *testing.T) {
		res, err := prov.Construct(context.Background(), plugin.ConstructRequest{
			Info: plugin.ConstructInfo{Project: "proj", Stack: "dev", MonitorAddress: mon.Addr()},
			Type: "sitekit:index:Mirror", Name: "m", Parent: stackURN,
			Inputs: resource.PropertyMap{"source": self},
		})
		if err != nil {
			t.Fatal(err)
		}
		if got := res.Outputs["sourceUrl"]; got.StringValue() != "mem://bucket-1/index.html" {
			t.Errorf("sourceUrl = %v", got)
		}
		idx := byName(mon.Registrations())["m-index"]
		if !strings.Contains(idx.Inputs.Get("content").AsString(), "url=mem://bucket-1/index.html") {
			t.Errorf("mirror index = %v", idx.Inputs.Get("content"))
		}
		_, err = prov.Construct(context.Background(), plugin.ConstructRequest{
			Info: plugin.ConstructInfo{Project: "proj", Stack: "dev", MonitorAddress: mon.Addr()},
			Type: "sitekit:index:Mirror", Name: "m2", Parent: stackURN,
			Inputs: resource.PropertyMap{"source": selfRef("urn:pulumi:dev::proj::sitekit:index:Site::ghost")},
		})
		msg, details := inputPropertiesError(err)
		if err == nil || len(details) != 1 || details[0].PropertyPath != "source" || strings.Contains(msg, "source") {
			t.Errorf("mirror of an unregistered site: error = %v, details %v; want one detail naming source", err, details)
		}
	})
}

func TestMethodPreviewUnknown(t *testing.T) {
	t.Parallel()
	mon := hosttest.Start(t, hosttest.WithDryRun(true), hosttest.WithRegisterHook(fakeResources),
		hosttest.WithPreviewUnknowns(func(hosttest.Registration) []string { return []string{"endpoint"} }))
	prov := startPlugin(t, mon.Addr())
	site, err := construct(t, prov, mon, true, resource.PropertyMap{"indexContent": resource.NewProperty("hi")}, plugin.ConstructOptions{})
	if err != nil {
		t.Fatal(err)
	}
	res := call(t, prov, mon, true, "sitekit:index:Site/pageUrl", resource.PropertyMap{"__self__": selfRef(string(site.URN)), "page": resource.NewProperty("a.html")})
	if !res.Return["url"].ContainsUnknowns() {
		t.Fatalf("pageUrl over an unknown url = %v, want unknown", res.Return["url"])
	}

	// A page name known only after the update: nothing to register yet,
	// and no error, or the preview (and so `pulumi up`) would fail.
	before := len(mon.Registrations())
	res = call(t, prov, mon, true, "sitekit:index:Site/addPage", resource.PropertyMap{
		"__self__": selfRef(string(site.URN)), "name": resource.MakeComputed(resource.NewProperty("")),
		"content": resource.NewProperty("<p>later</p>"),
	})
	if len(res.Failures) > 0 || !res.Return["url"].ContainsUnknowns() {
		t.Errorf("addPage with an unknown name = %v, failures %v; want an unknown url", res.Return, res.Failures)
	}
	if after := len(mon.Registrations()); after != before {
		t.Errorf("addPage with an unknown name registered %d resources", after-before)
	}
}
