#!/usr/bin/env bash
# Installs the dependencies of the embedded test engine's consumer programs
# into tests/.deps/ (git-ignored). Safe to rerun: each part is skipped while
# its stamp matches the pinned inputs.
#
#   tests/.deps/venv   Python virtualenv from tests/requirements.txt
#   tests/.deps/node   `npm ci` of tests/package.json + tests/package-lock.json
#
# Environment: POLYHOST_SETUP_PYTHON picks the base interpreter (default python3).
set -euo pipefail

tests="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
deps="$tests/.deps"
python="${POLYHOST_SETUP_PYTHON:-python3}"

need() {
	command -v "$1" >/dev/null 2>&1 || {
		echo "setup.sh: '$1' is not on PATH; it is needed for $2" >&2
		exit 1
	}
}
need "$python" "the Python virtualenv"
need node "the Node.js dependencies"
need npm "the Node.js dependencies"
need sha256sum "the install stamps"

# stamp FILE... prints a hash of the given inputs plus the tool versions.
stamp() {
	{ cat "$@"; "$python" --version 2>&1; node --version; npm --version; } | sha256sum | cut -d' ' -f1
}

mkdir -p "$deps"

# Python: a fresh venv whenever requirements.txt or the interpreter changes.
venv="$deps/venv"
want="$(stamp "$tests/requirements.txt")"
if [[ -x "$venv/bin/python" && "$(cat "$venv/.polyhost-stamp" 2>/dev/null)" == "$want" ]]; then
	echo "setup.sh: Python venv up to date ($venv)"
else
	echo "setup.sh: creating Python venv in $venv"
	rm -rf "$venv"
	"$python" -m venv "$venv"
	"$venv/bin/python" -m pip install --quiet --disable-pip-version-check --no-input \
		-r "$tests/requirements.txt"
	echo "$want" >"$venv/.polyhost-stamp"
fi

# Node: npm ci into tests/.deps/node from the committed lock file. Install
# scripts stay off: none of the pinned packages needs one to work.
node_dir="$deps/node"
want="$(stamp "$tests/package.json" "$tests/package-lock.json")"
if [[ -f "$node_dir/node_modules/@pulumi/pulumi/cmd/run/index.js" &&
	"$(cat "$node_dir/.polyhost-stamp" 2>/dev/null)" == "$want" ]]; then
	echo "setup.sh: Node modules up to date ($node_dir/node_modules)"
else
	echo "setup.sh: installing Node modules in $node_dir"
	rm -rf "$node_dir"
	mkdir -p "$node_dir"
	cp "$tests/package.json" "$tests/package-lock.json" "$node_dir/"
	(cd "$node_dir" && npm ci --ignore-scripts --no-audit --no-fund --loglevel=error)
	echo "$want" >"$node_dir/.polyhost-stamp"
fi

echo "setup.sh: done"
