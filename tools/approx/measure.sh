#!/bin/bash
# Measure the GPU's special-function results (run on a machine with an NVIDIA GPU):
#   tools/approx/measure.sh OUTDIR [BINDIR]
# BINDIR holds capture and nan_payloads built from capture.cu and nan_payloads.cu (built with
# nvcc here when absent). Writes OUTDIR/captures*.tar (pack.py's format), sass.txt (what ptxas
# makes of each instruction) and nan_payloads.txt; RAW_DIR, when set, keeps the raw captures.
set -eu
out=$1
bin=${2:-}
here=$(cd "$(dirname "$0")" && pwd)
mkdir -p "$out"
if [ -z "$bin" ]; then
  bin=$(mktemp -d)
  nvcc -arch=sm_90 -O2 -o "$bin/capture" "$here/capture.cu"
  nvcc -arch=sm_90 -O2 -o "$bin/nan_payloads" "$here/nan_payloads.cu"
fi
raw=${RAW_DIR:-$(mktemp -d)}
mkdir -p "$raw"
cap() { "$bin/capture" "$1" "$2" "$3" "$4" "$raw/$1@$2-$3-$4${5:+-low$5}.bin" ${5:+$5}; }

# Dense: the mantissa (and exponent parity) domains that determine each result.
cap rcp_approx_ftz_f32 0x3f800000 0x40000000 1
cap rsqrt_approx_ftz_f32 0x3f800000 0x40800000 1
cap sqrt_approx_ftz_f32 0x3f800000 0x40800000 1
for r in "0x3f000000 0x3f800000" "0x3f800000 0x40000000" "0x40000000 0x40800000"; do
  cap lg2_approx_ftz_f32 $r 1
done
for r in "0x3f000000 0x3f800000" "0x3f800000 0x40000000" "0xbf000000 0xbf800000" "0xbf800000 0xc0000000"; do
  cap ex2_approx_ftz_f32 $r 1
done
# sin: whole binades of x from 2^-23 to 4, which reach every 25-bit key of the first quadrant
# (derive.py folds them); cos is sin a quarter on.
for e in $(seq 104 128); do
  cap sin_approx_ftz_f32 "$(printf '0x%08x' $((e << 23)))" "$(printf '0x%08x' $(((e + 1) << 23)))" 1
done
# tanh: every binade from 2^-8 to 8 (below, the result is x; above, 1).
for e in $(seq 119 129); do
  cap tanh_approx_f32 "$(printf '0x%08x' $((e << 23)))" "$(printf '0x%08x' $(((e + 1) << 23)))" 1
done
cap rcp_approx_ftz_f64 0x3ff00000 0x40000000 1
cap rcp_approx_ftz_f64 0x3ff00000 0x40000000 1 0xffffffff
cap rsqrt_approx_f64 0x3ff00000 0x40100000 1
cap rsqrt_approx_ftz_f64 0x3ff00000 0x40100000 1
# Whole input spaces of the 16-bit forms.
for op in ex2_approx_f16 ex2_approx_f16x2 ex2_approx_ftz_bf16 ex2_approx_ftz_bf16x2 \
          tanh_approx_f16 tanh_approx_f16x2 tanh_approx_bf16 tanh_approx_bf16x2; do
  cap $op 0 0x10000 1
done
# Sparse over every f32 input: exponents, subnormals, specials.
for op in $("$bin/capture" list | grep -v -e f16 -e bf16 -e div_ -e _f64); do
  cap $op 0 0x100000000 65521
done
cap rsqrt_approx_ftz_f64 0 0x100000000 65521
cap rsqrt_approx_f64 0 0x100000000 65521
cap rcp_approx_ftz_f64 0 0x100000000 65521
for num in 0x3f800000 0x40400000 0xc0f9999a; do
  for op in div_approx_f32 div_approx_ftz_f32 div_full_f32 div_full_ftz_f32; do
    cap $op 0 0x100000000 65521 $num
  done
done
python3 "$here/pack.py" pack "$raw" "$out"
[ -n "${RAW_DIR:-}" ] || rm -rf "$raw"
"$bin/nan_payloads" > "$out/nan_payloads.txt"
cuobjdump -sass "$bin/capture" > "$out/sass.txt" || true
