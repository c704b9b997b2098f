import pulumi
import polyhost_echo as echo

echo.Note("note", label="l", text="t")
