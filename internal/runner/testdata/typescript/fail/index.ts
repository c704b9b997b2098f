// Leaks the secret config value to stderr, then fails as runnertest:mode
// says: "throw" throws (logged, exit 32), "exit" exits with status 3.
import * as pulumi from "@pulumi/pulumi";

const raw: Record<string, string> = JSON.parse(process.env.PULUMI_CONFIG ?? "{}");
console.error(`leaking token=${raw["runnertest:config:token"]}`);

const config = new pulumi.Config();
if (config.get("mode") === "exit") {
    process.exit(3);
}
throw new Error("boom from nodejs");
