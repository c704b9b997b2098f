package engine

import (
	"fmt"
	"strings"

	"github.com/pulumi/pulumi/sdk/v3/go/common/resource"
	"github.com/pulumi/pulumi/sdk/v3/go/common/util/rpcutil/rpcerror"
)

// providerErrorMessage is the text the engine shows for a failed Construct
// or Call: the status message, its cause, then one line per
// InputPropertiesError detail, with the property's value when inputs has
// it. The real engine's errorToMessage (pkg/resource/deploy/source_eval.go)
// does the same; like it, this prints the value as is, secrets included.
func providerErrorMessage(err error, inputs resource.PropertyMap) string {
	rerr, ok := rpcerror.FromError(err)
	if !ok {
		return err.Error()
	}
	var b strings.Builder
	b.WriteString(rerr.Message())
	if c := rerr.Cause(); c != nil {
		fmt.Fprintf(&b, ": %v", c.Message())
	}
	props := resource.NewProperty(inputs)
	for _, d := range rerr.InputPropertiesErrors() {
		if path, perr := resource.ParsePropertyPath(d.PropertyPath); perr == nil {
			if v, ok := path.Get(props); ok {
				fmt.Fprintf(&b, "\n\t\t- property %v with value '%v' has a problem: %v", d.PropertyPath, v, d.Reason)
				continue
			}
		}
		fmt.Fprintf(&b, "\n\t\t- property %v has a problem: %v", d.PropertyPath, d.Reason)
	}
	return b.String()
}
