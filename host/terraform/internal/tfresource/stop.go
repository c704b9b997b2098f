package tfresource

import (
	"context"
	"errors"
	"time"

	"github.com/hashicorp/terraform-plugin-go/tfprotov6"

	"github.com/polyhost/polyhost/host/terraform/internal/tfwire"
)

// StopGrace bounds how long an apply told to stop has to answer.
const StopGrace = 30 * time.Second

// applyChange calls ApplyResourceChange as Terraform does on an
// interrupt: when ctx is cancelled (the engine's Cancel cancels every
// request in flight) the provider is told to stop, StopProvider, and its
// answer, maybe a partial state, is awaited for StopGrace before the call
// is abandoned. StopProvider stops every call in flight in that provider
// process. A deadline (customTimeouts) ends the call at once, as before.
func applyChange(ctx context.Context, srv tfwire.Server, req *tfprotov6.ApplyResourceChangeRequest) (*tfprotov6.ApplyResourceChangeResponse, error) {
	// Cancelled before it starts: no apply begins after an interrupt, as
	// in Terraform (the call below would run on a context that is not).
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	call, abandon := context.WithCancel(context.WithoutCancel(ctx))
	defer abandon()
	if d, ok := ctx.Deadline(); ok {
		var cancel context.CancelFunc
		call, cancel = context.WithDeadline(call, d)
		defer cancel()
	}
	done := make(chan struct{})
	defer close(done)
	go func() {
		select {
		case <-done:
			return
		case <-ctx.Done():
		}
		if errors.Is(ctx.Err(), context.Canceled) {
			grace, cancel := context.WithTimeout(context.WithoutCancel(ctx), StopGrace)
			defer cancel()
			_, _ = srv.StopProvider(grace, &tfprotov6.StopProviderRequest{})
			select {
			case <-done:
				return
			case <-grace.Done():
			}
		}
		abandon()
	}()
	return answer(srv.ApplyResourceChange(call, req))
}
