package runner

// The Go programs under testdata are built inside this module, but `go mod
// tidy` does not look at testdata. These imports keep the packages they use
// (and their go.sum entries) in the module.
import (
	_ "github.com/pulumi/pulumi/sdk/v3/go/pulumi"
	_ "github.com/pulumi/pulumi/sdk/v3/go/pulumi/config"
)
