# Stand-in for the Pulumi CLI's pulumi-language-python-exec, which ships with
# the CLI and not with the `pulumi` package. internal/runner starts it as
#
#   <python> <this file> --monitor A --engine E --project P --root_directory R
#       --stack S --pwd D --dry_run true|false --parallel N [--organization O]
#       <program file or dir> [args...]
#
# It behaves like the real script: config from PULUMI_CONFIG and
# PULUMI_CONFIG_SECRET_KEYS, runtime settings from the flags, the program run
# with runpy inside the root stack, exit 0 on success, 1 after a RunError,
# 32 after an unhandled exception that was logged to the engine.

import argparse
import asyncio
import inspect
import logging
import os
import runpy
import sys
import traceback
from concurrent.futures import ThreadPoolExecutor

try:
    import pulumi
    import pulumi.runtime
except ImportError:
    traceback.print_exc()
    print(
        "\nIt looks like the Pulumi SDK has not been installed. "
        "Run `bash tests/setup.sh` (or pip install -r requirements.txt in your virtualenv).",
        file=sys.stderr,
    )
    sys.exit(1)

# Exit status telling the host that the error was already shown to the user.
LOGGED_ERROR_EXIT = 32


def parse_args():
    p = argparse.ArgumentParser(description="Execute a Pulumi Python program")
    for flag in (
        "project",
        "root_directory",
        "stack",
        "parallel",
        "dry_run",
        "pwd",
        "monitor",
        "engine",
        "tracing",
        "organization",
    ):
        p.add_argument("--" + flag)
    p.add_argument("PROGRAM")
    p.add_argument("ARGS", nargs="*")
    return p.parse_args()


def apply_config():
    values = pulumi.runtime.get_config_env()
    if hasattr(pulumi.runtime, "set_all_config") and hasattr(
        pulumi.runtime, "get_config_secret_keys_env"
    ):
        pulumi.runtime.set_all_config(values, pulumi.runtime.get_config_secret_keys_env())
    else:
        for key, value in values.items():
            pulumi.runtime.set_config(key, value)


def make_settings(args):
    wanted = {
        "monitor": args.monitor,
        "engine": args.engine,
        "project": args.project,
        "stack": args.stack,
        "parallel": int(args.parallel),
        "dry_run": args.dry_run == "true",
        "organization": args.organization,
        "root_directory": args.root_directory,
    }
    try:
        return pulumi.runtime.Settings(**wanted)
    except TypeError:
        # Older SDKs lack some parameters: pass only those they know.
        known = inspect.signature(pulumi.runtime.Settings.__init__).parameters
        return pulumi.runtime.Settings(**{k: v for k, v in wanted.items() if k in known})


def module_path(path):
    base, ext = os.path.splitext(path)
    if not ext:
        base = os.path.join(base, "__main__")
    return os.path.abspath(base)


def user_traceback(program):
    """The current exception's traceback, starting at the user's program."""
    frames = traceback.extract_tb(sys.exc_info()[2])
    target = module_path(program)
    for i, frame in enumerate(frames):
        if module_path(frame.filename) == target:
            return traceback.format_exc(limit=-(len(frames) - i))
    return traceback.format_exc()


def missing_main(err):
    """Whether an ImportError from runpy means the program has no __main__.py."""
    runpy_file = runpy.__file__
    files = [
        runpy_file if f.filename == "<frozen runpy>" else f.filename
        for f in traceback.extract_tb(err.__traceback__)
    ]
    return bool(files) and set(files) == {__file__, runpy_file} and files[-1] == runpy_file


def main():
    args = parse_args()
    apply_config()
    settings = make_settings(args)
    pulumi.runtime.configure(settings)

    sys.argv = [args.PROGRAM] + args.ARGS
    if args.pwd is not None:
        os.chdir(args.pwd)

    try:
        loop = asyncio.get_running_loop()
    except RuntimeError:
        loop = asyncio.new_event_loop()
        asyncio.set_event_loop(loop)
    executor = None
    if settings.parallel is not None:
        executor = ThreadPoolExecutor(max_workers=max(settings.parallel, 1) * 4)
        loop.set_default_executor(executor)

    # Unobserved futures of a failed program are expected; keep asyncio quiet.
    logging.getLogger("asyncio").setLevel(logging.CRITICAL)

    program = os.path.abspath(args.PROGRAM)

    def run_program():
        try:
            runpy.run_path(args.PROGRAM, run_name="__main__")
        except ImportError as err:
            if not missing_main(err):
                raise
            pulumi.log.error(f"unable to find main python program `__main__.py` in `{program}`")
            sys.exit(LOGGED_ERROR_EXIT)

    code = 1
    try:
        loop.run_until_complete(pulumi.runtime.run_in_stack(run_program))
        code = 0
    except pulumi.RunError as err:
        pulumi.log.error(str(err))
    except Exception:  # noqa: BLE001 -- every program failure is reported
        pulumi.log.error("Program failed with an unhandled exception:\n" + user_traceback(program))
        code = LOGGED_ERROR_EXIT
    finally:
        if executor is not None:
            executor.shutdown(wait=True)
        loop.close()
        sys.stdout.flush()
        sys.stderr.flush()
    sys.exit(code)


if __name__ == "__main__":
    main()
