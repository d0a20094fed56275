#!/bin/bash
# Captures tensor-core fragment layouts and arithmetic on an NVIDIA GPU (sm_80 or later) with
# gpurun itself, running the probe kernels of tests/data/tensor/: scripts/tensor/run.sh GPURUN
# OUTDIR [TILES]. Writes OUTDIR/layout*/out.npy, OUTDIR/ldmatrix/out.npy, OUTDIR/in/*.npy (the
# inputs) and OUTDIR/<kernel>/*.npy (D among them); docs/tensor-cores.md says what they showed.
set -u
G=$1 OUT=$2 T=${3:-4096}
cd "$(dirname "$0")"
P=../../tests/data/tensor # the probe kernels
mkdir -p "$OUT/in"
python3 gen.py "$OUT/in" "$T"
"$G" $P/layout.json --backend "${BACKEND:-cuda}" -q --save "$OUT/layout"
"$G" $P/layout.cu --kernel ldmatrix_dump --backend "${BACKEND:-cuda}" -q --grid 1 --block 32 \
  --arg "out=u32[6,32,4]:0" --save "$OUT/ldmatrix"
python3 -c "import numpy as np; np.save('$OUT/in/hi.npy', (np.arange(1024) >> 8).astype(np.uint8))"
"$G" $P/layout.cu --kernel layouts8 --backend "${BACKEND:-cuda}" -q --grid 1 --block 32 \
  --arg "lo=u8[1024]:iota" --arg "hi=u8[1024]:@$OUT/in/hi.npy" --arg "idx=i32[1024]:iota" \
  --arg "out=f32[15,32,32]:0" --save "$OUT/layout8"
run() { # kernel M N K atype ctype prefix [C file]
  local k=$1 M=$2 N=$3 K=$4 at=$5 ct=$6 p=$7 c=${8:-C}
  "$G" $P/numerics.cu --kernel "$k" --backend "${BACKEND:-cuda}" -q --grid $((T / 4)) --block 128 \
    --arg "A=$at[$((T * M * K))]:@$OUT/in/${p}_A.npy" --arg "B=$at[$((T * K * N))]:@$OUT/in/${p}_B.npy" \
    --arg "C=$ct[$((T * M * N))]:@$OUT/in/${p}_$c.npy" --arg "D=$ct[$((T * M * N))]:0" \
    --arg "tiles=$T" --save "$OUT/$k"
}
run wmma_f16_f32 16 16 16 f16 f32 f16
run wmma_f16_f16 16 16 16 f16 f16 f16 Ch
run wmma_bf16_f32 16 16 16 bf16 f32 bf16
run wmma_tf32_f32 16 16 8 f32 f32 tf32
run wmma_f64 8 8 4 f64 f64 f64
run mma_f16_k16 16 8 16 f16 f32 k16
run mma_f16_k8 16 8 8 f16 f32 k8
for k in mma_e4m3 mma_e5m2 mma_e4m3_e5m2; do
  "$G" $P/fp8.cu --kernel $k --backend "${BACKEND:-cuda}" -q --grid $((T / 4)) --block 128 \
    --arg "A=u8[$((T * 512))]:@$OUT/in/fp8_A.npy" --arg "B=u8[$((T * 256))]:@$OUT/in/fp8_B.npy" \
    --arg "C=f32[$((T * 128))]:@$OUT/in/fp8_C.npy" --arg "D=f32[$((T * 128))]:0" \
    --arg "tiles=$T" --save "$OUT/$k"
done
echo "tensor capture: $(ls "$OUT" | wc -l) folders"
