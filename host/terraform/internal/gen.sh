#!/bin/sh
# gen.sh regenerates the tfplugin5 and tfplugin6 gRPC stubs from the
# protocol 5.11 and 6.11 .proto files of terraform-plugin-go v0.31.0.
#
# Generators (put them on PATH, or set PROTOC):
#   protoc              libprotoc 35.1 (headers say v7.35.1), from PyPI's grpcio-tools 1.85.1
#                       (python3 -m venv /tmp/protoc-venv &&
#                        /tmp/protoc-venv/bin/pip install grpcio-tools==1.85.1;
#                        PROTOC="/tmp/protoc-venv/bin/python -m grpc_tools.protoc")
#   protoc-gen-go       v1.36.12 (google.golang.org/protobuf, as in go.mod)
#   protoc-gen-go-grpc  v1.6.2
#   (one `GOBIN=/tmp/gobin go install PKG@VERSION` each, PKG being
#    google.golang.org/protobuf/cmd/protoc-gen-go and
#    google.golang.org/grpc/cmd/protoc-gen-go-grpc; then PATH=/tmp/gobin:$PATH)
#
# Terraform-plugin-go links its own copies of these protos into any binary
# that serves a provider (tf5server, tf6server), registered as
# "tfplugin5.proto" with messages "tfplugin5.*". Two registrations of one
# name panic at init, so our messages are registered under their own file
# path (polyhost/tfpluginN.proto) and proto package (polyhost.tfpluginN).
# Message names never go on the wire; the gRPC service name does, so the
# _grpc.pb.go stubs are generated from the unchanged package and keep
# calling /tfpluginN.Provider/*.
set -eu
cd "$(dirname "$0")"
: "${PROTOC:=protoc}"
tpg=$(go mod download -json github.com/hashicorp/terraform-plugin-go@v0.31.0 |
	sed -n 's/^[[:space:]]*"Dir": "\(.*\)",$/\1/p')
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
for v in 5 6; do
	p=tfplugin$v
	# The copy kept beside the stubs: only go_package changed.
	sed -e "s#^option go_package = .*#option go_package = \"github.com/polyhost/polyhost/host/terraform/internal/$p\";#" \
		-e "s#^// SPDX-License-Identifier: MPL-2.0\$#&\\
// Copied from terraform-plugin-go v0.31.0 by ../gen.sh, go_package changed.#" \
		"$tpg/tfprotov$v/internal/$p/$p.proto" >"$p/$p.proto"
	mkdir -p "$tmp/msg/polyhost" "$tmp/svc/polyhost" "$tmp/out"
	sed "s/^package $p;/package polyhost.$p;/" "$p/$p.proto" >"$tmp/msg/polyhost/$p.proto"
	cp "$p/$p.proto" "$tmp/svc/polyhost/$p.proto"
	$PROTOC -I "$tmp/msg" --go_out="$tmp/out" --go_opt=paths=source_relative \
		"polyhost/$p.proto"
	$PROTOC -I "$tmp/svc" --go-grpc_out="$tmp/out" --go-grpc_opt=paths=source_relative \
		"polyhost/$p.proto"
	mv "$tmp/out/polyhost/$p.pb.go" "$tmp/out/polyhost/${p}_grpc.pb.go" "$p/"
done
