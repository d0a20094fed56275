#!/bin/bash
# `gpurun capture` on a machine with an NVIDIA GPU: programs of each kind record their launches,
# run unchanged, and the captures hold what the programs computed. From a build folder made
# elsewhere (build/ carried along); prints a table last. Usage: scripts/capture-gpu-check.sh [OUTDIR]
set -u
cd "$(dirname "$0")/.."
OUT=${1:-${OUT:-/tmp/gpurun-capture}}
rm -rf "$OUT"; mkdir -p "$OUT"
G=$PWD/${BUILD:-build}/gpurun
NVCC=${NVCC:-/usr/local/cuda/bin/nvcc}
declare -a rows
row() { rows+=("$(printf '%-52s %s' "$1" "$2")"); }
py() { python3 - "$@"; }

# 1. A runtime-API program built by nvcc (static cudart: cuGetProcAddress, lazy loading).
app=$OUT/saxpy_app
$NVCC -O2 -arch=sm_90 -gencode arch=compute_90,code=compute_90 -o "$app" \
  tests/data/capture/saxpy_app.cu >"$OUT/nvcc.log" 2>&1 || row "nvcc saxpy_app" "FAIL (see nvcc.log)"
"$app" 5000 "$OUT/plain.bin" >"$OUT/plain.txt" 2>&1
t0=$(date +%s.%N)
"$app" 5000 "$OUT/plain2.bin" >/dev/null 2>&1
t1=$(date +%s.%N)
$G capture --all --out "$OUT/caps" -- "$app" 5000 "$OUT/captured.bin" >"$OUT/captured.txt" \
  2>"$OUT/capture.err"
rc=$?
t2=$(date +%s.%N)
if [ $rc -eq 0 ] && cmp -s "$OUT/plain.bin" "$OUT/captured.bin" && \
   diff -q <(grep '^n=' "$OUT/plain.txt") <(grep '^n=' "$OUT/captured.txt") >/dev/null; then
  row "saxpy_app runs unchanged under capture" "PASS"
else row "saxpy_app runs unchanged under capture" "FAIL (rc $rc)"; fi
row "saxpy_app captures" "$(ls "$OUT/caps" 2>/dev/null | tr '\n' ' ')"
# The last launch (scale_bias) wrote y, 64 floats into its allocation: the capture's after-image
# holds exactly what the program copied back.
py "$OUT" <<'PYEOF' >>"$OUT/rows.txt"
import json, sys, os, glob
out = sys.argv[1]
caps = sorted(glob.glob(out + "/caps/*scale_bias*"))
if not caps:
    print("scale_bias capture\tFAIL (none)"); sys.exit()
rec = json.load(open(caps[0] + "/launch.json"))
ptrs = rec["pointers"]
y = [p for p in ptrs if p["param"] == 1][0]
mem = [m for m in rec["memory"] if m["name"] == y["memory"]][0]
after = open(caps[0] + "/" + mem["after"], "rb").read()
want = open(out + "/plain.bin", "rb").read()
got = after[y["offset"]:y["offset"] + len(want)]
s = [p for p in ptrs if p["param"] == 0]
print("scale_bias capture: y at offset %d, struct pointer at +%d\t%s" % (
    y["offset"], s[0]["offset_in_param"] if s else -1,
    "PASS (after == program's output, %d bytes)" % len(want) if got == want else "FAIL"))
print("scale_bias capture: complete, module %s, %s\t%s" % (rec["module_kind"], rec["arch"],
    "PASS" if rec["complete"] else "FAIL " + "; ".join(rec["incomplete"])))
sx = sorted(glob.glob(out + "/caps/*saxpy*"))
print("saxpy launches captured\t%d (want 3)" % len(sx))
PYEOF
row "capture overhead (whole program, --all)" \
  "$(python3 -c "print('%.3f s plain, %.3f s captured' % ($t1-$t0, $t2-$t1))")"

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
row "cupy under capture (rc $?)" "$(ls "$OUT/cupy" 2>/dev/null | wc -l) captures: $(ls "$OUT/cupy" 2>/dev/null | head -4 | tr '\n' ' ')"

# 3. PyTorch (under /opt) and JAX.
TORCH_PY=$(ls -d /opt/*/bin/python3 2>/dev/null | head -1)
if [ -n "$TORCH_PY" ]; then
  $G capture --kernel '*' --out "$OUT/torch" -- "$TORCH_PY" -c \
    "import torch; a=torch.arange(1024., device='cuda'); b=(a*3).relu().sum(); print('torch', b.item())" \
    >"$OUT/torch.txt" 2>"$OUT/torch.err"
  row "torch under capture (rc $?)" "$(ls "$OUT/torch" 2>/dev/null | wc -l) captures: $(ls "$OUT/torch" 2>/dev/null | head -3 | tr '\n' ' ')"
else row "torch" "not found under /opt"; fi
$G capture --kernel '*' --out "$OUT/jax" -- python3 -c \
  "import jax.numpy as jnp; x=jnp.arange(1024.); print('jax', float((x*3+1).sum()))" \
  >"$OUT/jax.txt" 2>"$OUT/jax.err"
row "jax under capture (rc $?)" "$(ls "$OUT/jax" 2>/dev/null | wc -l) captures: $(ls "$OUT/jax" 2>/dev/null | head -3 | tr '\n' ' ')"

echo
echo "== capture checks"
printf '%s\n' "${rows[@]}"
[ -f "$OUT/rows.txt" ] && sed 's/\t/  →  /' "$OUT/rows.txt"
for f in capture.err cupy.err torch.err jax.err; do
  [ -s "$OUT/$f" ] && { echo "-- $f (last 6 lines)"; tail -6 "$OUT/$f"; }
done
exit 0
