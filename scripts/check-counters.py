#!/usr/bin/env python3
"""Compares gpurun's hardware counters (--metrics) with Nsight Compute's on the same launch.

For each case of the bundled suites it runs `gpurun bench SUITE --filter CASE --metrics ...
--json` (the counters of the case's first launch, replayed from its inputs), then Nsight Compute
on the same command without --metrics, profiling that first launch (`ncu --launch-count 1`):
once with ncu's defaults (clocks locked to base, caches flushed) and once with
`--clock-control none` (clocks as gpurun leaves them). Counts are compared with the first,
metrics that depend on the clock (durations, rates, clocks) with the second. Prints one line per
metric and case and a summary table last; exits 1 when any difference is above --tolerance.

Usage: scripts/check-counters.py [--gpurun build/gpurun] [--ncu ncu] [--out DIR]
                                 [--tolerance 0.02] [--quick]
"""
import argparse
import csv
import io
import json
import os
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))

# Metrics whose value follows the clock the kernel ran at: compared with ncu --clock-control none.
CLOCKED = ("gpu__time_duration", "per_second", "pct_of_peak_sustained_elapsed", "elapsed.avg")

# (suite, case filter, axis override)
CASES = [
    ("stream", "^copy/", "N[pow2]=[24:24]"),
    ("stream", "^triad/", "N[pow2]=[24:24]"),
    ("stream", "^mul_float/", "N[pow2]=[26:26]"),
    ("stream", "^add/", "N[pow2]=[26:26]"),
    ("transpose", "^naive/", "N[pow2]=[12:12]"),
    ("transpose", "^tiled/", "N[pow2]=[12:12]"),
    ("reduce", "^sum/", "N[pow2]=[24:24]"),
    ("reduce", "^sum_naive/", "N[pow2]=[24:24]"),
    ("matmul", "^naive/", "N[pow2]=[10:10]"),
    ("matmul", "^tiled/", "N[pow2]=[11:11]"),
]

EXTRA = [
    "dram__bytes_read.sum",
    "dram__bytes_write.sum",
    "lts__t_bytes.sum",
    "l1tex__t_bytes.sum",
    "smsp__inst_executed.sum",
    "sm__throughput.avg.pct_of_peak_sustained_elapsed",
    "launch__grid_size",
]


def roofline_metrics(gpurun):
    """The preset's names, as gpurun reports them (from a run that only lists them)."""
    names = ["gpu__time_duration.sum", "dram__bytes.sum",
             "sm__warps_active.avg.pct_of_peak_sustained_active"]
    for p in "fdh":
        for op in ("add", "mul", "fma"):
            names.append(f"smsp__sass_thread_inst_executed_op_{p}{op}_pred_on.sum")
    names += ["sm__cycles_elapsed.avg.per_second", "dram__cycles_elapsed.avg.per_second",
              "dram__bytes.sum.peak_sustained"]
    for p in "fdh":
        names.append(f"sm__sass_thread_inst_executed_op_{p}fma_pred_on.sum.peak_sustained")
    return names


def bench_command(gpurun, suite, case, axis):
    return [gpurun, "bench", os.path.join(ROOT, "kernels/suites", suite + ".json"),
            "--filter", case, "-a", axis, "--max-samples", "5", "--min-samples", "5",
            "--min-time", "0", "--backend", "cuda"]


def ncu_values(ncu, command, metrics, out_csv, clock_control):
    argv = [ncu, "--csv", "--print-units", "base", "--log-file", out_csv, "--launch-count", "1",
            "--kernel-name-base", "function", "--metrics", ",".join(metrics)]
    if clock_control:
        argv += ["--clock-control", clock_control]
    subprocess.run(argv + command, check=True, stdout=subprocess.DEVNULL,
                   stderr=subprocess.PIPE)
    values = {}
    with open(out_csv, newline="") as f:
        text = f.read()
    # The log may start with ncu's own lines ("==PROF== ..."); the table starts at its header.
    start = text.find('"ID"')
    for row in csv.DictReader(io.StringIO(text[start:])):
        raw = row["Metric Value"].replace(",", "")
        try:
            values[row["Metric Name"]] = float(raw)
        except ValueError:
            pass
    return values


def relative(a, b):
    if a == b:
        return 0.0
    if b == 0:
        return float("inf")
    return abs(a - b) / abs(b)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--gpurun", default=os.path.join(ROOT, "build", "gpurun"))
    ap.add_argument("--ncu", default="ncu")
    ap.add_argument("--out", default="/tmp/gpurun-check-counters")
    ap.add_argument("--tolerance", type=float, default=0.02)
    ap.add_argument("--quick", action="store_true", help="two cases only")
    args = ap.parse_args()
    os.makedirs(args.out, exist_ok=True)
    gpurun_metrics = roofline_metrics(args.gpurun) + [m for m in EXTRA if "__" in m]
    # launch__ metrics are Nsight Compute's own, not CUPTI's: gpurun rejects them (exit 2).
    gpurun_metrics = [m for m in gpurun_metrics if not m.startswith("launch__")]
    rows = []
    worst = {}
    cases = CASES[:2] if args.quick else CASES
    for suite, case, axis in cases:
        label = f"{suite}/{case.strip('^/')}"
        result = os.path.join(args.out, f"{suite}-{case.strip('^/')}.json")
        command = bench_command(args.gpurun, suite, case, axis)
        done = subprocess.run(command + ["--metrics", ",".join(gpurun_metrics), "--json",
                                         result], capture_output=True, text=True)
        if done.returncode != 0:
            print(f"{label}: gpurun failed ({done.returncode}): {done.stderr.strip()}")
            rows.append((label, "(gpurun failed)", None, None, None))
            continue
        with open(result) as f:
            doc = json.load(f)
        entry = next(b["gpurun"] for b in doc["benchmarks"] if "gpurun" in b)
        ours = {k: v["value"] for k, v in entry["counters"]["metrics"].items()}
        base = ncu_values(args.ncu, command, gpurun_metrics,
                          os.path.join(args.out, f"{suite}-{case.strip('^/')}-ncu.csv"), None)
        free = ncu_values(args.ncu, command, gpurun_metrics,
                          os.path.join(args.out, f"{suite}-{case.strip('^/')}-ncu-none.csv"),
                          "none")
        for metric in gpurun_metrics:
            clocked = any(part in metric for part in CLOCKED)
            reference = (free if clocked else base).get(metric)
            value = ours.get(metric)
            if reference is None or value is None:
                rows.append((label, metric, value, reference, None))
                continue
            diff = relative(value, reference)
            rows.append((label, metric, value, reference, diff))
            worst[metric] = max(worst.get(metric, 0.0), diff)
            print(f"{label:22} {metric:62} gpurun {value:>16.6g}  ncu{' (clocks free)' if clocked else ''} "
                  f"{reference:>16.6g}  {100 * diff:6.2f}%")
    print("\n== largest difference per metric, over the cases (tolerance "
          f"{100 * args.tolerance:.1f}%)")
    failed = False
    for metric in gpurun_metrics:
        if metric not in worst:
            print(f"  {metric:62} no comparison")
            continue
        flag = "ok" if worst[metric] <= args.tolerance else "ABOVE"
        failed = failed or worst[metric] > args.tolerance
        print(f"  {metric:62} {100 * worst[metric]:7.3f}%  {flag}")
    missing = [r for r in rows if r[4] is None]
    if missing:
        print(f"{len(missing)} comparisons without a value on one side")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
