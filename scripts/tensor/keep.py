"""Keeps what the CPU-only tests compare with from a capture of scripts/tensor/run.sh:
the fragment layouts (as int16) and the first TILES tiles of every arithmetic probe, inputs and
the GPU's D. Usage: keep.py CAPTURE_DIR OUT_DIR [TILES]"""
import os
import sys

import numpy as np

cap, out = sys.argv[1], sys.argv[2]
tiles = int(sys.argv[3]) if len(sys.argv) > 3 else 12
os.makedirs(out, exist_ok=True)
for name in ("layout", "layout8", "ldmatrix"):
    a = np.load(f"{cap}/{name}/out.npy")
    np.save(f"{out}/{name}.npy", a.astype(np.int16) if a.dtype == np.float32 else a)

# kernel: (input prefix, M, N, K, C file)
probes = {"wmma_f16_f32": ("f16", 16, 16, 16, "C"), "wmma_f16_f16": ("f16", 16, 16, 16, "Ch"),
          "wmma_bf16_f32": ("bf16", 16, 16, 16, "C"), "wmma_tf32_f32": ("tf32", 16, 16, 8, "C"),
          "wmma_f64": ("f64", 8, 8, 4, "C"), "mma_f16_k16": ("k16", 16, 8, 16, "C"),
          "mma_f16_k8": ("k8", 16, 8, 8, "C")}
for kernel, (p, m, n, k, c) in probes.items():
    for part, count in (("A", m * k), ("B", k * n), (c, m * n)):
        a = np.load(f"{cap}/in/{p}_{part}.npy")[: tiles * count]
        np.save(f"{out}/{kernel}_{'C' if part == c else part}.npy", a)
    np.save(f"{out}/{kernel}_D.npy", np.load(f"{cap}/{kernel}/D.npy")[: tiles * m * n])

# FP8 (m16n8k32): the three kernels share their inputs.
for part, count in (("A", 512), ("B", 256), ("C", 128)):
    np.save(f"{out}/fp8_{part}.npy", np.load(f"{cap}/in/fp8_{part}.npy")[: tiles * count])
for kernel in ("mma_e4m3", "mma_e5m2", "mma_e4m3_e5m2"):
    np.save(f"{out}/{kernel}_D.npy", np.load(f"{cap}/{kernel}/D.npy")[: tiles * 128])
