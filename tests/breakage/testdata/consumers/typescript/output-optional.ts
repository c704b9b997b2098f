import * as pulumi from "@pulumi/pulumi";
import * as echo from "@polyhost/echo";

export const url: pulumi.Output<string> = new echo.Site("site").url;
