#!/bin/bash
# `gpurun bench` against independent references on an NVIDIA GPU (docs/bench.md, "Measured"):
#   1. the median of a 1 GiB float4 copy next to cupyx.profiler.benchmark of the same kernel;
#   2. the run-to-run variation of that median over 5 runs;
#   3. --batch per launch of an empty kernel next to a raw cuLaunchKernel loop (gpu_tests);
#   4. the bundled stream kernels' bandwidth, and a 20-case suite's overhead (wall / sampling).
# Usage: BUILD=build scripts/bench-gpu-check.sh [OUTDIR]; prints a table last.
set -u
cd "$(dirname "$0")/.."
OUT=${1:-/tmp/gpurun-bench-gpu}
mkdir -p "$OUT"
BUILD=${BUILD:-build}
G=$PWD/$BUILD/gpurun
N=$((1 << 26)) # float4 elements: 1 GiB per buffer
run_args=(tests/data/bench/copy_float4.cu --kernel copy4 --backend cuda --grid $((N / 256))
  --block 256 --arg "in=f32[$((4 * N))]:1" --arg "out=f32[$((4 * N))]:0" --arg "n=$N")
copy_args=("${run_args[@]}" --bytes "$((32 * N))")

for i in 1 2 3 4 5; do
  "$G" bench "${copy_args[@]}" --json "$OUT/copy_$i.json" >"$OUT/copy_$i.txt" 2>&1
done
"$G" bench "${copy_args[@]}" --no-hold --json "$OUT/copy_nohold.json" >"$OUT/copy_nohold.txt" 2>&1
"$G" bench "${copy_args[@]}" --hot --json "$OUT/copy_hot.json" >"$OUT/copy_hot.txt" 2>&1
"$G" bench "${copy_args[@]}" --hot --no-hold --json "$OUT/copy_hot_nohold.json" >"$OUT/copy_hot_nohold.txt" 2>&1
"$G" bench "${copy_args[@]}" --batch --json "$OUT/copy_batch.json" >"$OUT/copy_batch.txt" 2>&1
"$G" run "${run_args[@]}" --repeat 200 --print none --json >"$OUT/copy_repeat.json" 2>/dev/null

