#!/bin/bash
# The GPU's results of every f32/f64 `.approx` instruction on the edge cases the CPU backend's
# sampled check keeps (tests/data/sfu): zeros, subnormals, the normal range's ends, infinities,
# NaN payloads, values around ±1 and huge arguments, each sign.
#   tools/approx/edges.sh OUTDIR [BINDIR]   → OUTDIR/edges*.tar (pack.py's format)
set -eu
out=$1
bin=${2:-build-gpu/approx}
here=$(cd "$(dirname "$0")" && pwd)
raw=$(mktemp -d)
ranges="0x00000000:0x00000040 0x007fffc0:0x00800040 0x3f7fffe0:0x3f800020 0x42fbffe0:0x42fc0020
0x4b7fffe0:0x4b800020 0x5f000000:0x5f000020 0x7effffe0:0x7f000020 0x7f7fffc0:0x7f800040
0x7fbfffe0:0x7fc00020 0x7fffffe0:0x80000040 0x807fffc0:0x80800040 0xbf7fffe0:0xbf800020
0xc2fbffe0:0xc2fc0020 0xc3160000:0xc3160020 0xff7fffc0:0xff800040 0xffbfffe0:0xffc00020
0xffffffc0:0x100000000"
los=$(for r in $ranges; do printf '%s,' "${r%%:*}"; done)
his=$(for r in $ranges; do printf '%s,' "${r##*:}"; done)
los=${los%,} his=${his%,}
# One file per instruction (and dividend): the ranges one after another, named for samples.py.
for op in $("$bin/capture" list | grep -v -e f16 -e bf16 -e div_); do
  "$bin/capture" "$op" "$los" "$his" 1 "$raw/$op@edges.bin"
done
for num in 0x3f800000 0x00000123 0x7f7fffff 0xff800000 0x7fc12345; do
  for op in div_approx_f32 div_approx_ftz_f32 div_full_f32 div_full_ftz_f32; do
    "$bin/capture" "$op" "$los" "$his" 1 "$raw/$op@edges-low$num.bin" "$num"
  done
done
(for r in $ranges; do echo "$r"; done) > "$raw/ranges.txt"
mkdir -p "$out"
cp "$raw/ranges.txt" "$out/edges-ranges.txt"
python3 "$here/pack.py" pack "$raw" "$out"
for f in "$out"/captures*.tar; do mv "$f" "${f/captures/edges}"; done
rm -rf "$raw"
