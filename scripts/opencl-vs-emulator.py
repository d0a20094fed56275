#!/usr/bin/env python3
"""The same kernels in CUDA on the CPU backend (the PTX emulator) and in OpenCL C on an OpenCL
platform of the same machine (PoCL), in one run: kernels/suites/portable/{cuda,opencl}.json, each
benchmarked with `gpurun bench`, the outputs checked by the suites' expectations, then a table of
median kernel times and their ratio (emulator / OpenCL: how many times faster the OpenCL platform
is). docs/opencl.md keeps the table of this machine.

Usage: scripts/opencl-vs-emulator.py [--gpurun build/gpurun] [--engine compiled|interpret]
                                     [--out DIR] [-- extra bench flags]
"""
import argparse
import json
import os
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
SUITES = os.path.join(HERE, "..", "kernels", "suites", "portable")


def bench(gpurun, suite, backend, out, extra, env):
    command = [gpurun, "bench", os.path.join(SUITES, suite), "--backend", backend, "--json", out,
               *extra]
    done = subprocess.run(command, capture_output=True, text=True, env=env)
    if done.returncode != 0:
        sys.exit(f"{' '.join(command)} failed (exit {done.returncode}):\n{done.stdout}{done.stderr}")
    return {b["name"]: b for b in json.load(open(out))["benchmarks"]
            if b.get("run_type", "iteration") == "iteration"}


def median_ms(b):
    g = b.get("gpurun", {})
    samples = sorted(g.get("samples_s", []))
    if samples:
        return 1e3 * samples[len(samples) // 2]
    return b["real_time"] * {"ns": 1e-6, "us": 1e-3, "ms": 1, "s": 1e3}[b.get("time_unit", "ms")]


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--gpurun", default=os.path.join(HERE, "..", "build", "gpurun"))
    ap.add_argument("--engine", default="compiled", help="the CPU backend's engine (default compiled)")
    ap.add_argument("--out", help="keep the two result files here")
    argv = sys.argv[1:]
    extra = argv[argv.index("--") + 1:] if "--" in argv else []
    args = ap.parse_args(argv[:argv.index("--")] if "--" in argv else argv)
    out = args.out or tempfile.mkdtemp(prefix="gpurun-opencl-vs-emulator-")
    os.makedirs(out, exist_ok=True)
    env = dict(os.environ, GPURUN_CPU_ENGINE=args.engine)
    emulator = bench(args.gpurun, "cuda.json", "cpu", os.path.join(out, "cpu.json"), extra, env)
    opencl = bench(args.gpurun, "opencl.json", "opencl", os.path.join(out, "opencl.json"), extra, env)
    print(f"| case | PTX emulator ({args.engine}) ms | OpenCL ms | emulator / OpenCL |")
    print("|---|---:|---:|---:|")
    for name in emulator:
        if name not in opencl:
            continue
        e, o = median_ms(emulator[name]), median_ms(opencl[name])
        print(f"| {name} | {e:.3f} | {o:.3f} | {e / o:.2f} |")
    print(f"\nresults in {out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
