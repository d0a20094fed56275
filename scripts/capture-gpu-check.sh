#!/bin/bash
# `gpurun capture` on a machine with an NVIDIA GPU, end to end: programs of each kind (an nvcc
# runtime-API program, CuPy, PyTorch, JAX, and any nvcc-built programs given in EXTRA) run
# unchanged under capture; every capture then replays on CUDA (bit for bit against what the
# program computed), on the CPU backend where its module has PTX, and under `gpurun bench`.
# From a build folder made elsewhere (build/ carried along); prints a table last.
# Usage: scripts/capture-gpu-check.sh [OUTDIR]
#   KEEP=FILE.tgz   packs the saxpy_app captures into one archive (for tests/data)
#   TABLE=FILE      each row is also appended to FILE as soon as it is known
set -u
cd "$(dirname "$0")/.."
OUT=${1:-${OUT:-/tmp/gpurun-capture}}
rm -rf "$OUT"; mkdir -p "$OUT"
G=$PWD/${BUILD:-build}/gpurun
NVCC=${NVCC:-/usr/local/cuda/bin/nvcc}
declare -a rows
row() {
  rows+=("$(printf '%-58s %s' "$1" "$2")")
  [ -n "${TABLE:-}" ] && printf '%-58s %s\n' "$1" "$2" >>"$TABLE"
  return 0
}

