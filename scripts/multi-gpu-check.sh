#!/bin/bash
# Several GPUs in one host (docs/multi-gpu.md), on a machine with N CUDA GPUs:
#   1. the stream suite (8 kernels × 6 sizes, 48 cases) on one GPU (--devices 0) and on all of
#      them (--devices all); the speed-up is the ratio of the suite's wall time (context.gpurun.
#      wall_s, which leaves out process start and driver initialization) — goal ≥ 0.9 × N;
#   2. that every case ran once, on which device, and that no device failed;
#   3. the copy bandwidth between every pair of GPUs (bench --p2p): GB/s per pair and whether the
#      copy went directly (peer access) or through host memory;
#   4. a buffer placed on GPU 1 for a kernel on GPU 0 (the peer copies both ways) gives the same
#      results as without the placement.
# Usage: BUILD=build scripts/multi-gpu-check.sh [OUTDIR]; prints a short table last. gpurun uses no
# NCCL and creates no multicast objects; NCCL_NVLS_ENABLE=0 is set anyway for anything else run here.
set -u
cd "$(dirname "$0")/.."
OUT=${1:-/tmp/gpurun-multi-gpu}
mkdir -p "$OUT"
BUILD=${BUILD:-build}
G=$PWD/$BUILD/gpurun
export NCCL_NVLS_ENABLE=0

N=$("$G" devices --json | python3 -c '
import json, sys
d = json.load(sys.stdin)
print(next((len(b["devices"]) for b in d["backends"] if b["name"] == "cuda" and b["available"]), 0))')
echo "CUDA GPUs: $N"
if [ "$N" -lt 1 ]; then
  echo "no CUDA GPU here"
  exit 5
fi

suite=(bench kernels/suites/stream.json --backend cuda -a 'N[pow2]=[22:27]' --min-time 1)
"$G" "${suite[@]}" --devices 0 --json "$OUT/one.json" >"$OUT/one.txt" 2>&1
echo "one GPU: exit $?"
"$G" "${suite[@]}" --devices all --json "$OUT/all.json" >"$OUT/all.txt" 2>&1
echo "all GPUs: exit $?"
cat "$OUT/all.txt"

"$G" bench --p2p --backend cuda --json "$OUT/p2p.json" >"$OUT/p2p.txt" 2>&1
echo "p2p: exit $?"
cat "$OUT/p2p.txt"

placed_ok=skipped
if [ "$N" -ge 2 ]; then
  args=(kernels/examples/scalar_add.cu --backend cuda --device 0 --grid 4096 --block 256
    --arg size=1048576 --arg scalar=1 --json)
  "$G" "${args[@]}" --arg 'vector=f32[1048576]:iota' --save "$OUT/here" >"$OUT/here.json" \
    2>"$OUT/here.err"
  "$G" "${args[@]}" --arg 'vector=f32[1048576]@1:iota' --save "$OUT/there" >"$OUT/there.json" \
    2>"$OUT/there.err"
  placed_ok=$(python3 - "$OUT" <<'PY'
import json, sys
out = sys.argv[1]
try:
    a = json.load(open(f"{out}/here.json"))
    b = json.load(open(f"{out}/there.json"))
    same = (a["status"] == b["status"] == "ok" and
            open(f"{out}/here/vector.npy", "rb").read() == open(f"{out}/there/vector.npy", "rb").read())
except Exception as e:
    print(f"no ({e})"); sys.exit()
print(f"{'yes' if same else 'NO'} (p2p {b['timings_ms']['p2p']:.2f} ms)")
PY
)
fi

python3 - "$OUT" "$N" "$placed_ok" <<'PY'
import json, sys
out, n, placed = sys.argv[1], int(sys.argv[2]), sys.argv[3]

def load(name):
    try:
        return json.load(open(f"{out}/{name}"))
    except Exception as e:
        print(f"{name}: unreadable ({e})")
        return None

one, every, p2p = load("one.json"), load("all.json"), load("p2p.json")
rows = []
if one and every:
    w1 = one["context"]["gpurun"]["wall_s"]
    wn = every["context"]["gpurun"]["wall_s"]
    speedup = w1 / wn if wn > 0 else 0
    goal = 0.9 * n
    rows.append(("suite on 1 GPU (wall)", f"{w1:.1f} s", ""))
    rows.append((f"suite on {n} GPUs (wall)", f"{wn:.1f} s", ""))
    rows.append(("speed-up", f"{speedup:.2f}x", f"goal >= {goal:.1f}x: {'ok' if speedup >= goal else 'MISSED'}"))
    cases = [b["gpurun"] for b in every["benchmarks"] if "gpurun" in b]
    ok = sum(1 for c in cases if c["status"] == "ok")
    per_device = {}
    for c in cases:
        per_device[c["device_index"]] = per_device.get(c["device_index"], 0) + 1
    rows.append(("cases measured", f"{ok}/{len(cases)}", " ".join(f"gpu{d}:{k}" for d, k in sorted(per_device.items()))))
    failed = [d for d in every["context"]["gpurun"]["devices"] if d["status"] != "ok"]
    rows.append(("devices failed", str(len(failed)), "; ".join(f"{d['index']}: {d['error']}" for d in failed)))
    busy = [d["busy_s"] for d in every["context"]["gpurun"]["devices"]]
    if busy:
        rows.append(("busy per GPU", f"{min(busy):.1f}-{max(busy):.1f} s", "balance of the queue"))
if p2p:
    m = p2p["context"]["gpurun"]["p2p"]
    devs = m["devices"]
    off = [(i, j) for i in range(len(devs)) for j in range(len(devs)) if i != j]
    vals = [m["gbs"][i][j] for i, j in off if m["gbs"][i][j] is not None]
    direct = sum(1 for i, j in off if m["path"][i][j] == "direct")
    if vals:
        rows.append(("p2p GB/s (pairs)", f"{min(vals):.0f}-{max(vals):.0f}", f"{direct}/{len(off)} direct, {len(m['errors'])} failed"))
    diag = [m["gbs"][i][i] for i in range(len(devs)) if m["gbs"][i][i] is not None]
    if diag:
        rows.append(("copy within a GPU GB/s", f"{min(diag):.0f}-{max(diag):.0f}", ""))
    print("\np2p matrix, GB/s (rows: from, columns: to)")
    print("      " + "".join(f"{d:>9}" for d in devs))
    for i, d in enumerate(devs):
        cells = ["failed" if v is None else f"{v:.1f}{'*' if m['path'][i][j] == 'staged' else ''}" for j, v in enumerate(m["gbs"][i])]
        print(f"{d:>6}" + "".join(f"{c:>9}" for c in cells))
    print("(* staged through host memory)")
rows.append(("buffer on GPU 1, kernel on GPU 0", placed, "same results as unplaced"))

print()
w = max(len(r[0]) for r in rows)
v = max(len(r[1]) for r in rows)
for name, value, note in rows:
    print(f"| {name:<{w}} | {value:>{v}} | {note}")
PY
