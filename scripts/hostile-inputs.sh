#!/bin/bash
# Runs a table of hostile command lines against a gpurun binary and classifies each outcome:
# clean (a documented exit code with one `gpurun: error:` line, or success), crash (a signal),
# hang (still running after the limit), internal (`internal error:`), multiline (an error of more
# than one line that is not a compile log), leftover (files left in the run's folder).
# The cases cover run's arguments and files, and the commands added since: bench suites, shards and
# job-array environments, compare/merge/plot inputs (truncated, NaN, another schema, 10^5 and 10^6
# cases), tuning caches, capture folders (module gone or garbage, arguments of the wrong size or
# count, memory gone, records truncated), .cl/.metal sources and --metrics names.
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
# Inputs of the commands added since: suites, tuning caches, result files, shards, capture folders.
"$G" bench "$ROOT/kernels/suites/stream.json" --backend cpu --filter '^copy/' -a 'N[pow2]=[10:10]' \
  --max-samples 3 --min-samples 3 --min-time 0 --json "$WORK/result.json" >/dev/null 2>&1
python3 - "$WORK" "$ROOT" <<'PY'
import json, os, shutil, sys
w, root = sys.argv[1], sys.argv[2]
stream = open(f"{root}/kernels/suites/stream.json").read()
open(f"{w}/trunc_suite.json", "w").write(stream[: len(stream) // 2])
open(f"{w}/nan_suite.json", "w").write('{"source": "stream.cu", "cases": [{"kernel": "copy", "axes": {"N": [NaN]}}]}')
open(f"{w}/schema_suite.json", "w").write('{"cases": 5, "source": ["x"]}')
suite = json.loads(stream)
for case in suite.get("cases", []):
    case["axes"] = ["N=[1:1000000]"]
json.dump(suite, open(f"{w}/million_suite.json", "w"))
# Result files: a real bench JSON (made below by the binary under test), truncated, with a NaN,
# with 10^5 and 10^6 cases, of another schema.
run = json.load(open(f"{w}/result.json"))
text = json.dumps(run)
open(f"{w}/trunc_result.json", "w").write(text[: len(text) // 2])
open(f"{w}/nan_result.json", "w").write(text.replace('"median_s": ', '"median_s": NaN, "x": ', 1))
open(f"{w}/gb_result.json", "w").write('{"context": {}, "benchmarks": [{"name": "x", "real_time": "fast"}]}')
entry = run["benchmarks"][0]
for count, name in ((100000, "many_result.json"), (1000000, "million_result.json")):
    with open(f"{w}/{name}", "w") as f:
        f.write('{"context": ' + json.dumps(run["context"]) + ', "benchmarks": [')
        for i in range(count):
            entry["name"] = entry["run_name"] = f"copy/N:{i}"
            entry["gpurun"]["axes"] = {"N": str(i)}
            f.write(("," if i else "") + json.dumps(entry))
        f.write("]}")
# Tuning caches: truncated, NaN times, a row of another space.
open(f"{w}/trunc.cache", "w").write('{"format": "gpurun-tune-cache", "params": ["X"], "rows": [{"X": 1, "ti')
open(f"{w}/nan.cache", "w").write('{"X": 1, "time_ms": NaN}\n')
# Capture folders: the module gone, a module of garbage, parameter bytes of the wrong size, the
# memory gone, the record truncated.
src = f"{root}/tests/data/capture/h200/_Z5saxpyfPKfPfi-1"
def copy(name):
    shutil.copytree(src, f"{w}/{name}")
    return f"{w}/{name}"
os.remove(copy("cap_nomodule") + "/module.fatbin")
open(copy("cap_garbage") + "/module.fatbin", "wb").write(os.urandom(4096))
open(copy("cap_params") + "/params.bin", "ab").write(b"\0" * 3)
for name, change in (("cap_argsize", ("p3=u32:300", "p3=u64:300")),
                     ("cap_argtype", ("p0=f32:2", "p0=f64:2")),
                     ("cap_argcount", ('"p3=u32:300"', '"p3=u32:300", "p4=u32:1"'))):
    d = copy(name)
    t = open(f"{d}/capture.json").read()
    open(f"{d}/capture.json", "w").write(t.replace(*change))
d = copy("cap_spectrunc")
t = open(f"{d}/capture.json").read()
open(f"{d}/capture.json", "w").write(t[: len(t) // 2])
shutil.rmtree(copy("cap_nomemory") + "/memory")
d = copy("cap_trunc")
t = open(f"{d}/launch.json").read()
open(f"{d}/launch.json", "w").write(t[: len(t) // 3])
PY
head -c 100000 /dev/zero | tr '\0' a >"$WORK/long.txt"
printf '__kernel void k(__global float* x) { x[get_global_id(0)] = 1; ' >"$WORK/k.cl"
printf 'kernel void k(device float* x [[buffer(0)]]) { x[0] = 1 ' >"$WORK/k.metal"
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
  # Commands added since the first hardening.
  "bench $WORK/trunc_suite.json --backend cpu"
  "bench $WORK/nan_suite.json --backend cpu"
  "bench $WORK/schema_suite.json --backend cpu"
  "bench $WORK/million_suite.json --backend cpu --list"
  "bench $ROOT/kernels/suites/stream.json --backend cpu --shard 2/2 --list"
  "bench $ROOT/kernels/suites/stream.json --backend cpu --shard -1/2 --list"
  "bench $ROOT/kernels/suites/stream.json --backend cpu --shard a/b --list"
  "bench $ROOT/kernels/suites/stream.json --backend cpu --shard 1/99999999999999999999 --list"
  "bench $ROOT/kernels/suites/stream.json --backend cpu --balance-from $WORK/trunc_result.json --shard 0/2 --list"
  "bench $ROOT/kernels/suites/stream.json --backend cpu --metrics dram__bytes.sum --filter '^copy/' -a 'N[pow2]=[10:10]'"
  "bench $ROOT/kernels/suites/stream.json --backend cpu --metrics ',,' --list"
  "compare $WORK/trunc_result.json $WORK/result.json"
  "compare $WORK/nan_result.json $WORK/result.json"
  "compare $WORK/gb_result.json $WORK/result.json"
  "compare $WORK/many_result.json $WORK/result.json"
  "compare $WORK/million_result.json $WORK/million_result.json #LIMIT 600"
  "merge merged.json $WORK/trunc_result.json $WORK/result.json"
  "merge merged.json $WORK/result.json $WORK/gb_result.json"
  "merge merged.json $WORK/many_result.json $WORK/many_result.json"
  "merge $ROOT/README.md/x.json $WORK/result.json"
  "plot $WORK/trunc_result.json -o out.svg"
  "plot $WORK/nan_result.json -o out.svg"
  "plot $WORK/many_result.json -o $WORK/many.svg"
  "plot $WORK/result.json --roofline -o out.svg"
  "tune $ROOT/tests/data/tune/mixed.cu --backend cpu -p 'X=[]' --grid 1 --block 1"
  "tune $ROOT/tests/data/tune/mixed.cu --backend cpu -p 'X=[1:0]' --grid 1 --block 1"
  "tune $ROOT/tests/data/tune/mixed.cu --backend cpu -p 'X=[1:1000000000]' --restrict '((' --grid 1 --block 1"
  "tune $ROOT/tests/data/tune/mixed.cu --backend cpu -p 'X=[1,2]' --budget -1 --grid 1 --block 1"
  "tune $ROOT/tests/data/tune/mixed.cu --backend cpu -p 'X=[1,2]' --budget 1e400s --grid 1 --block 1"
  "tune $ROOT/tests/data/tune/mixed.cu --backend cpu -p 'X=[1,2]' --shard 5/2 --grid 1 --block 1"
  "tune --simulate $WORK/trunc.cache"
  "tune --simulate $WORK/nan.cache"
  "tune --simulate /dev/zero"
  "tune --simulate $WORK/fifo"
  "$WORK/cap_nomodule/capture.json --backend cpu"
  "$WORK/cap_garbage/capture.json --backend cpu"
  "$WORK/cap_params/capture.json --backend cpu"
  "$WORK/cap_nomemory/capture.json --backend cpu"
  "$WORK/cap_trunc/capture.json --backend cpu"
  "$WORK/cap_argsize/capture.json --backend cpu"
  "$WORK/cap_argtype/capture.json --backend cpu"
  "$WORK/cap_argcount/capture.json --backend cpu"
  "$WORK/cap_spectrunc/capture.json --backend cpu"
  "$WORK/k.cl --grid 1 --block 1 --arg 'x=f32[1]'"
  "$WORK/k.metal --grid 1 --block 1 --arg 'x=f32[1]'"
  "$SEED $OK --metrics dram__bytes.sum"
  "$SEED $OK --metrics ''"
  "$SEED $OK --metrics \"\$(cat $WORK/long.txt)\""
)
# Job-array environment values, for bench and tune (each with the same argument list).
env_cases=(
  "SLURM_ARRAY_TASK_ID=abc GPURUN_SHARD_COUNT=3"
  "SLURM_ARRAY_TASK_ID=5 GPURUN_SHARD_COUNT=3"
  "SLURM_ARRAY_TASK_ID=0 GPURUN_SHARD_COUNT=0"
  "JOB_COMPLETION_INDEX=-1 GPURUN_SHARD_COUNT=2"
  "SLURM_ARRAY_TASK_ID=1 GPURUN_SHARD_COUNT=99999999999999999999"
)
for e in "${env_cases[@]}"; do
  cases+=("bench $ROOT/kernels/suites/stream.json --backend cpu --list #ENV $e")
done
clean=0 bad=0
declare -A kinds
for c in "${cases[@]}"; do
  run=$(mktemp -d)
  envs="" limit=$LIMIT
  case "$c" in *"#ENV "*) envs="env ${c#*#ENV }"; c="${c%% #ENV *}" ;; esac
  case "$c" in *"#LIMIT "*) limit=${c#*#LIMIT }; c="${c%% #LIMIT *}" ;; esac
  (cd "$run" && eval "$envs timeout -s KILL $limit $G $c" </dev/null >"$WORK/out" 2>"$WORK/err")
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
  [ -n "$envs" ] && c="${envs#env } $c"
  shown=${c//$ROOT\//}
  shown=${shown//$WORK\//}
  printf '%-10s rc=%-3s %.110s\n    %.150s\n' "$kind" "$rc" "$shown" "$(head -1 "$WORK/err")"
done
summary=""
for k in "${!kinds[@]}"; do summary+="$k ${kinds[$k]}, "; done
echo "cases ${#cases[@]}: ${summary%, }"
[ $bad -eq 0 ]
