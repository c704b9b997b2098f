package redact

import (
	"encoding/base64"
	"net/url"
	"strconv"
	"testing"

	"github.com/pulumi/pulumi/sdk/v3/go/property"
)

// An output that holds a secret's text escaped or encoded (a label copied
// into a URL) is as secret as one holding it as written.
func TestMarkFindsEncodedSecrets(t *testing.T) {
	t.Parallel()
	const label = "my secret/key"
	m := Of(property.NewMap(map[string]property.Value{"label": property.New(label).WithSecret(true)}))
	for name, s := range map[string]string{
		"as written": "https://h/" + label,
		"URL path":   "https://h/" + url.PathEscape(label),
		"URL query":  "https://h/?k=" + url.QueryEscape(label),
		"base64":     "token " + base64.StdEncoding.EncodeToString([]byte(label)),
		"JSON":       strconv.Quote(`{"k":` + strconv.Quote(label) + `}`),
	} {
		got := m.Mark(property.NewMap(map[string]property.Value{"url": property.New(s)}))
		if !got.Get("url").Secret() {
			t.Errorf("%s: %q is not marked secret", name, s)
		}
	}
	if got := m.Redact("no https://h/?k=" + url.QueryEscape(label) + " here"); got != "no https://h/?k=[secret] here" {
		t.Errorf("redact = %q", got)
	}
	if got := m.Mark(property.NewMap(map[string]property.Value{"url": property.New("https://h/other")})); got.Get("url").Secret() {
		t.Error("a string without the secret is marked secret")
	}
}
