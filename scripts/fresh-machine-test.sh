#!/bin/bash
# Builds a clean Debian 12 root with debootstrap (from Debian's archive), clones this repository
# into it, runs exactly the README's two commands there (as a new user would: no CUDA toolkit, no
# GPU) and prints pass/fail and the wall time of each.
#
# Usage (as root): scripts/fresh-machine-test.sh [WORKDIR]
#   WORKDIR           where the root is made (default /tmp/gpurun-fresh); removed first
#   MIRROR=URL        Debian mirror (default http://deb.debian.org/debian)
#   REPO=PATH|URL     what to clone (default: this checkout's HEAD)
#   KEEP_BASE=1       reuse WORKDIR/base.tar.gz from an earlier run instead of a new debootstrap
#   DEB=FILE.deb      instead of the README's commands, install this package (cpack's .deb) with
#                     apt as a user would (Recommends included) and run the installed gpurun:
#                     the bundled example, its manual page, completions and `gpurun help`
set -u
cd "$(dirname "$0")/.."
SRC=$PWD
WORK=${1:-/tmp/gpurun-fresh}
MIRROR=${MIRROR:-http://deb.debian.org/debian}
REPO=${REPO:-$SRC}
ROOT=$WORK/root

die() { echo "fresh-machine-test: $*" >&2; exit 2; }
[ "$(id -u)" -eq 0 ] || die "must run as root (debootstrap and chroot)"
command -v debootstrap >/dev/null || die "debootstrap not found (apt-get install debootstrap)"

# The README's commands: the first two lines of its first ```sh block.
mapfile -t CMDS < <(awk '/^```sh/{f=1;next} /^```/{if(f)exit} f' "$SRC/README.md" | head -2)
[ "${#CMDS[@]}" -eq 2 ] || die "README.md does not start with two commands in a \`\`\`sh block"
if [ -n "${DEB:-}" ]; then
  [ -f "$DEB" ] || die "DEB=$DEB: no such file"
  DEB=$(realpath "$DEB")
  CMDS=("apt-get install -y -q /root/$(basename "$DEB")"
    "gpurun /usr/share/gpurun/kernels/examples/scalar_add.json && gpurun devices && man -w gpurun && test -f /usr/share/bash-completion/completions/gpurun && gpurun help args | head -1")
fi

unmount_all() {
  for m in dev/pts dev proc sys/fs/cgroup sys; do
    mountpoint -q "$ROOT/$m" 2>/dev/null && umount -l "$ROOT/$m"
  done
}
trap unmount_all EXIT

unmount_all
mkdir -p "$WORK"
rm -rf "$ROOT"
mkdir -p "$ROOT"
start=$(date +%s)
if [ "${KEEP_BASE:-0}" = 1 ] && [ -f "$WORK/base.tar.gz" ]; then
  tar -C "$ROOT" -xzf "$WORK/base.tar.gz" || die "cannot unpack $WORK/base.tar.gz"
else
  debootstrap --variant=minbase bookworm "$ROOT" "$MIRROR" >"$WORK/debootstrap.log" 2>&1 ||
    die "debootstrap failed (see $WORK/debootstrap.log)"
  tar -C "$ROOT" -czf "$WORK/base.tar.gz" .
fi
echo "clean Debian 12 root: $ROOT ($(($(date +%s) - start)) s)"

# What a user's machine would have before the README: git to clone, and nothing of CUDA.
cp /etc/resolv.conf "$ROOT/etc/resolv.conf"
mount -t proc proc "$ROOT/proc"
mount -t sysfs sys "$ROOT/sys"
# A booted machine has its cgroup filesystem (slurmd needs it for the Slurm test).
mount --rbind /sys/fs/cgroup "$ROOT/sys/fs/cgroup"
mount --bind /dev "$ROOT/dev"
mount --bind /dev/pts "$ROOT/dev/pts"
in_root() { chroot "$ROOT" /usr/bin/env -i HOME=/root TERM=dumb \
  PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin /bin/bash -c "$1"; }
in_root "apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq git ca-certificates" \
  >"$WORK/git.log" 2>&1 || die "cannot install git in the root (see $WORK/git.log)"
[ -e "$ROOT/usr/local/cuda" ] && die "the root has /usr/local/cuda: not a fresh machine"

rm -rf "$ROOT/root/gpurun"
if [ -n "${DEB:-}" ]; then
  cp "$DEB" "$ROOT/root/" || die "cannot copy $DEB into the root"
  in_root "DEBIAN_FRONTEND=noninteractive apt-get install -y -qq man-db" >>"$WORK/git.log" 2>&1
  mkdir -p "$ROOT/root/gpurun"
elif [ -d "$REPO" ]; then
  git clone -q "$REPO" "$ROOT/root/gpurun" || die "cannot clone $REPO"
else
  in_root "git clone -q '$REPO' /root/gpurun" || die "cannot clone $REPO"
fi
[ -n "${DEB:-}" ] || echo "cloned $(git -C "$ROOT/root/gpurun" log -1 --format='%h %s')"

declare -a results
status=0
for i in 0 1; do
  cmd=${CMDS[$i]}
  log="$WORK/command$((i + 1)).log"
  echo "command $((i + 1)): $cmd"
  t0=$(date +%s)
  in_root "cd /root/gpurun && $cmd" >"$log" 2>&1
  rc=$?
  secs=$(($(date +%s) - t0))
  if [ $rc -eq 0 ]; then verdict=PASS; else verdict="FAIL (exit $rc)"; status=1; fi
  results+=("$(printf 'command %d  %-14s %4d min %02d s   log: %s' $((i + 1)) "$verdict" \
    $((secs / 60)) $((secs % 60)) "$log")")
  tail -n 15 "$log" | sed 's/^/  | /'
done

# A whole file as users keep it (host code, main(), cuBLAS and helper headers that are not
# there), compiled by clang since there is no CUDA toolkit, with the answer checked.
if [ -z "${DEB:-}" ] && [ $status -eq 0 ]; then
  log="$WORK/whole-file.log"
  in_root "cd /root/gpurun && build/gpurun devices && build/gpurun list tests/data/whole_file/samples_style/matrixMul.cu &&
    build/gpurun tests/data/whole_file/samples_style/matrixMul.cu -k 'MatrixMulCUDA<16>' --grid 2,2 \
      --block 16,16 -a 'C=f32[32,32]' -a 'A=f32[32,32]:ones' -a 'B=f32[32,32]:ones' -a wA=32 -a wB=32 \
      --global 'c_alpha=f32[1]:[0.5]' --expect 'C=f32[32,32]:16' --print none -v &&
    build/gpurun tests/data/whole_file/llm_style/layernorm.cu -k layernorm_forward_kernel2 --grid 1 \
      --block 128 -a 'out=f32[4,64]' -a 'mean=f32[4]' -a 'rstd=f32[4]' -a 'inp=f32[4,64]:iota' \
      -a 'weight=f32[64]:1' -a 'bias=f32[64]:0' -a N=4 -a C=64 --expect 'mean=[31.5,95.5,159.5,223.5]' -v" \
    >"$log" 2>&1
  rc=$?
  if [ $rc -eq 0 ] && grep -q "clang" "$log"; then verdict=PASS; else verdict="FAIL (exit $rc)"; status=1; fi
  results+=("$(printf 'whole file %-14s (clang, no CUDA toolkit)   log: %s' "$verdict" "$log")")
  tail -n 8 "$log" | sed 's/^/  | /'
fi

# OpenCL C on PoCL, which the README's install step brings from Debian's packages.
if [ -z "${DEB:-}" ] && [ $status -eq 0 ]; then
  log="$WORK/opencl.log"
  in_root "cd /root/gpurun && build/gpurun kernels/examples/opencl/reduce_sum.json &&
    build/gpurun kernels/examples/opencl/print_threads.json -q | wc -l" >"$log" 2>&1
  rc=$?
  if [ $rc -eq 0 ] && grep -q "opencl:0" "$log"; then verdict=PASS; else verdict="FAIL (exit $rc)"; status=1; fi
  results+=("$(printf 'opencl     %-14s (PoCL from Debian)          log: %s' "$verdict" "$log")")
  tail -n 8 "$log" | sed 's/^/  | /'
fi

echo
if [ -n "${DEB:-}" ]; then
  echo "fresh Debian 12 (bookworm minbase, no CUDA), $(basename "$DEB") installed and run:"
else
  echo "fresh Debian 12 (bookworm minbase, no CUDA), README commands:"
fi
printf '%s\n' "${results[@]}"
exit $status
