import * as echo from "@polyhost/echo";
export const color: echo.Color = echo.Color.Red;
