import pulumi
import polyhost_echo as echo

pulumi.export("value", echo.lookup_output(key="k").value)
