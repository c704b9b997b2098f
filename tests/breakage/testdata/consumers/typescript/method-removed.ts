import * as echo from "@polyhost/echo";
export const closed = new echo.Door("door").close().closed;