# Replays every capture under $1 (at most $2 of them) and adds one row per capture:
# cuda (rc, checks) · cpu (rc) · bench median.
replay_all() {
  local dir=$1 limit=${2:-6} n=0
  for cap in "$dir"/*/; do
    [ -f "$cap/capture.json" ] || continue
    n=$((n + 1)); [ $n -gt "$limit" ] && break
    local name; name=$(basename "$cap")
    timeout 60 $G "$cap/capture.json" --json >"$cap/replay_cuda.json" 2>"$cap/replay_cuda.err"
    local rc_cuda=$?
    local checks; checks=$(python3 -c "
import json,sys
d=json.load(open('$cap/replay_cuda.json'))
c=d.get('checks',[])
print('%d/%d bit-identical' % (sum(1 for x in c if x['passed']), len(c)) if c else d.get('error',{}).get('message','?')[:60])" 2>/dev/null)
    timeout 90 $G "$cap/capture.json" --backend cpu --json >"$cap/replay_cpu.json" 2>"$cap/replay_cpu.err"
    local rc_cpu=$?
    local cpu; cpu=$(python3 -c "
import json
d=json.load(open('$cap/replay_cpu.json'))
c=d.get('checks',[])
print('%d/%d' % (sum(1 for x in c if x['passed']), len(c)) if c else d.get('error',{}).get('message','?')[:70])" 2>/dev/null)
    timeout 90 $G bench "$cap/capture.json" --json "$cap/bench.json" >"$cap/bench.out" 2>"$cap/bench.err"
    local rc_bench=$?
    local med; med=$(python3 -c "
import json
b=json.load(open('$cap/bench.json'))['benchmarks'][0]
print(b.get('error_message','')[:60] if b.get('error_occurred') else 'median %.2f us' % b['real_time'])" 2>/dev/null || echo "?")
    row "  ${name:0:40}" "cuda rc $rc_cuda ($checks) · cpu rc $rc_cpu ($cpu) · bench rc $rc_bench $med"
  done
}

# 1. A runtime-API program built by nvcc (static cudart: cuGetProcAddress, lazy loading).
app=$OUT/saxpy_app
$NVCC -O2 -gencode arch=compute_90,code=sm_90 -gencode arch=compute_90,code=compute_90 -o "$app" \
  tests/data/capture/saxpy_app.cu >"$OUT/nvcc.log" 2>&1 || row "nvcc saxpy_app" "FAIL (see nvcc.log)"
"$app" 300 "$OUT/plain.bin" >"$OUT/plain.txt" 2>&1
$G capture --all --out "$OUT/caps" -- "$app" 300 "$OUT/captured.bin" >"$OUT/captured.txt" \
  2>"$OUT/capture.err"
rc=$?
if [ $rc -eq 0 ] && cmp -s "$OUT/plain.bin" "$OUT/captured.bin"; then
  row "saxpy_app runs unchanged under capture --all" "PASS ($(ls "$OUT/caps" | wc -l) captures)"
else row "saxpy_app runs unchanged under capture --all" "FAIL (rc $rc)"; fi
replay_all "$OUT/caps"
# The capture's after-image of scale_bias's y equals what the program copied back.
python3 - "$OUT" <<'PYEOF' >>"$OUT/rows.txt"
import json, sys, glob
import numpy as np
out = sys.argv[1]
caps = sorted(glob.glob(out + "/caps/*scale_bias*"))
rec = json.load(open(caps[0] + "/launch.json"))
y = [p for p in rec["pointers"] if p["param"] == 1][0]
mem = [m for m in rec["memory"] if m["name"] == y["memory"]][0]
after = np.load(caps[0] + "/" + mem["after"]).tobytes()
want = open(out + "/plain.bin", "rb").read()
got = after[y["offset"]:y["offset"] + len(want)]
print("scale_bias: saved y == program's output\t%s" % ("PASS" if got == want else "FAIL"))
PYEOF
[ -n "${TABLE:-}" ] && [ -f "$OUT/rows.txt" ] && cat "$OUT/rows.txt" >>"$TABLE"
[ -n "${KEEP:-}" ] && tar czf "$KEEP" -C "$OUT" caps

# Launch-heavy overhead: 20000 launches, the last one captured (--nth 20000).
cat >"$OUT/many.cu" <<'CEOF'
#include <cstdio>
__global__ void tick(float* x) { x[threadIdx.x] += 1.0f; }
int main() {
  float* x; cudaMalloc(&x, 256 * sizeof(float)); cudaMemset(x, 0, 256 * sizeof(float));
  for (int i = 0; i < 20000; ++i) tick<<<1, 256>>>(x);
  float h; cudaMemcpy(&h, x, sizeof h, cudaMemcpyDeviceToHost); std::printf("%g\n", h);
  return 0;
}
CEOF
$NVCC -O2 -arch=sm_90 -o "$OUT/many" "$OUT/many.cu" >>"$OUT/nvcc.log" 2>&1
"$OUT/many" >/dev/null
t0=$(date +%s.%N); "$OUT/many" >/dev/null; t1=$(date +%s.%N)
$G capture --quiet --nth 20000 --out "$OUT/many_caps" -- "$OUT/many" >/dev/null 2>&1
t2=$(date +%s.%N)
GPURUN_CAPTURE="out=$OUT/many_none,kernel=none,quiet" LD_PRELOAD=$PWD/build/libgpurun-capture.so "$OUT/many" >/dev/null 2>&1
t3=$(date +%s.%N)
row "20000 launches: plain / interposed, none selected / 20000th captured" \
  "$(python3 -c "print('%.3f s / %.3f s / %.3f s' % ($t1-$t0, $t3-$t2, $t2-$t1))")"

# 2. CuPy: a RawKernel and CuPy's own elementwise and reduction kernels.
$G capture --all --out "$OUT/cupy" -- python3 - >"$OUT/cupy.txt" 2>"$OUT/cupy.err" <<'PYEOF'
import cupy as cp
k = cp.RawKernel(r'''
extern "C" __global__ void raw_scale(const float* x, float* y, float a, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x; if (i < n) y[i] = a * x[i];
}''', 'raw_scale')
x = cp.arange(4096, dtype=cp.float32)
y = cp.zeros_like(x)
k((16,), (256,), (x, y, cp.float32(3.0), cp.int32(4096)))
z = (x * 2 + 1).sum()
print("cupy", float(y[5]), float(z))
PYEOF
row "cupy under capture (rc $?)" "$(ls "$OUT/cupy" 2>/dev/null | wc -l) captures"
replay_all "$OUT/cupy" 8

# 3. PyTorch (under /opt) and JAX (its platform allocator: one allocation per buffer).
TORCH_PY=$(ls -d /opt/*/bin/python3 2>/dev/null | head -1)
TORCH_PATH=$(ls -d /opt/torch 2>/dev/null)
$G capture --all --out "$OUT/torch" -- env ${TORCH_PATH:+PYTHONPATH=$TORCH_PATH} \
  "${TORCH_PY:-python3}" -c \
  "import torch; a=torch.arange(1024., device='cuda'); b=(a*3).relu().sum(); print('torch', b.item())" \
  >"$OUT/torch.txt" 2>"$OUT/torch.err"
