"""Thin Python SDK for the sitekit package, written by hand in step with
schema.yaml: the shape `pulumi package gen-sdk` would produce, trimmed to
what the example needs. Components are remote: the provider builds them.

Properties use Pulumi's camelCase names on the wire and snake_case names in
Python, as in generated SDKs.
"""

from enum import Enum
from typing import Mapping, Optional

import pulumi
import semver

__all__ = [
    "Bucket",
    "BucketObject",
    "ContentType",
    "GetObjectResult",
    "Mirror",
    "Site",
    "UrlResult",
    "VERSION",
    "get_object",
    "get_object_output",
]

VERSION = "0.1.0"
"""Version of the sitekit package this SDK was written for."""


@pulumi.output_type
class UrlResult:
    """Result of Site.page_url and Site.add_page."""

    def __init__(self, url=None):
        pulumi.set(self, "url", url)

    @property
    @pulumi.getter
    def url(self) -> str:
        """Address of the page."""
        return pulumi.get(self, "url")


class Site(pulumi.ComponentResource):
    """A static website: a bucket, an index and error page, and pages."""

    def __init__(
        self,
        resource_name: str,
        opts: Optional[pulumi.ResourceOptions] = None,
        *,
        index_content: Optional[pulumi.Input[str]] = None,
        error_content: Optional[pulumi.Input[str]] = None,
        pages: Optional[pulumi.Input[Mapping[str, pulumi.Input[str]]]] = None,
    ):
        opts = opts or pulumi.ResourceOptions()
        if index_content is None and not opts.urn:
            raise TypeError("Missing required property 'index_content'")
        props = {
            "indexContent": index_content,
            "errorContent": error_content,
            "pages": pages,
            "url": None,
            "bucketName": None,
            "pageCount": None,
            "bucket": None,
        }
        super().__init__("sitekit:index:Site", resource_name, props, opts, remote=True)

    @property
    def url(self) -> pulumi.Output[str]:
        """Address of the site's index page."""
        return pulumi.get(self, "url")

    @property
    def bucket_name(self) -> pulumi.Output[str]:
        """Name of the bucket holding the site."""
        return pulumi.get(self, "bucketName")

    @property
    def page_count(self) -> pulumi.Output[int]:
        """How many pages the site serves, index and error page included."""
        return pulumi.get(self, "pageCount")

    @property
    def bucket(self) -> pulumi.Output["Bucket"]:
        """The site's bucket, as a resource."""
        return pulumi.get(self, "bucket")

    def page_url(self, *, page: pulumi.Input[str]) -> pulumi.Output[UrlResult]:
        """Address of one of the site's further pages (from `pages` or add_page)."""
        args = {"__self__": self, "page": page}
        return pulumi.runtime.call("sitekit:index:Site/pageUrl", args, res=self, typ=UrlResult)

    def add_page(
        self, *, name: pulumi.Input[str], content: pulumi.Input[str]
    ) -> pulumi.Output[UrlResult]:
        """Stores one more page in the site's bucket, as a child of the site."""
        args = {"__self__": self, "name": name, "content": content}
        return pulumi.runtime.call("sitekit:index:Site/addPage", args, res=self, typ=UrlResult)


class Mirror(pulumi.ComponentResource):
    """A bucket whose index page redirects to a source Site."""

    def __init__(
        self,
        resource_name: str,
        opts: Optional[pulumi.ResourceOptions] = None,
        *,
        source: Optional[pulumi.Input[Site]] = None,
    ):
        opts = opts or pulumi.ResourceOptions()
        if source is None and not opts.urn:
            raise TypeError("Missing required property 'source'")
        props = {"source": source, "url": None, "sourceUrl": None}
        super().__init__("sitekit:index:Mirror", resource_name, props, opts, remote=True)

    @property
    def url(self) -> pulumi.Output[str]:
        """Address of the mirror's index page."""
        return pulumi.get(self, "url")

    @property
    def source_url(self) -> pulumi.Output[str]:
        """Address of the source site's index page."""
        return pulumi.get(self, "sourceUrl")


class Bucket(pulumi.CustomResource):
    """A storage bucket. Sites expose theirs as Site.bucket."""

    def __init__(
        self,
        resource_name: str,
        opts: Optional[pulumi.ResourceOptions] = None,
        *,
        labels: Optional[pulumi.Input[Mapping[str, pulumi.Input[str]]]] = None,
    ):
        opts = pulumi.ResourceOptions.merge(
            opts or pulumi.ResourceOptions(),
            pulumi.ResourceOptions(additional_secret_outputs=["accessKey"]),
        )
        props = {
            "labels": labels,
            "bucketName": None,
            "endpoint": None,
            "accessKey": None,
        }
        super().__init__("sitekit:index:Bucket", resource_name, props, opts)

    @property
    def bucket_name(self) -> pulumi.Output[str]:
        """The bucket's name, derived from the resource name at create time."""
        return pulumi.get(self, "bucketName")

    @property
    def endpoint(self) -> pulumi.Output[str]:
        """Base address of the bucket's objects."""
        return pulumi.get(self, "endpoint")

    @property
    def labels(self) -> pulumi.Output[Optional[Mapping[str, str]]]:
        """Free-form labels."""
        return pulumi.get(self, "labels")

    @property
    def access_key(self) -> pulumi.Output[str]:
        """Key for reading the bucket. Always secret."""
        return pulumi.get(self, "accessKey")


