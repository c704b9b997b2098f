package tfschema

import (
	"slices"

	"github.com/hashicorp/terraform-plugin-go/tfprotov6"
	"github.com/hashicorp/terraform-plugin-go/tftypes"
)

// TimeoutsName is the top-level block or attribute in which Terraform
// providers read a resource's operation timeouts.
const TimeoutsName = "timeouts"

// Timeouts are the operations a resource's schema declares timeouts of
// (some of create, read, update, delete, default): its top-level
// timeouts block or single nested attribute, of optional strings, as
// SDKv2 and terraform-plugin-framework-timeouts declare it. Nil when it
// has none of that shape. The Pulumi schema leaves it out: the backend
// fills it from the customTimeouts resource option.
func Timeouts(b *tfprotov6.SchemaBlock) []string {
	if b == nil {
		return nil
	}
	for _, nb := range b.BlockTypes {
		if nb != nil && nb.TypeName == TimeoutsName && nb.Nesting == tfprotov6.SchemaNestedBlockNestingModeSingle &&
			nb.Block != nil && len(nb.Block.BlockTypes) == 0 {
			return timeoutNames(nb.Block.Attributes)
		}
	}
	for _, a := range b.Attributes {
		if a != nil && a.Name == TimeoutsName && a.NestedType != nil && a.NestedType.Nesting == tfprotov6.SchemaObjectNestingModeSingle {
			return timeoutNames(a.NestedType.Attributes)
		}
	}
	return nil
}

func timeoutNames(as []*tfprotov6.SchemaAttribute) []string {
	var out []string
	for _, a := range as {
		if a == nil || !slices.Contains([]string{"create", "read", "update", "delete", "default"}, a.Name) ||
			!a.Optional || a.NestedType != nil || !tftypes.String.Equal(a.Type) {
			return nil
		}
		out = append(out, a.Name)
	}
	slices.Sort(out)
	return out
}

// withoutTimeouts is b without its Timeouts block or attribute.
func withoutTimeouts(b *tfprotov6.SchemaBlock) *tfprotov6.SchemaBlock {
	if Timeouts(b) == nil {
		return b
	}
	out := *b
	out.Attributes = slices.DeleteFunc(slices.Clone(b.Attributes), func(a *tfprotov6.SchemaAttribute) bool { return a != nil && a.Name == TimeoutsName })
	out.BlockTypes = slices.DeleteFunc(slices.Clone(b.BlockTypes), func(nb *tfprotov6.SchemaNestedBlock) bool { return nb != nil && nb.TypeName == TimeoutsName })
	return &out
}
