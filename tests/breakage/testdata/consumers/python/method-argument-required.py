import pulumi
import polyhost_echo as echo

pulumi.export("position", echo.Dial("dial").turn(by=1).position)
