#!/usr/bin/env bash
# Holds gpurun's CPU-backend sanitizers against NVIDIA's compute-sanitizer on the planted-bug
# corpus in tests/data/sanitizers/ (corpus.txt lists every run). Each kernel runs
#   - under compute-sanitizer --tool T, through gpurun's CUDA backend on the GPU, and
#   - under gpurun --backend cpu with the matching flag (--racecheck, --initcheck, --synccheck,
#     --memcheck --leak-check),
# and the last thing printed is a table: for each planted bug, found by both / only one / neither;
# for each clean kernel (run under all four tools), any finding is a false positive.
#
# usage: scripts/sanitizer-compare.sh PATH/TO/gpurun [OUTPUT_DIR]
#   OUTPUT_DIR (default: a new folder under /tmp) receives one log per run and table.md.
# environment: COMPUTE_SANITIZER (default /usr/local/cuda/bin/compute-sanitizer),
#   SANITIZER_TIMEOUT seconds per run (default 300), ONLY=regex of corpus ids to run.
# exit status: 0 when the table was produced (whatever it says), 2 when it could not start.
set -u
set -f # the corpus arguments hold brackets (f32[64]) that must never glob

die() {
  echo "sanitizer-compare: $*" >&2
  exit 2
}

[ $# -ge 1 ] || die "usage: $0 PATH/TO/gpurun [OUTPUT_DIR]"
GPURUN=$(realpath "$1" 2>/dev/null) || die "$1: not found"
[ -x "$GPURUN" ] || die "$GPURUN is not an executable"
ROOT=$(cd "$(dirname "$0")/.." && pwd)
CORPUS_DIR="$ROOT/tests/data/sanitizers"
CORPUS="$CORPUS_DIR/corpus.txt"
[ -f "$CORPUS" ] || die "$CORPUS not found (run the script from a gpurun checkout)"
CS=${COMPUTE_SANITIZER:-/usr/local/cuda/bin/compute-sanitizer}
TIMEOUT=${SANITIZER_TIMEOUT:-300}
ONLY=${ONLY:-.}
OUT=${2:-$(mktemp -d /tmp/sanitizer-compare.XXXXXX)}
mkdir -p "$OUT" || die "cannot create $OUT"

HAVE_CS=1
if [ ! -x "$CS" ]; then
  echo "sanitizer-compare: $CS not found: the compute-sanitizer column will say n/a" >&2
  HAVE_CS=0
fi
echo "gpurun:            $GPURUN ($("$GPURUN" --version 2>&1 | head -1))"
[ $HAVE_CS = 1 ] && echo "compute-sanitizer: $CS ($("$CS" --version 2>&1 | grep -i version | head -1))"
echo "corpus:            $CORPUS"
echo "logs:              $OUT"
echo

# One check that compute-sanitizer sees the kernels gpurun launches through the libcuda it
# dlopens: a clean kernel must give an ERROR SUMMARY line.
if [ $HAVE_CS = 1 ]; then
  smoke="$OUT/smoke.log"
  timeout -k 10 "$TIMEOUT" "$CS" --tool memcheck "$GPURUN" run "$CORPUS_DIR/clean_reduce.cu" \
    --backend cuda --kernel reduce --grid 4 --block 256 --arg 'f32[1024]:ones' --arg 'f32[4]' \
    --print none >"$smoke" 2>&1
  if ! grep -q "ERROR SUMMARY" "$smoke"; then
    echo "sanitizer-compare: compute-sanitizer did not report on gpurun's CUDA backend; its" >&2
    echo "output is in $smoke:" >&2
    tail -20 "$smoke" >&2
    HAVE_CS=0
  fi
fi

cpu_flags() {
  case $1 in
  racecheck) echo "--racecheck" ;;
  initcheck) echo "--initcheck" ;;
  synccheck) echo "--synccheck" ;;
  memcheck) echo "--memcheck --leak-check" ;;
  esac
}

# Options this compute-sanitizer has (older releases lack some): asked once, from its --help.
CS_HELP=""
[ $HAVE_CS = 1 ] && CS_HELP=$("$CS" --help 2>&1)
cs_has() { grep -q -- "$1" <<<"$CS_HELP"; }

cs_flags() {
  local flags="--tool $1"
  cs_has --error-exitcode && flags="$flags --error-exitcode 86"
  case $1 in
  memcheck) cs_has --leak-check && flags="$flags --leak-check full" ;;
  racecheck) cs_has --racecheck-report && flags="$flags --racecheck-report all" ;;
  esac
  echo "$flags"
}

# found / found(warning) / - (nothing) / hang / error(rc N)
classify_cpu() { # log rc tool
  local log=$1 rc=$2
  if [ "$rc" = 4 ]; then
    echo found
  elif [ "$rc" = 124 ] || [ "$rc" = 137 ]; then
    echo hang
  elif [ "$rc" = 0 ]; then
    if grep -Eq "(racecheck|initcheck|synccheck|memcheck) found" "$log"; then
      echo "found(warning)"
    else
      echo -
    fi
  else
    echo "error(rc $rc)"
  fi
}

