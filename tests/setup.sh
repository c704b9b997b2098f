#!/usr/bin/env bash
# Installs the dependencies of the embedded test engine's consumer programs
# into tests/.deps/ (git-ignored). Safe to rerun: each part is skipped while
# its stamp matches the pinned inputs.
#
#   tests/.deps/venv   Python virtualenv from tests/requirements.txt
#   tests/.deps/node   `npm ci` of tests/package.json + tests/package-lock.json
#   tests/.deps/bin    the real pulumi CLI and pulumi-language-yaml, built from
#                      the Go module proxy as pinned in tests/tools (a module
#                      of its own, out of the main module's graph), and our
#                      test language host, with Pulumi's SDK generators, as
#                      pulumi-language-go|nodejs|python (tests/tools/langhost)
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
need go "the pulumi CLI and the language hosts"

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

# The real pulumi CLI and the YAML language host: Go builds of the versions
# pinned in tests/tools (a cold build takes a few minutes on two cores; the
# Go build cache makes a rebuild fast, and the stamp skips it altogether).
bin="$deps/bin"
tools="$tests/tools"
mkdir -p "$bin"
want="$({ cat "$tools/go.mod" "$tools/go.sum" "$tools/yaml/go.mod" "$tools/yaml/go.sum"; go version; } | sha256sum | cut -d' ' -f1)"
if [[ -x "$bin/pulumi" && -x "$bin/pulumi-language-yaml" && "$(cat "$bin/.polyhost-stamp" 2>/dev/null)" == "$want" ]]; then
	echo "setup.sh: pulumi CLI up to date ($bin/pulumi)"
else
	echo "setup.sh: building the pulumi CLI and pulumi-language-yaml into $bin"
	cli_version="$(cd "$tools" && go list -m -f '{{.Version}}' github.com/pulumi/pulumi/pkg/v3)"
	(cd "$tools" && go build -o "$bin/pulumi" \
		-ldflags "-X github.com/pulumi/pulumi/sdk/v3/go/common/version.Version=$cli_version" \
		github.com/pulumi/pulumi/pkg/v3/cmd/pulumi)
	(cd "$tools/yaml" && go build -o "$bin/pulumi-language-yaml" github.com/pulumi/pulumi-yaml/cmd/pulumi-language-yaml)
	echo "$want" >"$bin/.polyhost-stamp"
fi

# Our language host for Go, Node.js and Python programs under the real CLI
# (tests/langhost over tests/runner), under the names the CLI looks for, with
# Pulumi's SDK generators (pkg/v3 codegen) for `pulumi package gen-sdk` and
# `pulumi package add`. Built from tests/tools/langhost, a module of its own
# that uses this checkout's tests/langhost through a replace directive, so
# pkg/v3 stays out of the main module's graph. Always rebuilt: it follows the
# working tree (the first build compiles pkg/v3's codegen, a minute or two;
# the build cache keeps later ones quick).
(cd "$tools/langhost" && go build -o "$bin/pulumi-language-go" .)
for runtime in nodejs python; do
	ln -f "$bin/pulumi-language-go" "$bin/pulumi-language-$runtime"
done

echo "setup.sh: done"
