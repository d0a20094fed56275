#!/bin/sh
# Wall time of the release build at each of several revisions: `gpurun` alone, then everything
# (the tests, fuzz-free; the benchmarks where Google Benchmark is installed), each from an empty
# build folder, ccache off, two jobs. Each revision is checked out into its own git worktree under
# WORK, so the working tree is untouched. Run it on a quiet machine: nothing else building.
# Usage: scripts/measure-build.sh [--jobs N] REV [REV ...]     (WORK=/tmp/gpurun-measure-build)
#   GPURUN_ONLY=1 times `gpurun` alone (skips the build of everything)
# Prints one line per revision: "REV  gpurun SECONDS  all SECONDS".
set -eu
cd "$(dirname "$0")/.."
jobs=2
if [ "${1:-}" = "--jobs" ]; then
  jobs=$2
  shift 2
fi
[ $# -gt 0 ] || { echo "usage: scripts/measure-build.sh [--jobs N] REV [REV ...]" >&2; exit 2; }
work=${WORK:-/tmp/gpurun-measure-build}
mkdir -p "$work"
export CCACHE_DISABLE=1
now() { date +%s.%N; }
elapsed() { python3 -c "print('%.0f' % ($2 - $1))"; }
# An empty build folder, configured as the release preset does (the preset's binaryDir is the
# source's build/; this one is beside it so that nothing from an earlier build is reused).
configure() {
  rm -rf "$1/build-measure"
  cmake -S "$1" -B "$1/build-measure" -DCMAKE_BUILD_TYPE=Release -U CMAKE_CXX_COMPILER_LAUNCHER \
    >"$1/configure.log" 2>&1
}
results=""
for rev in "$@"; do
  sha=$(git rev-parse --short "$rev")
  tree=$work/$sha
  [ -d "$tree" ] || git worktree add --detach "$tree" "$sha" >/dev/null 2>&1
  configure "$tree"
  t0=$(now)
  cmake --build "$tree/build-measure" --target gpurun -j "$jobs" >"$tree/build-gpurun.log" 2>&1
  t1=$(now)
  all="-"
  if [ -z "${GPURUN_ONLY:-}" ]; then
    configure "$tree"
    t2=$(now)
    cmake --build "$tree/build-measure" -j "$jobs" >"$tree/build-all.log" 2>&1
    t3=$(now)
    all=$(elapsed "$t2" "$t3")
  fi
  line="$sha  gpurun $(elapsed "$t0" "$t1") s  all $all s"
  echo "$line"
  results="$results$line
"
done
for rev in "$@"; do
  git worktree remove --force "$work/$(git rev-parse --short "$rev")" 2>/dev/null || true
done
printf '\n== release build wall time, %s jobs, ccache off\n%s' "$jobs" "$results"
