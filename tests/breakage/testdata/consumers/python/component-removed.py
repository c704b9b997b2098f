import pulumi
import polyhost_echo as echo

echo.Gone("gone", name="a")
