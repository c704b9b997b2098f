"""Registers a local component, reads config and exports outputs."""

import sys

import pulumi


class Widget(pulumi.ComponentResource):
    def __init__(self, name, label, opts=None):
        super().__init__("runnertest:index:Widget", name, None, opts)
        self.label = pulumi.Output.from_input(label)
        self.register_outputs({"label": self.label})


config = pulumi.Config()
widget = Widget("w", config.require("greeting"))

pulumi.export("greeting", widget.label)
pulumi.export("token", config.require_secret("token"))
pulumi.export("dryRun", pulumi.runtime.is_dry_run())
pulumi.export("prefix", sys.prefix)
