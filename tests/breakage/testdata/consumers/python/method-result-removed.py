import pulumi
import polyhost_echo as echo

pulumi.export("unit", echo.Meter("meter").read().unit)
