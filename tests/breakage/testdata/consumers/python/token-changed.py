import pulumi
import polyhost_echo as echo

echo.Moved("moved", title="m")
