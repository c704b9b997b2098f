package reliability

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/pulumi/pulumi/sdk/v3/go/common/resource"

	"github.com/polyhost/polyhost/internal/engine"
)

// Known secret values. Each must reach the provider and never appear in
// plaintext in the plugin's stderr, the logs it sends the engine, an
// error message or the persisted state.
const (
	configSecret = "cfg-s3cr3t-4e1f"   // secret stack config
	tokenSecret  = "tok-s3cr3t-9b2c"   // secret provider config: sitekit:accessToken
	inputSecret  = "input-s3cr3t-7d0a" // secret component input
	argSecret    = "arg-s3cr3t-c55e"   // secret method argument
	errSecret    = "err-s3cr3t-1a2b"   // secret input of a request that fails
	numSecret    = 987654321.0         // a secret number that fails a range check
)

// numSecretTexts are the ways numSecret prints.
var numSecretTexts = []string{"987654321", "9.87654321e+08"}

func secret(v any) resource.PropertyValue {
	return resource.MakeSecret(resource.NewPropertyValue(v))
}

// website registers a Site with secret contents; more runs after it, with
// the site's URN.
func website(more func(ctx context.Context, p *programClient, site string) error) program {
	return func(ctx context.Context, p *programClient) error {
		site, err := p.register(ctx, "sitekit:index:Site", "www", false, true, resource.PropertyMap{
			"indexContent": secret(inputSecret),
			"pages":        resource.NewProperty(resource.PropertyMap{"p.html": secret(inputSecret + "-page")}),
		})
		if err != nil {
			return err
		}
		p.exports["url"] = site.Outputs["url"]
		if more == nil {
			return nil
		}
		return more(ctx, p, site.URN)
	}
}

func self(urn string) resource.PropertyValue {
	return resource.MakeComponentResourceReference(resource.URN(urn), "")
}

