#!/bin/bash
# The OpenCL backend on a machine with an NVIDIA GPU (build/ carried along): finds NVIDIA's OpenCL
# library in the driver, also where no ICD file names it (OCL_ICD_VENDORS then points the loader
# at a private folder), runs the bundled .cl examples there and against their CUDA twins, the
# fault and hang checks, and the portable suite on NVIDIA's OpenCL against the same kernels on
# CUDA. Prints a short table last. Usage: scripts/opencl-gpu-check.sh [OUTDIR]
set -u
cd "$(dirname "$0")/.."
OUT=${1:-/tmp/gpurun-opencl-gpu}
mkdir -p "$OUT"
G=${GPURUN_BIN:-$PWD/build/gpurun}
declare -a rows
row() { rows+=("$(printf '%-46s %s' "$1" "$2")"); echo "row: ${rows[-1]}"; }

echo "== ICD files in /etc/OpenCL/vendors:"; ls -l /etc/OpenCL/vendors 2>&1; cat /etc/OpenCL/vendors/* 2>/dev/null
lib=$(ldconfig -p | awk '/libnvidia-opencl\.so/ {print $NF; exit}')
[ -n "$lib" ] || lib=$(find / -xdev -name 'libnvidia-opencl.so*' 2>/dev/null | head -1)
row "NVIDIA OpenCL library" "${lib:-not found}"
if [ -n "$lib" ] && ! grep -qs nvidia /etc/OpenCL/vendors/*; then
  mkdir -p "$OUT/vendors"
  echo "$lib" >"$OUT/vendors/nvidia.icd"
  for f in /etc/OpenCL/vendors/*.icd; do [ -f "$f" ] && cp "$f" "$OUT/vendors/"; done
  export OCL_ICD_VENDORS=$OUT/vendors
  row "ICD file" "none in /etc: OCL_ICD_VENDORS=$OCL_ICD_VENDORS"
fi
$G devices | tee "$OUT/devices.txt"
dev=$($G devices --json | python3 -c '
import json,sys
for b in json.load(sys.stdin)["backends"]:
    if b["name"] == "opencl":
        for i, d in enumerate(b.get("devices", [])):
            if "NVIDIA" in d["name"] or "NVIDIA" in d.get("vendor", ""):
                print(i); break')
row "NVIDIA OpenCL device" "$([ -n "$dev" ] && echo "opencl:$dev" || echo none)"
if [ -n "$dev" ]; then
  for spec in kernels/examples/opencl/*.json; do
    name=$(basename "$spec" .json)
    rm -rf "$OUT/cmp"; mkdir -p "$OUT/cmp"
    if $G "$spec" --backend opencl --device "$dev" -q --save "$OUT/cmp/cl" >"$OUT/$name.log" 2>&1; then
      if ls "$OUT/cmp/cl"/*.npy >/dev/null 2>&1 && [ "$name" != polynomial ] &&
         $G "kernels/examples/$name.json" --backend cuda -q --save "$OUT/cmp/cu" >/dev/null 2>&1; then
        python3 scripts/compare_npy.py "$OUT/cmp/cu" "$OUT/cmp/cl" >"$OUT/cmp_$name.log" 2>&1 &&
          row "opencl $name (== cuda twin)" "PASS" || row "opencl $name (== cuda twin)" "FAIL: $(tail -1 "$OUT/cmp_$name.log")"
      else row "opencl $name" "PASS ($(wc -l <"$OUT/$name.log") lines)"; fi
    else row "opencl $name" "FAIL (rc $?): $(tail -1 "$OUT/$name.log")"; fi
  done
  $G tests/data/opencl/build_error.cl --backend opencl --device "$dev" --grid 1 --block 1 --arg x=f32[1] >"$OUT/build_error.log" 2>&1
  row "build error -> exit 3" "rc $? ($(grep -o 'build_error.cl:[0-9]*:[0-9]*' "$OUT/build_error.log" | head -1))"
  $G tests/data/opencl/fault.cl --backend opencl --device "$dev" --grid 1 --block 4 --arg x=f32[8] >"$OUT/fault.log" 2>&1
  row "fault -> exit 4" "rc $? ($(grep -o 'CL_[A-Z_]*' "$OUT/fault.log" | head -1))"
  start=$(date +%s.%N)
  $G tests/data/opencl/hang.cl --backend opencl --device "$dev" --grid 1 --block 1 --arg flag=i32[1]:0 --timeout 1 >"$OUT/hang.log" 2>&1
  rc=$?; end=$(date +%s.%N)
  row "hang --timeout 1 -> exit 124" "rc $rc after $(python3 -c "print(f'{$end-$start:.2f}')") s"
  # The portable suite: NVIDIA's OpenCL against CUDA, same kernels, same GPU.
  $G bench kernels/suites/portable/cuda.json --backend cuda --json "$OUT/bench-cuda.json" >"$OUT/bench-cuda.log" 2>&1
  row "bench portable on cuda" "rc $?"
  $G bench kernels/suites/portable/opencl.json --backend opencl --device "$dev" --json "$OUT/bench-opencl.json" >"$OUT/bench-opencl.log" 2>&1
  row "bench portable on NVIDIA OpenCL" "rc $?"
  python3 - "$OUT" <<'PY'
import json, sys
out = sys.argv[1]
def load(name):
    try:
        return {b["name"]: b for b in json.load(open(f"{out}/{name}"))["benchmarks"]}
    except Exception as e:
        return {}
cu, cl = load("bench-cuda.json"), load("bench-opencl.json")
def med(b):
    s = sorted(b["gpurun"]["samples_s"]); return 1e6 * s[len(s) // 2]
cu = {n: b for n, b in cu.items() if "gpurun" in b}
cl = {n: b for n, b in cl.items() if "gpurun" in b}
print("| case | CUDA µs | NVIDIA OpenCL µs | OpenCL / CUDA |")
print("|---|---:|---:|---:|")
for n in cu:
    if n in cl:
        print(f"| {n} | {med(cu[n]):.1f} | {med(cl[n]):.1f} | {med(cl[n]) / med(cu[n]):.2f} |")
PY
fi
grep -h "error" "$OUT"/print_threads.log "$OUT"/polynomial.log 2>/dev/null | head -20
# everything in one file (the tool returns few files)
(cd "$OUT" && tar czf /tmp/gpurun-opencl-logs.tgz --exclude=vendors . && find . -mindepth 1 -maxdepth 1 ! -name '*.json' -exec rm -rf {} + ; mv /tmp/gpurun-opencl-logs.tgz logs.tgz)
echo
echo "==== gpurun OpenCL GPU checks ===="
printf '%s\n' "${rows[@]}"