class ContentType(str, Enum):
    """Media type of an object."""

    HTML = "text/html"
    TEXT = "text/plain"
    JSON = "application/json"


class BucketObject(pulumi.CustomResource):
    """One object in a bucket."""

    def __init__(
        self,
        resource_name: str,
        opts: Optional[pulumi.ResourceOptions] = None,
        *,
        bucket: Optional[pulumi.Input[str]] = None,
        key: Optional[pulumi.Input[str]] = None,
        content: Optional[pulumi.Input[str]] = None,
        content_type: Optional[pulumi.Input[ContentType]] = None,
        cache_seconds: Optional[pulumi.Input[int]] = None,
    ):
        opts = opts or pulumi.ResourceOptions()
        if not opts.urn:
            for name, value in (("bucket", bucket), ("key", key), ("content", content)):
                if value is None:
                    raise TypeError(f"Missing required property '{name}'")
        props = {
            "bucket": bucket,
            "key": key,
            "content": content,
            "contentType": content_type,
            "cacheSeconds": cache_seconds,
            "etag": None,
            "size": None,
            "url": None,
        }
        super().__init__("sitekit:index:BucketObject", resource_name, props, opts)

    @property
    def bucket(self) -> pulumi.Output[str]:
        """Name of the bucket."""
        return pulumi.get(self, "bucket")

    @property
    def key(self) -> pulumi.Output[str]:
        """Object key."""
        return pulumi.get(self, "key")

    @property
    def content(self) -> pulumi.Output[str]:
        """Object body."""
        return pulumi.get(self, "content")

    @property
    def content_type(self) -> pulumi.Output[str]:
        """Media type."""
        return pulumi.get(self, "contentType")

    @property
    def cache_seconds(self) -> pulumi.Output[Optional[int]]:
        """How long readers may cache the object, in seconds."""
        return pulumi.get(self, "cacheSeconds")

    @property
    def etag(self) -> pulumi.Output[str]:
        """Hash of the content."""
        return pulumi.get(self, "etag")

    @property
    def size(self) -> pulumi.Output[int]:
        """Size of the content in bytes."""
        return pulumi.get(self, "size")

    @property
    def url(self) -> pulumi.Output[str]:
        """Address of the object."""
        return pulumi.get(self, "url")


@pulumi.output_type
class GetObjectResult:
    """What get_object returns."""

    def __init__(self, content=None, content_type=None, etag=None):
        pulumi.set(self, "content", content)
        pulumi.set(self, "content_type", content_type)
        pulumi.set(self, "etag", etag)

    @property
    @pulumi.getter
    def content(self) -> str:
        """Object body."""
        return pulumi.get(self, "content")

    @property
    @pulumi.getter(name="contentType")
    def content_type(self) -> str:
        """Media type."""
        return pulumi.get(self, "content_type")

    @property
    @pulumi.getter
    def etag(self) -> str:
        """Hash of the content."""
        return pulumi.get(self, "etag")


def get_object(
    bucket: str, key: str, opts: Optional[pulumi.InvokeOptions] = None
) -> GetObjectResult:
    """Reads an object back from storage."""
    args = {"bucket": bucket, "key": key}
    return pulumi.runtime.invoke(
        "sitekit:index:getObject", args, opts=opts, typ=GetObjectResult
    ).value


def get_object_output(
    bucket: pulumi.Input[str],
    key: pulumi.Input[str],
    opts: Optional[pulumi.InvokeOutputOptions] = None,
) -> pulumi.Output[GetObjectResult]:
    """Like get_object, for arguments that are outputs."""
    args = {"bucket": bucket, "key": key}
    return pulumi.runtime.invoke_output(
        "sitekit:index:getObject", args, opts=opts, typ=GetObjectResult
    )


class _Module(pulumi.runtime.ResourceModule):
    """Turns resource references the engine sends (Site.bucket, say) into
    instances of the classes above."""

    def version(self):
        return semver.Version.parse(VERSION)

    def construct(self, name: str, typ: str, urn: str) -> pulumi.Resource:
        opts = pulumi.ResourceOptions(urn=urn)
        if typ == "sitekit:index:Bucket":
            return Bucket(name, opts)
        if typ == "sitekit:index:BucketObject":
            return BucketObject(name, opts)
        if typ == "sitekit:index:Site":
            return Site(name, opts)
        if typ == "sitekit:index:Mirror":
            return Mirror(name, opts)
        raise Exception(f"unknown resource type {typ}")


pulumi.runtime.register_resource_module("sitekit", "index", _Module())
