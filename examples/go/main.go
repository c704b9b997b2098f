// Command sitekit-go is an example consumer program: it builds a Site and a
// Mirror of it from Go, calls the Site's methods, and exports the results.
package main

import (
	"github.com/pulumi/pulumi/sdk/v3/go/pulumi"
	"github.com/pulumi/pulumi/sdk/v3/go/pulumi/config"

	"github.com/polyhost/polyhost/sdk/go/sitekit"
)

const defaultNews = "<p>No news yet.</p>"

func main() {
	pulumi.Run(func(ctx *pulumi.Context) error {
		cfg := config.New(ctx, "")
		greeting := cfg.Get("greeting")
		if greeting == "" {
			greeting = "Hello from Go"
		}
		site, err := sitekit.NewSite(ctx, "site", &sitekit.SiteArgs{
			IndexContent: pulumi.Sprintf("<h1>%s</h1>", greeting),
			Pages: pulumi.StringMap{
				"about.html": pulumi.String("<p>About</p>"),
			},
		})
		if err != nil {
			return err
		}
		about, err := site.PageUrl(ctx, &sitekit.SitePageUrlArgs{Page: pulumi.String("about.html")})
		if err != nil {
			return err
		}
		// A secret argument keeps the result secret.
		hidden, err := site.PageUrl(ctx, &sitekit.SitePageUrlArgs{Page: pulumi.ToSecret(pulumi.String("hidden.html")).(pulumi.StringOutput)})
		if err != nil {
			return err
		}
		// The news page's body is secret config; set it with -secret news=...
		newsContent := cfg.GetSecret("news").ApplyT(func(s string) string {
			if s == "" {
				return defaultNews
			}
			return s
		}).(pulumi.StringOutput)
		news, err := site.AddPage(ctx, &sitekit.SiteAddPageArgs{
			Name:    pulumi.String("news.html"),
			Content: newsContent,
		})
		if err != nil {
			return err
		}
		mirror, err := sitekit.NewMirror(ctx, "mirror", &sitekit.MirrorArgs{Source: site})
		if err != nil {
			return err
		}
		ctx.Export("url", site.Url)
		ctx.Export("pageCount", site.PageCount)
		ctx.Export("bucketName", site.Bucket.BucketName())
		ctx.Export("aboutUrl", about.Url())
		ctx.Export("newsUrl", news.Url())
		ctx.Export("hiddenUrl", hidden.Url())
		ctx.Export("mirrorUrl", mirror.Url)
		ctx.Export("mirrorSource", mirror.SourceUrl)
		return nil
	})
}
