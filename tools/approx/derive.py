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

Table format (little-endian), `.sfu`: b"GSFU", u32 version (1 or 2), u32 key_bits, u32 seg_bits,
u32 ncoef, in version 2 u32 frac_bits, f64 coef[2^seg_bits][ncoef], u32 exceptions, then per
exception varint(key - previous key) and varint(zigzag(correction)). Version 1 models the result's
bits; version 2 a fixed-point value with frac_bits fraction bits whose truncation to f32 gives the
result, the correction applying to those bits. Version 3 (lg2, tanh) is the unit's own
interpolation, exact without exceptions (write_poly). `.t16`: the 65536 results, u16 each.
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


def fixed_to_f32_bits(u, frac_bits):
    """The f32 bit patterns of u * 2^-frac_bits (integers u >= 0 below 2^53), truncated; 0 where
    that falls below the normal range."""
    u = u.astype(np.int64)
    width = np.frexp(np.maximum(u, 1).astype(np.float64))[1].astype(np.int64)  # exact below 2^53
    top = width - 1
    m = np.where(top >= 23, u >> np.maximum(top - 23, 0), u << np.maximum(23 - top, 0))
    exp = top - frac_bits + 127
    return np.where((u <= 0) | (exp <= 0), 0, (exp << 23) | (m & 0x7FFFFF)).astype(np.int64)


def write_sfu(path, ys, key_bits, frac_bits=0):
    """A table of version 1 (the model gives the result's bits) or, with frac_bits, of version 2:
    the result is a fixed-point value with frac_bits fraction bits truncated to f32 (sin's first
    quadrant: absolute error, so a model of its bits would bend at every binade next to 0); that
    model is fitted in fixed point to the middle of each result's truncation interval, and an
    exception corrects the bits of the truncated model."""
    if frac_bits:
        val = ys.astype(np.uint32).view(np.float32).astype(np.float64)
        ulp = np.spacing(val.astype(np.float32)).astype(np.float64) * 2.0**frac_bits
        C, P = model(val * 2.0**frac_bits + (ulp - 1) / 2 - 0.5, key_bits)
        header = struct.pack("<IIIII", 2, key_bits, SEG_BITS, C.shape[1], frac_bits)
    else:
        C, P = model(ys, key_bits)
        header = struct.pack("<IIII", 1, key_bits, SEG_BITS, C.shape[1])
    F = np.floor(P)
    frac = P - F
    bits = fixed_to_f32_bits(F.astype(np.int64), frac_bits) if frac_bits else F.astype(np.int64)
    corr = ys.astype(np.int64) - bits
    exc = np.nonzero((corr != 0) | (frac < 2.0**-20) | (frac > 1 - 2.0**-20))[0]
    blob = bytearray(b"GSFU" + header)
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


def sin_quadrant(capdir):
    """MUFU.SIN over the first quadrant: the result for each 25-bit key k = floor(t * 2^25) of the
    argument in revolutions t = RZ(x * RZ(1/2pi)) below 2^23, from the dense captures of sin (whole
    binades), folded by the unit's symmetries S(2^24 - 1 - k) = S(k), S(k + 2^24) = -S(k)."""
    n, q = 1 << 25, 1 << 23
    inv_2pi = np.float32(np.uint32(0x3E22F983).view(np.float32))
    s = np.full(n, -1, dtype=np.int64)
    for path in sorted(glob.glob(os.path.join(capdir, "sin_approx_ftz_f32@0x*-0x*-1.bin"))):
        lo, hi = (int(v, 16) for v in os.path.basename(path).split("@")[1].split("-")[:2])
        x = np.arange(lo, hi, dtype=np.uint32).view(np.float32).astype(np.float64)
        p = x * np.float64(inv_2pi)
        t = p.astype(np.float32).astype(np.float64)
        t = np.where(np.abs(t) > np.abs(p), np.nextafter(t.astype(np.float32), np.float32(0)).astype(np.float64), t)
        s[np.floor(t * 2.0**25).astype(np.int64) % n] = np.fromfile(path, dtype=np.uint32)
    quadrant = np.full(q, -1, dtype=np.int64)
    for part, reflect, negate in [(s[:q], False, False), (s[q:2 * q], True, False),
                                  (s[2 * q:3 * q], False, True), (s[3 * q:], True, True)]:
        v = part[::-1] if reflect else part
        v = np.where((v >= 0) & negate, v ^ 0x80000000, v)
        if np.any((quadrant >= 0) & (v >= 0) & (quadrant != v)):
            sys.exit("derive.py: sin's captures disagree with its quadrant symmetry")
        quadrant = np.where(quadrant < 0, v, quadrant)
    if np.any(quadrant < 0):
        sys.exit(f"derive.py: sin's captures miss {int(np.sum(quadrant < 0))} first-quadrant keys")
    return quadrant


