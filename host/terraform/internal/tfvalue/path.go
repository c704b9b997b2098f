package tfvalue

import (
	"github.com/hashicorp/terraform-plugin-go/tfprotov6"
	"github.com/hashicorp/terraform-plugin-go/tftypes"
)

// PropertyPath renders a Terraform attribute path (from a diagnostic or
// RequiresReplace) as a Pulumi property path of the block's properties:
// "offsetDays", "rule[0].fooBar", `triggers["a"]`. A step into a set
// element (which has no index) ends the path at the set. Steps the schema
// does not know are rendered with their Terraform names.
func PropertyPath(block *tfprotov6.SchemaBlock, p *tftypes.AttributePath) string {
	if p == nil {
		return ""
	}
	s := shapeOfBlock(block)
	out := ""
	for _, step := range p.Steps() {
		switch step := step.(type) {
		case tftypes.AttributeName:
			name := string(step)
			var next *shape
			switch {
			case s != nil && s.kind == kObject:
				if f, ok := s.obj.fields[name]; ok {
					name, next = f.prop, f.shape
				}
			case s != nil && s.kind == kDynamic:
				next = s
			}
			if s != nil && s.kind == kMap {
				out, next = keyPath(out, name), s.elem
			} else {
				out = namePath(out, name)
			}
			s = next
		case tftypes.ElementKeyString:
			out = keyPath(out, string(step))
			switch {
			case s == nil:
			case s.kind == kMap:
				s = s.elem
			case s.kind == kObject:
				if f, ok := s.obj.fields[string(step)]; ok {
					s = f.shape
				} else {
					s = nil
				}
			case s.kind != kDynamic:
				s = nil
			}
		case tftypes.ElementKeyInt:
			out = indexPath(out, int(step))
			switch {
			case s == nil:
			case s.kind == kList:
				s = s.elem
			case s.kind == kTuple && int(step) >= 0 && int(step) < len(s.elems):
				s = s.elems[step]
			case s.kind != kDynamic:
				s = nil
			}
		default: // ElementKeyValue: a set element
			return out
		}
	}
	return out
}