row "torch under capture (rc $?)" "$(ls "$OUT/torch" 2>/dev/null | wc -l) captures"
replay_all "$OUT/torch" 6
XLA_PYTHON_CLIENT_ALLOCATOR=platform $G capture --all --out "$OUT/jax" -- python3 -c \
  "import jax.numpy as jnp; x=jnp.arange(1024.); print('jax', float((x*3+1).sum()))" \
  >"$OUT/jax.txt" 2>"$OUT/jax.err"
row "jax (platform allocator) under capture (rc $?)" "$(ls "$OUT/jax" 2>/dev/null | wc -l) captures"
replay_all "$OUT/jax" 6
# JAX's default: a preallocated pool; the captures hold windows of it.
$G capture --all --out "$OUT/jaxpool" -- python3 -c \
  "import jax.numpy as jnp; x=jnp.arange(1024.); print('jax', float((x*3+1).sum()))" \
  >"$OUT/jaxpool.txt" 2>"$OUT/jaxpool.err"
row "jax (default pool) under capture (rc $?)" "$(ls "$OUT/jaxpool" 2>/dev/null | wc -l) captures, $(du -sh "$OUT/jaxpool" 2>/dev/null | cut -f1)"
replay_all "$OUT/jaxpool" 4

# 4. Programs from elsewhere (EXTRA: .cu files built by nvcc as they are, run without arguments).
for src in ${EXTRA:-}; do
  exe=$OUT/$(basename "$src" .cu)
  $NVCC -O2 -gencode arch=compute_90,code=sm_90 -gencode arch=compute_90,code=compute_90 \
    ${EXTRA_FLAGS:-} -o "$exe" "$src" >>"$OUT/nvcc.log" 2>&1 || { row "$(basename "$src")" "nvcc FAIL"; continue; }
  (cd "$(dirname "$exe")" && timeout 120 "$exe" >"$exe.plain.txt" 2>&1)
  (cd "$(dirname "$exe")" && timeout 300 $G capture --out "$exe.caps" -- "$exe" >"$exe.txt" 2>"$exe.err")
  rc=$?
  same=$(diff -q <(grep -v -i "time\|sec\|ms\b\|GB/s\|GFlop" "$exe.plain.txt") <(grep -v -i "time\|sec\|ms\b\|GB/s\|GFlop" "$exe.txt") >/dev/null && echo "output same" || echo "output DIFFERS")
  row "$(basename "$src") under capture (rc $rc, $same)" "$(ls "$exe.caps" 2>/dev/null | wc -l) captures"
  replay_all "$exe.caps" 4
done

echo
echo "== capture checks"
printf '%s\n' "${rows[@]}"
[ -f "$OUT/rows.txt" ] && sed 's/\t/  →  /' "$OUT/rows.txt"
for f in capture.err cupy.err torch.err jax.err jaxpool.err; do
  [ -s "$OUT/$f" ] && { echo "-- $f (last 4 lines)"; tail -4 "$OUT/$f"; }
done
for f in "$OUT"/*/*/replay_cuda.err "$OUT"/*/*/replay_cpu.err; do
  [ -s "$f" ] && { echo "-- ${f#$OUT/}: $(head -c 300 "$f")"; }
done | head -40
exit 0
