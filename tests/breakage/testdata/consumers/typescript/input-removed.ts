import * as echo from "@polyhost/echo";
export const note = new echo.Note("note", { label: "l", text: "t" });
