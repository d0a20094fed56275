#!/bin/bash
# Builds the libFuzzer targets (preset debug: clang with ASan and UBSan) and runs each one for a
# while over a copy of its seed corpus (docs/fuzzing.md). Prints one table line per target and
# exits non-zero when a target crashed, hung, ran out of memory or a sanitizer reported; the input
# that did it is kept in tests/fuzz/regressions/TARGET/ and replayed by every later run.
#
# Usage: scripts/fuzz.sh [--merge] [--replay] [SECONDS_PER_TARGET] [TARGET...]
#   SECONDS_PER_TARGET  default 60
#   TARGET              a tests/fuzz/TARGET_fuzz.cpp (default: all of them)
#   --merge             merge inputs that reach new code back into tests/fuzz/corpus/TARGET
#   --replay            only replay the corpus and the regressions, no fuzzing
# Environment: BUILD (default build-debug), FUZZ_WORK (default /tmp/gpurun-fuzz), FUZZ_JOBS for
# the build and the number of targets fuzzed at once (default 2), FUZZ_ARGS (more libFuzzer
# flags).
set -u
cd "$(dirname "$0")/.."
ROOT=$PWD
BUILD=${BUILD:-build-debug}
WORK=${FUZZ_WORK:-/tmp/gpurun-fuzz}
# Every target tests/fuzz defines, one per NAME_fuzz.cpp (tests/fuzz/CMakeLists.txt).
mapfile -t ALL_TARGETS < <(cd tests/fuzz && ls -- *_fuzz.cpp | sed 's/_fuzz\.cpp$//')

merge=0
replay_only=0
seconds=60
targets=()
for a in "$@"; do
  case $a in
  --merge) merge=1 ;;
  --replay) replay_only=1 ;;
  -h | --help)
    sed -n '2,/^set -u/p' "$0" | sed '$d' | sed 's/^# \{0,1\}//'
    exit 0
    ;;
  *[!0-9]*) targets+=("$a") ;;
  *) seconds=$a ;;
  esac