# The unit's own interpolation, found for MUFU.TANH and MUFU.LG2 (docs/sfu.md): the key (the top
# key_bits of the mantissa) splits into a segment and an offset X of OFFSET_BITS bits, and
#     V = (c0 + c1 * X + c2 * S) >> guard_bits,  S = the square of X from the partial products
#                                                    of weight 2^SQUARE_WEIGHT and up, >> that weight
# with integers c0, c1, c2 per segment: V is the result in fixed point (frac_bits fraction bits).
OFFSET_BITS, SQUARE_WEIGHT = 17, 19
# MUFU.TANH: the key bits of each binade [2^(b-8), 2^(b-7)), b = 0..10 (below, x; from 8 on, 1).
TANH_BITS = [17, 17, 17, 18, 18, 19, 19, 19, 20, 21, 20]


def truncated_square(x, bits=OFFSET_BITS, weight=SQUARE_WEIGHT):
    """x^2 (x below 2^bits) from the partial products b_i b_j 2^(i+j) of weight >= 2^weight, divided
    by 2^weight (exact: nothing below it is kept)."""
    sq = np.zeros(len(x), dtype=np.int64)
    for i in range(bits):
        bi = (x >> i) & 1
        if 2 * i >= weight:
            sq += bi << (2 * i)
        for j in range(i + 1, bits):
            if i + j + 1 >= weight:
                sq += (bi & (x >> j) & 1) << (i + j + 1)
    return sq >> weight


def write_poly(path, pieces, guard_bits, coefs):
    """Format (little-endian): b"GSFU", u32 version 3, u32 pieces, u32 offset bits, u32 square
    weight, u32 guard bits, per piece u8 key bits and u8 frac_bits, then per segment i64 c0, i32 c1,
    i32 c2, the pieces' segments one after another."""
    blob = bytearray(b"GSFU" + struct.pack("<IIIII", 3, len(pieces), OFFSET_BITS, SQUARE_WEIGHT, guard_bits))
    for key_bits, frac_bits in pieces:
        blob += struct.pack("<BB", key_bits, frac_bits)
    for c in coefs:
        blob += struct.pack("<qii", *c)
    with open(path, "wb") as f:
        f.write(blob)
    print(f"{os.path.basename(path)}: {len(coefs)} segments, {len(blob)} bytes")


def write_tanh(path, capdir):
    """Fits each segment of each binade by least squares to the middle of the interval of F that
    truncates to the GPU's result, with F = c0 + floor((c1 * X + c2 * 4S) / 2^17) (c0 an integer),
    rounds to integers (searching nearby where rounding is off) and checks every key."""
    x = np.arange(1 << OFFSET_BITS, dtype=np.int64)
    sq = truncated_square(x) << SQUARE_WEIGHT
    A = np.stack([np.ones(len(x)), x / 2.0**17, sq / 2.0**34], 1)
    pieces, coefs = [], []
    for b, bits in enumerate(TANH_BITS):
        lo = (119 + b) << 23
        r = load(capdir, f"tanh_approx_f32@0x{lo:08x}-0x{lo + (1 << 23):08x}-1.bin", np.uint32).astype(np.int64)
        groups = r.reshape(1 << bits, -1)
        if np.any(groups != groups[:, :1]):
            sys.exit(f"derive.py: tanh's results on [2^{b - 8}, 2^{b - 7}) depend on more than {bits} mantissa bits")
        y = groups[:, 0]
        frac_bits = 23 - int((y.min() >> 23) - 127)
        shift = frac_bits + (y >> 23) - 127 - 23  # F = mantissa << shift truncates to y
        mant = (y & 0x7FFFFF) | (1 << 23)
        f_lo, f_hi = mant << shift, (mant + 1) << shift
        pieces.append((bits, frac_bits))
        for seg in range(1 << (bits - OFFSET_BITS)):
            keys = slice(seg << OFFSET_BITS, (seg + 1) << OFFSET_BITS)
            fit, *_ = np.linalg.lstsq(A, (f_lo[keys] + f_hi[keys]) / 2.0, rcond=None)
            c = [int(round(v)) for v in fit]

            def misses(c0, c1, c2):
                F = c0 + ((c1 * (x << 17) + c2 * sq) >> 34)
                return int(np.sum((F < f_lo[keys]) | (F >= f_hi[keys])))

            best = (misses(*c), c)
            for d0 in range(-2, 3):
                for d1 in range(-64, 65):
                    for d2 in range(-32, 33):
                        if best[0] == 0:
                            break
                        t = [c[0] + d0, c[1] + d1, c[2] + d2]
                        best = min(best, (misses(*t), t))
            if best[0]:
                sys.exit(f"derive.py: tanh on [2^{b - 8}, 2^{b - 7}) segment {seg}: no integer coefficients give every result")
            c0, c1, c2 = best[1]
            coefs.append((c0 << 17, c1, 4 * c2))
    write_poly(path, pieces, 17, coefs)


