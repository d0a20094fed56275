#!/bin/bash
# Runs every GPU check on a machine with an NVIDIA GPU, from a build folder made elsewhere
# (build/ carried along). Prints a short table last (each row also as it comes, so a run cut short
# still tells). Usage: scripts/gpu-check.sh [OUTDIR]; QUICK=1 leaves out the whole-file, occupancy
# and timing sections (the slow ones) for a short device budget.
set -u
cd "$(dirname "$0")/.."
OUT=${1:-${OUT:-/tmp/gpurun-gpu}}
mkdir -p "$OUT"
BUILD=${BUILD:-build}
export GPURUN_BIN=$PWD/$BUILD/gpurun GPURUN_SOURCE_DIR=$PWD
G=$GPURUN_BIN
declare -a rows

row() { rows+=("$(printf '%-44s %s' "$1" "$2")"); echo "row: ${rows[-1]}"; }
check() { # NAME CMD...: runs CMD, records pass/fail
  local name=$1; shift
  if "$@" >"$OUT/$name.log" 2>&1; then row "$name" "PASS"; else row "$name" "FAIL (rc $?)"; fi
}

nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv,noheader | tee "$OUT/gpu.txt"
$G devices | tee "$OUT/devices.txt"

# 1. gpu-labelled tests (test binaries run directly: ctest paths differ here)
check gpu_tests $BUILD/tests/gpu_tests --gtest_brief=1
check unit_cuda $BUILD/tests/unit_cuda --gtest_brief=1

# 2. every bundled example on CUDA, and bit-for-bit against the CPU backend
for spec in kernels/examples/*.json tests/data/conformance/*.json; do
  name=$(basename "$spec" .json)
  check "example_cuda_$name" $G "$spec" --backend cuda
  rm -rf "$OUT/cmp"; mkdir -p "$OUT/cmp/cuda" "$OUT/cmp/cpu"
  if $G "$spec" --backend cuda --save "$OUT/cmp/cuda" -q >/dev/null 2>&1 &&
     $G "$spec" --backend cpu --save "$OUT/cmp/cpu" -q >/dev/null 2>&1; then
    if ! ls "$OUT/cmp/cuda"/*.npy >/dev/null 2>&1; then
      # no buffers (printf only): compare the device printf lines, in any order
      $G "$spec" --backend cuda -q | sort >"$OUT/cmp/cuda.txt"
      $G "$spec" --backend cpu -q | sort >"$OUT/cmp/cpu.txt"
      if [ -s "$OUT/cmp/cuda.txt" ] && cmp -s "$OUT/cmp/cuda.txt" "$OUT/cmp/cpu.txt"; then
        row "conformance_$name (cuda == cpu)" "PASS ($(wc -l <"$OUT/cmp/cuda.txt") printf lines)"
      else row "conformance_$name (cuda == cpu)" "FAIL (printf output differs)"; fi
      continue
    fi
    if python3 scripts/compare_npy.py "$OUT/cmp/cuda" "$OUT/cmp/cpu" >"$OUT/conf_$name.log" 2>&1; then
      row "conformance_$name (cuda == cpu)" "PASS"
    else row "conformance_$name (cuda == cpu)" "FAIL: $(tail -1 "$OUT/conf_$name.log")"; fi
  else row "conformance_$name (cuda == cpu)" "FAIL (run)"; fi
done

# 2b. PTX made by clang (no NVRTC) runs on the GPU: $CLANG_PTX holds NAME.ptx for specs NAME.json,
# made on a machine with clang by `gpurun compile SPEC_SOURCE --compiler clang --ptx -o NAME.ptx`.
if [ -d "${CLANG_PTX:-}" ]; then
  for ptx in "$CLANG_PTX"/*.ptx; do
    name=$(basename "$ptx" .ptx)
    spec=$(ls kernels/examples/$name.json tests/data/conformance/$name.json 2>/dev/null | head -1)
    [ -n "$spec" ] || continue
    kernel=$(python3 -c "import json,sys;print(json.load(open('$spec')).get('kernel',''))")
    case "$kernel" in *'<'*) continue ;; esac # a template's PTX name is mangled
    check "clang_ptx_cuda_$name" $G "$ptx" --spec "$spec" --backend cuda -q
  done
fi

if [ -z "${QUICK:-}" ]; then
# 2c. whole .cu files (host code and all): cuda == cpu, nvcc, NumPy ports of their CPU references
bash scripts/whole-file-gpu-check.sh "$OUT/whole-file" >"$OUT/whole-file.txt" 2>&1
cat "$OUT/whole-file.txt"

# 2d. compile --occupancy (no GPU involved) against cuOccupancyMaxActiveBlocksPerMultiprocessor
python3 scripts/occupancy-gpu-check.py --gpurun "$G" --out "$OUT/occupancy" >"$OUT/occupancy.log" 2>&1
row "occupancy == driver's" "rc $? ($(tail -1 "$OUT/occupancy.log" | cut -c1-90))"
fi

# 3. threads --run on the GPU
check threads_run_cuda $G threads --run --backend cuda --grid 4,2 --block 8,4,2

# 4. fault and watchdog: exit codes 4 and 124
$G tests/data/e2e/fault.cu --backend cuda --grid 1 --block 32 --arg 'x=f32[8]' >"$OUT/fault.log" 2>&1
row "fault -> exit 4" "rc $? ($(grep -o "CUDA_ERROR_[A-Z_]*" "$OUT/fault.log" | head -1))"
start=$(date +%s.%N)
$G tests/data/e2e/hang.cu --backend cuda --grid 1 --block 1 --arg 'flag=i32[1]:0' --timeout 1 >"$OUT/hang.log" 2>&1
rc=$?; end=$(date +%s.%N)
row "hang --timeout 1 -> exit 124" "rc $rc after $(python3 -c "print(f'{$end-$start:.2f}')") s"

# 5. end-to-end time of scalar_add.json: cold cache vs warm cache, gpurun vs CuPy RawKernel
[ -n "${QUICK:-}" ] || python3 scripts/time_scalar_add.py "$G" "$OUT" >"$OUT/timing.txt"

# phase trace of one warm run (where the end-to-end time goes)
$G kernels/examples/scalar_add.json --backend cuda -q >/dev/null 2>&1
GPURUN_TRACE=1 $G kernels/examples/scalar_add.json --backend cuda -q 2>"$OUT/trace.txt" >/dev/null
cat "$OUT/trace.txt"

TIMING=$(cat "$OUT/timing.txt" 2>/dev/null)
# failed test cases, then everything else packed into one file (the tool returns few files)
grep -h "FAILED\|Failure" "$OUT"/*.log 2>/dev/null | sort -u | head -20
(cd "$OUT" && tar czf /tmp/gpurun-logs.tgz . ; find . -mindepth 1 ! -name timing.json -delete; mv /tmp/gpurun-logs.tgz logs.tgz)

echo
echo "==== gpurun GPU checks ===="
printf '%s\n' "${rows[@]}"
echo "$TIMING"
