import pulumi
import polyhost_echo as echo

echo.Kept("kept", title="k")
