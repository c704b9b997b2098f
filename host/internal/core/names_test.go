package core

import (
	"testing"

	"github.com/pulumi/pulumi/sdk/v3/go/property"

	"github.com/polyhost/polyhost/host/internal/redact"
)

// A child's name is stored in plaintext: one holding a key of a secret
// map is refused, however short the key, while messages keep such short
// texts (redacting them would garble ordinary words).
func TestCheckNameRefusesShortSecretKeys(t *testing.T) {
	t.Parallel()
	inputs := property.NewMap(map[string]property.Value{
		"pages": property.New(map[string]property.Value{"a": property.New("<p>A</p>")}).WithSecret(true),
	})
	c := &Component{name: "site", inputSecrets: redact.Of(inputs)}
	if err := c.checkName("register child", "t:index:Page", "site-a"); err == nil {
		t.Error(`child "site-a" of a secret map with key "a" is not refused`)
	}
	for _, name := range []string{"site-a.html", "A-site"} {
		if err := c.checkName("register child", "t:index:Page", name); err == nil {
			t.Errorf(`child %q of a secret map with key "a" is not refused`, name)
		}
	}
	for _, name := range []string{"site-b", "site-pages", "site-a1"} {
		if err := c.checkName("register child", "t:index:Page", name); err != nil {
			t.Errorf(`child %q: %v (a short key counts only as a word of its own)`, name, err)
		}
	}
	if got := c.inputSecrets.Redact("a bad name"); got != "a bad name" {
		t.Errorf("redact garbles a message with a short key: %q", got)
	}
	if c.inputSecrets.Within("a bad name") {
		t.Error("a short key counts as a secret text within a string")
	}
}

// What the component's name holds is public, ASCII case aside, as the
// name check ignores case: a secret equal to a word of it is not refused
// in a child's name where that name is, and is elsewhere.
func TestCheckNameSkipsTheComponentsNameInAnyCase(t *testing.T) {
	t.Parallel()
	inputs := property.NewMap(map[string]property.Value{"token": property.New("bad").WithSecret(true)})
	c := &Component{name: "Bad-site", inputSecrets: redact.Of(inputs)}
	if err := c.checkName("register child", "t:index:Page", "bad-site-x"); err != nil {
		t.Errorf(`child "bad-site-x" of component "Bad-site": %v`, err)
	}
	if err := c.checkName("register child", "t:index:Page", "bad-site-BAD"); err == nil {
		t.Error(`child "bad-site-BAD" of component "Bad-site" is not refused`)
	}
	// A Z folds too.
	inputs = property.NewMap(map[string]property.Value{"token": property.New("zoo").WithSecret(true)})
	c = &Component{name: "ZOO-site", inputSecrets: redact.Of(inputs)}
	if err := c.checkName("register child", "t:index:Page", "zoo-site-x"); err != nil {
		t.Errorf(`child "zoo-site-x" of component "ZOO-site": %v`, err)
	}
}
