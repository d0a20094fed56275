#!/usr/bin/env python3
"""Derive the CPU backend's special-function tables from the GPU's results.

  derive.py CAPTURE_DIR TABLE_DIR

CAPTURE_DIR holds measure.sh's raw captures (pack.py unpack restores them). Each f32/f64
special function of the GPU depends, after its exponent is set aside, on a key of a few dozen
bits at most (the mantissa; the exponent's parity for square roots; the fixed-point fraction of
ex2's argument). Over the key the result's bit pattern is smooth, so it is modelled per segment
(the key's top SEG_BITS bits) as

    floor(c0 + sum over the segment offset's bits b_i of c_i + cq * t^2),  t = offset / 2^bits

(the linear term bit by bit, as a truncating multiplier computes it), fitted by least squares,
and every key where that floor differs from the GPU, or falls within 2^-20 of a step, is kept as
an exception with its correction. The emulator evaluates the same expression in the same order
in IEEE double, so model plus exceptions return the GPU's bits for every key. The 16-bit forms
are small enough to keep whole.

Table format (little-endian), `.sfu`: b"GSFU", u32 version (1), u32 key_bits, u32 seg_bits,
u32 ncoef, f64 coef[2^seg_bits][ncoef], u32 exceptions, then per exception varint(key - previous
key) and varint(zigzag(correction)). `.t16`: the 65536 results, u16 each.
"""
import glob, os, struct, sys

import numpy as np

SEG_BITS = 7


def load(capdir, pattern, dtype):
    files = glob.glob(os.path.join(capdir, pattern))
    if len(files) != 1:
        sys.exit(f"derive.py: expected one capture for {pattern}, found {len(files)}")
    return np.fromfile(files[0], dtype=dtype)


def model(ys, key_bits):
    """Coefficients per segment and the model's value for every key (same order as C++)."""
    lb = key_bits - SEG_BITS
    L = 1 << lb
    off = np.arange(L, dtype=np.int64)
    t = off.astype(np.float64) / float(L)
    bits = [((off >> i) & 1).astype(np.float64) for i in range(lb)]
    A = np.stack([np.ones(L)] + bits + [t * t], 1)
    Y = ys.reshape(1 << SEG_BITS, L).astype(np.float64)
    C, *_ = np.linalg.lstsq(A, (Y + 0.5).T, rcond=None)
    C = C.T.copy()  # [segment][ncoef]
    P = np.repeat(C[:, :1], L, axis=1).copy()
    for i in range(lb):
        P += np.where(bits[i][None, :] != 0, C[:, 1 + i][:, None], 0.0)
    P += C[:, lb + 1][:, None] * (t * t)[None, :]
    return C, P.reshape(-1)


def varint(v):
    out = bytearray()
    while True:
        b = v & 0x7F
        v >>= 7
        out.append(b | (0x80 if v else 0))
        if not v:
            return bytes(out)


def write_sfu(path, ys, key_bits):
    C, P = model(ys, key_bits)
    F = np.floor(P)
    frac = P - F
    corr = ys.astype(np.int64) - F.astype(np.int64)
    exc = np.nonzero((corr != 0) | (frac < 2.0**-20) | (frac > 1 - 2.0**-20))[0]
    blob = bytearray(b"GSFU" + struct.pack("<IIII", 1, key_bits, SEG_BITS, C.shape[1]))
    blob += C.astype("<f8").tobytes()
    blob += struct.pack("<I", len(exc))
    prev = 0
    for k in exc:
        c = int(corr[k])
        blob += varint(int(k) - prev) + varint((c << 1) ^ (c >> 63) if c < 0 else c << 1)
        prev = int(k)
    with open(path, "wb") as f:
        f.write(blob)
    print(f"{os.path.basename(path)}: {len(ys)} keys, {len(exc)} exceptions, {len(blob)} bytes")


def main(capdir, outdir):
    os.makedirs(outdir, exist_ok=True)
    u32 = np.uint32
    # rcp: x in [1,2), key = mantissa; the result's bits.
    write_sfu(os.path.join(outdir, "rcp.sfu"), load(capdir, "rcp_approx_ftz_f32@0x3f800000-0x40000000-1.bin", u32), 23)
    # rsqrt, sqrt: x in [1,4), key = exponent parity and mantissa.
    write_sfu(os.path.join(outdir, "rsq.sfu"), load(capdir, "rsqrt_approx_ftz_f32@0x3f800000-0x40800000-1.bin", u32), 24)
    write_sfu(os.path.join(outdir, "sqrt.sfu"), load(capdir, "sqrt_approx_ftz_f32@0x3f800000-0x40800000-1.bin", u32), 24)
    # ex2: x in [1,2) gives 2 * 2^f for every 23-bit fraction f.
    write_sfu(os.path.join(outdir, "ex2.sfu"), load(capdir, "ex2_approx_ftz_f32@0x3f800000-0x40000000-1.bin", u32), 23)
    # rcp64h / rsq64h: the high word's 20-bit mantissa (and exponent parity); the result's high word.
    hi = lambda a: (a >> np.uint64(32)).astype(u32)
    write_sfu(os.path.join(outdir, "rcp64h.sfu"), hi(load(capdir, "rcp_approx_ftz_f64@0x3ff00000-0x40000000-1.bin", np.uint64)), 20)
    write_sfu(os.path.join(outdir, "rsq64h.sfu"), hi(load(capdir, "rsqrt_approx_ftz_f64@0x3ff00000-0x40100000-1.bin", np.uint64)), 21)
    for op, name in [("ex2_approx_f16", "ex2_f16"), ("ex2_approx_ftz_bf16", "ex2_bf16"),
                     ("tanh_approx_f16", "tanh_f16"), ("tanh_approx_bf16", "tanh_bf16")]:
        t = load(capdir, f"{op}@0-0x10000-1.bin", np.uint16)
        t.astype("<u2").tofile(os.path.join(outdir, name + ".t16"))
        print(f"{name}.t16: 65536 results")


if __name__ == "__main__":
    main(sys.argv[1], sys.argv[2])
