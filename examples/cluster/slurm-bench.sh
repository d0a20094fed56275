#!/bin/bash
# One shard of a benchmark suite per task of a Slurm job array; merge-results.sh combines them.
#
#   mkdir -p results   # Slurm writes the tasks' output there and does not create it
#   sbatch --array=0-7 examples/cluster/slurm-bench.sh kernels/suites/stream.json
#   sbatch --dependency=afterany:JOBID examples/cluster/merge-results.sh results/stream
#
# gpurun reads SLURM_ARRAY_TASK_ID and SLURM_ARRAY_TASK_COUNT and runs its 1/N of the suite's
# cases (docs/cluster.md); the array must be contiguous (0-7 or 1-8, not 0-14:2).
#SBATCH --job-name=gpurun-bench
#SBATCH --array=0-7
#SBATCH --gpus=1
#SBATCH --cpus-per-task=4
#SBATCH --time=01:00:00
#SBATCH --output=results/%x-%A_%a.out
set -euo pipefail

suite=${1:?usage: sbatch --array=0-7 slurm-bench.sh SUITE.json [gpurun bench flags…]}
shift
name=$(basename "$suite" .json)
out=${GPURUN_RESULTS:-results}/$name
mkdir -p "$out"

# The shard's line on stderr says which cases it took; the JSON records it for the merge.
exec gpurun bench "$suite" "$@" --json "$out/shard-$SLURM_ARRAY_TASK_ID.json"
