package provider

import "context"

// injectFault, when set, can fail an operation after its side effect, to
// test partial failures. Only builds tagged faultinject set it.
var injectFault func(ctx context.Context, op, id string) error
