package components

import (
	"context"
	"strings"

	"github.com/pulumi/pulumi/sdk/v3/go/property"

	"github.com/polyhost/polyhost/host"
	"github.com/polyhost/polyhost/host/diag"
)

// Method tokens of Site.
const (
	SitePageURLMethod = "sitekit:index:Site/pageUrl"
	SiteAddPageMethod = "sitekit:index:Site/addPage"
)

// PageURLArgs are the arguments of Site.pageUrl.
type PageURLArgs struct {
	// Page file name, a key of `pages`, e.g. about.html.
	Page property.Value `pulumi:"page,type=string"`
}

// URLResult is a method result holding one address.
type URLResult struct {
	// Address of the page.
	URL property.Value `pulumi:"url,type=string"`
}

// PageURL computes the address of one of the site's further pages (from
// `pages` or addPage, stored under pages/) from the site's recorded url.
func PageURL(ctx context.Context, self *host.Component, args PageURLArgs) (URLResult, error) {
	if args.Page.IsString() && strings.Contains(args.Page.AsString(), "..") {
		return URLResult{}, diag.Errorf("page", "must not contain \"..\"")
	}
	return URLResult{URL: host.Apply(func(v ...property.Value) property.Value {
		base := strings.TrimSuffix(v[0].AsString(), "index.html")
		return property.New(base + "pages/" + v[1].AsString())
	}, self.State().Get("url"), args.Page)}, nil
}

// AddPageArgs are the arguments of Site.addPage. Name is a property.Value
// because it may be unknown in a preview.
type AddPageArgs struct {
	// Page file name, without slashes.
	Name property.Value `pulumi:"name,type=string"`
	// Page body.
	Content property.Value `pulumi:"content,type=string"`
}

// AddPage stores one more page in the site's bucket; the page object
// becomes a child of the site.
func AddPage(ctx context.Context, self *host.Component, args AddPageArgs) (URLResult, error) {
	// In a preview where the name is not known yet, register nothing (the
	// page's resource name depends on it): the address is unknown.
	if args.Name.IsComputed() {
		return URLResult{URL: property.New(property.Computed)}, nil
	}
	if !args.Name.IsString() || !validPageName(args.Name.AsString()) {
		return URLResult{}, diag.Errorf("name", pageNameRule)
	}
	name := args.Name.AsString()
	// The site's recorded outputs carry no dependencies: make the page
	// depend on the site's bucket, so that a destroy deletes it first.
	bucketName := self.State().Get("bucketName")
	if ref := self.State().Get("bucket"); ref.IsResourceReference() {
		bucketName = bucketName.WithDependencies(append(bucketName.Dependencies(), ref.AsResourceReference().URN))
	}
	obj, err := registerObject(ctx, self, self.Name()+"-extra-"+name, bucketName, "pages/"+name, args.Content)
	if err != nil {
		return URLResult{}, err
	}
	return URLResult{URL: obj.Output("url")}, nil
}
