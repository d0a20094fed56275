#!/usr/bin/env python3
"""Pack raw captures (capture.cu's output) compactly: each file's results are delta-coded in
input order (consecutive results of a smooth function differ by a few units), stored in the
narrowest signed width that holds every delta, and xz-compressed; `unpack` restores them.

  pack.py pack DIR OUTDIR [MAX_BYTES]   one .tar per MAX_BYTES (default 15.5 MiB) of packed files
  pack.py unpack TAR... DIR             the raw .bin files again, bit for bit
"""
import io, lzma, multiprocessing, os, sys, tarfile

import numpy as np

WIDTHS = {4: np.uint32, 8: np.uint64, 2: np.uint16}


def width_of(name):
    return 8 if "_f64" in name else 2 if ("f16" in name or "bf16" in name) else 4


def encode(path):
    name = os.path.basename(path)
    raw = np.fromfile(path, dtype=WIDTHS[width_of(name)])
    v = raw.astype(np.int64) if raw.dtype != np.uint64 else raw.view(np.int64)
    d = np.diff(v, prepend=np.int64(0))
    for t in (np.int8, np.int16, np.int32, np.int64):
        info = np.iinfo(t)
        if d[1:].size == 0 or (d[1:].min() >= info.min and d[1:].max() <= info.max):
            break
    head = np.array([len(raw), raw.dtype.itemsize, np.dtype(t).itemsize], dtype=np.int64)
    body = head.tobytes() + d[:1].tobytes() + d[1:].astype(t).tobytes()
    return name + ".dz", lzma.compress(body, preset=6)


def decode(blob):
    body = lzma.decompress(blob)
    n, itemsize, dsize = np.frombuffer(body[:24], dtype=np.int64)
    first = np.frombuffer(body[24:32], dtype=np.int64)
    t = {1: np.int8, 2: np.int16, 4: np.int32, 8: np.int64}[int(dsize)]
    d = np.concatenate([first, np.frombuffer(body[32:], dtype=t).astype(np.int64)])
    v = np.cumsum(d)
    out = {2: np.uint16, 4: np.uint32, 8: np.uint64}[int(itemsize)]
    return (v.view(np.uint64) if itemsize == 8 else v).astype(out)[:n]


def pack(src, dst, limit):
    files = sorted(os.path.join(src, f) for f in os.listdir(src) if f.endswith(".bin"))
    with multiprocessing.Pool() as pool:
        packed = pool.map(encode, files)
    os.makedirs(dst, exist_ok=True)
    tars, current, size = [], None, 0
    for name, blob in sorted(packed, key=lambda p: -len(p[1])):
        fit = [t for t in tars if t[1] + len(blob) + 1024 <= limit]
        if not fit:
            if len(blob) + 1024 > limit:
                print(f"left out (too large): {name} {len(blob)} bytes")
                continue
            tars.append([[], 0])
            fit = [tars[-1]]
        fit[0][0].append((name, blob))
        fit[0][1] += len(blob) + 1024
    for i, (members, _) in enumerate(tars):
        with tarfile.open(os.path.join(dst, f"captures{i}.tar"), "w") as tar:
            for name, blob in members:
                info = tarfile.TarInfo(name)
                info.size = len(blob)
                tar.addfile(info, io.BytesIO(blob))
        print(f"captures{i}.tar: {len(members)} files, {sum(len(b) for _, b in members)} bytes")


def unpack(tars, dst):
    os.makedirs(dst, exist_ok=True)
    for path in tars:
        with tarfile.open(path) as tar:
            for m in tar.getmembers():
                decode(tar.extractfile(m).read()).tofile(os.path.join(dst, m.name[:-3]))


if __name__ == "__main__":
    if sys.argv[1] == "pack":
        pack(sys.argv[2], sys.argv[3], int(sys.argv[4]) if len(sys.argv) > 4 else 15_500_000 + 750_000)
    else:
        unpack(sys.argv[2:-1], sys.argv[-1])