python3 - "$N" "$OUT" <<'PY' >"$OUT/cupy.txt" 2>&1
import sys
import cupy as cp
from cupyx.profiler import benchmark
n, out = int(sys.argv[1]), sys.argv[2]
src = open("tests/data/bench/copy_float4.cu").read()
k = cp.RawKernel(src, "copy4")
a = cp.ones(4 * n, dtype=cp.float32)
b = cp.zeros(4 * n, dtype=cp.float32)
r = benchmark(lambda: k((n // 256,), (256,), (a, b, cp.uint64(n))), n_repeat=500, n_warmup=20)
import numpy as np
print("CUPY_MEDIAN_S", float(np.median(r.gpu_times[0])))
# The same kernel called without the lambda, and CuPy's own launch-free figure: events around 20
# back-to-back launches (the queue stays full, so no launch gap is timed), per launch.
r = benchmark(k, ((n // 256,), (256,), (a, b, cp.uint64(n))), n_repeat=500, n_warmup=20)
print("CUPY_DIRECT_S", float(np.median(r.gpu_times[0])))
start, stop = cp.cuda.Event(), cp.cuda.Event()
per = []
for _ in range(40):
    start.record()
    for _ in range(20):
        k((n // 256,), (256,), (a, b, cp.uint64(n)))
    stop.record()
    stop.synchronize()
    per.append(cp.cuda.get_elapsed_time(start, stop) / 1e3 / 20)
print("CUPY_BATCH_S", float(np.median(per)))
PY

"$BUILD"/tests/gpu_tests --gtest_filter='BenchGpuTest.*' >"$OUT/batch_vs_raw.txt" 2>&1
"$G" bench tests/data/bench/copy_float4.cu --kernel empty_kernel --backend cuda --grid 1 \
  --block 32 --batch --json "$OUT/empty_batch.json" >"$OUT/empty_batch.txt" 2>&1

# Bandwidth of the bundled stream kernels at their largest size.
"$G" bench kernels/suites/stream.json --backend cuda --filter '^(copy|mul|add|triad)/N:268435456$' \
  --json "$OUT/stream.json" >"$OUT/stream.txt" 2>&1
cat "$OUT/stream.txt"
# Overhead: 20 cases (four kernels, five sizes) against the sampling time they report.
start=$(date +%s.%N)
"$G" bench kernels/suites/stream.json --backend cuda --filter '^(copy|mul|add|triad)/' \
  -a 'N[pow2]=[20:24]' --json "$OUT/overhead.json" >"$OUT/overhead.txt" 2>&1
end=$(date +%s.%N)
echo "$start $end" >"$OUT/overhead_wall.txt"
cat "$OUT/overhead.txt"

python3 - "$OUT" <<'PY'
import json, statistics, sys
out = sys.argv[1]
def median_s(path):
    d = json.load(open(path))
    return [b for b in d["benchmarks"] if b["run_type"] == "iteration"][0]["gpurun"]["median_s"]
rows = []
meds = [median_s(f"{out}/copy_{i}.json") for i in range(1, 6)]
cupy = float(open(f"{out}/cupy.txt").read().split("CUPY_MEDIAN_S")[1].split()[0])
rows.append(("1 GiB float4 copy: gpurun median / CuPy median", f"{meds[0]*1e3:.4f} ms / {cupy*1e3:.4f} ms = {meds[0]/cupy:.4f} (goal within 1%)"))
nh = median_s(f"{out}/copy_nohold.json")
rows.append(("  the same with --no-hold / CuPy median", f"{nh*1e3:.4f} ms / {cupy*1e3:.4f} ms = {nh/cupy:.4f}"))
cupy_txt = open(f"{out}/cupy.txt").read()
def cupy_fig(key):
    return float(cupy_txt.split(key)[1].split()[0])
direct, batch = cupy_fig("CUPY_DIRECT_S"), cupy_fig("CUPY_BATCH_S")
rows.append(("  CuPy benchmark(k, args) without the lambda", f"{direct*1e3:.4f} ms"))
rows.append(("  CuPy 20 launches between two events, per launch", f"{batch*1e3:.4f} ms"))
rows.append(("  gpurun median / CuPy launch-free per launch", f"{meds[0]/batch:.4f}"))
for mode in ("hot", "hot_nohold", "batch"):
    try:
        m = median_s(f"{out}/copy_{mode}.json")
        rows.append((f"  --{mode.replace('_', ' --').replace('nohold', 'no-hold')} median / CuPy median", f"{m*1e3:.4f} ms / {cupy*1e3:.4f} ms = {m/cupy:.4f}"))
    except Exception as e:
        rows.append((f"  {mode}", f"FAILED: {e}"))
try:
    rep = json.load(open(f"{out}/copy_repeat.json"))["timings_ms"]["kernel_samples"]
    rm = statistics.median(rep[1:]) / 1e3
    rows.append(("  gpurun run --repeat 200 median / CuPy median", f"{rm*1e3:.4f} ms / {cupy*1e3:.4f} ms = {rm/cupy:.4f}"))
except Exception as e:
    rows.append(("  gpurun run --repeat 200", f"FAILED: {e}"))
spread = (max(meds) - min(meds)) / statistics.median(meds)
rows.append(("copy median over 5 runs: (max-min)/median", f"{spread*100:.2f}% (goal <= 1%)  " + ", ".join(f"{m*1e3:.4f}" for m in meds)))
bw = 2 * 16 * (1 << 26) / meds[0] / 1e9
rows.append(("copy bandwidth (read + write)", f"{bw:.0f} GB/s"))
raw = [l for l in open(f"{out}/batch_vs_raw.txt") if l.startswith("BATCH_VS_RAW")]
empty = json.load(open(f"{out}/empty_batch.json"))
eb = [b for b in empty["benchmarks"] if b["run_type"] == "iteration"][0]["gpurun"]["median_s"]
if raw:
    _, batch_us, raw_us = raw[0].split()
    rows.append(("empty kernel: bench --batch / raw cuLaunchKernel loop", f"{eb*1e6:.4f} us / {float(raw_us):.4f} us = {eb*1e6/float(raw_us):.4f} (goal within 5%)"))
    rows.append(("empty kernel: execute_sample batch / raw loop", f"{float(batch_us):.4f} / {float(raw_us):.4f} = {float(batch_us)/float(raw_us):.4f}"))
try:
    s = json.load(open(f"{out}/stream.json"))
    for b in s["benchmarks"]:
        if b["run_type"] != "iteration":
            continue
        g = b["gpurun"]
        if g["status"] == "ok" and g.get("bandwidth_gbs"):
            goal = " (goal >= 4100)" if g["case"] == "copy" else ""
            rows.append((f"stream {b['name']}: GB/s, noise", f"{g['bandwidth_gbs']:.0f}{goal}, {g['noise']*100:.2f}%"))
except Exception as e:
    rows.append(("stream suite", f"FAILED: {e}"))
try:
    o = json.load(open(f"{out}/overhead.json"))
    it = [b for b in o["benchmarks"] if b["run_type"] == "iteration"]
    start, end = map(float, open(f"{out}/overhead_wall.txt").read().split())
    sampling = sum(b["gpurun"].get("wall_s", 0) for b in it)
    ok = sum(1 for b in it if b["gpurun"]["status"] == "ok")
    rows.append((f"suite of {len(it)} cases ({ok} ok): wall / sampling", f"{end-start:.2f} s / {sampling:.2f} s = {(end-start)/sampling:.3f} (goal <= 1.3)"))
except Exception as e:
    rows.append(("overhead suite", f"FAILED: {e}"))
print()
for name, value in rows:
    print(f"{name:<56} {value}")
PY
