//go:build faultinject

package provider

import (
	"fmt"
	"os"
)

// With -tags faultinject, SITEKIT_FAULT=op:id makes that operation fail
// after its side effect, e.g. SITEKIT_FAULT=object-create:bucket/key.
func init() {
	injectFault = func(op, id string) error {
		if os.Getenv("SITEKIT_FAULT") == op+":"+id {
			return fmt.Errorf("injected fault in %s of %s", op, id)
		}
		return nil
	}
}
