#!/bin/bash
# End-to-end on a real Slurm: starts a one-node cluster on this machine from Debian's slurm-wlm
# and munge (munged with a generated key, slurmctld and slurmd on localhost, everything in a
# temporary folder, free ports), submits the bundled stream suite as a job array of 4 tasks on
# the CPU backend with `sbatch --wait`, merges the shards with `gpurun merge` and checks that the
# merged report holds exactly the cases of an unsharded `gpurun bench --list`. The daemons are
# stopped on every exit path. Exits 77 (ctest's SKIP_RETURN_CODE) when the packages are absent.
#
# Usage: slurm_test.sh GPURUN SOURCE_DIR
set -euo pipefail

gpurun=$(realpath "$1")
source_dir=$(realpath "$2")
export PATH="$PATH:/usr/sbin:/sbin"
readonly tasks=4
# Small sizes and short sampling: the whole array runs in seconds on the emulator.
readonly bench_args=(kernels/suites/stream.json --backend cpu -a 'N[pow2]=[10:11]'
  --min-samples 3 --max-samples 10 --min-time 0.01 --timeout 2)

skip() {
  echo "SKIP: $*"
  exit 77
}
fail() {
  echo "FAIL: $*" >&2
  exit 1
}

for tool in munged slurmctld slurmd sbatch squeue scancel; do
  command -v "$tool" >/dev/null ||
    skip "$tool not found: install Debian's slurm-wlm and munge (scripts/install-deps.sh)"
done
command -v python3 >/dev/null || skip "python3 not found"
# slurmd 22.05 initializes its cgroup plugin whatever the proctrack and task plugins are; it cannot
# start where no cgroup filesystem is mounted (a bare chroot, some containers).
[ -e /sys/fs/cgroup/cgroup.controllers ] || [ -d /sys/fs/cgroup/memory ] ||
  skip "no cgroup filesystem at /sys/fs/cgroup: slurmd cannot start here"
user=$(id -un)

tmp=$(mktemp -d /tmp/gpurun-slurm.XXXXXX)
chmod 700 "$tmp"
mkdir -p "$tmp/munge" "$tmp/state" "$tmp/spool" "$tmp/log" "$tmp/out"
export SLURM_CONF="$tmp/slurm.conf"
# Every process this test starts carries this variable, so that cleanup finds what the daemons
# left behind (slurmstepd, job steps) and ends those processes only.
readonly marker="GPURUN_SLURM_TEST=$tmp"
daemon_pids=()

show_logs() {
  for f in "$tmp"/log/*.log "$tmp"/out/*.out; do
    [ -s "$f" ] || continue
    echo "---- $f (last 40 lines)"
    tail -n 40 "$f"
  done
}

marked_pids() {
  local environ pid
  for environ in /proc/[0-9]*/environ; do
    pid=${environ#/proc/}
    pid=${pid%/environ}
    [ "$pid" != "$$" ] || continue
    if { tr '\0' '\n' <"$environ"; } 2>/dev/null | grep -qxF "$marker"; then
      echo "$pid"
    fi
  done
}

cleanup() {
  local rc=$?
  set +e
  trap - EXIT INT TERM
  if [ "$rc" -ne 0 ] && [ "$rc" -ne 77 ]; then
    show_logs
  fi
  if [ -n "${daemon_pids[*]}" ]; then
    scancel --quiet --full "--user=$user" 2>/dev/null
    kill -TERM "${daemon_pids[@]}" 2>/dev/null
    for _ in $(seq 50); do
      alive=0
      for pid in "${daemon_pids[@]}"; do
        kill -0 "$pid" 2>/dev/null && alive=1
      done
      [ "$alive" -eq 0 ] && break
      sleep 0.1
    done
    for pid in $(marked_pids); do
      kill -KILL "$pid" 2>/dev/null
    done
    wait 2>/dev/null
  fi
  rm -rf "$tmp"
  exit "$rc"
}
trap cleanup EXIT
trap 'exit 130' INT
trap 'exit 143' TERM

# Two free TCP ports: random ones that nothing listens on.
port_in_use() {
  ss -Hltn "sport = :$1" 2>/dev/null | grep -q .
}
free_port() {
  local port
  for _ in $(seq 100); do
    port=$((20000 + RANDOM % 40000))
    if ! port_in_use "$port" && [ "$port" != "${1:-}" ]; then
      echo "$port"
      return
    fi
  done
  fail "no free TCP port found"
}
ctld_port=$(free_port)
slurmd_port=$(free_port "$ctld_port")

# munge: a generated key, its socket in the temporary folder.
dd if=/dev/urandom of="$tmp/munge/munge.key" bs=1024 count=1 status=none
chmod 400 "$tmp/munge/munge.key"
socket="$tmp/munge/munge.socket"
env "$marker" munged --foreground --force --key-file="$tmp/munge/munge.key" \
  --socket="$socket" --pid-file="$tmp/munge/munged.pid" --log-file="$tmp/log/munged.log" \
  --seed-file="$tmp/munge/munged.seed" >/dev/null 2>&1 &
daemon_pids+=($!)

cpus=$(nproc)
memory_mb=$(awk '/^MemTotal:/ { print int($2 / 1024) }' /proc/meminfo)
cat >"$SLURM_CONF" <<EOF
ClusterName=gpurun-test
SlurmctldHost=localhost(127.0.0.1)
SlurmctldPort=$ctld_port
SlurmdPort=$slurmd_port
SlurmUser=$user
SlurmdUser=$user
AuthType=auth/munge
AuthInfo=socket=$socket
CredType=cred/munge
StateSaveLocation=$tmp/state
SlurmdSpoolDir=$tmp/spool
SlurmctldPidFile=$tmp/slurmctld.pid
SlurmdPidFile=$tmp/slurmd.pid
SlurmctldLogFile=$tmp/log/slurmctld.log
SlurmdLogFile=$tmp/log/slurmd.log
SlurmctldDebug=info
SlurmdDebug=info
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
JobCompType=jobcomp/none
SelectType=select/cons_tres
SelectTypeParameters=CR_Core
SchedulerType=sched/backfill
MpiDefault=none
ReturnToService=2
SlurmdParameters=config_overrides
PlugStackConfig=$tmp/plugstack.conf
NodeName=localhost NodeAddr=127.0.0.1 CPUs=$cpus RealMemory=$memory_mb State=UNKNOWN
PartitionName=test Nodes=localhost Default=YES MaxTime=INFINITE State=UP
EOF
: >"$tmp/plugstack.conf"

for _ in $(seq 50); do
  [ -S "$socket" ] && break
  sleep 0.1
done
[ -S "$socket" ] || fail "munged did not start"

env "$marker" slurmctld -D -i -f "$SLURM_CONF" >"$tmp/log/slurmctld.stdout" 2>&1 &
daemon_pids+=($!)
env "$marker" slurmd -D -N localhost -f "$SLURM_CONF" >"$tmp/log/slurmd.stdout" 2>&1 &
daemon_pids+=($!)

# Up when the node takes jobs: idle (or mixed/allocated, should anything else run).
state=""
for _ in $(seq 150); do
  state=$(sinfo --noheader --nodes=localhost --format=%T 2>/dev/null || true)
  case "$state" in
  idle* | mixed* | allocated*) break ;;
  esac
  sleep 0.2
