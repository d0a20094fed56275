#!/usr/bin/env python3
"""End-to-end timing of kernels/examples/scalar_add.json on the GPU: gpurun with a cold and a warm
compile cache (whole process, with gpurun's own breakdown), and CuPy's RawKernel doing the same
job (compile, 20 floats filled 0..19, + 20.0, copy back) cold and warm, measured in the same run.
Usage: time_scalar_add.py GPURUN_BIN OUTDIR"""
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time

gpurun, out_dir = sys.argv[1], sys.argv[2]
RUNS = 7

CUPY_JOB = r'''
import numpy as np, cupy as cp
src = open("kernels/examples/scalar_add.cu").read()
k = cp.RawKernel(src, "scalar_add")
v = cp.asarray(np.arange(20, dtype=np.float32))
k((1,), (20,), (v, np.int32(20), np.float32(20.0)))
cp.cuda.runtime.deviceSynchronize()
r = cp.asnumpy(v)
assert r[0] == 20.0 and r[19] == 39.0, r
print(r)
'''


def wall(cmd, env):
    start = time.perf_counter()
    p = subprocess.run(cmd, env=env, capture_output=True, text=True)
    elapsed = time.perf_counter() - start
    if p.returncode != 0:
        raise SystemExit(f"{cmd} failed ({p.returncode}): {p.stderr}")
    return elapsed, p.stdout


def measure_gpurun(cold):
    walls, breakdowns = [], []
    warm_dir = tempfile.mkdtemp()
    for _ in range(RUNS):
        env = dict(os.environ, GPURUN_CACHE_DIR=tempfile.mkdtemp() if cold else warm_dir)
        if not cold and not breakdowns and not walls:
            wall([gpurun, "kernels/examples/scalar_add.json", "--backend", "cuda"], env)  # fill
        t, out = wall([gpurun, "kernels/examples/scalar_add.json", "--backend", "cuda", "--json"], env)
        walls.append(t)
        breakdowns.append(json.loads(out)["timings_ms"])
    return walls, breakdowns


def measure_cupy(cold):
    walls = []
    warm_dir = tempfile.mkdtemp()
    for i in range(RUNS + (0 if cold else 1)):
        env = dict(os.environ, CUPY_CACHE_DIR=tempfile.mkdtemp() if cold else warm_dir)
        t, _ = wall([sys.executable, "-c", CUPY_JOB], env)
        if not cold and i == 0:
            continue  # fills the cache
        walls.append(t)
    return walls


def med(xs):
    return statistics.median(xs)


rows = []
results = {}
for label, cold in (("cold", True), ("warm", False)):
    walls, bd = measure_gpurun(cold)
    keys = [k for k in ("init", "context", "compile", "load", "h2d", "kernel", "d2h", "total") if k in bd[0]]
    breakdown = {k: med([b[k] for b in bd]) for k in keys}
    # process start + teardown: what the whole process took beyond main()'s own clock
    breakdown["outside_main"] = med([w * 1000 - b["total"] for w, b in zip(walls, bd)])
    results[f"gpurun_{label}"] = {"wall_s": walls, "breakdown_ms": breakdown}
    rows.append((f"gpurun scalar_add.json, {label} cache", med(walls), breakdown))
try:
    for label, cold in (("cold", True), ("warm", False)):
        walls = measure_cupy(cold)
        results[f"cupy_{label}"] = {"wall_s": walls}
        rows.append((f"CuPy RawKernel, {label} cache", med(walls), None))
except SystemExit as e:
    rows.append(("CuPy RawKernel", float("nan"), {"error": str(e)[:80]}))

with open(os.path.join(out_dir, "timing.json"), "w") as f:
    json.dump(results, f, indent=1)
print(f"{'end-to-end (median of %d)' % RUNS:<40} {'wall s':>8}  breakdown ms")
for name, w, b in rows:
    extra = "" if not b else " ".join(f"{k}={v:.2f}" if isinstance(v, float) else f"{k}={v}" for k, v in b.items())
    print(f"{name:<40} {w:8.3f}  {extra}")
g = {r[0]: r[1] for r in rows}
try:
    print(f"ratio CuPy/gpurun: warm {g['CuPy RawKernel, warm cache'] / g['gpurun scalar_add.json, warm cache']:.1f}x, "
          f"cold {g['CuPy RawKernel, cold cache'] / g['gpurun scalar_add.json, cold cache']:.1f}x")
except (KeyError, ZeroDivisionError):
    pass
