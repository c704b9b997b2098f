import pulumi
import polyhost_echo as echo

pulumi.export("url", echo.Site("site").url)
