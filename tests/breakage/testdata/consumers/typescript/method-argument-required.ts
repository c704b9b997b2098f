import * as echo from "@polyhost/echo";
export const position = new echo.Dial("dial").turn({ by: 1 }).position;
