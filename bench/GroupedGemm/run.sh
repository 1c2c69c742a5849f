#!/usr/bin/env bash
# The grouped GEMM's GPU run, from .gpu/grouped_gemm/ alone (build.sh builds
# it on a CPU machine): the device, torch._grouped_mm's schema, the check
# (under a time limit: a protocol bug hangs rather than fails), the
# benchmark, then the check under compute-sanitizer's memcheck.
#
#   bench/GroupedGemm/run.sh OUT
set -uo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
cd "$root"
out=${1:?output folder}
mkdir -p "$out"
export PYTHONUNBUFFERED=1
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm,clocks.max.mem,temperature.gpu \
  --format=csv > "$out/device.txt" 2>&1
cat "$out/device.txt"
python3 -c "import torch; print('torch', torch.__version__, 'cuda', torch.version.cuda); print(torch._C._jit_get_schemas_for_operator('aten::_grouped_mm'))" \
  > "$out/grouped_mm_schema.txt" 2>&1
cat "$out/grouped_mm_schema.txt"
timeout 90 python3 bench/GroupedGemm/bench.py --check-only > "$out/check.log" 2>&1
rc=$?
cat "$out/check.log"
if [ $rc -ne 0 ]; then echo "SUMMARY check failed (rc $rc)"; exit 1; fi
timeout 150 python3 bench/GroupedGemm/bench.py --json "$out/bench.json" > "$out/bench.log" 2>&1
echo "bench rc $?"
grep -v PASS "$out/bench.log"
if [ "${MEMCHECK:-1}" = 1 ] && command -v compute-sanitizer > /dev/null; then
  timeout 60 compute-sanitizer --tool memcheck python3 bench/GroupedGemm/bench.py \
    --check-only > "$out/memcheck.log" 2>&1
  echo "memcheck rc $?"; grep -E "ERROR SUMMARY|SUMMARY" "$out/memcheck.log"
fi
