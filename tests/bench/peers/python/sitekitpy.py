"""The sitekit Site component (components.BuildSite) on the Python SDK's
component_provider_host, as package sitekitpy. Its children are sitekit's
Bucket and BucketObject, served by the sitekit plugin."""

import re
from typing import Any, Optional, TypedDict

import pulumi
from pulumi.provider.experimental import component_provider_host


class Bucket(pulumi.CustomResource):
    def __init__(self, name: str, site: str, opts: pulumi.ResourceOptions):
        super().__init__("sitekit:index:Bucket", name,
                         {"labels": {"site": site}, "bucketName": None, "endpoint": None}, opts)


class BucketObject(pulumi.CustomResource):
    def __init__(self, name: str, bucket: Any, key: str, content: Any, opts: pulumi.ResourceOptions):
        super().__init__("sitekit:index:BucketObject", name,
                         {"bucket": bucket, "key": key, "content": content,
                          "contentType": "text/html", "etag": None, "url": None}, opts)


class PageSetArgs(TypedDict, total=False):
    bucket: pulumi.Input[str]
    pages: dict[str, pulumi.Input[str]]
    prefix: Optional[str]


class PageSet(pulumi.ComponentResource):
    keys: pulumi.Output[list[str]]
    count: pulumi.Output[float]

    def __init__(self, name: str, args: PageSetArgs, opts: Optional[pulumi.ResourceOptions] = None):
        super().__init__("sitekitpy:index:PageSet", name, {}, opts)
        pages = args.get("pages") or {}
        for n in pages:
            if n == "" or re.search(r"[/\\]", n) or ".." in n:
                raise ValueError(f'pages["{n}"]: must be a non-empty file name without slashes or ".."')
        names = sorted(pages)
        prefix = args.get("prefix") or ""
        objects = [BucketObject(f"{name}-{n}", args["bucket"], prefix + n, pages[n],
                                pulumi.ResourceOptions(parent=self)) for n in names]
        self.keys = pulumi.Output.from_input([prefix + n for n in names])
        # Known with the names, but depending on every page object.
        self.count = pulumi.Output.all(*[o.urn for o in objects]).apply(lambda _: float(len(names)))
        self.register_outputs({"keys": self.keys, "count": self.count})


class SiteArgs(TypedDict, total=False):
    indexContent: pulumi.Input[str]
    errorContent: Optional[pulumi.Input[str]]
    pages: Optional[dict[str, pulumi.Input[str]]]


class Site(pulumi.ComponentResource):
    url: pulumi.Output[str]
    bucketName: pulumi.Output[str]
    pageCount: pulumi.Output[float]
    # The analyzer types resource outputs only from Pulumi package SDKs.
    bucket: pulumi.Output[Any]

    def __init__(self, name: str, args: SiteArgs, opts: Optional[pulumi.ResourceOptions] = None):
        super().__init__("sitekitpy:index:Site", name, {}, opts)
        child = pulumi.ResourceOptions(parent=self)
        bucket = Bucket(f"{name}-bucket", name, child)
        bucket_name = bucket.bucketName  # type: ignore[attr-defined]
        BucketObject(f"{name}-index", bucket_name, "index.html", args.get("indexContent"), child)
        BucketObject(f"{name}-error", bucket_name, "error.html",
                     args.get("errorContent") or "<h1>Not found</h1>", child)
        pages = PageSet(f"{name}-pages",
                        {"bucket": bucket_name, "pages": args.get("pages") or {}, "prefix": "pages/"}, child)
        self.url = bucket.endpoint.apply(lambda e: e + "/index.html")  # type: ignore[attr-defined]
        self.bucketName = bucket_name
        self.pageCount = pages.count.apply(lambda n: n + 2)
        self.bucket = pulumi.Output.from_input(bucket)
        self.register_outputs({"url": self.url, "bucketName": self.bucketName,
                               "pageCount": self.pageCount, "bucket": bucket})


if __name__ == "__main__":
    component_provider_host(name="sitekitpy", components=[Site, PageSet], version="0.1.0")
