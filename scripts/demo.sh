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
echo "== Host: the tensor map is encoded before the launch (tile-opt --tile-gpu-pipeline)"
"$TILE_OPT" "$DEMO" --tile-gpu-pipeline=format=isa -o "$OUT/demo.lowered.mlir"
grep -m1 -o 'llvm.call @tileTensorMapGetCached([^)]*)' "$OUT/demo.lowered.mlir"
grep -m1 -o 'tile.tensor_map = {[^}]*}' "$OUT/demo.lowered.mlir"

echo
echo "== Device: the PTX TMA instruction"
python3 scripts/extract-ptx.py "$OUT/demo.lowered.mlir" -o "$OUT/demo.ptx"
grep -m1 'cp.async.bulk.tensor' "$OUT/demo.ptx" | sed 's/^[[:space:]]*//'
if [ -x /usr/local/cuda/bin/ptxas ]; then
  /usr/local/cuda/bin/ptxas -arch=sm_90a "$OUT/demo.ptx" -o "$OUT/demo.cubin"
  echo "ptxas -arch=sm_90a: ok"
fi

if { [ -e /dev/nvidia0 ] || [ -e /dev/nvidiactl ]; } && [ -x scripts/gpu-suite.sh ]; then
  echo
  echo "== GPU present: running the demo"
  scripts/gpu-suite.sh --demo-only "$BUILD"
else
  echo
  echo "(no GPU here: the GPU suite runs on an H200 from artifacts built on this machine; see docs/gpu-results.md)"
fi
