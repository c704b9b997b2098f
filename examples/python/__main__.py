"""sitekit-py builds a Site and a Mirror of it from Python, calls the
Site's methods, and exports the results."""

import pulumi

import polyhost_sitekit as sitekit

config = pulumi.Config()
greeting = config.get("greeting") or "Hello from Python"

site = sitekit.Site(
    "site",
    index_content=f"<h1>{greeting}</h1>",
    pages={"about.html": "<p>About</p>"},
)
about = site.page_url(page="about.html")
# A secret argument keeps the result secret.
hidden = site.page_url(page=pulumi.Output.secret("hidden.html"))
# The news page's body is secret config; set it with -secret news=...
news_content = config.get_secret("news") or pulumi.Output.secret("<p>No news yet.</p>")
news = site.add_page(name="news.html", content=news_content)
mirror = sitekit.Mirror("mirror", source=site)

pulumi.export("url", site.url)
pulumi.export("pageCount", site.page_count)
pulumi.export("bucketName", site.bucket.bucket_name)
pulumi.export("aboutUrl", about.url)
pulumi.export("newsUrl", news.url)
pulumi.export("hiddenUrl", hidden.url)
pulumi.export("mirrorUrl", mirror.url)
pulumi.export("mirrorSource", mirror.source_url)
