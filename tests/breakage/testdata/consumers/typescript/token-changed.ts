import * as echo from "@polyhost/echo";
export const moved = new echo.Moved("moved", { title: "m" });
