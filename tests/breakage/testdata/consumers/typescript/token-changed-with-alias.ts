import * as echo from "@polyhost/echo";
export const kept = new echo.Kept("kept", { title: "k" });
