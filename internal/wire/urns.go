package wire

import "github.com/pulumi/pulumi/sdk/v3/go/common/resource/urn"

// URNs converts URNs off the wire; nil stays nil.
func URNs(ss []string) []urn.URN {
	if ss == nil {
		return nil
	}
	out := make([]urn.URN, len(ss))
	for i, s := range ss {
		out[i] = urn.URN(s)
	}
	return out
}

// URNStrings converts URNs for the wire.
func URNStrings(us []urn.URN) []string {
	out := make([]string, len(us))
	for i, u := range us {
		out[i] = string(u)
	}
	return out
}
