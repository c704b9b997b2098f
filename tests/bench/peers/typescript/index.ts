// The sitekit Site component (components.BuildSite) on @pulumi/pulumi's
// componentProviderHost, as package sitekitts. Its children are sitekit's
// Bucket and BucketObject, served by the sitekit plugin.
import * as pulumi from "@pulumi/pulumi";
import { componentProviderHost } from "@pulumi/pulumi/provider/experimental";

class Bucket extends pulumi.CustomResource {
    declare readonly bucketName: pulumi.Output<string>;
    declare readonly endpoint: pulumi.Output<string>;
    constructor(name: string, site: string, opts: pulumi.CustomResourceOptions) {
        super("sitekit:index:Bucket", name, { labels: { site }, bucketName: undefined, endpoint: undefined }, opts);
    }
}

class BucketObject extends pulumi.CustomResource {
    declare readonly etag: pulumi.Output<string>;
    constructor(name: string, bucket: pulumi.Input<string>, key: string, content: pulumi.Input<string>,
        opts: pulumi.CustomResourceOptions) {
        super("sitekit:index:BucketObject", name,
            { bucket, key, content, contentType: "text/html", etag: undefined, url: undefined }, opts);
    }
}

export interface SiteArgs {
    indexContent: pulumi.Input<string>;
    errorContent?: pulumi.Input<string>;
    pages?: { [name: string]: pulumi.Input<string> };
}

export class Site extends pulumi.ComponentResource {
    public readonly url: pulumi.Output<string>;
    public readonly bucketName: pulumi.Output<string>;
    public readonly pageCount: pulumi.Output<number>;
    // The analyzer types resource outputs only from @pulumi/* packages.
    public readonly bucket: pulumi.Output<any>;

    constructor(name: string, args: SiteArgs, opts?: pulumi.ComponentResourceOptions) {
        super("sitekitts:index:Site", name, {}, opts);
        const bucket = new Bucket(`${name}-bucket`, name, { parent: this });
        new BucketObject(`${name}-index`, bucket.bucketName, "index.html", args.indexContent, { parent: this });
        new BucketObject(`${name}-error`, bucket.bucketName, "error.html",
            args.errorContent ?? "<h1>Not found</h1>", { parent: this });
        const pages = new PageSet(`${name}-pages`,
            { bucket: bucket.bucketName, pages: args.pages ?? {}, prefix: "pages/" }, { parent: this });
        this.url = bucket.endpoint.apply(e => e + "/index.html");
        this.bucketName = bucket.bucketName;
        this.pageCount = pages.count.apply(n => n + 2);
        this.bucket = pulumi.output(bucket);
        this.registerOutputs({ url: this.url, bucketName: this.bucketName, pageCount: this.pageCount, bucket });
    }
}

export interface PageSetArgs {
    bucket: pulumi.Input<string>;
    pages: { [name: string]: pulumi.Input<string> };
    prefix?: string;
}

export class PageSet extends pulumi.ComponentResource {
    public readonly keys: pulumi.Output<string[]>;
    public readonly count: pulumi.Output<number>;

    constructor(name: string, args: PageSetArgs, opts?: pulumi.ComponentResourceOptions) {
        super("sitekitts:index:PageSet", name, {}, opts);
        for (const n of Object.keys(args.pages)) {
            if (n === "" || /[\/\\]/.test(n) || n.includes("..")) {
                throw new Error(`pages["${n}"]: must be a non-empty file name without slashes or ".."`);
            }
        }
        const names = Object.keys(args.pages).sort();
        const prefix = args.prefix ?? "";
        const objects = names.map(n =>
            new BucketObject(`${name}-${n}`, args.bucket, prefix + n, args.pages[n], { parent: this }));
        this.keys = pulumi.output(names.map(n => prefix + n));
        // Known with the names, but depending on every page object.
        this.count = pulumi.all(objects.map(o => o.urn)).apply(() => names.length);
        this.registerOutputs({ keys: this.keys, count: this.count });
    }
}

componentProviderHost({ name: "sitekitts", components: [Site, PageSet] });
