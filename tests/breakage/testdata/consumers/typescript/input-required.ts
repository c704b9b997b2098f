import * as echo from "@polyhost/echo";
export const sized = new echo.Sized("sized");
