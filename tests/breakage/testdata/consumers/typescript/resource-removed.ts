import * as echo from "@polyhost/echo";
export const tag = new echo.Tag("tag", { name: "a" });
