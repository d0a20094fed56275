#!/bin/bash
# Runs a table of hostile command lines against a gpurun binary and classifies each outcome:
# clean (a documented exit code with one `gpurun: error:` line, or success), crash (a signal),
# hang (still running after the limit), internal (`internal error:`), multiline (an error of more
# than one line that is not a compile log), leftover (files left in the run's folder).
# Usage: scripts/hostile-inputs.sh [GPURUN] [LIMIT_S]   (default build/gpurun, 20 s)
# Prints one line per case and a summary; exits 1 when any case was not clean.
set -u
cd "$(dirname "$0")/.."
ROOT=$PWD
G=$(realpath "${1:-build/gpurun}")
LIMIT=${2:-20}
WORK=$(mktemp -d)
trap 'rm -rf "$WORK"' EXIT
mkfifo "$WORK/fifo"
mkdir "$WORK/adir"
printf 'extern "C" __global__ void k(float* x) { x[0] = 1; }\0 garbage' >"$WORK/nul.cu"
python3 - "$WORK" <<'PY'
import struct, sys
w = sys.argv[1]
def npy(name, header, data):
    h = header.encode()
    h += b" " * ((64 - (10 + len(h) + 1) % 64) % 64) + b"\n"
    open(f"{w}/{name}", "wb").write(b"\x93NUMPY\x01\x00" + struct.pack("<H", len(h)) + h + data)
