#!/usr/bin/env python3
"""Compiles every kernel of every whole .cu/.hip file under a folder with each compiler, as the
files are (host code, main(), library includes and all): the check of whole-file compilation
against other projects' sources (llm.c's dev/cuda, cuda-samples …), which are fetched by hand and
never kept in this repository.

    scripts/whole_file_corpus.py FOLDER [--gpurun build/gpurun] [--compiler nvrtc --compiler clang]
                                 [-I DIR]... [--backend cpu] [--jobs N] [--json out.json]

Each kernel is named as the file names it: a template kernel by the first instantiation one of the
file's own launches uses (`k<float><<<…>>>`); a template nothing instantiates is listed as such.
Prints one line per failure (the first error line) and a table of counts per compiler.
"""
import argparse
import concurrent.futures
import json
import os
import subprocess
import sys


def kernels_of(gpurun, path):
    done = subprocess.run([gpurun, "list", path, "--json"], capture_output=True, text=True)
    if done.returncode != 0:
        return None, done.stderr.strip().splitlines()[0] if done.stderr.strip() else "list failed"
    out = []
    for k in json.loads(done.stdout)["kernels"]:
        name = k["name"]
        if k["template_params"]:
            inst = [l["kernel"] for l in k["launches"] if "<" in l["kernel"]]
            if not inst:
                out.append((name, None))
                continue
            name = inst[0]
        out.append((name, name))
    return out, None


def first_error(text):
    for line in text.splitlines():
        if "error" in line and not line.startswith("gpurun: error:"):
            return line.strip()[:200]
    lines = text.strip().splitlines()
    return lines[0][:200] if lines else ""


def compile_one(args, path, expression, compiler):
    cmd = [args.gpurun, "compile", path, "-k", expression, "--compiler", compiler,
           "--backend", args.backend, "-o", os.devnull]
    for d in args.include:
        cmd += ["-I", d]
    done = subprocess.run(cmd, capture_output=True, text=True)
    return done.returncode, first_error(done.stderr)


def main():
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawTextHelpFormatter)
    p.add_argument("folder")
    p.add_argument("--gpurun", default=os.path.join(os.path.dirname(__file__), "..", "build", "gpurun"))
    p.add_argument("--compiler", action="append")
    p.add_argument("-I", "--include", action="append", default=[])
    p.add_argument("--backend", default="cpu")
    p.add_argument("--jobs", type=int, default=os.cpu_count() or 1)
    p.add_argument("--json")
    args = p.parse_args()
    compilers = args.compiler or ["nvrtc", "clang"]

    files = []
    for root, _, names in os.walk(args.folder):
        files += [os.path.join(root, n) for n in sorted(names) if n.endswith((".cu", ".hip"))]
    jobs = []
    counts = {c: {"pass": 0, "fail": 0} for c in compilers}
    uninstantiated = 0
    results = []
    for path in sorted(files):
        kernels, problem = kernels_of(args.gpurun, path)
        if kernels is None:
            print(f"LIST FAIL {path}: {problem}")
            continue
        for name, expression in kernels:
            if expression is None:
                uninstantiated += 1
                continue
            for c in compilers:
                jobs.append((path, expression, c))
    with concurrent.futures.ThreadPoolExecutor(args.jobs) as pool:
        futures = {pool.submit(compile_one, args, *j): j for j in jobs}
        for f in concurrent.futures.as_completed(futures):
            path, expression, c = futures[f]
            rc, err = f.result()
            ok = rc == 0
            # The name itself did not resolve: a template instantiated only through the host
            # code's variables (k<block_size>), or a kernel the file's own #if leaves out.
            unnamed = not ok and ("__nv_name_map" in err or "<gpurun name expressions>" in err)
            if unnamed:
                counts[c]["unnamed"] = counts[c].get("unnamed", 0) + 1
                results.append({"file": path, "kernel": expression, "compiler": c, "exit": rc,
                                "error": err, "unnamed": True})
                continue
            counts[c]["pass" if ok else "fail"] += 1
            results.append({"file": path, "kernel": expression, "compiler": c, "exit": rc,
                            "error": None if ok else err})
    for r in sorted(results, key=lambda r: (r["compiler"], r["file"], r["kernel"])):
        if r["exit"] != 0 and not r.get("unnamed"):
            print(f"FAIL {r['compiler']:5} {os.path.relpath(r['file'], args.folder)} "
                  f"{r['kernel']} (exit {r['exit']}): {r['error']}")
    print(f"\n{len(files)} files, {len(jobs) // max(len(compilers), 1)} kernels "
          f"({uninstantiated} templates the files never instantiate)")
    print("| compiler | compiled | failed | not nameable as the file is (host-variable template "
          "arguments, kernels its #if leaves out) |\n|---|---:|---:|---:|")
    for c in compilers:
        print(f"| {c} | {counts[c]['pass']} | {counts[c]['fail']} | {counts[c].get('unnamed', 0)} |")
    if args.json:
        with open(args.json, "w") as out:
            json.dump({"counts": counts, "results": results}, out, indent=1)
    return 0 if all(v["fail"] == 0 for v in counts.values()) else 1


if __name__ == "__main__":
    sys.exit(main())
