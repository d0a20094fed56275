#!/usr/bin/env python3
"""Translate, compile and time the micro-benchmark kernels; print the figures as Markdown.

Usage: measure.py [--build DIR] [--work DIR] [--repetitions N] [--no-pocl]

--build is gpurun's CMake build folder (default: build); its static libraries are copied into
--work (default /tmp/gpurun-compiled) so that the driver links a consistent snapshot while the
build folder is rebuilt by others. Nothing here is part of the CMake build or the tests.
"""
import argparse
import glob
import json
import os
import shutil
import statistics
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
KERNELS = ["vector_add", "matmul_tiled", "reduce_block"]
CLANG = "clang++-14"
FLAGS = ["-std=c++20", "-O3", "-march=native", "-ffp-contract=off", "-fPIC", "-shared"]
SCALAR_FLAGS = ["-fno-vectorize", "-fno-slp-vectorize"]
LIBS = ["pipeline", "backends", "backend_cuda", "backend_cpu", "backend_hip", "compilers", "capture",
        "kit", "base"]


def timed(cmd):
    start = time.perf_counter()
    subprocess.run(cmd, check=True)
    return time.perf_counter() - start


def translate_and_compile(work):
    sys.path.insert(0, HERE)
    import ptx2cpp
    costs = {}
    for k in KERNELS:
        ptx = os.path.join(ROOT, "tests", "data", "ptx", k + ".ptx")
        start = time.perf_counter()
        with open(ptx) as f:
            source = ptx2cpp.Emitter(ptx2cpp.parse(f.read(), k)).emit()
        translate = time.perf_counter() - start
        cpp = os.path.join(work, k + ".cpp")
        with open(cpp, "w") as f:
            f.write(source)
        # The median of three compiles: the machine may be busy with other builds.
        clang = statistics.median(
            timed([CLANG, *FLAGS, "-o", os.path.join(work, k + ".so"), cpp]) for _ in range(3))
        timed([CLANG, *FLAGS, *SCALAR_FLAGS, "-o", os.path.join(work, k + ".scalar.so"), cpp])
        costs[k] = {"translate_s": translate, "clang_s": clang,
                    "cpp_lines": source.count("\n")}
    return costs


def build_driver(build, work, with_opencl):
    for lib in LIBS:
        shutil.copy(os.path.join(build, f"libgpurun_{lib}.a"), work)
    cmd = ["c++", "-std=c++20", "-O3", "-DNDEBUG", "-DFMT_HEADER_ONLY=1", f"-I{ROOT}",
           os.path.join(HERE, "driver.cpp"), "-o", os.path.join(work, "driver")]
    if with_opencl:
        cmd.insert(1, "-DGPURUN_COMPILED_WITH_OPENCL")
    cmd += [os.path.join(work, f"libgpurun_{lib}.a") for lib in LIBS] + ["-lzstd", "-ldl",
                                                                        "-lpthread"]
    if with_opencl:
        cmd.append("-lOpenCL")
    subprocess.run(cmd, check=True)


def summarize(lines, costs):
    counts, samples, checks, pocl_build, first = {}, {}, {}, {}, {}
    for line in lines:
        r = json.loads(line)
        k = r["kernel"]
        if "lane_instructions" in r:
            counts[k] = r["lane_instructions"]
        elif "pocl_build_seconds" in r:
            pocl_build[k] = r["pocl_build_seconds"]
        elif "first_launch_ms" in r:
            first.setdefault(k, {})[r["way"]] = r["first_launch_ms"]
        elif "outputs_differing" in r:
            checks.setdefault(k, {}).setdefault(r["way"], 0)
            checks[k][r["way"]] += r["outputs_differing"]
        else:
            samples.setdefault(k, {}).setdefault(r["way"], {})[r["rep"]] = r["ms"]
    out = ["| kernel | way | ms / launch | lane-inst/s | × emulator | outputs ≠ emulator |",
           "|---|---|---:|---:|---:|---:|"]
    for k in KERNELS:
        if k not in samples:
            continue
        emu = samples[k]["emulator"]
        for way, reps in samples[k].items():
            ms = statistics.median(reps.values())
            ratio = statistics.median(emu[i] / reps[i] for i in reps)
            rate = counts[k] / (ms / 1000.0)
            out.append(f"| {k} | {way} | {ms:.3f} | {rate / 1e9:.2f} G | {ratio:.1f} | "
                       f"{checks[k][way]} |")
    out.append("")
    out.append("| kernel | lane-instructions / launch | PTX → C++ (s) | C++ lines | "
               "clang -O3 (s) | PoCL clBuildProgram (s) | PoCL first launch (ms) |")
    out.append("|---|---:|---:|---:|---:|---:|---:|")
    for k in KERNELS:
        c = costs.get(k, {})
        pb = f"{pocl_build[k]:.3f}" if k in pocl_build else "–"
        pf = f"{first[k]['pocl']:.1f}" if "pocl" in first.get(k, {}) else "–"
        out.append(f"| {k} | {counts.get(k, 0):.0f} | {c.get('translate_s', 0):.3f} | "
                   f"{c.get('cpp_lines', 0)} | {c.get('clang_s', 0):.2f} | {pb} | {pf} |")
    reps = min(len(r) for k in samples for r in samples[k].values())
    out.append("")
    out.append(f"Medians of {reps} interleaved repetitions; × emulator is the median of the "
               "per-repetition ratios.")
    return "\n".join(out)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--build", default=os.path.join(ROOT, "build"))
    ap.add_argument("--work", default="/tmp/gpurun-compiled")
    ap.add_argument("--repetitions", type=int, default=7)
    ap.add_argument("--no-pocl", action="store_true")
    args = ap.parse_args()
    os.makedirs(args.work, exist_ok=True)
    with_opencl = not args.no_pocl and bool(glob.glob("/usr/include/CL/cl.h")) and bool(
        glob.glob("/etc/OpenCL/vendors/pocl.icd"))
    costs = translate_and_compile(args.work)
    build_driver(args.build, args.work, with_opencl)
    # One PoCL worker thread, and no kernel cache, so that its compile is measured every run.
    env = dict(os.environ, POCL_MAX_PTHREAD_COUNT="1", POCL_KERNEL_CACHE="0")
    cmd = [os.path.join(args.work, "driver"), os.path.join(ROOT, "tests", "data", "ptx"),
           args.work, str(args.repetitions)]
    if with_opencl:
        cmd.append(os.path.join(HERE, "kernels.cl"))
    run = subprocess.run(cmd, env=env, stdout=subprocess.PIPE, text=True)
    lines = [line for line in run.stdout.splitlines() if line.startswith("{")]
    with open(os.path.join(args.work, "samples.jsonl"), "w") as f:
        f.write("\n".join(lines) + "\n")
    if run.returncode != 0:
        sys.stdout.write(run.stdout)
        sys.exit(f"measure.py: the driver failed (exit {run.returncode})")
    print(summarize(lines, costs))


if __name__ == "__main__":
    main()
