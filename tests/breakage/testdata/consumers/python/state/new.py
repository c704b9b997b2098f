import pulumi
import polyhost_echo as echo

# Moved and Kept moved to the web module; Calm changed only safely.
echo.web.Moved("moved", title="m")
echo.web.Kept("kept", title="k")
echo.Calm("calm", title="t", value="v", mood=echo.Mood.HAPPY)
