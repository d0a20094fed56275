#!/bin/bash
# `gpurun tune` on a machine with an NVIDIA GPU, over Kernel Tuner's CUDA examples (matmul,
# stencil, reduction: examples/cuda/ of its repository, fetched; give their folder as KT) with
# their own tune_params, restrictions and grid divisors. Brute force writes each space to a cache
# (OUT/NAME.cache) that `gpurun tune --simulate` can replay; prints a table last.
# Usage: KT=DIR scripts/tune-gpu-check.sh [OUTDIR] [matmul|stencil|reduction …]
set -u
cd "$(dirname "$0")/.."
OUT=${1:-/tmp/gpurun-tune}; shift || true
mkdir -p "$OUT"
G=$PWD/${BUILD:-build}/gpurun
KT=${KT:?KT: the folder of Kernel Tuner\'s examples/cuda}
QUICK=${QUICK:---min-samples 5 --min-time 0.02 --max-noise 2 --timeout 0.5}
declare -a rows
row() { rows+=("$(printf '%-12s %s' "$1" "$2")"); }
run() { # NAME ARGS…
  local name=$1; shift
  local t0; t0=$(date +%s.%N)
  (cd "$KT" && $G tune "$@" $QUICK --cache "$OUT/$name.cache" --json "$OUT/$name.json" \
    --t4 "$OUT/$name.t4.json") >"$OUT/$name.txt" 2>"$OUT/$name.err"
  local rc=$? t1; t1=$(date +%s.%N)
  row "$name" "rc $rc, $(python3 - "$OUT/$name.json" "$t0" "$t1" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
wall = float(sys.argv[3]) - float(sys.argv[2])
measured = sum(e.get("wall_s", 0) for e in d["evaluations"] if not e["from_cache"])
sampling = sum(e.get("sampling_s", 0) for e in d["evaluations"] if not e["from_cache"])
counts = {}
for e in d["evaluations"]:
    counts[e["status"]] = counts.get(e["status"], 0) + 1
b = d["best"]
print("%d/%d visited, %s; best %s %.4g ms; wall %.1f s = %.2fx the sampling's %.1f s (evaluations %.1f s)" % (
    d["visited"], d["space_size"], counts, ",".join("%s=%s" % kv for kv in sorted(b["config"].items())) if b else "-",
    b["time_s"] * 1e3 if b else 0, wall, wall / sampling if sampling else 0, sampling, measured))
PY
)"
}
targets=" $* "
sel() { [ "$targets" = "  " ] || [[ "$targets" == *" $1 "* ]]; }

# matmul: 4096², C = A·B; Kernel Tuner's restriction, and blocks of at most 1024 threads.
sel matmul && run matmul matmul.cu -p 'block_size_x=[16,32,64]' -p 'block_size_y=[1,2,4,8,16,32]' \
  -p 'tile_size_x=[1,2,4,8]' -p 'tile_size_y=[1,2,4,8]' \
  --restrict 'block_size_x==block_size_y*tile_size_y' --restrict 'block_size_x*block_size_y<=1024' \
  -b block_size_x,block_size_y \
  -g '4096/(block_size_x*tile_size_x),4096/(block_size_y*tile_size_y)' \
  --arg 'C=f32[4096*4096]:0' --arg 'A=f32[4096*4096]:randn(seed=1)' \
  --arg 'B=f32[4096*4096]:randn(seed=2)' --rtol 1e-4 --atol 1e-4 --flops 137438953472

# stencil: 4096×2048, a 5-point average.
sel stencil && run stencil stencil.cu -p 'block_size_x=[32,64,96,128,160,192,224,256]' \
  -p 'block_size_y=[1,2,4,8,16,32]' --restrict 'block_size_x*block_size_y<=1024' \
  -b block_size_x,block_size_y -g '(4096+block_size_x-1)/block_size_x,(2048+block_size_y-1)/block_size_y' \
  --arg 'x_new=f32[4096*2048]:0' --arg 'x_old=f32[4096*2048]:rand(seed=3)' --bytes 67108864

# reduction: partial sums of 16M floats, one per block (outputs differ by design: --no-check);
# Kernel Tuner's parameters, fewer values of each (720 of its 2376 configurations).
sel reduction && run reduction reduction.cu -p 'block_size_x=[64,128,256,512,1024]' \
  -p 'vector=[1,2,4]' -p 'num_blocks=[1024,2048,4096,8192,16384,32768]' \
  -p 'loop_unroll_factor_0=[0,1,8,32]' -p 'use_shuffle=[0,1]' -b block_size_x -g num_blocks \
  --arg 'sum_global=f32[num_blocks]:0' --arg 'array=f32[16777216]:rand(seed=4)' \
  --arg 'n=16777216/vector' --no-check --bytes 67108864 ${REDUCTION_BUDGET:+--budget $REDUCTION_BUDGET}

echo
echo "== tune checks"
printf '%s\n' "${rows[@]}"
for f in "$OUT"/*.err; do [ -s "$f" ] && { echo "-- $(basename "$f"): $(tail -2 "$f" | cut -c1-300)"; }; done
for f in "$OUT"/*.txt; do echo "-- $(basename "$f")"; head -6 "$f"; tail -4 "$f"; done
(cd "$OUT" && tar czf caches.tgz ./*.cache ./*.json 2>/dev/null)
exit 0
