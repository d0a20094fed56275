#!/usr/bin/env python3
"""Runs every bundled JSON spec (kernels/examples, tests/data) on the CPU backend once with each
CUDA compiler and compares the results: whether each run passes its checks, and how the output
buffers of the clang build compare bit for bit with the NVRTC build (identical buffers; for the
ones that differ, the largest difference in units in the last place). Needs no NumPy.

Usage: scripts/compare_compilers.py [GPURUN] [OUTDIR]   (default build/gpurun, /tmp/gpurun-cmp)
"""
import ast
import json
import pathlib
import shutil
import struct
import subprocess
import sys

ROOT = pathlib.Path(__file__).resolve().parent.parent
GPURUN = sys.argv[1] if len(sys.argv) > 1 else str(ROOT / "build" / "gpurun")
OUT = pathlib.Path(sys.argv[2] if len(sys.argv) > 2 else "/tmp/gpurun-cmp")

# dtype descr → (struct code, size, float bits or 0)
KINDS = {"<f2": ("H", 2, 16), "<f4": ("I", 4, 32), "<f8": ("Q", 8, 64),
         "<i1": ("b", 1, 0), "<i2": ("h", 2, 0), "<i4": ("i", 4, 0), "<i8": ("q", 8, 0),
         "|i1": ("b", 1, 0), "|u1": ("B", 1, 0), "<u2": ("H", 2, 0), "<u4": ("I", 4, 0),
         "<u8": ("Q", 8, 0), "|b1": ("B", 1, 0)}


def read_npy(path):
    data = path.read_bytes()
    major = data[6]
    header_len = struct.unpack("<H" if major == 1 else "<I", data[8:10] if major == 1 else data[8:12])[0]
    start = (10 if major == 1 else 12) + header_len
    header = ast.literal_eval(data[(10 if major == 1 else 12):start].decode("latin1"))
    return header["descr"], data[start:]


def ordered(bits, width):
    """Maps float bits to integers whose difference counts representable values (ulps)."""
    sign = 1 << (width - 1)
    return -(bits & (sign - 1)) if bits & sign else bits


def compare(a_path, b_path):
    """(identical, max ulp difference over floats or None, differing elements)."""
    da, a = read_npy(a_path)
    db, b = read_npy(b_path)
    if da != db or len(a) != len(b):
        return False, None, -1
    if a == b:
        return True, 0, 0
    code, size, fbits = KINDS[da]
    n = len(a) // size
    va = struct.unpack(f"<{n}{code}", a)
    vb = struct.unpack(f"<{n}{code}", b)
    worst, differing = 0, 0
    for x, y in zip(va, vb):
        if x == y:
            continue
        differing += 1
        if fbits:
            worst = max(worst, abs(ordered(x, fbits) - ordered(y, fbits)))
    return False, worst if fbits else None, differing


def run(spec, compiler, folder):
    folder.mkdir(parents=True, exist_ok=True)
    cmd = [GPURUN, str(spec), "--backend", "cpu", "--compiler", compiler, "--save", str(folder),
           "--json", "--no-cache"]
    done = subprocess.run(cmd, capture_output=True, text=True)
    report = None
    try:
        report = json.loads(done.stdout)
    except json.JSONDecodeError:
        pass
    return done.returncode, report, done.stderr.strip().splitlines()[-1:] if done.stderr else []


def main():
    specs = sorted((ROOT / "kernels" / "examples").glob("*.json")) + \
        sorted(p for p in (ROOT / "tests" / "data").rglob("*.json") if "bad" not in p.name)
    shutil.rmtree(OUT, ignore_errors=True)
    rows, totals = [], {"specs": 0, "nvrtc_ok": 0, "clang_ok": 0, "buffers": 0, "identical": 0}
    worst_ulp = 0
    for spec in specs:
        name = spec.stem
        rc_n, rep_n, err_n = run(spec, "nvrtc", OUT / name / "nvrtc")
        rc_c, rep_c, err_c = run(spec, "clang", OUT / name / "clang")
        totals["specs"] += 1
        totals["nvrtc_ok"] += rc_n == 0
        totals["clang_ok"] += rc_c == 0
        checks = len(rep_c.get("checks", [])) if rep_c else 0
        buffers = identical = 0
        notes = []
        inputs = {k for k, v in (rep_n or {}).get("buffers", {}).items() if v.get("input")}
        for npy in sorted((OUT / name / "nvrtc").glob("*.npy")):
            other = OUT / name / "clang" / npy.name
            if not other.exists() or npy.stem in inputs:
                continue
            buffers += 1
            same, ulp, differing = compare(npy, other)
            identical += same
            if not same:
                notes.append(f"{npy.stem}: {differing} differ" +
                             (f", max {ulp} ulp" if ulp is not None else ""))
                if ulp:
                    worst_ulp = max(worst_ulp, ulp)
        if buffers == 0 and rc_n == 0 and rc_c == 0:
            # printf only: the lines each build prints, in any order
            lines = [sorted(subprocess.run([GPURUN, str(spec), "--backend", "cpu", "--compiler", c,
                                            "-q"], capture_output=True, text=True).stdout
                            .splitlines()) for c in ("nvrtc", "clang")]
            notes.append(f"printf only: {len(lines[1])} lines, "
                         f"{'the same' if lines[0] == lines[1] else 'DIFFERENT'} as nvrtc's")
        totals["buffers"] += buffers
        totals["identical"] += identical
        status = lambda rc: "pass" if rc == 0 else f"exit {rc}"
        rows.append((spec.relative_to(ROOT).as_posix(), status(rc_n), status(rc_c), checks,
                     f"{identical}/{buffers}", "; ".join(notes) or ("" if rc_c == 0 else " ".join(err_c))))
    print(f"{'spec':<44} {'nvrtc':<7} {'clang':<7} {'checks':>6} {'identical':>9}  notes")
    print("(identical: output buffers of the clang build equal to the NVRTC build's, bit for bit)")
    for r in rows:
        print(f"{r[0]:<44} {r[1]:<7} {r[2]:<7} {r[3]:>6} {r[4]:>9}  {r[5]}")
    print(f"\n{totals['specs']} specs: nvrtc {totals['nvrtc_ok']} pass, clang {totals['clang_ok']} "
          f"pass; {totals['identical']} of {totals['buffers']} output buffers bit-identical"
          f"{f', largest difference {worst_ulp} ulp' if worst_ulp else ''}")


if __name__ == "__main__":
    main()
