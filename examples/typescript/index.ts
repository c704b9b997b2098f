// sitekit-ts builds a Site and a Mirror of it from TypeScript, calls the
// Site's methods, and exports the results.
import * as pulumi from "@pulumi/pulumi";
import * as sitekit from "@polyhost/sitekit";

const config = new pulumi.Config();
const greeting = config.get("greeting") ?? "Hello from TypeScript";

const site = new sitekit.Site("site", {
    indexContent: `<h1>${greeting}</h1>`,
    pages: { "about.html": "<p>About</p>" },
});
const about = site.pageUrl({ page: "about.html" });
// A secret argument keeps the result secret.
const hidden = site.pageUrl({ page: pulumi.secret("hidden.html") });
// The news page's body is secret config; set it with -secret news=...
const newsContent = config.getSecret("news") ?? pulumi.secret("<p>No news yet.</p>");
const news = site.addPage({ name: "news.html", content: newsContent });
const mirror = new sitekit.Mirror("mirror", { source: site });

export const url = site.url;
export const pageCount = site.pageCount;
export const bucketName = site.bucket.bucketName;
export const aboutUrl = about.url;
export const newsUrl = news.url;
export const hiddenUrl = hidden.url;
export const mirrorUrl = mirror.url;
export const mirrorSource = mirror.sourceUrl;
