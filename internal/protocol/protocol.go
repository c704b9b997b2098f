package protocol

import (
	"errors"

	"github.com/pulumi/pulumi/sdk/v3/go/common/resource/urn"
	pulumirpc "github.com/pulumi/pulumi/sdk/v3/proto/go"

	"github.com/polyhost/polyhost/host/diag"
	"github.com/polyhost/polyhost/internal/wire"
)

// FromCheckFailures reads failures off the wire; none is nil.
func FromCheckFailures(fs []*pulumirpc.CheckFailure) []diag.CheckFailure {
	if len(fs) == 0 {
		return nil
	}
	out := make([]diag.CheckFailure, len(fs))
	for i, f := range fs {
		out[i] = diag.CheckFailure{Property: f.GetProperty(), Reason: f.GetReason()}
	}
	return out
}

// AliasSpec is monitorclient.AliasSpec's shape: an alias given by its
// parts.
type AliasSpec struct {
	Name      string
	Type      string
	Stack     string
	Project   string
	ParentURN urn.URN
	NoParent  bool
}

// FromAlias reads an alias off the wire: a URN, or else a spec.
func FromAlias(a *pulumirpc.Alias) (urn.URN, *AliasSpec) {
	if u := a.GetUrn(); u != "" {
		return urn.URN(u), nil
	}
	s := a.GetSpec()
	return "", &AliasSpec{Name: s.GetName(), Type: s.GetType(), Stack: s.GetStack(), Project: s.GetProject(),
		ParentURN: urn.URN(s.GetParentUrn()), NoParent: s.GetNoParent()}
}

// ToAlias writes an alias given by exactly one of a URN and a spec.
func ToAlias(u urn.URN, s *AliasSpec) (*pulumirpc.Alias, error) {
	switch {
	case u != "" && s != nil:
		return nil, errors.New("alias has both a URN and a spec")
	case u != "":
		return &pulumirpc.Alias{Alias: &pulumirpc.Alias_Urn{Urn: string(u)}}, nil
	case s != nil:
		if s.NoParent && s.ParentURN != "" {
			return nil, errors.New("alias spec has both a parent URN and NoParent")
		}
		spec := &pulumirpc.Alias_Spec{Name: s.Name, Type: s.Type, Stack: s.Stack, Project: s.Project}
		switch {
		case s.NoParent:
			spec.Parent = &pulumirpc.Alias_Spec_NoParent{NoParent: true}
		case s.ParentURN != "":
			spec.Parent = &pulumirpc.Alias_Spec_ParentUrn{ParentUrn: string(s.ParentURN)}
		}
		return &pulumirpc.Alias{Alias: &pulumirpc.Alias_Spec_{Spec: spec}}, nil
	default:
		return nil, errors.New("alias has neither a URN nor a spec")
	}
}

// FromDependencies reads a message's dependency map (a property's,
// argument's or return value's URNs by key); none is nil.
func FromDependencies[D interface{ GetUrns() []string }](m map[string]D) map[string][]urn.URN {
	if len(m) == 0 {
		return nil
	}
	out := make(map[string][]urn.URN, len(m))
	for k, d := range m {
		out[k] = wire.URNs(d.GetUrns())
	}
	return out
}
