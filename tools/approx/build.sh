#!/bin/bash
# Builds capture, nan_payloads and verify into DIR (default build-gpu/approx) with the CUDA
# toolkit's nvcc and the host's g++; the binaries need only glibc, libstdc++ and the driver.
# Run from the repository root after `cmake --preset release` (verify embeds the emulator's
# tables from build/generated).
set -eu
dir=${1:-build-gpu/approx}
nvcc=${NVCC:-$(command -v nvcc || echo /usr/local/cuda/bin/nvcc)}
cuda=$(dirname "$(dirname "$nvcc")")
mkdir -p "$dir"
"$nvcc" -arch=sm_90 -O2 -o "$dir/capture" tools/approx/capture.cu
"$nvcc" -arch=sm_90 -O2 -o "$dir/nan_payloads" tools/approx/nan_payloads.cu
"$nvcc" -arch=sm_90 -O2 -c -o "$dir/verify_gpu.o" tools/approx/verify_gpu.cu
g++ -std=c++20 -O2 -ffp-contract=off -I. -Ibuild/generated tools/approx/verify.cpp \
  backends/cpu/emu/sfu.cpp "$dir/verify_gpu.o" -L"$cuda/lib64" -lcudart_static -ldl -lrt \
  -lpthread -o "$dir/verify"
rm -f "$dir/verify_gpu.o"
strip "$dir/capture" "$dir/nan_payloads" "$dir/verify"
