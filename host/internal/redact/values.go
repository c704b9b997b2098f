package redact

import (
	"errors"
	"strconv"

	"github.com/pulumi/pulumi/sdk/v3/go/property"

	"github.com/polyhost/polyhost/host/custom"
	"github.com/polyhost/polyhost/host/diag"
)

// MinLen is the shortest secret text redacted from messages; shorter
// ones would garble ordinary words.
const MinLen = 3

// Texts collects the text of every secret in ms, as messages might
// print it: strings as they are, numbers as Go prints them, and the keys
// of a secret map (a value's key is as secret as the map holding it).
func Texts(ms ...property.Map) []Text {
	var out []Text
	var walk func(v property.Value, secret bool)
	walk = func(v property.Value, secret bool) {
		secret = secret || v.Secret()
		switch {
		case v.IsArray():
			for _, e := range v.AsArray().All {
				walk(e, secret)
			}
		case v.IsMap():
			for k, e := range v.AsMap().All {
				if secret {
					out = append(out, Text{Text: k, Key: true})
				}
				walk(e, secret)
			}
		case !secret:
		case v.IsString():
			out = append(out, Text{Text: v.AsString()})
		case v.IsNumber():
			n := v.AsNumber()
			for _, f := range []byte{'f', 'g'} {
				out = append(out, Text{Text: strconv.FormatFloat(n, f, -1, 64)})
			}
		}
	}
	for _, m := range ms {
		for _, v := range m.All {
			walk(v, false)
		}
	}
	return out
}

// Of is the matcher of every secret text of ms; nil if none.
func Of(ms ...property.Map) *Matcher { return New(Texts(ms...)) }

// Error returns err with every secret text removed from what the user
// will read, keeping the error's kind (input error, partial create).
func (m *Matcher) Error(err error) error {
	if err == nil || m == nil {
		return err
	}
	var pe *custom.PartialError
	if errors.As(err, &pe) {
		// First: a partial create's ID and state must reach the engine,
		// whatever error it carries.
		return &custom.PartialError{ID: pe.ID, Outputs: pe.Outputs, Err: m.Error(pe.Err)}
	}
	var ie *diag.InputError
	if errors.As(err, &ie) {
		out := &diag.InputError{Message: m.Redact(ie.Message)}
		for _, f := range ie.Failures {
			out.Failures = append(out.Failures, diag.CheckFailure{Property: m.Redact(f.Property), Reason: m.Redact(f.Reason)})
		}
		if err == error(ie) {
			return out
		}
		// Keep the context it was wrapped in, and that it was wrapped.
		return &wrappedError{msg: m.Redact(err.Error()), err: out}
	}
	return errors.New(m.Redact(err.Error()))
}

// wrappedError is a redacted error text around the redacted error it wraps.
type wrappedError struct {
	msg string
	err error
}

func (e *wrappedError) Error() string { return e.msg }
func (e *wrappedError) Unwrap() error { return e.err }

// Failures are fs with every secret text redacted from their properties
// and reasons.
func (m *Matcher) Failures(fs []diag.CheckFailure) []diag.CheckFailure {
	out := make([]diag.CheckFailure, len(fs))
	for i, f := range fs {
		out[i] = diag.CheckFailure{Property: m.Redact(f.Property), Reason: m.Redact(f.Reason)}
	}
	return out
}

// Author code may decode a secret into a plain Go field; when that text
// reappears in a child's inputs or in outputs, alone or inside a longer
// string (a URL, a greeting), Mark restores its secretness.

// Mark makes every string in props that contains a secret text secret, as
// written or escaped or encoded (a key copied into a URL).
func (m *Matcher) Mark(props property.Map) property.Map {
	if m == nil {
		return props
	}
	out := make(map[string]property.Value, props.Len())
	for k, v := range props.All {
		out[k] = m.markValue(v)
	}
	return property.NewMap(out)
}

func (m *Matcher) markValue(v property.Value) property.Value {
	switch {
	case v.IsString() && m.WithinAny(v.AsString()):
		return v.WithSecret(true)
	case v.IsArray():
		arr := make([]property.Value, 0, v.AsArray().Len())
		for _, e := range v.AsArray().All {
			arr = append(arr, m.markValue(e))
		}
		return property.WithGoValue(v, arr)
	case v.IsMap():
		vals := make(map[string]property.Value, v.AsMap().Len())
		for k, e := range v.AsMap().All {
			vals[k] = m.markValue(e)
		}
		return property.WithGoValue(v, vals)
	}
	return v
}
