import * as echo from "@polyhost/echo";
export const unit = new echo.Meter("meter").read().unit;
