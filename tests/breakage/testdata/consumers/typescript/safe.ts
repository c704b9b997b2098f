import * as pulumi from "@pulumi/pulumi";
import * as echo from "@polyhost/echo";

const calm = new echo.Calm("calm", { title: "t", value: "v", mood: echo.Mood.Happy });
export const greeting: pulumi.Output<string> = calm.greet().text;
export const title: pulumi.Output<string> = calm.title;
export const size: pulumi.Output<string | number | undefined> = calm.size;