done
case "$state" in
idle* | mixed* | allocated*) ;;
*) fail "the Slurm node did not come up (state '${state:-none}')" ;;
esac
echo "slurm: one node, $cpus CPUs, ${memory_mb} MB, ports $ctld_port/$slurmd_port"

# The suite as a job array: each task benchmarks its shard, as docs/cluster.md shows.
cat >"$tmp/shard.sh" <<'EOF'
#!/bin/sh
exec "$GPURUN" bench "$@" --json "$SHARD_DIR/shard-$SLURM_ARRAY_TASK_ID.json"
EOF
chmod +x "$tmp/shard.sh"
start=$(date +%s.%N)
# In the background, so that a signal to this script runs the cleanup at once instead of after
# sbatch returns.
env "$marker" GPURUN="$gpurun" SHARD_DIR="$tmp/out" timeout 300 \
  sbatch --wait --quiet --array=0-$((tasks - 1)) --ntasks=1 --cpus-per-task=1 \
  --job-name=gpurun-shard --chdir="$source_dir" --output="$tmp/out/%A_%a.out" \
  "$tmp/shard.sh" "${bench_args[@]}" &
sbatch_rc=0
wait $! || sbatch_rc=$?
end=$(date +%s.%N)
[ "$sbatch_rc" -ne 124 ] || fail "sbatch --wait: the job array did not finish within 300 s"
[ "$sbatch_rc" -eq 0 ] || fail "sbatch --wait: exit $sbatch_rc"
awk -v n="$tasks" -v s="$start" -v e="$end" 'BEGIN { printf "job array of %d tasks: %.1f s\n", n, e - s }'

for k in $(seq 0 $((tasks - 1))); do
  grep -q "^gpurun: shard $k/$tasks (SLURM_ARRAY_TASK_ID" "$tmp"/out/*_"$k".out ||
    fail "task $k did not say which shard it took"
  [ -s "$tmp/out/shard-$k.json" ] || fail "task $k wrote no result"
done
grep -h "^gpurun: shard" "$tmp"/out/*.out

"$gpurun" merge "$tmp/merged.json" "$tmp"/out/shard-*.json
(cd "$source_dir" && "$gpurun" bench "${bench_args[@]}" --shard 0/1 --list) | sort >"$tmp/expected"
python3 - "$tmp/merged.json" "$tmp/expected" "$tasks" <<'EOF'
import json, sys
doc = json.load(open(sys.argv[1]))
expected = open(sys.argv[2]).read().split()
tasks = int(sys.argv[3])
entries = [b for b in doc["benchmarks"] if "gpurun" in b]
names = [b["name"] for b in entries]
assert len(names) == len(set(names)), f"duplicated cases: {names}"
assert sorted(names) == expected, f"merged {sorted(names)} != unsharded {expected}"
for b in entries:
    g = b["gpurun"]
    assert g["status"] == "ok", f'{b["name"]}: {g.get("reason")}'
    assert g["host_name"] and g["device"], f'{b["name"]}: no host or device'
shards = doc["context"]["gpurun"]["merged"]["shards"]
assert sorted(s["index"] for s in shards) == list(range(tasks)), shards
print(f"merged: {len(names)} cases from {len(shards)} shards, equal to the unsharded run")
EOF
