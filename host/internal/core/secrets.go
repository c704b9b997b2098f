package core

import (
	"errors"
	"slices"
	"strconv"
	"strings"

	"github.com/pulumi/pulumi/sdk/v3/go/common/resource"
	"github.com/pulumi/pulumi/sdk/v3/go/property"

	"github.com/polyhost/polyhost/host/custom"
	"github.com/polyhost/polyhost/host/diag"
)

// minSecretLen is the shortest secret text redacted from messages; shorter
// ones would garble ordinary words.
const minSecretLen = 3

// secretTexts collects the plaintext of every secret in ms, as error
// messages might print it: strings as they are, numbers as Go prints them.
func secretTexts(ms ...property.Map) []string {
	var out []string
	var walk func(v property.Value, secret bool)
	walk = func(v property.Value, secret bool) {
		secret = secret || v.Secret()
		switch {
		case v.IsArray():
			for _, e := range v.AsArray().All {
				walk(e, secret)
			}
		case v.IsMap():
			for _, e := range v.AsMap().All {
				walk(e, secret)
			}
		case !secret:
		case v.IsString():
			out = append(out, v.AsString())
		case v.IsNumber():
			n := v.AsNumber()
			out = append(out, strconv.FormatFloat(n, 'f', -1, 64), strconv.FormatFloat(n, 'g', -1, 64))
		}
	}
	for _, m := range ms {
		for _, v := range m.All {
			walk(v, false)
		}
	}
	return out
}

// redact replaces each secret text in s by [secret], longest first.
func redact(s string, secrets []string) string {
	sorted := slices.SortedFunc(slices.Values(secrets), func(a, b string) int { return len(b) - len(a) })
	for _, sec := range sorted {
		if len(sec) >= minSecretLen {
			s = strings.ReplaceAll(s, sec, "[secret]")
		}
	}
	return s
}

// redactErr returns err with every secret text removed from what the user
// will read, keeping the error's kind (input error, partial create).
func redactErr(err error, secrets []string) error {
	if err == nil || len(secrets) == 0 {
		return err
	}
	var pe *custom.PartialError
	if errors.As(err, &pe) {
		// First: a partial create's ID and state must reach the engine,
		// whatever error it carries.
		return &custom.PartialError{ID: pe.ID, Outputs: pe.Outputs, Err: redactErr(pe.Err, secrets)}
	}
	if ie, ok := asInputError(err); ok {
		out := &diag.InputError{Message: redact(ie.Message, secrets)}
		for _, f := range ie.Failures {
			out.Failures = append(out.Failures, diag.CheckFailure{Property: f.Property, Reason: redact(f.Reason, secrets)})
		}
		if err == error(ie) {
			return out
		}
		// Keep the context it was wrapped in, and that it was wrapped.
		return &wrappedError{msg: redact(err.Error(), secrets), err: out}
	}
	return errors.New(redact(err.Error(), secrets))
}

// wrappedError is a redacted error text around the redacted error it wraps.
type wrappedError struct {
	msg string
	err error
}

func (e *wrappedError) Error() string { return e.msg }
func (e *wrappedError) Unwrap() error { return e.err }

// secretSet holds the plaintext strings of a request's secrets. Author code
// may decode a secret into a plain Go field; when that text reappears in a
// child's inputs or in outputs, alone or inside a longer string (a URL, a
// greeting), mark restores its secretness.
type secretSet map[string]bool

func newSecretSet(ms ...property.Map) secretSet {
	var set secretSet
	for _, s := range secretTexts(ms...) {
		if len(s) < minSecretLen {
			continue
		}
		if set == nil {
			set = secretSet{}
		}
		set[s] = true
	}
	return set
}

// mark makes every string in m that contains a secret's plaintext secret.
func (set secretSet) mark(m property.Map) property.Map {
	if len(set) == 0 {
		return m
	}
	out := make(map[string]property.Value, m.Len())
	for k, v := range m.All {
		out[k] = set.markValue(v)
	}
	return property.NewMap(out)
}

func (set secretSet) markValue(v property.Value) property.Value {
	switch {
	case v.IsString() && set.within(v.AsString()):
		return v.WithSecret(true)
	case v.IsArray():
		arr := make([]property.Value, 0, v.AsArray().Len())
		for _, e := range v.AsArray().All {
			arr = append(arr, set.markValue(e))
		}
		return property.WithGoValue(v, arr)
	case v.IsMap():
		m := make(map[string]property.Value, v.AsMap().Len())
		for k, e := range v.AsMap().All {
			m[k] = set.markValue(e)
		}
		return property.WithGoValue(v, m)
	}
	return v
}

// within reports whether s contains a secret's plaintext.
func (set secretSet) within(s string) bool {
	if set[s] {
		return true
	}
	for sec := range set {
		if strings.Contains(s, sec) {
			return true
		}
	}
	return false
}

// secretAt reports whether any of ms holds a secret at path (a property
// path such as `pages["a.html"]` or `labels.site`), on the way to it or in
// the value there; the empty path means anywhere. The engine prints the
// input at a failure's path beside the failure, secret or not, so failures
// about such properties name them in their text instead.
func secretAt(path string, ms ...property.Map) bool {
	p, err := resource.ParsePropertyPath(path)
	if err != nil {
		return false
	}
	for _, m := range ms {
		if secretOnPath(property.New(m), p) {
			return true
		}
	}
	return false
}

// secretKey reports whether any of ms holds a secret under the top-level
// key k.
func secretKey(k string, ms ...property.Map) bool {
	for _, m := range ms {
		if v, ok := m.GetOk(k); ok && v.HasSecrets() {
			return true
		}
	}
	return false
}

// secretOnPath walks v along p, dependencies aside.
func secretOnPath(v property.Value, p resource.PropertyPath) bool {
	for _, seg := range p {
		if v.Secret() {
			return true
		}
		switch seg := seg.(type) {
		case string:
			if !v.IsMap() {
				return false
			}
			next, ok := v.AsMap().GetOk(seg)
			if !ok {
				return false
			}
			v = next
		case int:
			if !v.IsArray() || seg < 0 || seg >= v.AsArray().Len() {
				return false
			}
			v = v.AsArray().Get(seg)
		default:
			return false
		}
	}
	return v.HasSecrets()
}
