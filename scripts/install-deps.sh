#!/bin/sh
# Installs what gpurun needs to build and test on Debian 12, all from Debian main (idempotent;
# skips what is present). clang and libclc compile CUDA kernels to PTX when no NVRTC is installed;
# libclang-rt-14-dev holds the sanitizer and libFuzzer runtimes of the debug preset.
# slurm-wlm and munge are for the test that runs a suite as a Slurm job array (it starts its own
# daemons with its own configuration). gnuplot-nox draws `bench --plot` and `gpurun plot`.
# libamdhip64-dev (ROCm 5.2.3) gives the HIP backend its headers and, at run time, hipRTC, which
# compiles .hip kernels for gfx targets without an AMD GPU (the e2e_tests_hiprtc test); with its
# dependencies about 19 MB to download and 81 MB installed, plus libllvm15 (23 MB, 115 MB
# installed) where Mesa has not brought it already. libzstd-dev decompresses fatbin entries (the
# PTX of an application's module, for the CPU backend). opencl-c-headers, ocl-icd-libopencl1 and
# pocl-opencl-icd give the OpenCL backend its types, the ICD loader and a platform on the CPU
# (PoCL, which brings clang 15 and LLVM 15 to build kernels with).
set -eu
pkgs="build-essential cmake git libcli11-dev nlohmann-json3-dev libfmt-dev libgtest-dev
libbenchmark-dev python3-numpy clang libclc-14 libclang-rt-14-dev slurm-wlm munge gnuplot-nox
libamdhip64-dev libzstd-dev opencl-c-headers ocl-icd-libopencl1 pocl-opencl-icd"
missing=""
for p in $pkgs; do
  dpkg -s "$p" >/dev/null 2>&1 || missing="$missing $p"
done
if [ -n "$missing" ]; then
  SUDO=""
  [ "$(id -u)" -eq 0 ] || SUDO=sudo
  $SUDO apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq --no-install-recommends $missing
fi
