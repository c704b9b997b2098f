package core

import (
	"context"
	"errors"
	"strings"

	"github.com/pulumi/pulumi/sdk/v3/go/common/resource"
	"github.com/pulumi/pulumi/sdk/v3/go/property"

	"github.com/polyhost/polyhost/host/diag"
	"github.com/polyhost/polyhost/host/internal/redact"
	"github.com/polyhost/polyhost/monitorclient"
)

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

// What the core returns reaches the engine as it is: every error and
// failure of a request has the request's secrets redacted, here, once.

// Failed is err as a request whose values are ins answers it: the stack of
// a panic in author code logged at debug level (the user's error says only
// what panicked, and where); a StepError about token (and name, if set)
// without them, as the engine prints them itself; and every secret text of
// ins redacted.
func (p *Provider) Failed(ctx context.Context, err error, token, name string, ins ...property.Map) error {
	secrets := redact.Of(ins...)
	var se *diag.StepError
	panicked := errors.As(err, &se) && se.Panic && len(se.Stack) > 0
	if token != "" {
		err = engineNamed(err, token, name)
	}
	out := secrets.Error(err)
	if panicked {
		p.Log(ctx, monitorclient.SeverityDebug, "", secrets.Redact(se.Error()+"\n"+string(se.Stack)))
	}
	return out
}

// engineNamed returns err as the engine should get it when it prints token,
// and name if not empty, before the message itself: a StepError about that
// resource without them. Other errors, about a nested component say, are
// left whole.
func engineNamed(err error, token, name string) error {
	se, ok := err.(*diag.StepError)
	if !ok || se.Token != token || (name != "" && se.Name != name) {
		return err
	}
	short := *se
	short.Token = ""
	if name != "" {
		short.Name = ""
	}
	return &short
}

// constructInputError is a Construct's InputError as the engine prints it:
// the summary, then each failure on a line of its own with the value of
// that input (all of them for an empty path). So a failure about a
// property that holds a secret in inputs, or with no path, goes into the
// summary instead, and so does the context the InputError was wrapped in.
// Other errors are left as they are.
func constructInputError(err error, inputs property.Map) error {
	ie, ok := asInputError(err)
	if !ok {
		return err
	}
	msg := ie.Message
	if outer := err.Error(); outer != ie.Error() {
		prefix, ok := strings.CutSuffix(outer, ie.Error())
		if !ok {
			prefix = outer + ": " // wrapped some other way: the whole text, then the details
		}
		msg = prefix + msg
	}
	if msg == "" {
		msg = "invalid inputs"
	}
	out := &diag.InputError{}
	for _, f := range ie.Failures {
		if f.Property == "" || secretAt(f.Property, inputs) {
			msg += "; " + f.String()
			continue
		}
		out.Failures = append(out.Failures, f)
	}
	out.Message = msg
	return out
}

// printable are failures as the engine may print them: redacted of the
// secrets of ins, and a failure about a property that holds a secret (the
// engine prints the input under its top-level key beside it) names it in
// its reason instead.
func printable(fs []diag.CheckFailure, ins ...property.Map) []diag.CheckFailure {
	if len(fs) == 0 {
		return nil
	}
	secrets := redact.Of(ins...)
	out := make([]diag.CheckFailure, 0, len(fs))
	for _, f := range fs {
		cf := f
		if f.Property != "" && (secretAt(f.Property, ins...) || secretKey(f.Property, ins...)) {
			cf.Property, cf.Reason = "", f.Property+": "+cf.Reason
		}
		cf.Property, cf.Reason = secrets.Redact(cf.Property), secrets.Redact(cf.Reason)
		out = append(out, cf)
	}
	return out
}

// redacted are failures with the secrets of ins redacted from their
// reasons.
func redacted(fs []diag.CheckFailure, ins ...property.Map) []diag.CheckFailure {
	return redact.Of(ins...).Failures(fs)
}

// asInputError finds an InputError anywhere in err's chain.
func asInputError(err error) (*diag.InputError, bool) {
	var ie *diag.InputError
	return ie, errors.As(err, &ie)
}
