package polytest

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// Each assertion on testdata/stack.json (an export with --show-secrets):
// what passes, what passes negated, and what the failure says. A negated
// assertion on a resource or key that does not exist fails.
func TestStateAssertions(t *testing.T) {
	t.Parallel()
	s, err := loadStack(filepath.Join("testdata", "stack.json"))
	if err != nil {
		t.Fatal(err)
	}
	cases := []struct {
		neg  bool
		args string
		want string // the failure, or "" for none
	}{
		{false, "count greet:index:Message 2", ""}, // the pending delete is not counted
		{false, "count greet:index:Message 3", "2 resources of type greet:index:Message (hi-message, hi-note), want 3"},
		{true, "count greet:index:Message 3", ""},
		{true, "count greet:index:Message 2", "unexpectedly: 2 resources of type greet:index:Message (hi-message, hi-note), want 2"},
		{false, "count greet:index:Message x", `count greet:index:Message: "x" is not a number`},

		{false, "has greet:index:Message hi-message", ""},
		{true, "has greet:index:Message old", ""},
		{false, "has greet:index:Message old", "a resource old of type greet:index:Message: no resource old of type greet:index:Message; the state has greet-e2e-dev (pulumi:pulumi:Stack), "},
		{true, "has greet:index:Message hi-message", "unexpectedly: a resource hi-message of type greet:index:Message: present"},

		{false, "parent hi-message hi", ""},
		{false, "parent hi hi-message", "the parent of hi is urn:pulumi:dev::greet-e2e::pulumi:pulumi:Stack::greet-e2e-dev, want urn:pulumi:dev::greet-e2e::greet:index:Greeting$greet:index:Message::hi-message"},
		{true, "parent hi hi-message", ""},
		{true, "parent hi nowhere", "no resource named nowhere; the state has "},

		{false, "dependsOn hi-note hi-message", ""},
		{false, "dependsOn hi-message hi-note", "the dependencies of hi-message are [], want hi-note among them"},
		{true, "dependsOn hi-message hi-note", ""},

		{false, "provider hi-message pulumi:providers:greet default_0_1_0", ""},
		{false, "provider hi pulumi:providers:greet default_0_1_0", "the provider of hi is none, want urn:pulumi:dev::greet-e2e::pulumi:providers:greet::default_0_1_0"},
		{false, "provider hi-message pulumi:providers:other default_0_1_0", "no resource default_0_1_0 of type pulumi:providers:other"},

		{false, "output text Hello, Ada!", "usage: state FILE count TYPE N"}, // one value per argument
		{false, "output count 2", ""},
		{false, "output password [secret]", ""},
		{false, "output count 3", "stack output count is 2, want 3"},
		{true, "output count 3", ""},
		{true, "output missing 3", "no stack output missing; the stack outputs are count, password, text"},
		{false, "nooutput missing", ""},
		{false, "nooutput count", "stack output count is 2, want none"},

		{false, "secret password", ""},
		{true, "secret count", ""},
		{false, "secret count", "stack output count is not secret: 2"},
		{true, "secret missing", "no stack output missing"},
		{false, "secret hi-message note", ""},
		{false, "secret hi-message text", "output text of hi-message is not secret: Hello, Ada!"},
		{true, "secret hi-message missing", "hi-message (greet:index:Message) has no output missing; its outputs are draft, length, note, text"},

		{false, "field hi-message length 11", ""},
		{false, "field hi-message draft null", ""},
		{false, "field hi tags [\"a\", \"b\"]", ""},
		{false, "field hi-message length 12", "output length of hi-message is 11, want 12"},
		{true, "field hi-message length 12", ""},
		{true, "field hi-message missing 12", "hi-message (greet:index:Message) has no output missing"},
		{false, "field old length 3", "no resource named old"}, // pending deletes are not live
		{false, "nofield hi-message missing", ""},
		{false, "nofield hi-message draft", "output draft of hi-message is null, want none"},

		{false, "field twin side left", "2 resources are named twin (greet:index:Twin, greet:index:Other): name one as TYPE::twin"},
		{false, "field greet:index:Twin::twin side left", ""},
		{false, "field greet:index:Other::twin side left", "output side of greet:index:Other::twin is right, want left"},

		{false, "nosuch x", "usage: state FILE count TYPE N"},
	}
	for _, c := range cases {
		args := strings.Fields(c.args)
		if args[0] == "field" && strings.HasPrefix(args[3], "[") { // a value with spaces
			args = append(args[:3], strings.Join(args[3:], " "))
		}
		err := s.assert(c.neg, args[0], args[1:])
		got := ""
		if err != nil {
			got = err.Error()
		}
		if c.want == "" && err != nil || c.want != "" && !strings.Contains(got, c.want) {
			t.Errorf("neg=%v state F %s: error %q, want %q", c.neg, c.args, got, c.want)
		}
		if strings.HasPrefix(c.want, "usage:") != errors.Is(err, errUsage) {
			t.Errorf("neg=%v state F %s: error %v, usage error: %v", c.neg, c.args, err, errors.Is(err, errUsage))
		}
	}
}

// matches compares two states resource by resource, IDs and secrets too.
func TestStateMatches(t *testing.T) {
	t.Parallel()
	orig := filepath.Join("testdata", "stack.json")
	s, err := loadStack(orig)
	if err != nil {
		t.Fatal(err)
	}
	if s.other, err = loadStack(orig); err != nil {
		t.Fatal(err)
	}
	if err := s.assert(false, "matches", []string{orig}); err != nil {
		t.Fatal(err)
	}
	data, err := os.ReadFile(orig)
	if err != nil {
		t.Fatal(err)
	}
	changed := filepath.Join(t.TempDir(), "changed.json")
	edit := strings.NewReplacer(`"id": "msg-hi-note"`, `"id": "msg-other"`, `\"quiet\"`, `\"loud\"`).Replace(string(data))
	if err := os.WriteFile(changed, []byte(edit), 0o644); err != nil {
		t.Fatal(err)
	}
	if s.other, err = loadStack(changed); err != nil {
		t.Fatal(err)
	}
	err = s.assert(false, "matches", []string{changed})
	for _, want := range []string{
		`greet:index:Greeting$greet:index:Message::hi-note id:`,
		`greet:index:Greeting$greet:index:Message::hi-message outputs.note:`,
		`secret("quiet")`, `secret("loud")`,
	} {
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("matches a changed state: %v, want %q in it", err, want)
		}
	}
	if err := s.assert(true, "matches", []string{changed}); err != nil {
		t.Errorf("! matches a changed state: %v", err)
	}
}

// A missing state file is an error, not an empty stack.
func TestStateMissingFile(t *testing.T) {
	t.Parallel()
	_, err := loadStack(filepath.Join(t.TempDir(), "nope.json"))
	if !errors.Is(err, os.ErrNotExist) {
		t.Fatalf("error %v, want one saying the file does not exist", err)
	}
}
