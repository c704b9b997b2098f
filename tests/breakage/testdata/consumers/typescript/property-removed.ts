import * as echo from "@polyhost/echo";
const crate = new echo.Crate("crate", { spec: { size: 1, note: "n" } });
export const note = crate.spec.apply(s => s?.note);
