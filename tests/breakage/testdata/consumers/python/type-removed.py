import pulumi
import polyhost_echo as echo

pulumi.export("color", echo.Color.RED)
