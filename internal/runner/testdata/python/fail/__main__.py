"""Leaks the secret config value to stderr, then fails as runnertest:mode
says: "throw" raises (logged, exit 32), "exit" exits with status 3."""

import json
import os
import sys

import pulumi

raw = json.loads(os.environ.get("PULUMI_CONFIG", "{}"))
print(f"leaking token={raw.get('runnertest:token')}", file=sys.stderr, flush=True)

if pulumi.Config().get("mode") == "exit":
    sys.exit(3)
raise Exception("boom from python")
