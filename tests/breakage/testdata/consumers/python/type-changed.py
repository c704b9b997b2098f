import pulumi
import polyhost_echo as echo

echo.Tagged("tagged", tags=["a", 1])
