#!/usr/bin/env bash
# Compile-time benchmark: writes modules with 1,000 and 10,000 tile.copy_async
# (gen_copies.py) and times --tile-gpu-pipeline=format=none on them in
# process (bench-compile), with and without the verifier between passes.
#
#   bench/Compile/run.sh            # TILE_BUILD (default build-bench), REPS (default 3)
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
cd "$root"
build=${TILE_BUILD:-build-bench}
reps=${REPS:-3}
out=${BENCH_OUT:-$(mktemp -d)}
ninja -C "$build" -j2 bench-compile > /dev/null
bin=$(find "$build" -name bench-compile -type f -perm -u+x | head -1)
for n in 1000 10000; do
  python3 bench/Compile/gen_copies.py $n > "$out/copies$n.mlir"
done
echo "# $(nproc) cores, load $(cut -d' ' -f1-3 /proc/loadavg), $(date -u +%F)"
"$bin" --reps="$reps" "$out/copies1000.mlir" "$out/copies10000.mlir"
echo "# --no-verify"
"$bin" --reps="$reps" --no-verify "$out/copies1000.mlir" "$out/copies10000.mlir"