func TestSecretsStaySecret(t *testing.T) {
	skipUnderRace(t)
	t.Parallel()
	baseConfig := map[string]string{"proj:password": configSecret, "sitekit:accessToken": tokenSecret}
	baseKeys := []string{"proj:password", "sitekit:accessToken"}
	cases := []struct {
		name    string
		config  map[string]string // added to baseConfig, all secret
		prog    program
		wantErr string   // "" for an up that must succeed
		secrets []string // plaintexts to look for, besides the base ones
	}{{
		name: "secret config, provider config, component input and method argument",
		prog: website(func(ctx context.Context, p *programClient, site string) error {
			out, err := p.call(ctx, "sitekit:index:Site/addPage", resource.PropertyMap{
				"__self__": self(site), "name": resource.NewProperty("extra.html"), "content": secret(argSecret),
			})
			p.exports["extra"] = out["url"]
			if err != nil {
				return err
			}
			out, err = p.call(ctx, "sitekit:index:Site/pageUrl", resource.PropertyMap{
				"__self__": self(site), "page": secret(argSecret + ".html"),
			})
			p.exports["secretPage"] = out["url"]
			return err
		}),
		secrets: []string{inputSecret, argSecret},
	}, {
		name: "method argument that fails the method's own check",
		prog: website(func(ctx context.Context, p *programClient, site string) error {
			_, err := p.call(ctx, "sitekit:index:Site/addPage", resource.PropertyMap{
				"__self__": self(site), "name": secret("bad/" + errSecret), "content": resource.NewProperty("x"),
			})
			return err
		}),
		wantErr: "name",
		secrets: []string{errSecret},
	}, {
		name: "method argument that fails the schema",
		prog: website(func(ctx context.Context, p *programClient, site string) error {
			_, err := p.call(ctx, "sitekit:index:Site/pageUrl", resource.PropertyMap{
				"__self__": self(site), "page": secret(map[string]any{"k": errSecret}),
			})
			return err
		}),
		wantErr: "page",
		secrets: []string{errSecret},
	}, {
		name: "component input of the wrong type",
		prog: func(ctx context.Context, p *programClient) error {
			_, err := p.register(ctx, "sitekit:index:Site", "www", false, true, resource.PropertyMap{
				"indexContent": secret(map[string]any{"k": errSecret}),
			})
			return err
		},
		wantErr: "indexContent",
		secrets: []string{errSecret},
	}, {
		name: "resource input out of range",
		prog: func(ctx context.Context, p *programClient) error {
			_, err := p.register(ctx, "sitekit:index:BucketObject", "o", true, false, resource.PropertyMap{
				"bucket": resource.NewProperty("b"), "key": resource.NewProperty("k"),
				"content": resource.NewProperty("c"), "cacheSeconds": secret(numSecret),
			})
			return err
		},
		wantErr: "cacheSeconds",
		secrets: numSecretTexts,
	}, {
		name: "resource input naming something missing",
		prog: func(ctx context.Context, p *programClient) error {
			_, err := p.register(ctx, "sitekit:index:BucketObject", "o", true, false, resource.PropertyMap{
				"bucket": secret("bucket-" + errSecret), "key": resource.NewProperty("k"),
				"content": resource.NewProperty("c"),
			})
			return err
		},
		wantErr: "sitekit:index:BucketObject::o",
		secrets: []string{errSecret},
	}, {
		name: "function argument",
		prog: func(ctx context.Context, p *programClient) error {
			_, err := p.invoke(ctx, "sitekit:index:getObject", resource.PropertyMap{
				"bucket": resource.NewProperty("b"), "key": secret(errSecret),
			})
			return err
		},
		wantErr: "key",
		secrets: []string{errSecret},
	}, {
		name:    "secret provider config the backend rejects",
		config:  map[string]string{"sitekit:storageUrl": "nosuchscheme://" + errSecret},
		prog:    website(nil),
		wantErr: "storageUrl",
		secrets: []string{errSecret},
	}}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			cfg, keys := map[string]string{}, append([]string(nil), baseKeys...)
			for k, v := range baseConfig {
				cfg[k] = v
			}
			for k, v := range tc.config {
				cfg[k] = v
				keys = append(keys, k)
			}
			s := newStack(t, pluginBin, cfg, keys...)
			res, err := s.eng.Up(context.Background(), tc.prog)
			switch {
			case tc.wantErr == "" && err != nil:
				t.Fatalf("up: %v", err)
			case tc.wantErr != "" && err == nil:
				t.Fatalf("up succeeded, want an error about %s", tc.wantErr)
			}
			places := map[string]string{"engine output (plugin stderr, provider logs, diagnostics)": s.stderr.String()}
			if err != nil {
				places["up error"] = err.Error()
				if diags := diagnostics(res); !strings.Contains(err.Error()+diags, tc.wantErr) {
					t.Errorf("neither the up error nor a diagnostic names %s: %v\n%s", tc.wantErr, err, diags)
				}
			}
			if data, err := os.ReadFile(s.state); err == nil {
				places["state file"] = string(data)
			}
			for _, secret := range append([]string{configSecret, tokenSecret}, tc.secrets...) {
				for where, text := range places {
					if i := strings.Index(text, secret); i >= 0 {
						t.Errorf("secret %q in plaintext in the %s: ...%s...", secret, where, excerpt(text, i, len(secret)))
					}
				}
			}
			if tc.wantErr == "" {
				checkSecretsArrived(t, s)
			}
		})
	}
}

// checkSecretsArrived makes sure the secrets were really used, so that not
// finding them proves something: the objects hold them (storage is the
// user's data, in plaintext) and the state holds them, encrypted.
func checkSecretsArrived(t *testing.T, s *stackFixture) {
	t.Helper()
	for _, want := range []string{inputSecret, inputSecret + "-page", argSecret} {
		found := false
		for _, f := range s.storedFiles(t) {
			data, _ := os.ReadFile(filepath.Join(s.storage, f))
			found = found || string(data) == want
		}
		if !found {
			t.Errorf("no stored object holds %q", want)
		}
	}
	for _, p := range s.live(t, "pulumi:providers:sitekit") {
		if v := p.Inputs.Get("accessToken"); !v.Secret() || v.AsString() != tokenSecret {
			t.Errorf("provider accessToken in the state = %v, want the secret", v)
		}
	}
	for _, o := range s.live(t, "sitekit:index:BucketObject") {
		c := o.Outputs.Get("content")
		if strings.Contains(c.WithSecret(false).GoString(), "s3cr3t") && !c.Secret() {
			t.Errorf("%s content is not secret in the state", o.URN)
		}
	}
}

func diagnostics(res *engine.Result) string {
	var b strings.Builder
	for _, d := range res.Diagnostics {
		fmt.Fprintf(&b, "%s: %s\n", d.Severity, d.Message)
	}
	return b.String()
}

func excerpt(s string, i, n int) string {
	from, to := max(0, i-60), min(len(s), i+n+60)
	return strings.ReplaceAll(s[from:to], "\n", " ")
}