done
[ ${#targets[@]} -eq 0 ] && targets=("${ALL_TARGETS[@]}")
for t in "${targets[@]}"; do
  if [ ! -f "tests/fuzz/${t}_fuzz.cpp" ]; then
    echo "fuzz.sh: unknown target '$t' (targets: ${ALL_TARGETS[*]})" >&2
    exit 2
  fi
done

if [ ! -f "$BUILD/CMakeCache.txt" ]; then
  cmake --preset debug -B "$BUILD" >/dev/null || exit 2
fi
cmake --build "$BUILD" -j "${FUZZ_JOBS:-2}" --target "${targets[@]/%/_fuzz}" >"$WORK.build.log" 2>&1 ||
  {
    tail -40 "$WORK.build.log"
    echo "fuzz.sh: build failed (log: $WORK.build.log)" >&2
    exit 2
  }

# Every sanitizer report stops the run. tests/fuzz/ubsan.supp lists findings being fixed elsewhere.
export ASAN_OPTIONS=${ASAN_OPTIONS:-abort_on_error=0:detect_leaks=1:allocator_may_return_null=0}
export UBSAN_OPTIONS=${UBSAN_OPTIONS:-halt_on_error=1:print_stacktrace=1:suppressions=$ROOT/tests/fuzz/ubsan.supp}
common=(-timeout=10 -rss_limit_mb=2048)

# report_failure TARGET LOG INPUT...: what a failed run leaves in the output when its machine and
# files are gone (as on CI): the seed, the sanitizer's or libFuzzer's report, and each input that
# did it in base64 (`base64 -d > FILE`, then `scripts/fuzz.sh --replay TARGET` after copying it to
# tests/fuzz/regressions/TARGET/).
report_failure() {
  local t=$1 log=$2 f
  shift 2
  echo "---- $t: $(grep -m1 -o 'Seed: [0-9]*' "$log")"
  grep -m1 -B2 -A40 -E '^==[0-9]+==ERROR|runtime error:|deadly signal|out-of-memory|Timeout|ERROR: libFuzzer' "$log" |
    grep -v -E '^(#[0-9]+ .*(NEW|REDUCE|pulse|INITED)|MS: )' | head -60
  for f in "$@"; do
    echo "---- $t: input $(basename "$f") ($(stat -c %s "$f") bytes, base64)"
    head -c 65536 "$f" | base64 -w 120
  done
}

# fuzz_one TARGET: replays, fuzzes and (with --merge) merges one target; its table line goes to
# $WORK/TARGET.line; returns non-zero when the target failed.
fuzz_one() {
  local t=$1
  local bin=$BUILD/tests/fuzz/${t}_fuzz
  local dir=$WORK/$t
  rm -rf "$dir"
  mkdir -p "$dir/corpus" "$dir/artifacts"
  local log=$dir/fuzz.log line=$WORK/$t.line

  # The regressions first: an input that once crashed must not crash again.
  local kept
  mapfile -t kept < <(find "tests/fuzz/regressions/$t" "tests/fuzz/corpus/$t" -type f 2>/dev/null | sort)
  if [ ${#kept[@]} -gt 0 ] && ! "$bin" "${common[@]}" "${kept[@]}" >"$dir/replay.log" 2>&1; then
    local bad
    bad=$(grep -o 'Running: .*' "$dir/replay.log" | tail -1 | cut -d' ' -f2-)
    printf '%-12s %12s %9s %7s %s\n' "$t" - - - "replay failed: $bad (log: $dir/replay.log)" >"$line"
    report_failure "$t" "$dir/replay.log" "$bad" >"$dir/report"
    return 1
  fi
  if [ $replay_only = 1 ]; then
    printf '%-12s %12s %9s %7s %s\n' "$t" "${#kept[@]}" - - "0 (replayed)" >"$line"
    return 0
  fi

  cp "tests/fuzz/corpus/$t/"* "$dir/corpus/"
  local dict=()
  [ -f "tests/fuzz/$t.dict" ] && dict=(-dict="tests/fuzz/$t.dict")
  local start rc wall execs rate what
  start=$(date +%s.%N)
  # shellcheck disable=SC2086 # FUZZ_ARGS is a list of flags
  "$bin" "${common[@]}" "${dict[@]}" -max_total_time="$seconds" -print_final_stats=1 \
    -artifact_prefix="$dir/artifacts/" ${FUZZ_ARGS:-} "$dir/corpus" >"$log" 2>&1
  rc=$?
  wall=$(echo "$(date +%s.%N) - $start" | bc)
  execs=$(awk '/^stat::number_of_executed_units:/ {n = $2} END {print n}' "$log")
  rate=$(awk '/^stat::average_exec_per_sec:/ {n = $2} END {print n}' "$log")
  local found=() f kept_as
  for f in "$dir/artifacts/"{crash,timeout,oom,leak}-*; do
    [ -f "$f" ] || continue
    mkdir -p "tests/fuzz/regressions/$t"
    kept_as="tests/fuzz/regressions/$t/$(basename "$f")"
    cp "$f" "$kept_as"
    found+=("$kept_as")
  done
  local status=0
  if [ $rc -ne 0 ] || [ ${#found[@]} -gt 0 ]; then
    status=1
    what="${#found[@]}: ${found[*]:-no input saved} (rc $rc, log: $log)"
    report_failure "$t" "$log" "${found[@]}" >"$dir/report"
  else
    what=0
  fi
  printf '%-12s %12s %9s %7.0f %s\n' "$t" "${execs:--}" "${rate:--}" "$wall" "$what" >"$line"

  if [ $merge = 1 ] && [ $rc -eq 0 ]; then
    "$bin" "${common[@]}" -merge=1 "tests/fuzz/corpus/$t" "$dir/corpus" >"$dir/merge.log" 2>&1 ||
      echo "fuzz.sh: merging $t failed (log: $dir/merge.log)" >&2
  fi
  return $status
}

# FUZZ_JOBS targets at a time (one core each), the table in the order asked.
failed=0
parallel=${FUZZ_JOBS:-2}
running=0
for t in "${targets[@]}"; do
  if [ "$running" -ge "$parallel" ]; then
    wait -n || failed=1
    running=$((running - 1))
  fi
  fuzz_one "$t" &
  running=$((running + 1))
done
while [ "$running" -gt 0 ]; do
  wait -n || failed=1
  running=$((running - 1))
done
printf '%-12s %12s %9s %7s %s\n' target executions execs/s wall_s crashes
for t in "${targets[@]}"; do
  cat "$WORK/$t.line"
done
for t in "${targets[@]}"; do
  [ -s "$WORK/$t/report" ] && cat "$WORK/$t/report"
done
exit $failed
