#!/bin/sh
# The tests under ASan and UBSan (the debug preset: clang, every library, the tests and gpurun
# itself instrumented; the first finding fails the test), the fuzz corpora and regressions
# replayed, then a short run of every fuzz target, two at a time (docs/fuzzing.md).
# Usage: scripts/sanitized-tests.sh [--unit] [SECONDS_PER_FUZZ_TARGET]   (default 60)
#   --unit   the unit tests and the fuzz targets only, without the end-to-end tests (which run the
#            instrumented gpurun through every command): a quicker check while working
# CI runs the whole of it (.ci/run).
set -eu
cd "$(dirname "$0")/.."
unit_only=0
if [ "${1:-}" = "--unit" ]; then
  unit_only=1
  shift
fi
seconds=${1:-60}
scripts/install-deps.sh
cmake --preset debug
# unit_hip exists where the HIP headers were found at configure time, unit_opencl where the OpenCL
# ones were.
backend_units=""
targets=$(cmake --build --preset debug --target help)
echo "$targets" | grep -q '\bunit_hip\b' && backend_units=unit_hip
echo "$targets" | grep -q '\bunit_opencl\b' && backend_units="$backend_units unit_opencl"
# Every fuzz target the build defines (tests/fuzz/CMakeLists.txt): each has a replay test in ctest.
fuzz_targets=$(echo "$targets" | sed -n 's/^\.\.\. \([a-z0-9_]*_fuzz\)$/\1/p' | tr '\n' ' ')
unit_targets="unit_base unit_pipeline unit_cpu unit_compilers unit_kit unit_capture unit_cuda $backend_units"
if [ $unit_only = 1 ]; then
  cmake --build --preset debug --target $unit_targets $fuzz_targets
  ctest --preset debug -L 'unit|fuzz'
else
  # Everything ctest runs here (gpu_tests, which needs a GPU, is left out of the build).
  cmake --build --preset debug --target gpurun e2e_tests e2e_capture $unit_targets $fuzz_targets
  ctest --preset debug
fi
scripts/fuzz.sh "$seconds"
