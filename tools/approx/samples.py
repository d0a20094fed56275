#!/usr/bin/env python3
"""The sampled check's data (tests/data/sfu/) from the GPU's captures.

  samples.py CAPTURE_DIR EDGES_DIR OUT_DIR

CAPTURE_DIR holds raw captures of measure.sh (the sparse ones, every 65521st input), EDGES_DIR
those of edges.sh (edge cases: OP@edges.bin over the ranges of ranges.txt, one after another). For each instruction the emulator reproduces bit for bit, OUT_DIR gets
OP.npy: rows of (input, GPU result) bit patterns — every 16th sparse input, 256 inputs spread over
each dense capture (the binades the tables are derived from) and every edge case —
or (dividend, divisor, GPU result) for division.
"""
import glob, os, re, sys

import numpy as np

EXACT = ["rcp_approx_f32", "rcp_approx_ftz_f32", "rsqrt_approx_f32", "rsqrt_approx_ftz_f32",
         "sqrt_approx_f32", "sqrt_approx_ftz_f32", "ex2_approx_f32", "ex2_approx_ftz_f32",
         "sin_approx_f32", "sin_approx_ftz_f32", "cos_approx_f32", "cos_approx_ftz_f32",
         "lg2_approx_f32", "lg2_approx_ftz_f32", "tanh_approx_f32",
         "rcp_approx_ftz_f64", "rsqrt_approx_f64", "rsqrt_approx_ftz_f64"]
DIV = ["div_approx_f32", "div_approx_ftz_f32", "div_full_f32", "div_full_ftz_f32"]
HALF = ["ex2_approx_f16", "ex2_approx_ftz_bf16", "tanh_approx_f16", "tanh_approx_bf16"]
NAME = re.compile(r"(?P<op>\w+)@(?P<lo>0x[0-9a-f]+|0)-(?P<hi>0x[0-9a-f]+)-(?P<stride>\d+)(-low(?P<low>0x[0-9a-f]+))?\.bin$")


def captures(capdir, op):
    for path in sorted(glob.glob(os.path.join(capdir, op + "@*.bin"))):
        m = NAME.search(os.path.basename(path))
        if not m or m["op"] != op:
            continue
        width = 8 if op.endswith("_f64") else 2 if op in HALF else 4
        data = np.fromfile(path, dtype={2: np.uint16, 4: np.uint32, 8: np.uint64}[width])
        lo, stride = int(m["lo"], 16), int(m["stride"])
        inputs = (lo + stride * np.arange(len(data), dtype=np.uint64)).astype(np.uint64)
        low = int(m["low"], 16) if m["low"] else 0
        yield inputs, data, stride, low


def edges(edgedir, op):
    """(inputs, results, low) of edges.sh's captures of OP."""
    ranges = [tuple(int(v, 16) for v in line.split(":")) for line in open(os.path.join(edgedir, "ranges.txt"))]
    inputs = np.concatenate([np.arange(lo, hi, dtype=np.uint64) for lo, hi in ranges])
    width = 8 if op.endswith("_f64") else 4
    for path in sorted(glob.glob(os.path.join(edgedir, op + "@edges*.bin"))):
        m = re.search(r"-low(0x[0-9a-f]+)\.bin$", path)
        data = np.fromfile(path, dtype={4: np.uint32, 8: np.uint64}[width])
        yield inputs, data, 1, int(m[1], 16) if m else 0


def main(capdir, edgedir, outdir):
    os.makedirs(outdir, exist_ok=True)
    for op in EXACT:
        rows = []
        for inputs, data, stride, low in [*captures(capdir, op), *edges(edgedir, op)]:
            if low:  # another low word
                continue
            if stride > 1:  # sparse: every 16th
                inputs, data = inputs[::16], data[::16]
            elif len(data) > 4096:  # a dense capture (a binade): 256 inputs spread over it
                inputs, data = inputs[::len(data) // 256], data[::len(data) // 256]
            if op.endswith("_f64"):
                inputs = inputs << np.uint64(32)
                rows.append(np.stack([inputs, data.astype(np.uint64)], 1))
            else:
                rows.append(np.stack([inputs.astype(np.uint32), data], 1))
        t = np.concatenate(rows)
        np.save(os.path.join(outdir, op + ".npy"), t[np.unique(t[:, 0], return_index=True)[1]])
    for op in DIV:
        rows = []
        for inputs, data, stride, low in [*captures(capdir, op), *edges(edgedir, op)]:
            if stride > 1:
                inputs, data = inputs[::64], data[::64]
            elif len(data) > 4096:
                continue
            a = np.full(len(data), low, dtype=np.uint32)
            rows.append(np.stack([a, inputs.astype(np.uint32), data], 1))
        np.save(os.path.join(outdir, op + ".npy"), np.concatenate(rows))
    for op in HALF:
        for inputs, data, stride, low in captures(capdir, op):
            np.save(os.path.join(outdir, op + ".npy"),
                    np.stack([inputs.astype(np.uint16), data], 1)[::16])
    for f in sorted(os.listdir(outdir)):
        print(f, np.load(os.path.join(outdir, f)).shape)


if __name__ == "__main__":
    main(sys.argv[1], sys.argv[2], sys.argv[3])
