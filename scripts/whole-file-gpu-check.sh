#!/bin/bash
# Whole .cu files on a GPU machine: kernels run from the files they live in (this repository's
# tests/data/whole_file and, when CORPUS names a folder holding clones of llm.c (llmc/dev/cuda)
# and cuda-samples (samples/), other projects' unedited files), each on the CUDA backend with
# NVRTC and with nvcc and on the CPU backend, outputs compared bit for bit (cuda == cpu) and, for
# some, against a NumPy port of the file's own CPU reference. Prints one row per run.
# Usage: scripts/whole-file-gpu-check.sh [OUTDIR]   (G=gpurun binary, CORPUS=folder)
set -u
cd "$(dirname "$0")/.."
OUT=${1:-/tmp/gpurun-whole-file}
G=${G:-build/gpurun}
CORPUS=${CORPUS:-.corpus}
mkdir -p "$OUT"
W=tests/data/whole_file
L=$CORPUS/llmc/dev/cuda
S=$CORPUS/samples/Samples

# NAME|FILE|ARGS (FILE relative to the repository; rows whose file is missing are skipped)
runs=(
  "own_layernorm1|$W/llm_style/layernorm.cu|-k layernorm_forward_kernel1 -g 1 -b 32 -a out=f32[4,64] -a mean=f32[4] -a rstd=f32[4] -a inp=f32[4,64]:randn(seed=3) -a weight=f32[64]:rand(seed=4) -a bias=f32[64]:rand(seed=5) -a N=4 -a C=64"
  "own_layernorm2|$W/llm_style/layernorm.cu|-k layernorm_forward_kernel2 -g 1 -b 128 -a out=f32[4,64] -a mean=f32[4] -a rstd=f32[4] -a inp=f32[4,64]:randn(seed=3) -a weight=f32[64]:rand(seed=4) -a bias=f32[64]:rand(seed=5) -a N=4 -a C=64"
  "own_row_sum|$W/llm_style/layernorm.cu|-k row_sum_kernel -g 3 -b 64 -a out=f32[3] -a inp=f32[3,100]:randn(seed=1) -a N=3 -a C=100"
  "own_matrixMul16|$W/samples_style/matrixMul.cu|-k MatrixMulCUDA<16> -g 2,2 -b 16,16 -a C=f32[32,32] -a A=f32[32,32]:randn(seed=1) -a B=f32[32,32]:randn(seed=2) -a wA=32 -a wB=32 --global c_alpha=f32[1]:[0.5]"
  "own_hip_scale|$W/hip/vector_scale.hip|-k vector_scale<float> -g 4 -b 256 -a out=f32[1024] -a in=f32[1024]:randn(seed=1) -a factor=3 -a n=1024"
  "llmc_layernorm1|$L/layernorm_forward.cu|-k layernorm_forward_kernel1 -g 2 -b 32 -a out=f32[64,768] -a mean=f32[64] -a rstd=f32[64] -a inp=f32[64,768]:randn(seed=3) -a weight=f32[768]:rand(seed=4) -a bias=f32[768]:rand(seed=5) -a N=64 -a C=768"
  "llmc_layernorm3|$L/layernorm_forward.cu|-k layernorm_forward_kernel3 -g 8 -b 256 -a out=f32[64,768] -a mean=f32[64] -a rstd=f32[64] -a inp=f32[64,768]:randn(seed=3) -a weight=f32[768]:rand(seed=4) -a bias=f32[768]:rand(seed=5) -a N=64 -a C=768"
  "llmc_layernorm5|$L/layernorm_forward.cu|-k layernorm_forward_kernel5 -g 64 -b 256 -a out=f32[64,768] -a mean=f32[64] -a rstd=f32[64] -a inp=f32[64,768]:randn(seed=3) -a weight=f32[768]:rand(seed=4) -a bias=f32[768]:rand(seed=5) -a N=64 -a C=768"
  "llmc_softmax4|$L/softmax_forward.cu|-k softmax_forward_kernel4 -g 64 -b 128 --shared 32 -a out=f32[64,256] -a inp=f32[64,256]:randn(seed=2) -a N=64 -a C=256"
  "llmc_softmax_online2|$L/softmax_forward.cu|-k softmax_forward_online_kernel2 -g 8 -b 256 -a out=f32[64,256] -a inp=f32[64,256]:randn(seed=2) -a N=64 -a C=256"
  "llmc_gelu2_bf16|$L/gelu_forward.cu|-k gelu_forward_kernel2 -g 4 -b 128 -a out=bf16[4096] -a inp=bf16[4096]:randn(seed=1) -a N=4096"
  "llmc_crossentropy1|$L/crossentropy_forward.cu|-k crossentropy_forward_kernel1 -g 1 -b 128 -a losses=f32[8,16] -a probs=f32[8,16,64]:rand(seed=1,0.01,1) -a targets=i32[8,16]:rand(seed=2,0,63) -a B=8 -a T=16 -a V=64"
  "llmc_matmul1|$L/matmul_forward.cu|-k matmul_forward_kernel1 -g 4,6 -b 16,16 -a out=f32[64,96] -a inp=f32[64,128]:randn(seed=1) -a weight=f32[96,128]:randn(seed=2) -a bias=f32[96]:randn(seed=3) -a BT=64 -a C=128 -a OC=96"
  "llmc_adamw2|$L/adamw.cu|-k adamw_kernel2 -g 4 -b 256 -a params_memory=f32[1024]:randn(seed=1) -a grads_memory=f32[1024]:randn(seed=2) -a m_memory=f32[1024]:0 -a v_memory=f32[1024]:0 -a num_parameters=1024 -a learning_rate=0.001 -a beta1=0.9 -a beta2=0.999 -a beta1_correction=0.1 -a beta2_correction=0.001 -a eps=1e-8 -a weight_decay=0.01"
  "samples_vectorAdd|$S/0_Introduction/vectorAdd/vectorAdd.cu|-I $CORPUS/samples/Common -k vectorAdd -g 4 -b 256 -a A=f32[1000]:randn(seed=1) -a B=f32[1000]:randn(seed=2) -a C=f32[1000] -a numElements=1000"
  "samples_matrixMul32|$S/0_Introduction/matrixMul/matrixMul.cu|-I $CORPUS/samples/Common -k MatrixMulCUDA<32> -g 2,2 -b 32,32 -a C=f32[64,64] -a A=f32[64,64]:randn(seed=1) -a B=f32[64,64]:randn(seed=2) -a wA=64 -a wB=64"
)

