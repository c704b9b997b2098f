import * as echo from "@polyhost/echo";
export const lamp = new echo.Lamp("lamp", { shade: echo.Shade.Neon });
