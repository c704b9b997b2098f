import pulumi
import polyhost_echo as echo

calm = echo.Calm("calm", title="t", value="v", mood=echo.Mood.HAPPY)
pulumi.export("greeting", calm.greet().text)
pulumi.export("title", calm.title)
pulumi.export("size", calm.size)
