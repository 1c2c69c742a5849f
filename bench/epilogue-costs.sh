#!/usr/bin/env bash
# The GPU check of the GEMM epilogue's costs: the kernels' last wait (each
# storing thread waits at the end of the kernel until its TMA stores have
# been written, `tile.bulk_wait_group 0`, or only read from shared memory,
# `{read}`, what the CTA's exit needs), the clustered bf16 chooser both
# ways, cuBLAS alternating, exact on the check shapes first. (Round 88 ran
# it with --alpha-one, since removed, and --stmatrix, which
# bench/stmatrix.sh measures now.) Then Nsight Compute's
# count of the shared and global stores of both kernels and of cuBLAS's at
# 4096 x 4096 x 512 (four tiles per CTA, where ours is 1.8 us behind) and
# 2048^3 (one): whether cuBLAS writes C through shared memory as ours does.
#
#   bench/epilogue-costs.sh build     # CPU machine with the MLIR build: .gpu/epilogue-costs/
#   bench/epilogue-costs.sh gemm OUT  # GPU machine, from .gpu/epilogue-costs/
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"
# shellcheck source=bench/round-lib.sh
source bench/round-lib.sh
out_dir=.gpu/epilogue-costs
ATTENTION=""
GEMM=${TARGET_GEMM%%;*}
NAME=gemm_${GEMM%%:*}
SHAPES=2048x2048x64,2048x2048x2048,4096x4096x512,3000x5000x2000,4000x4000x4000
SHAPES+=,4096x4096x4096,8192x8192x8192,256x8192x8192

STORE_METRICS=gpu__time_duration.sum,sm__cycles_active.avg,smsp__inst_executed.sum
STORE_METRICS+=,smsp__inst_executed_op_shared_st.sum,l1tex__data_pipe_lsu_wavefronts_mem_shared_op_st.sum
STORE_METRICS+=,l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_st.sum
STORE_METRICS+=,smsp__inst_executed_op_global_st.sum,l1tex__t_sectors_pipe_lsu_mem_global_op_st.sum
STORE_METRICS+=,dram__bytes_write.sum,lts__t_sectors_op_write.sum

run_gemm() {
  local out=${1:?output folder}
  round_gemm_bf16 "$out" "$out_dir" "$SHAPES"
  step "ncu stores" timeout 150 ncu --clock-control none -k 'regex:gemm|nvjet|xmma|sm90' \
    --metrics "$STORE_METRICS" --section LaunchStats --section WarpStateStats --section SpeedOfLight \
    python3 bench/Gemm/profile.py --dir "$out_dir/gemm" \
    --lib "$NAME.so" --shapes 4096x4096x512,2048x2048x2048 \
    --warm 0 > "$out/ncu-stores.log" 2>&1
  grep -E "^  [a-z_]+.*\(|relative max error|Duration|duration|shared_st|global_st|op_st|bytes_write|op_write|inst_executed.sum|cycles_active|Grid Size|Cluster Size|Registers|Shared Memory Config|Stall|Warp Cycles|SM Frequency|Compute \(SM\) Throughput|Memory Throughput" \
    "$out/ncu-stores.log" | head -80 || true
}

if [ "${1:-}" = build ]; then
  round_main build
  # The same module with every full wait (the kernels' last) a read wait.
  dir=$out_dir/gemm
  sed 's/^\( *tile.bulk_wait_group 0\)$/\1 {read}/' "$dir/$NAME.mlir" > "$dir/${NAME}_rd.mlir"
  grep -c "bulk_wait_group 0 {read}" "$dir/${NAME}_rd.mlir"
  round_compile "$dir" "${NAME}_rd"
  exit 0
fi
round_main "$@"
