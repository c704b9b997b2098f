package compat

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"regexp"
	"strings"

	"gopkg.in/yaml.v3"
)

// Allow is an entry of an allow list: a change the authors acknowledge,
// and why. It matches the changes of Token (as the report names it),
// those at Path alone if Path is set, and of Kind alone if Kind is set.
type Allow struct {
	Token  string `json:"token" yaml:"token"`
	Path   string `json:"path,omitempty" yaml:"path"`
	Kind   Kind   `json:"kind,omitempty" yaml:"kind"`
	Reason string `json:"reason" yaml:"reason"`
}

// String writes the entry as reports list it: token path (kind): reason.
func (a Allow) String() string {
	s := a.Token
	if a.Path != "" {
		s += " " + a.Path
	}
	if a.Kind != "" {
		s += " (" + string(a.Kind) + ")"
	}
	return s + ": " + a.Reason
}

var (
	unknownField = regexp.MustCompile(`^(line \d+: )field (\S+) not found in type`)
	lineOf       = regexp.MustCompile(`^(line \d+: )`)
)

func (a Allow) matches(c Change) bool {
	return a.Token == c.Token && (a.Path == "" || a.Path == c.Path) && (a.Kind == "" || a.Kind == c.Kind)
}

// ReadAllowList reads an allow list, YAML or JSON: a list of entries, each
// with a token and a reason, and optionally a path and a kind:
//
//	# Breaking changes acknowledged in this release.
//	- token: greet:index:Greeting
//	  path: inputs.salutation
//	  reason: renamed to word; the 0.1.9 notes announced it
//
// An entry without a token or a reason, or with a field of another name,
// is an error.
func ReadAllowList(src []byte) ([]Allow, error) {
	var list []Allow
	dec := yaml.NewDecoder(bytes.NewReader(src))
	dec.KnownFields(true)
	if err := dec.Decode(&list); err != nil && !errors.Is(err, io.EOF) {
		msg := strings.TrimPrefix(err.Error(), "yaml: ")
		var te *yaml.TypeError
		if errors.As(err, &te) {
			// Say it in the list's terms, not Go's.
			var msgs []string
			for _, e := range te.Errors {
				if m := unknownField.FindStringSubmatch(e); m != nil {
					e = m[1] + "unknown field " + m[2]
				} else if m := lineOf.FindStringSubmatch(e); m != nil {
					e = m[1] + "not a list of entries"
				}
				msgs = append(msgs, e)
			}
			msg = strings.Join(msgs, "; ")
		}
		return nil, fmt.Errorf("want a list of entries (token, path, kind, reason): %s", msg)
	}
	var errs []string
	for i, a := range list {
		switch {
		case a.Token == "":
			errs = append(errs, fmt.Sprintf("entry %d: no token", i+1))
		case strings.TrimSpace(a.Reason) == "":
			errs = append(errs, fmt.Sprintf("entry %d (%s): no reason: say why the change is acknowledged", i+1, a.Token))
		}
	}
	if len(errs) > 0 {
		return nil, errors.New(strings.Join(errs, "; "))
	}
	return list, nil
}

// Acknowledge marks each change an entry of allow matches with the
// entry's reason (the first entry's), and lists the entries that match no
// change in r.Unused.
func (r *Report) Acknowledge(allow []Allow) {
	used := make([]bool, len(allow))
	for i := range r.Changes {
		for j, a := range allow {
			if a.matches(r.Changes[i]) {
				used[j] = true
				if r.Changes[i].Acknowledged == "" {
					r.Changes[i].Acknowledged = a.Reason
				}
			}
		}
	}
	for j, a := range allow {
		if !used[j] {
			r.Unused = append(r.Unused, a)
		}
	}
}
