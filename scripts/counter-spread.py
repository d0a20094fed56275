#!/usr/bin/env python3
"""How much hardware counters vary from one profiled launch to the next, for gpurun and for
Nsight Compute, on the same cases: the floor under any comparison of the two.

For each case it runs `gpurun bench ... --metrics M --json` and `ncu --metrics M` (its default
cache control, and --cache-control none) REPEAT times each, and prints per metric the range of
each tool's values (as % of their median) and the distance between the two medians. ncu runs
twice: with its defaults (caches flushed, clocks locked to base) and with --clock-control none
(clocks free, as gpurun leaves them); durations compare with the second, counts with the first.

Usage: scripts/counter-spread.py [--gpurun build/gpurun] [--ncu ncu] [--repeat 3] [--out DIR]
"""
import argparse
import json
import os
import statistics
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import importlib.util

spec = importlib.util.spec_from_file_location(
    "check_counters", os.path.join(os.path.dirname(os.path.abspath(__file__)), "check-counters.py"))
cc = importlib.util.module_from_spec(spec)
spec.loader.exec_module(cc)

METRICS = ["dram__bytes_read.sum", "dram__bytes_write.sum", "lts__t_bytes.sum",
           "gpu__time_duration.sum"]
CASES = [
    ("stream", "^copy/", "N[pow2]=[24:24]"),
    ("reduce", "^sum/", "N[pow2]=[24:24]"),
    ("transpose", "^naive/", "N[pow2]=[12:12]"),
    ("matmul", "^naive/", "N[pow2]=[10:10]"),
]


def spread(values):
    m = statistics.median(values)
    return m, (100.0 * (max(values) - min(values)) / m) if m else 0.0


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--gpurun", default=os.path.join(cc.ROOT, "build", "gpurun"))
    ap.add_argument("--ncu", default="ncu")
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--out", default="/tmp/gpurun-counter-spread")
    args = ap.parse_args()
    os.makedirs(args.out, exist_ok=True)
    print(f"{'case':18} {'metric':24} {'gpurun median':>14} {'range':>7} "
          f"{'ncu median':>14} {'range':>7} {'ncu clk free':>14} {'range':>7} {'gpurun/ncu':>10}")
    for suite, case, axis in CASES:
        label = f"{suite}/{case.strip('^/')}"
        command = cc.bench_command(args.gpurun, suite, case, axis)
        ours, ncu_all, ncu_none = {m: [] for m in METRICS}, {m: [] for m in METRICS}, {m: [] for m in METRICS}
        for i in range(args.repeat):
            result = os.path.join(args.out, f"{suite}-{i}.json")
            done = subprocess.run(command + ["--metrics", ",".join(METRICS), "--json", result],
                                  capture_output=True, text=True)
            if done.returncode != 0:
                print(f"{label}: gpurun failed: {done.stderr.strip()}")
                break
            with open(result) as f:
                entry = next(b["gpurun"] for b in json.load(f)["benchmarks"] if "gpurun" in b)
            for m in METRICS:
                ours[m].append(entry["counters"]["metrics"][m]["value"])
            for target, control in ((ncu_all, None), (ncu_none, "none")):
                values = cc.ncu_values(args.ncu, command, METRICS,
                                       os.path.join(args.out, f"{suite}-{i}-{control}.csv"), control)
                for m in METRICS:
                    if m in values:
                        target[m].append(values[m])
        for m in METRICS:
            if not ours[m] or not ncu_all[m] or not ncu_none[m]:
                continue
            (om, orng), (am, arng), (nm, nrng) = spread(ours[m]), spread(ncu_all[m]), spread(ncu_none[m])
            ref = nm if m.startswith("gpu__time") else am
            gap = f"{100 * (om - ref) / ref:+9.1f}%" if ref else f"{om - ref:+10.4g}"
            print(f"{label:18} {m:24} {om:14.6g} {orng:6.1f}% {am:14.6g} {arng:6.1f}% "
                  f"{nm:14.6g} {nrng:6.1f}% {gap}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
