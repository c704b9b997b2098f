package engine

import (
	"errors"
	"testing"

	"github.com/pulumi/pulumi/sdk/v3/go/common/resource"
	"github.com/pulumi/pulumi/sdk/v3/go/common/util/rpcutil/rpcerror"
	perrors "github.com/pulumi/pulumi/sdk/v3/go/pulumi/errors"
	"google.golang.org/grpc/codes"
)

// The text matches what the real engine shows; the Construct case is the
// one pulumi/pulumi's construct_component_failures integration test expects.
func TestProviderErrorMessage(t *testing.T) {
	t.Parallel()
	inputs := resource.PropertyMap{
		"foo":   resource.NewProperty("bar"),
		"pages": resource.NewProperty(resource.PropertyMap{"a.html": resource.NewProperty(true)}),
	}
	detailed := func(msg string, details ...perrors.InputPropertyErrorDetails) error {
		return rpcerror.WrapDetailedError(perrors.NewInputPropertiesError(msg, details...))
	}
	cases := []struct {
		name string
		err  error
		want string
	}{{
		name: "value known",
		err:  detailed("failing for a reason", perrors.InputPropertyErrorDetails{PropertyPath: "foo", Reason: "the failure reason"}),
		want: "failing for a reason\n\t\t- property foo with value '{bar}' has a problem: the failure reason",
	}, {
		name: "nested path, and a property not among the inputs",
		err: detailed("invalid inputs",
			perrors.InputPropertyErrorDetails{PropertyPath: `pages["a.html"]`, Reason: "expected a string"},
			perrors.InputPropertyErrorDetails{PropertyPath: "colour", Reason: "unknown property"}),
		want: "invalid inputs\n\t\t- property pages[\"a.html\"] with value '{true}' has a problem: expected a string" +
			"\n\t\t- property colour has a problem: unknown property",
	}, {
		name: "no message",
		err:  rpcerror.WrapDetailedError(perrors.NewInputPropertyError("foo", "the failure reason")),
		want: "\n\t\t- property foo with value '{bar}' has a problem: the failure reason",
	}, {
		name: "cause",
		err:  rpcerror.Wrap(codes.Unknown, errors.New("the cause"), "it failed"),
		want: "it failed: the cause",
	}, {
		name: "converted by the plugin client",
		err:  rpcerror.Convert(detailed("bad", perrors.InputPropertyErrorDetails{PropertyPath: "foo", Reason: "why"})),
		want: "bad\n\t\t- property foo with value '{bar}' has a problem: why",
	}, {
		name: "not from the wire",
		err:  errors.New("plugins that can construct components must support secrets"),
		want: "plugins that can construct components must support secrets",
	}}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			if got := providerErrorMessage(tc.err, inputs); got != tc.want {
				t.Errorf("got\n%q\nwant\n%q", got, tc.want)
			}
		})
	}
}
