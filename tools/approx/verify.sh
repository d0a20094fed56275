#!/bin/bash
# On a machine with an NVIDIA GPU: measure the special-function unit, derive the tables from the
# measurements and check the emulator's model against the GPU on every input.
#   tools/approx/verify.sh OUTDIR [BINDIR]
# BINDIR holds capture, nan_payloads and verify (tools/approx/build.sh). OUTDIR gets the packed
# captures, sass.txt, nan_payloads.txt, tables.tar (derive.py's tables, to replace
# backends/cpu/emu/sfu/) and verify.txt (mismatches per instruction).
set -u
out=$1
bin=${2:-build-gpu/approx}
here=$(cd "$(dirname "$0")" && pwd)
work=$(mktemp -d)
mkdir -p "$out"
RAW_DIR=$work/raw bash "$here/measure.sh" "$out" "$bin" || exit 1
python3 "$here/derive.py" "$work/raw" "$work/tables" || exit 1
tar -C "$work/tables" -cf "$out/tables.tar" .
"$bin/verify" --tables "$work/tables" ${VERIFY_ARGS:-} | tee "$out/verify.txt"
