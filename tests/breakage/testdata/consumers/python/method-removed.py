import pulumi
import polyhost_echo as echo

pulumi.export("closed", echo.Door("door").close().closed)
