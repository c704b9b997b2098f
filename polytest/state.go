package polytest

import (
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/pulumi/pulumi/sdk/v3/go/property"
	"github.com/rogpeppe/go-internal/testscript"

	"github.com/polyhost/polyhost/internal/show"
	"github.com/polyhost/polyhost/polyup"
)

const stateUsage = `usage: state FILE count TYPE N
       state FILE has TYPE NAME
       state FILE parent NAME PARENT
       state FILE dependsOn NAME OTHER
       state FILE provider NAME PROVIDER-TYPE PROVIDER
       state FILE output KEY VALUE
       state FILE nooutput KEY
       state FILE secret KEY
       state FILE secret NAME KEY
       state FILE field NAME KEY VALUE
       state FILE nofield NAME KEY
       state FILE setenv VAR NAME KEY
       state FILE matches OTHER-FILE`

// errUsage is a state command of the wrong form.
var errUsage = errors.New(stateUsage)

// cmdState asserts on a stack's state: a state file of polyup's or the
// real CLI's `pulumi stack export --show-secrets --file FILE`.
func cmdState(ts *testscript.TestScript, neg bool, args []string) {
	if len(args) < 2 {
		ts.Fatalf("%s", stateUsage)
	}
	s, err := loadStack(ts.MkAbs(args[0]))
	if err != nil {
		ts.Fatalf("state %s: %v", args[0], err)
	}
	if args[1] == "setenv" {
		if neg || len(args) != 5 {
			ts.Fatalf("usage: state FILE setenv VAR NAME KEY")
		}
		v, err := s.field(args[3], args[4])
		if err != nil {
			ts.Fatalf("state %s: %v", args[0], err)
		}
		ts.Setenv(args[2], bare(v.WithSecret(false)))
		return
	}
	if args[1] == "matches" && len(args) == 3 {
		if s.other, err = loadStack(ts.MkAbs(args[2])); err != nil {
			ts.Fatalf("state %s: %v", args[2], err)
		}
	}
	if err := s.assert(neg, args[1], args[2:]); errors.Is(err, errUsage) {
		ts.Fatalf("%s", stateUsage)
	} else if err != nil {
		ts.Fatalf("state %s: %v", args[0], err)
	}
}

// stack is one stack's state, read for assertions.
type stack struct {
	file      string
	resources []polyup.Resource // live ones: no pending deletes
	other     *stack            // for matches
}

func loadStack(file string) (*stack, error) {
	rs, err := polyup.ReadState(file)
	if err != nil {
		return nil, err
	}
	s := &stack{file: file}
	for _, r := range rs {
		if !r.Delete {
			s.resources = append(s.resources, r)
		}
	}
	return s, nil
}

// assert checks one assertion; neg negates what it asserts, but never
// that the resources and keys it names exist.
func (s *stack) assert(neg bool, op string, args []string) error {
	check := func(ok bool, format string, a ...any) error {
		if ok != neg {
			return nil
		}
		if neg {
			return fmt.Errorf("unexpectedly: "+format, a...)
		}
		return fmt.Errorf(format, a...)
	}
	switch {
	case op == "count" && len(args) == 2:
		want, err := strconv.Atoi(args[1])
		if err != nil {
			return fmt.Errorf("count %s: %q is not a number", args[0], args[1])
		}
		var names []string
		for _, r := range s.resources {
			if string(r.Type) == args[0] {
				names = append(names, r.URN.Name())
			}
		}
		return check(len(names) == want, "%d resources of type %s (%s), want %d", len(names), args[0], strings.Join(names, ", "), want)
	case op == "has" && len(args) == 2:
		_, err := s.typed(args[0], args[1])
		return check(err == nil, "a resource %s of type %s: %v", args[1], args[0], errOr(err, "present"))
	case op == "parent" && len(args) == 2:
		r, p, err := s.pair(args[0], args[1])
		if err != nil {
			return err
		}
		return check(r.Parent == p.URN, "the parent of %s is %s, want %s", args[0], orNone(string(r.Parent)), p.URN)
	case op == "dependsOn" && len(args) == 2:
		r, d, err := s.pair(args[0], args[1])
		if err != nil {
			return err
		}
		return check(slices.Contains(r.Dependencies, d.URN), "the dependencies of %s are [%s], want %s among them",
			args[0], strings.Join(urnNames(r.Dependencies), " "), args[1])
	case op == "provider" && len(args) == 3:
		r, err := s.named(args[0])
		if err != nil {
			return err
		}
		p, err := s.typed(args[1], args[2])
		if err != nil {
			return err
		}
		return check(r.Provider.URN() == p.URN, "the provider of %s is %s, want %s", args[0], orNone(string(r.Provider.URN())), p.URN)
	case op == "output" && len(args) == 2:
		v, err := s.output(args[0])
		if err != nil {
			return err
		}
		got := bare(v)
		return check(got == args[1], "stack output %s is %s, want %s", args[0], got, args[1])
	case op == "nooutput" && len(args) == 1:
		v, err := s.output(args[0])
		return check(err != nil, "stack output %s is %s, want none", args[0], bare(v))
	case op == "secret" && len(args) == 1:
		v, err := s.output(args[0])
		if err != nil {
			return err
		}
		return check(v.Secret(), "stack output %s is not secret: %s", args[0], bare(v))
	case op == "secret" && len(args) == 2:
		v, err := s.field(args[0], args[1])
		if err != nil {
			return err
		}
		return check(v.Secret(), "output %s of %s is not secret: %s", args[1], args[0], bare(v))
	case op == "field" && len(args) == 3:
		v, err := s.field(args[0], args[1])
		if err != nil {
			return err
		}
		got := strings.TrimRight(bare(v), "\n")
		return check(got == args[2], "output %s of %s is %s, want %s", args[1], args[0], got, args[2])
	case op == "nofield" && len(args) == 2:
		r, err := s.named(args[0])
		if err != nil {
			return err
		}
		v, ok := r.Outputs.GetOk(args[1])
		return check(!ok, "output %s of %s is %s, want none", args[1], args[0], bare(v))
	case op == "matches" && len(args) == 1 && s.other != nil:
		diffs := s.differences(s.other)
		return check(len(diffs) == 0, "%s and %s hold different resources:\n  %s", s.file, s.other.file, strings.Join(diffs, "\n  "))
	}
	return errUsage
}

