// Registers a local component, reads config and exports outputs; sdkPackage
// tells which copy of @pulumi/pulumi the program loaded.
import * as fs from "fs";
import * as pulumi from "@pulumi/pulumi";

class Widget extends pulumi.ComponentResource {
    public readonly label: pulumi.Output<string>;

    constructor(name: string, label: string, opts?: pulumi.ComponentResourceOptions) {
        super("runnertest:index:Widget", name, {}, opts);
        this.label = pulumi.output(label);
        this.registerOutputs({ label: this.label });
    }
}

const config = new pulumi.Config();
const widget = new Widget("w", config.require("greeting"));

export const greeting = widget.label;
export const token = config.requireSecret("token");
export const dryRun = pulumi.runtime.isDryRun();
export const sdkPackage = fs.realpathSync(require.resolve("@pulumi/pulumi/package.json"));