def write_lg2(path, capdir):
    """MUFU.LG2's 36-bit fixed-point L(m) = log2(1 + m), accumulated with 2 guard bits: the result
    on [1, 2) is L truncated to f32, the magnitude on [0.5, 1) the one's complement 2^36 - 1 - L
    truncated (x = 1 gives +0: the exception). Each key's interval of L consistent with both; per
    segment a weighted least-squares fit, then integers c1, c2 near it and the exact range of c0
    that keeps every key in its interval (the smallest c0 of it is kept)."""
    def fixed36(r):
        return np.round(np.abs(r.view(np.float32).astype(np.float64)) * 2.0**36).astype(np.int64)

    def ulp36(v):  # the f32 ulp, in units of 2^-36, of a value in those units
        top = np.frexp(np.maximum(v, 1).astype(np.float64))[1].astype(np.int64) - 1
        return np.left_shift(np.int64(1), np.maximum(top - 23, 0))

    t = fixed36(load(capdir, "lg2_approx_ftz_f32@0x3f800000-0x40000000-1.bin", np.uint32))
    h = fixed36(load(capdir, "lg2_approx_ftz_f32@0x3f000000-0x3f800000-1.bin", np.uint32))
    lo = np.maximum(t, 2**36 - h - ulp36(h))
    hi = np.minimum(t + ulp36(t) - 1, 2**36 - 1 - h)
    lo[0], hi[0] = 2**36 - h[0] - ulp36(h[0]), 2**36 - 1 - h[0]  # x = 1: +0, not L(0)
    if np.any(lo > hi):
        sys.exit("derive.py: lg2's results on [0.5, 1) and [1, 2) disagree")
    x = np.arange(1 << OFFSET_BITS, dtype=np.int64)
    sq = truncated_square(x)
    A = np.stack([np.ones(len(x)), x / 4.0, sq / 4.0], 1)
    coefs = []
    for seg in range(1 << (23 - OFFSET_BITS)):
        keys = slice(seg << OFFSET_BITS, (seg + 1) << OFFSET_BITS)
        w = 1.0 / (hi[keys] - lo[keys] + 1)
        fit, *_ = np.linalg.lstsq(A * w[:, None], (lo[keys] + hi[keys] + 1) / 2.0 * w, rcond=None)
        best = None
        for d1 in range(-3, 4):
            for d2 in range(-3, 4):
                c1, c2 = int(round(fit[1])) + d1, int(round(fit[2])) + d2
                v = c1 * x + c2 * sq
                c0_min, c0_max = ((lo[keys] << 2) - v).max(), (((hi[keys] + 1) << 2) - 1 - v).min()
                if c0_min <= c0_max and (best is None or abs(d1) + abs(d2) < best[0]):
                    best = (abs(d1) + abs(d2), (int(c0_min), c1, c2))
        if best is None:
            sys.exit(f"derive.py: lg2 segment {seg}: no integer coefficients give every result")
        coefs.append(best[1])
    write_poly(path, [(23, 36)], 2, coefs)


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
    # sin (and cos, a quarter on): the first quadrant's 2^23 keys, in fixed point with 40 bits.
    write_sfu(os.path.join(outdir, "sin.sfu"), sin_quadrant(capdir), 23, 40)
    # lg2 and tanh: the unit's interpolation, exact.
    write_lg2(os.path.join(outdir, "lg2.sfu"), capdir)
    write_tanh(os.path.join(outdir, "tanh.sfu"), capdir)
    for op, name in [("ex2_approx_f16", "ex2_f16"), ("ex2_approx_ftz_bf16", "ex2_bf16"),
                     ("tanh_approx_f16", "tanh_f16"), ("tanh_approx_bf16", "tanh_bf16")]:
        t = load(capdir, f"{op}@0-0x10000-1.bin", np.uint16)
        t.astype("<u2").tofile(os.path.join(outdir, name + ".t16"))
        print(f"{name}.t16: 65536 results")


if __name__ == "__main__":
    main(sys.argv[1], sys.argv[2])
