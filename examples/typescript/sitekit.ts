// Thin TypeScript SDK for the sitekit package, written by hand in step with
// schema.yaml: the shape `pulumi package gen-sdk` would produce, trimmed to
// what the example needs. Components are remote: the provider builds them.
import * as pulumi from "@pulumi/pulumi";

/** Version of the sitekit package this SDK was written for. */
export const version = "0.1.0";

/** Inputs of a Site. */
export interface SiteArgs {
    /** Body of index.html. */
    indexContent: pulumi.Input<string>;
    /** Body of error.html; the provider has a default. */
    errorContent?: pulumi.Input<string>;
    /** Further pages, file name to body. */
    pages?: pulumi.Input<{ [name: string]: pulumi.Input<string> }>;
}

/** Arguments of Site.pageUrl. */
export interface SitePageUrlArgs {
    /** Page file name, a key of `pages`, e.g. about.html. */
    page: pulumi.Input<string>;
}

/** Arguments of Site.addPage. */
export interface SiteAddPageArgs {
    /** Page file name, without slashes. */
    name: pulumi.Input<string>;
    /** Page body. */
    content: pulumi.Input<string>;
}

/** Result of Site.pageUrl and Site.addPage. */
export interface UrlResult {
    readonly url: string;
}

/** A static website: a bucket, an index and error page, and pages. */
export class Site extends pulumi.ComponentResource {
    public static readonly __pulumiType = "sitekit:index:Site";

    /** Address of the site's index page. */
    declare public readonly url: pulumi.Output<string>;
    /** Name of the bucket holding the site. */
    declare public readonly bucketName: pulumi.Output<string>;
    /** How many pages the site serves, index and error page included. */
    declare public readonly pageCount: pulumi.Output<number>;
    /** The site's bucket, as a resource. */
    declare public readonly bucket: pulumi.Output<Bucket>;

    constructor(name: string, args: SiteArgs, opts?: pulumi.ComponentResourceOptions) {
        const inputs: pulumi.Inputs = {};
        if (!opts?.urn) {
            if (args?.indexContent === undefined) {
                throw new Error("Missing required property 'indexContent'");
            }
            inputs["indexContent"] = args.indexContent;
            inputs["errorContent"] = args.errorContent;
            inputs["pages"] = args.pages;
        }
        inputs["url"] = undefined /*out*/;
        inputs["bucketName"] = undefined /*out*/;
        inputs["pageCount"] = undefined /*out*/;
        inputs["bucket"] = undefined /*out*/;
        super(Site.__pulumiType, name, inputs, opts, true /*remote*/);
    }

    /** Address of one of the site's further pages (from `pages` or addPage). */
    pageUrl(args: SitePageUrlArgs): pulumi.Output<UrlResult> {
        return pulumi.runtime.call("sitekit:index:Site/pageUrl", { __self__: this, page: args.page }, this);
    }

    /** Stores one more page in the site's bucket, as a child of the site. */
    addPage(args: SiteAddPageArgs): pulumi.Output<UrlResult> {
        return pulumi.runtime.call(
            "sitekit:index:Site/addPage",
            { __self__: this, name: args.name, content: args.content },
            this,
        );
    }
}

/** Inputs of a Mirror. */
export interface MirrorArgs {
    /** The site to mirror. */
    source: pulumi.Input<Site>;
}

/** A bucket whose index page redirects to a source Site. */
export class Mirror extends pulumi.ComponentResource {
    public static readonly __pulumiType = "sitekit:index:Mirror";

    /** Address of the mirror's index page. */
    declare public readonly url: pulumi.Output<string>;
    /** Address of the source site's index page. */
    declare public readonly sourceUrl: pulumi.Output<string>;

    constructor(name: string, args: MirrorArgs, opts?: pulumi.ComponentResourceOptions) {
        const inputs: pulumi.Inputs = {};
        if (!opts?.urn) {
            if (args?.source === undefined) {
                throw new Error("Missing required property 'source'");
            }
            inputs["source"] = args.source;
        }
        inputs["url"] = undefined /*out*/;
        inputs["sourceUrl"] = undefined /*out*/;
        super(Mirror.__pulumiType, name, inputs, opts, true /*remote*/);
    }
}

/** Inputs of a Bucket. */
export interface BucketArgs {
    /** Free-form labels. */
    labels?: pulumi.Input<{ [key: string]: pulumi.Input<string> }>;
}

/** A storage bucket. Sites expose theirs as Site.bucket. */
export class Bucket extends pulumi.CustomResource {
    public static readonly __pulumiType = "sitekit:index:Bucket";

    /** The bucket's name, derived from the resource name at create time. */
    declare public readonly bucketName: pulumi.Output<string>;
    /** Base address of the bucket's objects. */
    declare public readonly endpoint: pulumi.Output<string>;
    /** Free-form labels. */
    declare public readonly labels: pulumi.Output<{ [key: string]: string } | undefined>;
    /** Key for reading the bucket. Always secret. */
    declare public readonly accessKey: pulumi.Output<string>;

