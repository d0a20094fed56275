#!/bin/sh
# The test suite under ASan and UBSan (the debug preset: clang, every library, the tests and gpurun
# itself instrumented; the first finding fails the test), the fuzz corpora and regressions
# replayed, then a short run of every fuzz target (docs/fuzzing.md).
# Usage: scripts/sanitized-tests.sh [SECONDS_PER_FUZZ_TARGET]   (default 20)
set -eu
cd "$(dirname "$0")/.."
scripts/install-deps.sh
cmake --preset debug
cmake --build --preset debug
ctest --preset debug
scripts/fuzz.sh "${1:-20}"
