#!/usr/bin/env bash
# Builds the bandwidth benchmark's artifacts into .gpu/bench/ on a CPU machine
# with the MLIR build (TILE_BUILD, default build-bench/): the generated module,
# copy.so (host code + embedded cubin + _mlir_ciface_ entries), the runtime,
# the host-loop helper, and the PTX for inspection. bench.py runs on the GPU
# machine from these alone (no MLIR there).
#
#   bench/Bandwidth/build.sh
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
cd "$root"
build=${TILE_BUILD:-build-bench}
out=.gpu/bench
llvm=/usr/lib/llvm-22/bin
M=16384
N=32768
# name:BM:BN:TILES:STAGES: the hand-tuned design (256x32, 2 tiles, 3 stages)
# first, then the shape sweep of bench/README.md
VARIANTS=${VARIANTS:-"t256x32n2s3:256:32:2:3 t256x32n2s2:256:32:2:2 t128x64n2s3:128:64:2:3 t128x64n2s2:128:64:2:2 t64x128n2s2:64:128:2:2 t64x128n2s3:64:128:2:3 t128x128n2s2:128:128:2:2 t128x64n1s1:128:64:1:1 t64x128n1s1:64:128:1:1 t256x64n1s1:256:64:1:1 t64x128n4s2:64:128:4:2"}

mkdir -p "$out"
rt="$build/lib/libtile_runtime.so"
[ -f "$rt" ] || rt="$build/lib/Runtime/libtile_runtime.so"
cp -f "$rt" "$out/"
python3 bench/Bandwidth/gen_copy.py $M $N $VARIANTS > "$out/copy.mlir"
"$build/bin/tile-opt" "$out/copy.mlir" --tile-gpu-pipeline=format=isa \
  -o "$out/copy.isa.mlir"
python3 - "$out/copy.isa.mlir" "$out/copy.ptx" <<'PY'
import re, sys
s = open(sys.argv[1]).read()
m = re.search(r'assembly = "((?:[^"\\]|\\.)*)"', s)
ptx = re.sub(r'\\([0-9A-Fa-f]{2})', lambda g: chr(int(g.group(1), 16)), m.group(1))
open(sys.argv[2], "w").write(ptx.replace('\\"', '"'))
PY
if [ -x "$build/bin/tile-compile" ]; then
  "$build/bin/tile-compile" "$out/copy.mlir" -o "$out/copy.so" --runtime-dir "$out"
else
  # The manual path (tile-compile's steps).
  "$build/bin/tile-opt" "$out/copy.mlir" --tile-gpu-pipeline=format=bin \
    -o "$out/copy.ll.mlir"
  "$llvm/mlir-translate" --mlir-to-llvmir "$out/copy.ll.mlir" -o "$out/copy.ll"
  "$llvm/llc" -O2 -relocation-model=pic -filetype=obj "$out/copy.ll" -o "$out/copy.o"
  "$llvm/clang" -shared -fuse-ld=lld "$out/copy.o" -L"$out" -ltile_runtime \
    -Wl,-rpath,'$ORIGIN' -o "$out/copy.so"
fi
"$llvm/clang" -O2 -shared -fPIC bench/Bandwidth/hostloop.c -o "$out/hostloop.so"
# Resource usage of the kernels (registers, shared memory), for the record.
/usr/local/cuda/bin/ptxas -arch=sm_90a -v "$out/copy.ptx" -o /dev/null \
  > "$out/ptxas.txt" 2>&1 || true
ls -la "$out"
du -sh "$out"
