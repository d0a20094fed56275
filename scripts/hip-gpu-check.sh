#!/bin/bash
# Runs every bundled .hip example on the CUDA backend of an NVIDIA GPU, and its .cu twin with the
# same spec, and compares their outputs bit for bit (saved buffers byte for byte; device printf
# lines in any order). Also runs the HIP layer's own check (tests/data/hip/hip_api.json) there.
# Prints a short table; exits 1 when anything differs or fails.
# Usage: scripts/hip-gpu-check.sh GPURUN [OUTDIR]
set -u
if [ $# -lt 1 ] || [ ! -x "$1" ]; then
  echo "usage: $0 GPURUN [OUTDIR]  (GPURUN: the gpurun binary)" >&2
  exit 2
fi
G=$(realpath "$1")
cd "$(dirname "$0")/.."
OUT=${2:-/tmp/gpurun-hip-check}
rm -rf "$OUT"
mkdir -p "$OUT"
export CUDA_HOME=${CUDA_HOME:-/usr/local/cuda}
failed=0
rows=()
row() { rows+=("$(printf '%-22s %-6s %-6s %s' "$1" "$2" "$3" "$4")"); }

"$G" devices >"$OUT/devices.txt" 2>&1
if ! "$G" devices --check cuda >/dev/null 2>&1; then
  echo "no CUDA device: $(grep '^cuda' "$OUT/devices.txt")" >&2
  exit 2
fi

for hip in kernels/examples/*.hip; do
  name=$(basename "$hip" .hip)
  spec=kernels/examples/$name.json
  if [ ! -f "$spec" ]; then
    row "$name" "-" "-" "FAIL (no twin spec $spec)"; failed=1; continue
  fi
  mkdir -p "$OUT/$name/hip" "$OUT/$name/cu"
  "$G" "$hip" --spec "$spec" --backend cuda --no-cache -q --save "$OUT/$name/hip" \
    >"$OUT/$name/hip.txt" 2>"$OUT/$name/hip.err"
  hip_rc=$?
  "$G" "$spec" --backend cuda --no-cache -q --save "$OUT/$name/cu" \
    >"$OUT/$name/cu.txt" 2>"$OUT/$name/cu.err"
  cu_rc=$?
  if [ $hip_rc -ne 0 ] || [ $cu_rc -ne 0 ]; then
    row "$name" "$hip_rc" "$cu_rc" "FAIL (run; see $OUT/$name/*.err)"; failed=1; continue
  fi
  files=$(cd "$OUT/$name/cu" && ls *.npy 2>/dev/null)
  if [ -z "$files" ]; then
    # No buffers (printf only): the device printf lines, in any order.
    sort "$OUT/$name/hip.txt" >"$OUT/$name/hip.sorted"
    sort "$OUT/$name/cu.txt" >"$OUT/$name/cu.sorted"
    lines=$(wc -l <"$OUT/$name/cu.sorted")
    if [ "$lines" -gt 0 ] && cmp -s "$OUT/$name/hip.sorted" "$OUT/$name/cu.sorted"; then
      row "$name" 0 0 "same ($lines printf lines)"
    else
      row "$name" 0 0 "DIFFER (printf lines)"; failed=1
    fi
    continue
  fi
  differ=""
  for f in $files; do
    cmp -s "$OUT/$name/cu/$f" "$OUT/$name/hip/$f" || differ="$differ ${f%.npy}"
  done
  if [ -z "$differ" ]; then
    row "$name" 0 0 "same ($(echo $files | wc -w) buffer(s), bit for bit)"
  else
    row "$name" 0 0 "DIFFER:$differ"; failed=1
  fi
done

"$G" tests/data/hip/hip_api.json --backend cuda --no-cache >"$OUT/hip_api.txt" 2>&1
rc=$?
if [ $rc -eq 0 ]; then row "hip_api (HIP layer)" "$rc" "-" "all expectations met"
else row "hip_api (HIP layer)" "$rc" "-" "FAIL (see $OUT/hip_api.txt)"; failed=1; fi

# hipRTC targets: whatever ROCm this machine has compiles for them without an AMD GPU (informative:
# a target the installed hipRTC does not know is exit 3, not a failure of this check).
arch_rows=()
for arch in gfx90a gfx942 gfx1100; do
  "$G" compile kernels/examples/scalar_add.hip --backend hip --arch "$arch" -o "$OUT/scalar_add.$arch.co" \
    >"$OUT/compile.$arch.txt" 2>&1
  arch_rows+=("$(printf '%-8s exit %s  %s' "$arch" "$?" "$(head -c 150 "$OUT/compile.$arch.txt" | tr '\n' ' ')")")
done

echo
grep -E '^(cuda|hip|  hiprtc|hiprtc) ' "$OUT/devices.txt"
printf 'compile scalar_add.hip --backend hip --arch …\n'
printf '  %s\n' "${arch_rows[@]}"
printf '%-22s %-6s %-6s %s\n' "example" "hip rc" "cu rc" ".hip vs .cu on cuda"
printf '%s\n' "${rows[@]}"
[ $failed -eq 0 ] && echo "all .hip examples match their .cu twins" || echo "MISMATCH or failure"
exit $failed
