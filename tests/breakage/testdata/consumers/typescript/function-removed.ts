import * as echo from "@polyhost/echo";
export const value = echo.lookupOutput({ key: "k" }).value;
