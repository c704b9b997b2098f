// Command baseapi is a plugin written against api/base.txt's API, with the
// names that moved since; TestGoFixBaseAPI runs `go fix ./...` on a copy
// and builds it. What go fix cannot migrate (renamed fields,
// WithTypedResource's new meaning) is left out: CHANGELOG.md gives it.
package main

import (
	"context"
	"errors"
	"fmt"

	"github.com/pulumi/pulumi/sdk/v3/go/common/resource"
	"github.com/pulumi/pulumi/sdk/v3/go/property"

	"github.com/polyhost/polyhost/host"
	"github.com/polyhost/polyhost/host/schema"
	"github.com/polyhost/polyhost/monitorclient"
)

type bucket struct{}

var (
	_ host.Resource                 = bucket{}
	_ host.ResourceWithCheck        = bucket{}
	_ host.ResourceWithDiff         = bucket{}
	_ host.ResourceWithExactSecrets = bucket{}
)

func (bucket) Check(ctx context.Context, req host.CheckRequest) (host.CheckResponse, error) {
	var failures []host.PropertyError
	if req.Autonaming != nil && req.Autonaming.Mode == host.AutonamingEnforce {
		failures = append(failures, host.PropertyError{Reason: "name is enforced"})
	}
	var _ host.AutonamingMode = host.AutonamingPropose
	_ = host.Autonaming{Mode: host.AutonamingDisable}
	return host.CheckResponse{Inputs: req.Inputs, Failures: failures}, nil
}

func (bucket) Diff(ctx context.Context, req host.DiffRequest) (host.DiffResponse, error) {
	changes := map[string]host.DiffKind{}
	for _, k := range []host.DiffKind{host.DiffAdd, host.DiffAddReplace, host.DiffDelete, host.DiffDeleteReplace, host.DiffUpdateReplace} {
		changes[fmt.Sprint(k)] = k
	}
	changes["name"] = host.DiffUpdate
	return host.DiffResponse{Changes: changes, HasChanges: true}, nil
}

func (bucket) Create(ctx context.Context, req host.CreateRequest) (host.CreateResponse, error) {
	if _, ok := req.Inputs.GetOk("name"); !ok {
		return host.CreateResponse{}, host.Errorf("name", "%s needs a name", req.ResourceInfo.Type)
	}
	return host.CreateResponse{ID: resource.ID(req.Name), Outputs: req.Inputs}, nil
}

func (bucket) Read(ctx context.Context, req host.ReadRequest) (host.ReadResponse, error) {
	return host.ReadResponse{ID: req.ID, Inputs: req.Inputs, Outputs: req.Outputs}, nil
}

func (bucket) Update(ctx context.Context, req host.UpdateRequest) (host.UpdateResponse, error) {
	if req.Inputs.Len() == 0 {
		return host.UpdateResponse{}, &host.PartialError{ID: req.ID, Outputs: req.OldOutputs, Err: errors.New("half done")}
	}
	return host.UpdateResponse{Outputs: req.Inputs}, nil
}

func (bucket) Delete(ctx context.Context, req host.DeleteRequest) (host.DeleteResponse, error) {
	return host.DeleteResponse{}, nil
}

func (bucket) ExactSecrets() bool { return true }

var configure host.ConfigureFunc = func(ctx context.Context, config property.Map) error { return nil }

type siteArgs struct {
	Name string `pulumi:"name"`
}

type site struct {
	URL string `pulumi:"url"`
}

func newSite(ctx context.Context, c *host.Component, args siteArgs) (site, error) {
	var opts host.ResourceOptions = c.Options()
	if opts.Protect != nil && *opts.Protect {
		return site{}, host.Errorf("name", "%s is protected", args.Name)
	}
	var res host.CallResult
	res, err := c.Call(ctx, monitorclient.CallRequest{Token: "pkg:index:f"})
	if err != nil || res.Unknown {
		return site{}, err
	}
	return site{URL: "https://" + args.Name}, nil
}

// describe reads the errors a user may see.
func describe(err error) string {
	var ie *host.InputError
	if errors.As(err, &ie) {
		msg := (*host.InputError).Error
		return msg(ie)
	}
	var se *host.StepError
	if errors.As(err, &se) {
		return se.Step + ": " + se.Unwrap().Error()
	}
	var pe *host.PartialError
	if errors.As(err, &pe) {
		return fmt.Sprint(pe.ID, pe.Unwrap())
	}
	return err.Error()
}

func failures(fs []schema.Failure, more []monitorclient.CheckFailure) error {
	for _, f := range more {
		fs = append(fs, f)
	}
	return &monitorclient.FailuresError{Failures: fs}
}

func main() {
	_ = describe
	_ = failures
	host.Main("baseapi",
		host.WithoutSchema(),
		host.WithConfigure(configure),
		host.WithResource("baseapi:index:Bucket", bucket{}),
		host.WithComponent("baseapi:index:Site", newSite),
	)
}
