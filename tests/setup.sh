#!/usr/bin/env bash
# Installs the dependencies of the embedded test engine's consumer programs
# into tests/.deps/ (git-ignored). Safe to rerun: each part is skipped while
# its stamp matches the pinned inputs.
#
#   tests/.deps/venv   Python virtualenv from tests/requirements.txt
#   tests/.deps/node   `npm ci` of tests/package.json + tests/package-lock.json
#   tests/.deps/bin    the real pulumi CLI and pulumi-language-yaml, built from
#                      the Go module proxy as pinned in tests/tools (a module
#                      of its own, out of the main module's graph),
#                      terraform-provider-time (tests/tools/tfprovidertime), and our
#                      test language host, with Pulumi's SDK generators, as
#                      pulumi-language-go|nodejs|python (tests/tools/langhost)
#   sdk/               the sitekit SDKs the examples consume, committed, and
#                      regenerated here by `pulumi package gen-sdk` from the
#                      plugin (tests/run.sh fails when the result differs from
#                      what is committed): sdk/nodejs built to sdk/nodejs/bin
#                      and sdk/python installed into the venv (both build
#                      products, git-ignored); sdk/go a module with a go.sum
#
# With --no-cli, only what the TypeScript and Python examples need: the venv,
# the Node modules, and the committed SDKs built and installed, without
# building the CLI or regenerating the SDKs (about a minute, not fifteen, on a
# fresh machine). The Go example needs no setup at all.
#
# Environment: POLYHOST_SETUP_PYTHON picks the base interpreter (default python3).
set -euo pipefail

cli=1
case "${1:-}" in
"") ;;
--no-cli) cli=0 ;;
*)
	echo "usage: bash tests/setup.sh [--no-cli]" >&2
	exit 2
	;;
esac

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
if ((cli)); then
	need go "the pulumi CLI and the language hosts"
fi

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

root="$(cd "$tests/.." && pwd)"
sdk="$root/sdk"
# With --no-cli, the committed SDKs are built and installed as they are.
if ((cli)); then
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

	# terraform-provider-time v0.14.2 (protocol 5), pinned in the tools module
	# tests/tools/tfprovidertime: the Terraform provider the host/terraform
	# backend's scripts serve (tests/internal/tfkit). About a minute cold.
	tf="$tests/tools/tfprovidertime"
	want="$({ cat "$tf/go.mod" "$tf/go.sum"; go version; } | sha256sum | cut -d' ' -f1)"
	if [[ -x "$bin/terraform-provider-time" && "$(cat "$bin/.tfprovidertime-stamp" 2>/dev/null)" == "$want" ]]; then
		echo "setup.sh: terraform-provider-time up to date"
	else
		echo "setup.sh: building terraform-provider-time into $bin"
		(cd "$tf" && go build -o "$bin/terraform-provider-time" github.com/hashicorp/terraform-provider-time)
		echo "$want" >"$bin/.tfprovidertime-stamp"
	fi

	# Our language host for Go, Node.js and Python programs under the real CLI
	# (tests/langhost over internal/runner), under the names the CLI looks for, with
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

	# The sitekit SDKs, generated as a user generates them: `pulumi package
	# gen-sdk` on the plugin binary, with Pulumi's generators (the language host
	# above). Always regenerated: they follow the working tree's schema.
	plugin="$deps/sitekit/pulumi-resource-sitekit"
	echo "setup.sh: generating the sitekit SDKs into $sdk"
	(cd "$root" && go build -o "$plugin" ./provider/cmd/pulumi-resource-sitekit)
	for lang in nodejs python go; do
		rm -rf "${sdk:?}/$lang"
		PATH="$bin:$PATH" PULUMI_HOME="$deps/pulumi-home" PULUMI_SKIP_UPDATE_CHECK=true \
			"$bin/pulumi" package gen-sdk "$plugin" --language "$lang" --out "$sdk" >/dev/null
	done
	# Go: the generated go.mod asks for an older sdk/v3; this repository's pin
	# keeps one sdk/v3 across the modules, and tidy writes the go.sum.
	(cd "$sdk/go" && go mod edit -require=github.com/pulumi/pulumi/sdk/v3@v3.263.0 && go mod tidy)
fi

# Node.js: built as a published Pulumi package is (tsc, then package.json
# beside the output); programs depend on "file:<repo>/sdk/nodejs/bin".
echo "setup.sh: building the Node.js SDK into $sdk/nodejs/bin and installing the Python SDK"
rm -rf "$sdk/nodejs/bin"
ln -sfn "$node_dir/node_modules" "$sdk/nodejs/node_modules"
node "$node_dir/node_modules/typescript/bin/tsc" -p "$sdk/nodejs"
cp "$sdk/nodejs/package.json" "$sdk/nodejs/bin/"
# Python: installed into the venv, as `pip install ./sdk/python` would.
"$venv/bin/python" -m pip install --quiet --disable-pip-version-check --no-input \
	--no-deps --no-index --no-build-isolation --force-reinstall "$sdk/python"
echo "setup.sh: done"
