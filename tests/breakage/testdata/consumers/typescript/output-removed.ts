import * as echo from "@polyhost/echo";
export const color = new echo.Paint("paint").color;
