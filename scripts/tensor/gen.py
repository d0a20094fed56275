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

# FP8 (m16n8k32): random bytes, in a third of the tiles drawn from a narrow band of exponents,
# in one sixth any byte at all (NaNs included); the rest finite.
def fp8_tiles(count, nan_bytes):
    out = rng.integers(0, 256, size=(tiles, count), dtype=np.uint8)
    for t in range(tiles):
        kind = t % 6
        if kind < 2:  # narrow: sign and mantissa random, exponent field in a band of 3
            e = rng.integers(6, 9, size=count)
            out[t] = (rng.integers(0, 2, size=count) << 7) | (e << 3) | rng.integers(0, 8, size=count)
        elif kind < 5:
            bad = np.isin(out[t], nan_bytes)
            out[t][bad] = 0x38
    return out


A = fp8_tiles(512, [0x7f, 0xff, 0x7c, 0x7d, 0x7e, 0xfc, 0xfd, 0xfe])
B = fp8_tiles(256, [0x7f, 0xff, 0x7c, 0x7d, 0x7e, 0xfc, 0xfd, 0xfe])
np.save(f"{out}/fp8_A.npy", A.reshape(-1))
np.save(f"{out}/fp8_B.npy", B.reshape(-1))
_, _, C = tiles_of(16, 8, 32, 3, 23, (-9, 8), (-20, 20))
save("fp8_C", C, np.float32)
