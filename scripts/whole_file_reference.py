#!/usr/bin/env python3
"""NumPy ports of the CPU references that whole .cu files carry (llm.c's `*_cpu` functions,
cuda-samples' host checks), applied to the buffers a run saved with --save.

    scripts/whole_file_reference.py NAME FOLDER

NAME is a row of scripts/whole-file-gpu-check.sh. Prints "ref PASS (max rel err …)" or
"ref FAIL …" on its last line; "ref -" for runs without a port.
"""
import pathlib
import sys

import numpy as np


def load(folder, name):
    a = np.load(folder / f"{name}.npy")
    if a.dtype == np.uint16:  # bf16 saved as its bits
        a = (a.astype(np.uint32) << 16).view(np.float32)
    return a.astype(np.float64)


def bf16_bits(folder, name):
    return np.load(folder / f"{name}.npy")


def layernorm(f, n, c):
    x = load(f, "inp").reshape(n, c)
    w, b = load(f, "weight"), load(f, "bias")
    m = x.mean(axis=1)
    v = ((x - m[:, None]) ** 2).mean(axis=1)
    s = 1.0 / np.sqrt(v + 1e-5)
    return {"out": (s[:, None] * (x - m[:, None])) * w + b, "mean": m, "rstd": s}


def softmax(f, n, c):
    x = load(f, "inp").reshape(n, c)
    e = np.exp(x - x.max(axis=1, keepdims=True))
    return {"out": e / e.sum(axis=1, keepdims=True)}


def gelu(f):
    x = load(f, "inp")
    s = np.sqrt(2.0 / np.pi)
    return {"out": 0.5 * x * (1.0 + np.tanh(s * (x + 0.044715 * x**3)))}


def crossentropy(f, b, t, v):
    p = load(f, "probs").reshape(b * t, v)
    tg = np.load(f / "targets.npy").reshape(-1)
    return {"losses": -np.log(p[np.arange(b * t), tg])}


def matmul(f, bt, c, oc):
    x = load(f, "inp").reshape(bt, c)
    w = load(f, "weight").reshape(oc, c)
    return {"out": x @ w.T + load(f, "bias")}


REFERENCES = {
    "own_layernorm1": (lambda f: layernorm(f, 4, 64), 1e-4),
    "own_layernorm2": (lambda f: layernorm(f, 4, 64), 1e-4),
    "llmc_layernorm1": (lambda f: layernorm(f, 64, 768), 1e-4),
    "llmc_layernorm3": (lambda f: layernorm(f, 64, 768), 1e-4),
    "llmc_layernorm5": (lambda f: layernorm(f, 64, 768), 1e-4),
    "own_row_sum": (lambda f: {"out": load(f, "inp").reshape(3, 100).sum(axis=1)}, 1e-4),
    "own_matrixMul16": (lambda f: {"C": 0.5 * load(f, "A").reshape(32, 32) @ load(f, "B").reshape(32, 32)}, 1e-4),
    "own_hip_scale": (lambda f: {"out": 3 * load(f, "in")}, 1e-6),
    "llmc_softmax4": (lambda f: softmax(f, 64, 256), 1e-4),
    "llmc_softmax_online2": (lambda f: softmax(f, 64, 256), 1e-4),
    "llmc_gelu2_bf16": (gelu, 1e-2),
    "llmc_crossentropy1": (lambda f: crossentropy(f, 8, 16, 64), 1e-5),
    "llmc_matmul1": (lambda f: matmul(f, 64, 128, 96), 1e-4),
    "samples_vectorAdd": (lambda f: {"C": load(f, "A") + load(f, "B")}, 1e-6),
    "samples_matrixMul32": (lambda f: {"C": load(f, "A").reshape(64, 64) @ load(f, "B").reshape(64, 64)}, 1e-4),
}


def main():
    name, folder = sys.argv[1], pathlib.Path(sys.argv[2])
    if name not in REFERENCES:
        print("ref -")
        return 0
    fn, tol = REFERENCES[name]
    worst = 0.0
    for buffer, expected in fn(folder).items():
        got = load(folder, buffer).reshape(np.shape(expected))
        err = np.abs(got - expected) / np.maximum(np.abs(expected), 1.0)
        worst = max(worst, float(err.max()))
    verdict = "PASS" if worst <= tol else "FAIL"
    print(f"ref {verdict} (max rel err {worst:.2e}, bound {tol:g})")
    return 0 if verdict == "PASS" else 1


if __name__ == "__main__":
    sys.exit(main())
