package components

import (
	"context"
	"strings"

	"github.com/pulumi/pulumi/sdk/v3/go/property"

	"github.com/polyhost/polyhost/host"
)

// Method tokens of Site.
const (
	SitePageURLMethod = "sitekit:index:Site/pageUrl"
	SiteAddPageMethod = "sitekit:index:Site/addPage"
)

// PageURLArgs are the arguments of Site.pageUrl.
type PageURLArgs struct {
	Page property.Value `pulumi:"page"`
}

// URLResult is a method result holding one address.
type URLResult struct {
	URL property.Value `pulumi:"url"`
}

// PageURL computes a page's address from the site's recorded url.
func PageURL(ctx context.Context, self *host.Component, args PageURLArgs) (URLResult, error) {
	if args.Page.IsString() && strings.Contains(args.Page.AsString(), "..") {
		return URLResult{}, host.Errorf("page", "must not contain \"..\"")
	}
	return URLResult{URL: host.Apply(func(v ...property.Value) property.Value {
		base := strings.TrimSuffix(v[0].AsString(), "index.html")
		return property.New(base + v[1].AsString())
	}, self.State().Get("url"), args.Page)}, nil
}

// AddPageArgs are the arguments of Site.addPage.
type AddPageArgs struct {
	Name    string         `pulumi:"name"`
	Content property.Value `pulumi:"content"`
}

// AddPage stores one more page in the site's bucket, as a child of the site.
func AddPage(ctx context.Context, self *host.Component, args AddPageArgs) (URLResult, error) {
	if args.Name == "" || strings.ContainsAny(args.Name, "/\\") {
		return URLResult{}, host.Errorf("name", "must be a non-empty file name without slashes")
	}
	obj, err := registerObject(ctx, self, self.Name()+"-extra-"+args.Name, self.State().Get("bucketName"), "pages/"+args.Name, args.Content)
	if err != nil {
		return URLResult{}, err
	}
	return URLResult{URL: obj.Outputs.Get("url")}, nil
}