classify_cs() { # log rc
  local log=$1 rc=$2
  if [ "$rc" = 124 ] || [ "$rc" = 137 ]; then
    echo hang
  elif [ "$rc" = 86 ] || grep -Eq "ERROR SUMMARY: [1-9]" "$log"; then
    echo found
  elif grep -Eq "RACECHECK SUMMARY: [1-9][0-9]* hazard" "$log"; then
    if grep -Eq "RACECHECK SUMMARY: .*\(0 errors" "$log"; then echo "found(warning)"; else echo found; fi
  elif grep -q "ERROR SUMMARY: 0" "$log"; then
    echo -
  else
    echo "no summary(rc $rc)"
  fi
}

is_found() { case $1 in found*) return 0 ;; *) return 1 ;; esac; }

rows=()
declare -A both cs_only cpu_only neither fp_cpu fp_cs
while IFS= read -r line; do
  case $line in '#'* | '') continue ;; esac
  IFS='|' read -r id tool expect file args <<<"$line"
  id=$(echo $id) tool=$(echo $tool) expect=$(echo $expect) file=$(echo $file)
  args=$(echo $args)
  [[ $id =~ $ONLY ]] || continue
  tools=$tool
  [ "$tool" = all ] && tools="racecheck initcheck synccheck memcheck"
  for t in $tools; do
    cpu_log="$OUT/$id.$t.cpu.log"
    # shellcheck disable=SC2086 # the corpus' arguments are split on purpose
    timeout -k 10 "$TIMEOUT" "$GPURUN" run "$CORPUS_DIR/$file" --backend cpu $args $(cpu_flags $t) \
      --print none >"$cpu_log" 2>&1
    cpu=$(classify_cpu "$cpu_log" $?)
    if [ $HAVE_CS = 1 ]; then
      cs_log="$OUT/$id.$t.cs.log"
      # --leak-check makes gpurun destroy its CUDA context before it exits, which is when
      # compute-sanitizer looks for leaks; on the CUDA backend it changes nothing else.
      leak=""
      [ "$t" = memcheck ] && leak="--leak-check"
      # shellcheck disable=SC2086
      timeout -k 10 "$TIMEOUT" "$CS" $(cs_flags $t) "$GPURUN" run "$CORPUS_DIR/$file" --backend cuda \
        $args $leak --print none --timeout 60 >"$cs_log" 2>&1
      cs=$(classify_cs "$cs_log" $?)
    else
      cs=n/a
    fi
    if [ "$expect" = bug ]; then
      if is_found "$cs" && is_found "$cpu"; then
        verdict="both"; both[$t]=$((${both[$t]:-0} + 1))
      elif is_found "$cs"; then
        verdict="compute-sanitizer only"; cs_only[$t]=$((${cs_only[$t]:-0} + 1))
      elif is_found "$cpu"; then
        verdict="gpurun only"; cpu_only[$t]=$((${cpu_only[$t]:-0} + 1))
      else
        verdict="neither"; neither[$t]=$((${neither[$t]:-0} + 1))
      fi
    else
      verdict="clean"
      if is_found "$cpu"; then verdict="FALSE POSITIVE (gpurun)"; fp_cpu[$t]=$((${fp_cpu[$t]:-0} + 1)); fi
      if is_found "$cs"; then verdict="$verdict; finding (compute-sanitizer)"; fp_cs[$t]=$((${fp_cs[$t]:-0} + 1)); fi
    fi
    printf '%-20s %-10s %-6s cs=%-16s gpurun=%-16s %s\n' "$id" "$t" "$expect" "$cs" "$cpu" "$verdict"
    rows+=("| $id | $t | $expect | $cs | $cpu | $verdict |")
  done
done <"$CORPUS"

{
  echo "| kernel | tool | planted | compute-sanitizer (H200) | gpurun --backend cpu | verdict |"
  echo "|---|---|---|---|---|---|"
  printf '%s\n' "${rows[@]}"
  echo
  echo "| tool | bugs found by both | compute-sanitizer only | gpurun only | neither | false positives gpurun (clean runs) | findings of compute-sanitizer on clean runs |"
  echo "|---|---|---|---|---|---|---|"
  for t in racecheck initcheck synccheck memcheck; do
    echo "| $t | ${both[$t]:-0} | ${cs_only[$t]:-0} | ${cpu_only[$t]:-0} | ${neither[$t]:-0} | ${fp_cpu[$t]:-0} | ${fp_cs[$t]:-0} |"
  done
} >"$OUT/table.md"

echo
echo "Legend: found = an error finding (gpurun exit 4; compute-sanitizer ERROR/RACECHECK SUMMARY > 0),"
echo "found(warning) = warnings only, - = nothing reported, hang = killed after ${TIMEOUT}s,"
echo "n/a = compute-sanitizer not available. Per-run logs: $OUT/<id>.<tool>.{cs,cpu}.log"
echo
cat "$OUT/table.md"
exit 0
