package redact

import (
	"encoding/base64"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"html"
	"net/url"
	"runtime"
	"strconv"
	"strings"
	"testing"
)

// A secret is redacted in every form an error may print it in: as it is,
// in another case, quoted by Go or JSON (once or twice), escaped for a URL
// or HTML, in base64 or hex; and only the secret is.
func TestRedactSurvivesQuotingAndEncodings(t *testing.T) {
	t.Parallel()
	const secret = "Lit\"Secret-88\\\n\x01é"
	m := New([]Text{{Text: secret}})
	quotedJSON, _ := json.Marshal(secret)
	forms := map[string]string{
		"plain": secret,
		"upper (ASCII)": strings.Map(func(r rune) rune {
			if 'a' <= r && r <= 'z' {
				return r - 'a' + 'A'
			}
			return r
		}, secret),
		"%q":           strconv.Quote(secret),
		"%q twice":     strconv.Quote(strconv.Quote(secret)),
		"%+q":          strconv.QuoteToASCII(secret),
		"JSON":         string(quotedJSON),
		"JSON in %q":   strconv.Quote(string(quotedJSON)),
		"URL":          url.QueryEscape(secret),
		"URL path":     url.PathEscape(secret),
		"HTML":         html.EscapeString(secret),
		"base64":       base64.StdEncoding.EncodeToString([]byte(secret)),
		"base64 url":   base64.RawURLEncoding.EncodeToString([]byte(secret)),
		"hex":          hex.EncodeToString([]byte(secret)),
		"hex upper":    strings.ToUpper(hex.EncodeToString([]byte(secret))),
		"base64 after": base64.StdEncoding.EncodeToString([]byte("ab" + secret)),
		// Text around the encoding in the other alphabet's characters.
		"base64 after /a-b/": "/a-b/" + base64.RawStdEncoding.EncodeToString([]byte(secret)),
		"base64 after x+y_":  "x+y_" + base64.RawURLEncoding.EncodeToString([]byte(secret)),
	}
	for name, form := range forms {
		msg := fmt.Sprintf("no object %s in bucket b-1", form)
		got := m.Redact(msg)
		if !strings.Contains(got, "[secret]") || strings.Contains(got, "Secret-88") || strings.Contains(strings.ToLower(got), "secret-88") {
			t.Errorf("%s: %q redacts to %q", name, msg, got)
		}
		if !strings.HasPrefix(got, "no object ") || !strings.HasSuffix(got, " in bucket b-1") {
			t.Errorf("%s: %q redacts to %q, more than the secret", name, msg, got)
		}
	}
}

// Many secrets, some the prefix of another, some longer than what the
// automaton holds of them: each is found whole, and a prefix alone of a
// long one is not a secret.
func TestMatcherManySecrets(t *testing.T) {
	t.Parallel()
	long := strings.Repeat("x", keyLen) + "-the-end"
	texts := []Text{{Text: "abc"}, {Text: "abcdef"}, {Text: "bcd"}, {Text: long}}
	for i := range 1000 {
		texts = append(texts, Text{Text: fmt.Sprintf("page-%04d.html", i), Key: true})
	}
	m := New(texts)
	for s, want := range map[string]bool{
		"xabcx": true, "xbcdx": true, "ABCDEF": true, "ab": false,
		"site-page-0999.html-x": true, "site-page-1000.html": false,
		long: true, long[:len(long)-1]: false, "y" + long + "y": true,
	} {
		if got := m.Within(s); got != want {
			t.Errorf("within(%.20q...) = %v, want %v", s, got, want)
		}
	}
	if got := m.Redact("a abcdef b"); got != "a [secret] b" {
		t.Errorf("redact = %q", got)
	}
	if New([]Text{{Text: "ab"}}) != nil {
		t.Error("a matcher of texts too short to redact")
	}
}

// A large secret costs the matcher only what it holds of it (keyLen
// bytes): neither building it nor scanning copies the secret. Not
// parallel: it reads the process's allocations.
func TestMatcherDoesNotCopyLargeSecrets(t *testing.T) {
	secret := strings.Repeat("<P>Hello World</P>", 1<<20) // 18 MiB, mixed case
	lower := strings.ToLower(secret)
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	m := New([]Text{{Text: secret}, {Text: lower}})
	found := m.Within("x" + secret[:100] + "x")
	runtime.ReadMemStats(&after)
	if found {
		t.Error("a prefix of the secret is found as the secret")
	}
	if len(m.texts) != 1 {
		t.Errorf("%d texts kept, want 1: the second is the first in lower case", len(m.texts))
	}
	if grew := after.TotalAlloc - before.TotalAlloc; grew > 1<<20 {
		t.Errorf("building and scanning allocated %d bytes for a secret of %d", grew, len(secret))
	}
}

// Every ASCII letter folds, the last ones too: a secret is redacted in its
// upper-case form whatever letters it has, and in a base64 run holding a
// Z (issue 38's surviving mutant of the case fold, and isAlnum's bound).
func TestRedactFoldsEveryLetter(t *testing.T) {
	t.Parallel()
	for c := byte('a'); c <= 'z'; c++ {
		secret := "key-" + strings.Repeat(string(c), 3)
		m := New([]Text{{Text: secret}})
		msg := "bad key " + strings.ToUpper(secret) + "!"
		if got := m.Redact(msg); got != "bad key [secret]!" {
			t.Errorf("secret %q: %q redacts to %q", secret, msg, got)
		}
	}
	for _, secret := range []string{"Zed-key", "ZZZ"} {
		m := New([]Text{{Text: secret}})
		if got := m.Redact("bad key " + strings.ToLower(secret)); got != "bad key [secret]" {
			t.Errorf("secret %q: its lower-case form redacts to %q", secret, got)
		}
	}
	const secret = "zulu-zebra-99"
	enc := base64.StdEncoding.EncodeToString([]byte(secret))
	if !strings.Contains(enc, "Z") {
		t.Fatalf("base64 %q holds no Z: the case tests nothing", enc)
	}
	m := New([]Text{{Text: secret}})
	if got := m.Redact("token " + enc + " refused"); strings.Contains(got, enc) || !strings.Contains(got, "[secret]") {
		t.Errorf("base64 %q redacts to %q", enc, got)
	}
}

// A secret inside a longer word is redacted with the whole word, so that
// what is left around it cannot complete it: a 3-byte "htm" in "text/html"
// must not leave "text/[secret]l". Punctuation bounds a word, and a
// secret standing alone redacts as before.
func TestRedactWholeWord(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct{ secret, msg, want string }{
		{"htm", "content type text/html refused", "content type text/[secret] refused"},
		{"htm", "HTML or xhtml5", "[secret] or [secret]"},
		{"htm", "htm", "[secret]"},
		{"hunter2", "login hunter2s failed: hunter2", "login [secret] failed: [secret]"},
		{"pé1", "a xpé1y-b", "a [secret]-b"},                // a multi-byte letter is part of the word
		{"k9", "k9", "k9"},                                  // too short to redact
		{"zulu-zebra", "id zulu-zebras.x", "id [secret].x"}, // the word the secret ends in
		{"abc", "x%61bcd y", "[secret] y"},                  // escaped: the word of the text decoded
		{"abc", "q=abc&r=abcxabc", "q=[secret]&r=[secret]"}, // two in one word: one [secret]
	} {
		m := New([]Text{{Text: tc.secret}})
		if got := m.Redact(tc.msg); got != tc.want {
			t.Errorf("secret %q: %q redacts to %q, want %q", tc.secret, tc.msg, got, tc.want)
		}
	}
}
