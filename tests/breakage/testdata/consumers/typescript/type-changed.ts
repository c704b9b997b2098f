import * as echo from "@polyhost/echo";
export const tagged = new echo.Tagged("tagged", { tags: ["a", 1] });
