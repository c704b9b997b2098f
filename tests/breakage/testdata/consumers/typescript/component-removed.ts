import * as echo from "@polyhost/echo";
export const gone = new echo.Gone("gone", { name: "a" });
