import pulumi
import polyhost_echo as echo

echo.Sized("sized")
