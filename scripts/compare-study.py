#!/usr/bin/env python3
"""Error rates of `gpurun compare`: how often identical code is called slower, and how often a
planted slowdown is caught (docs/compare.md, "Error rates").

The study takes K result files of `gpurun bench` made one after another from identical code (the
same binary, suite and arguments: `--record` makes them), and compares every ordered pair of
distinct runs: K·(K−1) comparisons per case. Run-to-run drift (clocks, placement, what else the
machine did) is in them, as it is in a CI job that compares a new build with a stored baseline.

- false regressions: pairs of identical code with the verdict `slower`;
- detection of a planted slowdown s: the same pairs with the new file's samples multiplied by
  (1 + s): a kernel made slower by exactly s, with the noise of a real run;
- undecided: verdict `noisy` (the gate says it cannot tell at this threshold).

Usage:
  scripts/compare-study.py --record K --out DIR -- gpurun bench SUITE [ARGS]   # K runs
  scripts/compare-study.py DIR [--threshold PCT ...] [--slowdowns 1,2,5] [--gpurun build/gpurun]
"""
import argparse
import glob
import itertools
import json
import os
import subprocess
import sys
import tempfile


def record(count, out, command):
    os.makedirs(out, exist_ok=True)
    for i in range(count):
        path = os.path.join(out, f"run-{i:03d}.json")
        done = subprocess.run(command + ["--json", path], stdout=subprocess.DEVNULL,
                              stderr=subprocess.PIPE, text=True)
        if done.returncode != 0:
            sys.exit(f"run {i}: {' '.join(command)} failed: {done.stderr.strip()}")
        print(f"recorded {path}", file=sys.stderr)


def scaled(document, factor):
    """The document with every gpurun sample multiplied by factor."""
    doc = json.loads(json.dumps(document))
    for b in doc.get("benchmarks", []):
        g = b.get("gpurun")
        if g and "samples_s" in g:
            g["samples_s"] = [x * factor for x in g["samples_s"]]
    return doc


def compare(gpurun, base_paths, new_doc, threshold, alpha):
    with tempfile.NamedTemporaryFile("w", suffix=".json", delete=False) as f:
        json.dump(new_doc, f)
        new_path = f.name
    try:
        done = subprocess.run([gpurun, "compare", *base_paths, new_path, "--json",
                               "--threshold", str(threshold), "--alpha", str(alpha)],
                              capture_output=True, text=True)
        if done.returncode not in (0, 1):
            sys.exit(f"gpurun compare failed: {done.stdout.strip()} {done.stderr.strip()}")
        return {c["name"]: c["verdict"] for c in json.loads(done.stdout)["cases"]}
    finally:
        os.unlink(new_path)


def study(args):
    runs = sorted(glob.glob(os.path.join(args.folder, "*.json")))
    if len(runs) < 2:
        sys.exit(f"{args.folder}: needs at least two result files")
    docs = {path: json.load(open(path)) for path in runs}
    k = args.baseline_runs
    if len(runs) < k + 1:
        sys.exit(f"{args.folder}: --baseline-runs {k} needs at least {k + 1} result files")
    # Each run as the new file against each window of k other runs, taken in turn.
    pairs, seen = [], set()
    for j, new in enumerate(runs):
        others = runs[:j] + runs[j + 1:]
        for start in range(len(others)):
            window = tuple(others[(start + i) % len(others)] for i in range(k))
            if (window, new) not in seen:
                seen.add((window, new))
                pairs.append((list(window), new))
    if args.pairs and len(pairs) > args.pairs:
        pairs = pairs[:: len(pairs) // args.pairs][: args.pairs]
    slowdowns = [float(s) for s in args.slowdowns.split(",") if s]
    print(f"{len(runs)} runs, {len(pairs)} comparisons of {k} baseline run(s) with a new one; "
          f"alpha {args.alpha}")
    print(f"{'threshold':>9} {'planted':>8} {'case':32} {'slower':>7} {'same':>6} "
          f"{'noisy':>6} {'faster':>6}  rate")
    for threshold in args.threshold:
        for planted in [0.0] + slowdowns:
            counts = {}
            for base, new in pairs:
                verdicts = compare(args.gpurun, base, scaled(docs[new], 1 + planted / 100),
                                   threshold, args.alpha)
                for name, verdict in verdicts.items():
                    counts.setdefault(name, {}).setdefault(verdict, 0)
                    counts[name][verdict] += 1
            for name, c in sorted(counts.items()):
                total = sum(c.values())
                slower = c.get("slower", 0)
                label = "false regressions" if planted == 0 else "detected"
                print(f"{threshold:>8g}% {planted:>7g}% {name[:32]:32} {slower:>7} "
                      f"{c.get('same', 0):>6} {c.get('noisy', 0):>6} {c.get('faster', 0):>6}  "
                      f"{label} {100 * slower / total:.1f}%")


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("folder", nargs="?")
    ap.add_argument("--record", type=int, help="make this many result files, then stop")
    ap.add_argument("--out", help="folder of the recorded files")
    ap.add_argument("--gpurun", default=os.path.join(os.path.dirname(__file__), "..", "build",
                                                     "gpurun"))
    ap.add_argument("--threshold", type=float, nargs="+", default=[2.0, 5.0],
                    help="thresholds in percent (default 2 5)")
    ap.add_argument("--alpha", type=float, default=0.05)
    ap.add_argument("--slowdowns", default="1,2,5", help="planted slowdowns in percent")
    ap.add_argument("--pairs", type=int, default=0, help="use at most this many comparisons")
    ap.add_argument("--baseline-runs", type=int, default=1,
                    help="runs that make one baseline (default 1: pairs of runs)")
    argv = sys.argv[1:]
    rest = argv[argv.index("--") + 1:] if "--" in argv else []
    args = ap.parse_args(argv[:argv.index("--")] if "--" in argv else argv)
    if args.record:
        if not args.out or not rest:
            sys.exit("--record K needs --out DIR and the bench command after --")
        record(args.record, args.out, rest)
        return 0
    if not args.folder:
        ap.error("a folder of result files, or --record")
    study(args)
    return 0


if __name__ == "__main__":
    sys.exit(main())
