#!/bin/bash
# Merges the shards of one suite into one result file that `gpurun compare` reads.
#
#   examples/cluster/merge-results.sh results/stream            # writes results/stream.json
#   sbatch --dependency=afterany:JOBID examples/cluster/merge-results.sh results/stream
#
# Exit 2 when a shard is missing or the shards do not belong together (a different suite,
# gpurun version or number of shards); add --allow-partial to merge what is there.
#SBATCH --job-name=gpurun-merge
#SBATCH --time=00:05:00
#SBATCH --output=results/%x-%j.out
set -euo pipefail

dir=${1:?usage: merge-results.sh RESULTS_DIR [--allow-partial]}
shift
exec gpurun merge "$@" "$dir.json" "$dir"/shard-*.json
