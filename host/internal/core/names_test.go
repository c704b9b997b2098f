package core

import (
	"testing"

	"github.com/pulumi/pulumi/sdk/v3/go/property"
)

// A child's name is stored in plaintext: one holding a key of a secret
// map is refused, however short the key, while messages keep such short
// texts (redacting them would garble ordinary words).
func TestCheckNameRefusesShortSecretKeys(t *testing.T) {
	t.Parallel()
	inputs := property.NewMap(map[string]property.Value{
		"pages": property.New(map[string]property.Value{"a": property.New("<p>A</p>")}).WithSecret(true),
	})
	c := &Component{name: "site", inputSecrets: secretsOf(inputs)}
	if err := c.checkName("register child", "t:index:Page", "site-a"); err == nil {
		t.Error(`child "site-a" of a secret map with key "a" is not refused`)
	}
	if err := c.checkName("register child", "t:index:Page", "site-b"); err != nil {
		t.Errorf(`child "site-b": %v`, err)
	}
	if got := c.inputSecrets.redact("a bad name"); got != "a bad name" {
		t.Errorf("redact garbles a message with a short key: %q", got)
	}
	if c.inputSecrets.within("a bad name") {
		t.Error("a short key counts as a secret text within a string")
	}
}
