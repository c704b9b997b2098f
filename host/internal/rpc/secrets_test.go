package rpc

import (
	"context"
	"strings"
	"testing"

	"github.com/pulumi/pulumi/sdk/v3/go/common/util/rpcutil/rpcerror"
	"github.com/pulumi/pulumi/sdk/v3/go/property"
	pulumirpc "github.com/pulumi/pulumi/sdk/v3/proto/go"

	"github.com/polyhost/polyhost/host/custom"
	"github.com/polyhost/polyhost/host/diag"
	"github.com/polyhost/polyhost/host/internal/core"
)

const testSecret = "hunter2-xyz"

// A partial create keeps its ID for the engine even when its error is an
// input error and the inputs hold secrets.
func TestPartialInputErrorKeepsID(t *testing.T) {
	t.Parallel()
	inputs := property.NewMap(map[string]property.Value{"size": property.New(testSecret).WithSecret(true)})
	p := core.New("test")
	err := p.Failed(context.Background(), &custom.PartialError{ID: "i-1", Err: diag.Errorf("size", "%s is too big", testSecret)}, "", "", inputs)
	err = newServer(p).crudStatus(err, inputs)
	rerr, ok := rpcerror.FromError(err)
	if !ok {
		t.Fatalf("not a gRPC error: %v", err)
	}
	var id string
	for _, d := range rerr.Details() {
		if f, ok := d.(*pulumirpc.ErrorResourceInitFailed); ok {
			id = f.GetId()
			if strings.Contains(strings.Join(f.GetReasons(), " "), testSecret) {
				t.Errorf("reasons hold the secret: %v", f.GetReasons())
			}
		}
	}
	if id != "i-1" {
		t.Errorf("ErrorResourceInitFailed id = %q, want i-1 (error %v)", id, err)
	}
	if strings.Contains(err.Error(), testSecret) {
		t.Errorf("error holds the secret: %v", err)
	}
}
