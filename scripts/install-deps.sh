#!/bin/sh
# Installs the Debian packages the build and the tests need. Idempotent: when
# everything is present it returns at once without touching apt.
set -e
PACKAGES="cmake ninja-build ccache libmlir-22-dev mlir-22-tools llvm-22-dev \
llvm-22-tools clang-22 lld-22 clang-format-22 libgtest-dev libbenchmark-dev libjemalloc-dev \
python3-pytest python3-venv libclang-rt-22-dev \
llvm-22 python3-torch librsvg2-bin"

missing=""
for p in $PACKAGES; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" \
    || missing="$missing $p"
done
[ -z "$missing" ] && exit 0

echo "Installing:$missing"
SUDO=""
[ "$(id -u)" -ne 0 ] && SUDO="sudo"
$SUDO apt-get update -q
DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -q --no-install-recommends $missing
