//go:build faultinject

package provider

import (
	"context"
	"fmt"
	"os"
	"path"
	"strings"
	"time"
)

// slowCreate is how long a slow-create fault holds an object create, unless
// the request is cancelled first (Cancel, or its timeout).
const slowCreate = 60 * time.Second

// With -tags faultinject, SITEKIT_FAULT=kind:id injects a fault into an
// operation after its side effect. id may be a path.Match pattern, e.g.
// "*/page.txt" for an object in a bucket whose name is random. Kinds:
//
//	object-create  the create fails (the object exists: a partial create)
//	slow-create    the object create holds for a minute, or until the
//	               request is cancelled, then fails (a partial create)
//	panic-create   the object create panics
func init() {
	injectFault = func(ctx context.Context, op, id string) error {
		kind, pattern, _ := strings.Cut(os.Getenv("SITEKIT_FAULT"), ":")
		if ok, _ := path.Match(pattern, id); !ok {
			return nil
		}
		switch {
		case kind == op:
			return fmt.Errorf("injected fault in %s of %s", op, id)
		case kind == "slow-create" && op == "object-create":
			select {
			case <-time.After(slowCreate):
				return fmt.Errorf("injected slow create of %s: gave up after %v", id, slowCreate)
			case <-ctx.Done():
				return fmt.Errorf("injected slow create of %s: %w", id, ctx.Err())
			}
		case kind == "panic-create" && op == "object-create":
			panic(fmt.Sprintf("injected panic in %s of %s", op, id))
		}
		return nil
	}
}
