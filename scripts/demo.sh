#!/bin/sh
# The reference demo through the whole pipeline: the plan report line, the
# hoisted host-side tensor-map encode call, and the PTX TMA instruction.
set -e
BUILD=${1:-build}
TILE_OPT="$BUILD/bin/tile-opt"
DEMO=examples/copy_async_tma.mlir
OUT="$BUILD/demo"
mkdir -p "$OUT"

echo "== $DEMO verifies and prints back"
"$TILE_OPT" "$DEMO" -o "$OUT/roundtrip.mlir"
echo "ok ($(wc -l < "$OUT/roundtrip.mlir") lines)"

echo
echo "== Plan report (tile-opt --tile-report-copy-plans)"
"$TILE_OPT" "$DEMO" --tile-report-copy-plans -o /dev/null

echo
echo "== Host: the tensor map is encoded before the launch (tile-opt --tile-plan-copies --tile-tensor-map-abi)"
"$TILE_OPT" "$DEMO" --gpu-kernel-outlining --tile-plan-copies --tile-tensor-map-abi \
  -o "$OUT/demo.abi.mlir"
python3 scripts/show-encode-calls.py "$OUT/demo.abi.mlir"
grep -m1 -o 'gpu.launch_func .*' "$OUT/demo.abi.mlir" | sed 's/^/then: /'

echo
echo "== Device: the PTX TMA instruction (tile-opt --tile-gpu-pipeline)"
"$TILE_OPT" "$DEMO" --tile-gpu-pipeline=format=isa -o "$OUT/demo.lowered.mlir"
python3 scripts/extract-ptx.py "$OUT/demo.lowered.mlir" -o "$OUT/demo.ptx"
grep -m1 'cp.async.bulk.tensor' "$OUT/demo.ptx" | sed 's/^[[:space:]]*//'
if [ -x /usr/local/cuda/bin/ptxas ]; then
  /usr/local/cuda/bin/ptxas -arch=sm_90a "$OUT/demo.ptx" -o "$OUT/demo.cubin"
  echo "ptxas -arch=sm_90a: ok"
fi

# The demo as a user ships it: a shared library from tile-compile and a host
# program linking it, built on every machine.
echo
echo "== tile-compile the demo into a shared library and link a host program"
ninja -C "$BUILD" tile-compile tile_runtime > /dev/null
cp -f "$BUILD/lib/Runtime/libtile_runtime.so" "$OUT/"
"$BUILD/bin/tile-compile" "$DEMO" -o "$OUT/demo.so" --runtime-dir "$OUT"
/usr/lib/llvm-22/bin/clang++ -std=c++17 -O2 -Iinclude \
  examples/tile_compile_example.cpp "$OUT/demo.so" -o "$OUT/demo" \
  -L"$OUT" -ltile_runtime -Wl,-rpath,"$OUT"
echo "built $OUT/demo.so and $OUT/demo"

# On a GPU it copies A into B and compares; without a driver it says it
# skipped (on an H200 it printed 'copy_async: B equals A', docs/gpu-results.md).
echo
echo "== Run it ($OUT/demo)"
"$OUT/demo"