    constructor(name: string, args?: BucketArgs, opts?: pulumi.CustomResourceOptions) {
        const inputs: pulumi.Inputs = {};
        inputs["labels"] = args?.labels;
        inputs["bucketName"] = undefined /*out*/;
        inputs["endpoint"] = undefined /*out*/;
        inputs["accessKey"] = undefined /*out*/;
        super(Bucket.__pulumiType, name, inputs, pulumi.mergeOptions(opts, { additionalSecretOutputs: ["accessKey"] }));
    }
}

/** Media type of an object. */
export const ContentType = {
    Html: "text/html",
    Text: "text/plain",
    Json: "application/json",
} as const;

/** Media type of an object. */
export type ContentType = (typeof ContentType)[keyof typeof ContentType];

/** Inputs of a BucketObject. */
export interface BucketObjectArgs {
    /** Name of the bucket. Changing it replaces the object. */
    bucket: pulumi.Input<string>;
    /** Object key. Changing it replaces the object. */
    key: pulumi.Input<string>;
    /** Object body. */
    content: pulumi.Input<string>;
    /** Media type; defaults to text/html. */
    contentType?: pulumi.Input<ContentType>;
    /** How long readers may cache the object, in seconds (at most a year). */
    cacheSeconds?: pulumi.Input<number>;
}

/** One object in a bucket: sitekit:index:BucketObject. */
export class BucketObject extends pulumi.CustomResource {
    public static readonly __pulumiType = "sitekit:index:BucketObject";

    declare public readonly bucket: pulumi.Output<string>;
    declare public readonly key: pulumi.Output<string>;
    declare public readonly content: pulumi.Output<string>;
    declare public readonly contentType: pulumi.Output<ContentType>;
    declare public readonly cacheSeconds: pulumi.Output<number | undefined>;
    /** Hash of the content. */
    declare public readonly etag: pulumi.Output<string>;
    /** Size of the content in bytes. */
    declare public readonly size: pulumi.Output<number>;
    /** Address of the object. */
    declare public readonly url: pulumi.Output<string>;

    constructor(name: string, args: BucketObjectArgs, opts?: pulumi.CustomResourceOptions) {
        const inputs: pulumi.Inputs = {};
        if (!opts?.urn) {
            for (const key of ["bucket", "key", "content"] as const) {
                if (args?.[key] === undefined) {
                    throw new Error(`Missing required property '${key}'`);
                }
            }
        }
        inputs["bucket"] = args?.bucket;
        inputs["key"] = args?.key;
        inputs["content"] = args?.content;
        inputs["contentType"] = args?.contentType;
        inputs["cacheSeconds"] = args?.cacheSeconds;
        inputs["etag"] = undefined /*out*/;
        inputs["size"] = undefined /*out*/;
        inputs["url"] = undefined /*out*/;
        super(BucketObject.__pulumiType, name, inputs, opts);
    }
}

/** Arguments of getObject. */
export interface GetObjectArgs {
    /** Name of the bucket. */
    bucket: string;
    /** Object key. */
    key: string;
}

/** Arguments of getObjectOutput. */
export interface GetObjectOutputArgs {
    bucket: pulumi.Input<string>;
    key: pulumi.Input<string>;
}

/** What getObject returns. */
export interface GetObjectResult {
    readonly content: string;
    readonly contentType: string;
    readonly etag: string;
}

/** Reads an object back from storage. */
export function getObject(args: GetObjectArgs, opts?: pulumi.InvokeOptions): Promise<GetObjectResult> {
    return pulumi.runtime.invoke("sitekit:index:getObject", { bucket: args.bucket, key: args.key }, opts);
}

/** Like getObject, for arguments that are outputs. */
export function getObjectOutput(
    args: GetObjectOutputArgs,
    opts?: pulumi.InvokeOutputOptions,
): pulumi.Output<GetObjectResult> {
    return pulumi.runtime.invokeOutput("sitekit:index:getObject", { bucket: args.bucket, key: args.key }, opts);
}

// Resource references the engine sends (Site.bucket, say) come back as
// instances of the classes above.
pulumi.runtime.registerResourceModule("sitekit", "index", {
    version,
    construct: (name: string, type: string, urn: string): pulumi.Resource => {
        switch (type) {
            case Bucket.__pulumiType:
                return new Bucket(name, undefined, { urn });
            case BucketObject.__pulumiType:
                return new BucketObject(name, <any>undefined, { urn });
            case Site.__pulumiType:
                return new Site(name, <any>undefined, { urn });
            case Mirror.__pulumiType:
                return new Mirror(name, <any>undefined, { urn });
            default:
                throw new Error(`unknown resource type ${type}`);
        }
    },
});
