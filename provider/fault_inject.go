//go:build faultinject

package provider

import (
	"fmt"
	"os"
	"path"
	"strings"
	"time"
)

// slowCreate is how long a slow-create fault holds an object create. The
// hook cannot see the request's context, so a Cancel does not end it; the
// process ending does.
const slowCreate = 60 * time.Second

// With -tags faultinject, SITEKIT_FAULT=kind:id injects a fault into an
// operation after its side effect. id may be a path.Match pattern, e.g.
// "*/page.txt" for an object in a bucket whose name is random. Kinds:
//
//	object-create  the create fails (the object exists: a partial create)
//	slow-create    the object create holds for a minute, then fails
//	panic-create   the object create panics
func init() {
	injectFault = func(op, id string) error {
		kind, pattern, _ := strings.Cut(os.Getenv("SITEKIT_FAULT"), ":")
		if ok, _ := path.Match(pattern, id); !ok {
			return nil
		}
		switch {
		case kind == op:
			return fmt.Errorf("injected fault in %s of %s", op, id)
		case kind == "slow-create" && op == "object-create":
			time.Sleep(slowCreate)
			return fmt.Errorf("injected slow create of %s: gave up after %v", id, slowCreate)
		case kind == "panic-create" && op == "object-create":
			panic(fmt.Sprintf("injected panic in %s of %s", op, id))
		}
		return nil
	}
}
