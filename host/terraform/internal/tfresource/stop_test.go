package tfresource

import (
	"context"
	"errors"
	"testing"

	"github.com/hashicorp/terraform-plugin-go/tfprotov6"

	"github.com/polyhost/polyhost/host/terraform/internal/tfwire"
)

// countingServer counts the applies it is asked for; nothing else of it is
// called.
type countingServer struct {
	tfwire.Server
	applies int
}

func (s *countingServer) ApplyResourceChange(ctx context.Context, req *tfprotov6.ApplyResourceChangeRequest) (*tfprotov6.ApplyResourceChangeResponse, error) {
	s.applies++
	return &tfprotov6.ApplyResourceChangeResponse{}, nil
}

func (s *countingServer) StopProvider(ctx context.Context, req *tfprotov6.StopProviderRequest) (*tfprotov6.StopProviderResponse, error) {
	return &tfprotov6.StopProviderResponse{}, nil
}

// An apply whose request is cancelled before it starts never reaches the
// provider: no create begins after an interrupt.
func TestApplyCancelledBeforeItStarts(t *testing.T) {
	srv := &countingServer{}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	_, err := applyChange(ctx, srv, &tfprotov6.ApplyResourceChangeRequest{TypeName: "kv_entry"})
	if !errors.Is(err, context.Canceled) || srv.applies != 0 {
		t.Errorf("applyChange on a cancelled request: %v after %d applies; want context.Canceled and none", err, srv.applies)
	}
	if _, err := applyChange(context.Background(), srv, &tfprotov6.ApplyResourceChangeRequest{TypeName: "kv_entry"}); err != nil || srv.applies != 1 {
		t.Errorf("applyChange: %v after %d applies; want one", err, srv.applies)
	}
}