npy("wrap.npy", "{'descr': '<f4', 'fortran_order': False, 'shape': (2, 9223372036854775818), }", b"\0" * 80)
npy("huge.npy", "{'descr': '<f4', 'fortran_order': False, 'shape': (1000000000,), }", b"\0" * 80)
npy("maxsize.npy", "{'descr': '<f4', 'fortran_order': False, 'shape': (461168601842890, 9377), }", b"")
npy("empty.npy", "{'descr': '<f4', 'fortran_order': False, 'shape': (0,), }", b"")
open(f"{w}/deep.json", "w").write('{"source": "k.cu", "grid": ' + "[" * 20000 + "1" + "]" * 20000 + "}")
PY
SEED="$ROOT/kernels/examples/scalar_add.cu --backend cpu --no-cache --grid 1 --block 20"
OK="--arg 'vector=f32[20]:iota' --arg size=20 --arg scalar=1"
deep=$(printf '(%.0s' $(seq 20000))20$(printf ')%.0s' $(seq 20000))
minus=$(printf -- '-%.0s' $(seq 120000))1
cases=(
  "$SEED --arg 'vector=f32[$deep]' --arg size=20 --arg scalar=1"
  "$SEED --arg 'vector=f32[$minus]' --arg size=20 --arg scalar=1"
  "$SEED --arg 'vector=f32[20]:@$WORK/wrap.npy' --arg size=20 --arg scalar=1"
  "$SEED --arg 'vector=f32[20]:@$WORK/huge.npy' --arg size=20 --arg scalar=1"
  "$SEED --arg 'vector=f32[20]:@$WORK/maxsize.npy' --arg size=20 --arg scalar=1"
  "$SEED --arg 'vector=f32[0]:@$WORK/empty.npy' --arg size=0 --arg scalar=1"
  "$SEED --arg 'vector=f32[20]:@/dev/zero' --arg size=20 --arg scalar=1"
  "$SEED --arg 'vector=f32[20]:@/dev/urandom' --arg size=20 --arg scalar=1"
  "$SEED --arg 'vector=f32[20]:@$WORK/fifo' --arg size=20 --arg scalar=1"
  "$SEED $OK --expect 'vector=@$WORK/fifo'"
  "$WORK/fifo --backend cpu --grid 1 --block 1"
  "$SEED $OK --spec $WORK/fifo"
  "$SEED --arg 'vector=f32[20]:@$WORK/adir' --arg size=20 --arg scalar=1"
  "$SEED $OK --save $WORK/fifo"
  "$SEED $OK --save /dev/null"
  "$SEED $OK --save ''"
  "$SEED $OK --save $ROOT/README.md"
  "$SEED $OK --timeout nan"
  "$SEED $OK --timeout 1e308"
  "$SEED $OK --timeout inf"
  "$SEED $OK --timeout 0"
  "$SEED $OK --timeout -1"
  "$SEED --arg 'vector=f32[2**46]' --arg size=20 --arg scalar=1"
  "$SEED --arg 'vector=f32[1<<33]' --arg size=20 --arg scalar=1"
  "$SEED $OK --expect 'vector=f32[20]:iota(1,1)' --rtol -1"
  "$SEED $OK --expect 'vector=f32[20]:iota(1,1)' --rtol nan"
  "$SEED $OK --expect 'vector=f32[20]:iota(1,1)' --atol inf"
  "$SEED --arg 'vector=f32[20]:rand(seed=7,-inf,inf)' --arg size=20 --arg scalar=1"
  "$SEED --arg 'vector=f32[20]:randn(seed=7,0,nan)' --arg size=20 --arg scalar=1"
  "$SEED $OK --grdi 2"
  "$SEED $OK --timeout"
  "$ROOT/kernels/examples/saxpy.json --backend cpu --kernel 'saxpy<float>('"
  "$ROOT/kernels/examples/saxpy.json --backend cpu --kernel 'saxpy<float'"
  "$ROOT/kernels/examples/saxpy.json --backend cpu --kernel ''"
  "$WORK/nul.cu --backend cpu --grid 1 --block 1 --arg 'x=f32[1]'"
  "$SEED --arg \"\$(printf 'vector=f32[20]:io\\nta')\" --arg size=20 --arg scalar=1"
  "$SEED $OK --arg extra=3"
  "$SEED --arg 'vector=f32[-1]' --arg size=20 --arg scalar=1"
  "$SEED --arg 'vector=f32[20]:iota' --arg size=99999999999999999999 --arg scalar=1"
  "$SEED --arg 'vector=f32[20]:iota' --arg size=20 --arg scalar=1e999"
  "$SEED --arg 'vector=f32[20]:[1,2,3]' --arg size=20 --arg scalar=1"
  "$ROOT/kernels/examples/scalar_add.cu --backend cpu --grid 0 --block 20 $OK"
  "$ROOT/kernels/examples/scalar_add.cu --backend cpu --grid 1 --block 4096 $OK"
  "$ROOT/kernels/examples/scalar_add.cu --backend cpu --grid 99999999999,99999999999 --block 1 $OK"
  "$ROOT/kernels/examples/scalar_add.cu --backend cpu --grid 1,1,1,1 --block 20 $OK"
  "$WORK/deep.json --backend cpu"
  "$SEED $OK --repeat 0"
  "$SEED $OK --repeat -5"
  "$SEED $OK --cpu-threads 100000000000"
  "$SEED $OK --printf-buffer 0"
  "$SEED $OK --global 'nothing=f32[1]'"
  "$SEED $OK -D 'A=\"'"
  "threads --grid 1 --block 1 --where '$deep'"
  "threads --grid 99999999,99999999,64 --block 1024 --limit 5"
  "bench $WORK/fifo"
  "bench $WORK/adir"
  "bench $ROOT/README.md"
  "compare $WORK/fifo $WORK/fifo"
  "compare /dev/zero /dev/zero"
  "cache info --nonsense"
  "devcies"
)
clean=0 bad=0
declare -A kinds
for c in "${cases[@]}"; do
  run=$(mktemp -d)
  (cd "$run" && eval "timeout -s KILL $LIMIT $G $c" </dev/null >"$WORK/out" 2>"$WORK/err")
  rc=$?
  left=$(ls -A "$run" | wc -l)
  rm -rf "$run"
  kind=clean
  if [ $rc -eq 137 ]; then kind=hang
  elif [ $rc -gt 128 ]; then kind=crash
  elif grep -q "internal error" "$WORK/err"; then kind=internal
  elif [ $rc -ne 0 ] && [ $rc -ne 3 ] && [ "$(wc -l <"$WORK/err")" -ne 1 ]; then kind=multiline
  elif [ $rc -ne 0 ] && ! head -1 "$WORK/err" | grep -q "^gpurun: error: "; then kind=unprefixed
  elif [ "$left" -ne 0 ]; then kind=leftover
  fi
  kinds[$kind]=$((${kinds[$kind]:-0} + 1))
  [ $kind = clean ] && clean=$((clean + 1)) || bad=$((bad + 1))
  shown=${c//$ROOT\//}
  shown=${shown//$WORK\//}
  printf '%-10s rc=%-3s %.110s\n    %.150s\n' "$kind" "$rc" "$shown" "$(head -1 "$WORK/err")"
done
summary=""
for k in "${!kinds[@]}"; do summary+="$k ${kinds[$k]}, "; done
echo "cases ${#cases[@]}: ${summary%, }"
[ $bad -eq 0 ]
