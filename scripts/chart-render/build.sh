#!/usr/bin/env bash
# Builds scripts/chart-render into $1 from Debian's Go toolchain and Go libraries (sprig, sigs.k8s.io/yaml),
# installing them with apt-get when this is a root shell that can. Where neither works it says so and
# exits 0 without building: the render tests then report themselves skipped (tests/deploy/chart-render.test.ts).
set -uo pipefail
out=$1
cd "$(dirname "$0")/../.."
packages=(golang-go golang-github-masterminds-sprig-dev golang-k8s-sigs-yaml-dev)
gopath=/usr/share/gocode
have_libs() { [[ -d $gopath/src/github.com/Masterminds/sprig && -d $gopath/src/sigs.k8s.io/yaml ]]; }
if ! command -v go >/dev/null 2>&1 || ! have_libs; then
  if [[ $(id -u) == 0 ]] && command -v apt-get >/dev/null 2>&1; then
    echo "chart-render: installing ${packages[*]} (Debian)"
    export DEBIAN_FRONTEND=noninteractive
    apt-get install -y -qq "${packages[@]}" >/dev/null 2>&1 ||
      { apt-get update -qq >/dev/null 2>&1 && apt-get install -y -qq "${packages[@]}" >/dev/null 2>&1; }
  fi
fi
if ! command -v go >/dev/null 2>&1 || ! have_libs; then
  echo "chart-render: NOT BUILT: needs ${packages[*]}; the chart render tests will be skipped" >&2
  exit 0
fi
mkdir -p "$(dirname "$out")"
GO111MODULE=off GOPATH=$gopath go build -o "$out" ./scripts/chart-render