// named finds the live resource NAME (the last part of its URN), or
// TYPE::NAME where two resources share the name.
func (s *stack) named(name string) (polyup.Resource, error) {
	if typ, n, ok := strings.Cut(name, "::"); ok {
		return s.typed(typ, n)
	}
	var found []polyup.Resource
	for _, r := range s.resources {
		if r.URN.Name() == name {
			found = append(found, r)
		}
	}
	switch len(found) {
	case 1:
		return found[0], nil
	case 0:
		return polyup.Resource{}, fmt.Errorf("no resource named %s; the state has %s", name, s.names())
	}
	var types []string
	for _, r := range found {
		types = append(types, string(r.Type))
	}
	return polyup.Resource{}, fmt.Errorf("%d resources are named %s (%s): name one as TYPE::%s", len(found), name, strings.Join(types, ", "), name)
}

// typed finds the live resource NAME of type TYPE.
func (s *stack) typed(typ, name string) (polyup.Resource, error) {
	for _, r := range s.resources {
		if string(r.Type) == typ && r.URN.Name() == name {
			return r, nil
		}
	}
	return polyup.Resource{}, fmt.Errorf("no resource %s of type %s; the state has %s", name, typ, s.names())
}

func (s *stack) pair(a, b string) (polyup.Resource, polyup.Resource, error) {
	r, err := s.named(a)
	if err != nil {
		return r, r, err
	}
	o, err := s.named(b)
	return r, o, err
}

// field is output KEY of resource NAME, which must exist.
func (s *stack) field(name, key string) (property.Value, error) {
	r, err := s.named(name)
	if err != nil {
		return property.Value{}, err
	}
	v, ok := r.Outputs.GetOk(key)
	if !ok {
		return v, fmt.Errorf("%s (%s) has no output %s; its outputs are %s", name, r.Type, key, keys(r.Outputs))
	}
	return v, nil
}

// output is stack output KEY, which must exist.
func (s *stack) output(key string) (property.Value, error) {
	for _, r := range s.resources {
		if r.Type == "pulumi:pulumi:Stack" {
			v, ok := r.Outputs.GetOk(key)
			if !ok {
				return v, fmt.Errorf("no stack output %s; the stack outputs are %s", key, keys(r.Outputs))
			}
			return v, nil
		}
	}
	return property.Value{}, fmt.Errorf("no stack resource in the state")
}

// names lists the live resources, for a failure's message.
func (s *stack) names() string {
	if len(s.resources) == 0 {
		return "no resources"
	}
	var out []string
	for _, r := range s.resources {
		out = append(out, r.URN.Name()+" ("+string(r.Type)+")")
	}
	return strings.Join(out, ", ")
}

// differences lists what differs between two states, resource by
// resource (by URN): every fact stackdiff compares, IDs included.
func (s *stack) differences(o *stack) []string {
	return compare(facts(s.resources, false, nil), facts(o.resources, false, nil), s.file, o.file)
}

func keys(m property.Map) string {
	var out []string
	for k := range m.AllStable {
		out = append(out, k)
	}
	if len(out) == 0 {
		return "none"
	}
	return strings.Join(out, ", ")
}

func errOr(err error, s string) string {
	if err != nil {
		return err.Error()
	}
	return s
}

func orNone(s string) string {
	if s == "" {
		return "none"
	}
	return s
}

// bare is v as the state command compares it (show's Bare).
func bare(v property.Value) string { return show.Value(v, show.Options{Bare: true}) }
