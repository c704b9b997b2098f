import pulumi
import polyhost_echo as echo

echo.Tag("tag", name="a")
