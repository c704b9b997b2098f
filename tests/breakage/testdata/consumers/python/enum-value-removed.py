import pulumi
import polyhost_echo as echo

echo.Lamp("lamp", shade=echo.Shade.NEON)
