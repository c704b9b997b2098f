import pulumi
import polyhost_echo as echo

echo.Moved("moved", title="m")
echo.Kept("kept", title="k")
echo.Calm("calm", title="t", value="v", mood=echo.Mood.HAPPY)