declare -a rows
row() { rows+=("$(printf '%-24s %-10s %-10s %-10s %s' "$@")"); }
row run cuda-nvrtc "cuda==cpu" cuda-nvcc reference
for entry in "${runs[@]}"; do
  IFS='|' read -r name file args <<<"$entry"
  [ -f "$file" ] || { row "$name" skip "" "" "($file not here)"; continue; }
  d=$OUT/$name
  rm -rf "$d"; mkdir -p "$d/cuda" "$d/cpu" "$d/nvcc"
  # shellcheck disable=SC2086
  $G "$file" $args --backend cuda --compiler nvrtc --save "$d/cuda" -q -v >"$d/cuda.log" 2>&1
  rc_cuda=$?
  # shellcheck disable=SC2086
  $G "$file" $args --backend cpu --compiler nvrtc --save "$d/cpu" -q >"$d/cpu.log" 2>&1
  rc_cpu=$?
  # shellcheck disable=SC2086
  $G "$file" $args --backend cuda --compiler nvcc --save "$d/nvcc" -q >"$d/nvcc.log" 2>&1
  rc_nvcc=$?
  same="-"
  if [ $rc_cuda -eq 0 ] && [ $rc_cpu -eq 0 ]; then
    if python3 scripts/compare_npy.py "$d/cuda" "$d/cpu" >"$d/cmp.log" 2>&1; then same=PASS
    else same="FAIL"; fi
  fi
  ref=""
  if [ $rc_cuda -eq 0 ] && [ -f scripts/whole_file_reference.py ]; then
    ref=$(python3 scripts/whole_file_reference.py "$name" "$d/cuda" 2>&1 | tail -1)
  fi
  row "$name" "rc $rc_cuda" "$same" "rc $rc_nvcc" "$ref"
done

# A failing device assert on the GPU: exit 4 with the GPU's assertion line.
for c in nvrtc nvcc; do
  $G tests/data/e2e/assert.cu --backend cuda --compiler $c --grid 2 --block 4 --arg 'x=f32[8]:iota' \
    --arg n=6 >"$OUT/assert_$c.log" 2>&1
  row "assert_fail_cuda_$c" "rc $?" "" "" "$(grep -o "thread: \[2,0,0\] Assertion .* failed" "$OUT/assert_$c.log" | head -1)"
done

echo "==== whole files on $(nvidia-smi --query-gpu=name --format=csv,noheader 2>/dev/null | head -1) ===="
printf '%s\n' "${rows[@]}"
