import pulumi
import polyhost_echo as echo

crate = echo.Crate("crate", spec=echo.SpecArgs(size=1, note="n"))
pulumi.export("note", crate.spec.apply(lambda s: s.note if s else None))
