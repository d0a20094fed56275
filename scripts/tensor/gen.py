"""Inputs for numerics.cu: per tile a kind of data chosen to expose how the tensor core aligns,
truncates and rounds: narrow and wide exponent spreads, cancelling sums, subnormals, large C.
Usage: gen.py OUTDIR TILES"""
import sys
import numpy as np

out, tiles = sys.argv[1], int(sys.argv[2])
rng = np.random.default_rng(12345)


def values(shape, lo, hi, kind, mant_bits):
    """sign * 1.m * 2^e with e uniform in [lo, hi] (per element), mantissa of mant_bits bits."""
    e = rng.integers(lo, hi + 1, size=shape)
    m = 1 + rng.integers(0, 1 << mant_bits, size=shape) / (1 << mant_bits)
    s = rng.choice([-1.0, 1.0], size=shape)
    v = s * m * np.exp2(e.astype(np.float64))
    if kind == "sparse":  # many exact zeros
        v[rng.random(shape) < 0.5] = 0
    return v


def tiles_of(M, N, K, amant, cmant, arange, crange):
    A = np.empty((tiles, M, K)); B = np.empty((tiles, K, N)); C = np.empty((tiles, M, N))
    kinds = ["narrow", "wide", "cancel", "sparse", "bigc", "tiny"]
    for t in range(tiles):
        kind = kinds[t % len(kinds)]
        lo, hi = {"narrow": (-1, 1), "wide": arange, "cancel": (-3, 3), "sparse": arange,
                  "bigc": (-2, 2), "tiny": (arange[0], arange[0] + 6)}[kind]
        A[t] = values((M, K), lo, hi, kind, amant)
        B[t] = values((K, N), lo, hi, kind, amant)
        if kind == "cancel":  # pairs of products that cancel exactly or nearly
            A[t][:, K // 2:] = A[t][:, :K // 2]
            B[t][K // 2:, :] = -B[t][:K // 2, :] * (1 + (rng.random((K // 2, N)) < 0.3) * 2.0 ** -amant)
        clo, chi = {"bigc": (crange[1] - 6, crange[1]), "tiny": (crange[0], crange[0] + 4)}.get(kind, (lo * 2 - 2, hi * 2 + 2))
        C[t] = values((M, N), clo, chi, kind, cmant)
        if t % 5 == 0:
            C[t] = 0
    return A, B, C


def save(name, arr, dtype):
    np.save(f"{out}/{name}.npy", np.ascontiguousarray(arr.astype(dtype)).reshape(-1))


def save_bf16(name, arr):  # the values have 8 significant bits: the top half of the f32 is exact
    bits = np.ascontiguousarray(arr.astype(np.float32)).reshape(-1).view(np.uint32) >> 16
    np.save(f"{out}/{name}.npy", bits.astype(np.uint16))


A, B, C = tiles_of(16, 16, 16, 10, 23, (-12, 8), (-20, 20))
save("f16_A", A, np.float16); save("f16_B", B, np.float16); save("f16_C", C, np.float32)
save("f16_Ch", np.clip(C, -6e4, 6e4), np.float16)
A, B, C = tiles_of(16, 16, 16, 7, 23, (-40, 40), (-90, 90))
save_bf16("bf16_A", A); save_bf16("bf16_B", B); save("bf16_C", C, np.float32)
A, B, C = tiles_of(16, 16, 8, 23, 23, (-40, 40), (-90, 90))  # full f32 mantissas: low bits too
save("tf32_A", A, np.float32); save("tf32_B", B, np.float32); save("tf32_C", C, np.float32)
A, B, C = tiles_of(8, 8, 4, 52, 52, (-200, 200), (-400, 400))
save("f64_A", A, np.float64); save("f64_B", B, np.float64); save("f64_C", C, np.float64)
A, B, C = tiles_of(16, 8, 16, 10, 23, (-12, 8), (-20, 20))
save("k16_A", A, np.float16); save("k16_B", B, np.float16); save("k16_C", C, np.float32)
A, B, C = tiles_of(16, 8, 8, 10, 23, (-12, 8), (-20, 20))
save("k8_A", A, np.float16); save("k8_B", B, np.float16); save("k8_C", C, np.float32)
