/*
Kernels for layernorm forward pass, benchmarked by the host code below.

Compile example:
nvcc -O3 --use_fast_math -lcublas -lcublasLt layernorm.cu -o layernorm

version 1 is naive: one thread per row
./layernorm 1

version 2 uses one warp per row with shuffles
./layernorm 2
*/

#include <stdio.h>
#include <stdlib.h>
#include <math.h>
#include <assert.h>
#include <time.h>
#include <fstream>
#include <vector>
#include <cuda_runtime.h>
#include <cuda_profiler_api.h>
#define ENABLE_FP32
#include "common.h"

// ----------------------------------------------------------------------------
// CPU code reference

void layernorm_forward_cpu(float* out, float* mean, float* rstd, const float* inp,
                           const float* weight, const float* bias, int N, int C) {
    float eps = 1e-5f;
    for (int i = 0; i < N; i++) {
        const float* x = inp + i * C;
        float m = 0.0f;
        for (int c = 0; c < C; c++) m += x[c];
        m = m / C;
        float v = 0.0f;
        for (int c = 0; c < C; c++) { float d = x[c] - m; v += d * d; }
        v = v / C;
        float s = 1.0f / sqrtf(v + eps);
        float* o = out + i * C;
        for (int c = 0; c < C; c++) o[c] = (s * (x[c] - m)) * weight[c] + bias[c];
        mean[i] = m;
        rstd[i] = s;
    }
}

// ----------------------------------------------------------------------------
// GPU kernels

__global__ void layernorm_forward_kernel1(float* out, float* mean, float* rstd,
                                          const float* inp, const float* weight,
                                          const float* bias, int N, int C) {
    int idx = blockIdx.x * blockDim.x + threadIdx.x;
    float eps = 1e-5f;
    if (idx < N) {
        const float* x = inp + idx * C;
        float m = 0.0f;
        for (int i = 0; i < C; i++) m += x[i];
        m = m / C;
        float v = 0.0f;
        for (int i = 0; i < C; i++) { float d = x[i] - m; v += d * d; }
        v = v / C;
        float s = 1.0f / sqrtf(v + eps);
        float* o = out + idx * C;
        for (int i = 0; i < C; i++) o[i] = (s * (x[i] - m)) * weight[i] + bias[i];
        mean[idx] = m;
        rstd[idx] = s;
    }
}

__global__ void layernorm_forward_kernel2(float* __restrict__ out, float* __restrict__ mean,
                                          float* __restrict__ rstd,
                                          const float* __restrict__ inp,
                                          const float* __restrict__ weight,
                                          const float* __restrict__ bias, int N, int C) {
    int lane = threadIdx.x % WARP_SIZE;
    int row = blockIdx.x * (blockDim.x / WARP_SIZE) + threadIdx.x / WARP_SIZE;
    if (row >= N) return;
    const float* x = inp + row * C;
    float sum = 0.0f;
    for (int i = lane; i < C; i += WARP_SIZE) sum += x[i];
    float m = warp_sum(sum) / C;
    float var = 0.0f;
    for (int i = lane; i < C; i += WARP_SIZE) { float d = x[i] - m; var += d * d; }
    float s = rsqrtf(warp_sum(var) / C + 1e-5f);
    assert(s > 0.0f);
    float* o = out + row * C;
    for (int i = lane; i < C; i += WARP_SIZE)
        o[i] = s * (__ldcs(x + i) - m) * weight[i] + bias[i];
    if (lane == 0) { mean[row] = m; rstd[row] = s; }
}

__global__ void row_sum_kernel(float* out, const float* inp, int N, int C) {
    float v = 0.0f;
    for (int i = threadIdx.x; i < C; i += blockDim.x) v += inp[blockIdx.x * C + i];
    v = block_reduce<warp_sum>(v);
    if (threadIdx.x == 0) out[blockIdx.x] = v;
}

// ----------------------------------------------------------------------------
// kernel launchers

void layernorm_forward1(float* out, float* mean, float* rstd, const float* inp,
                        const float* weight, const float* bias, int N, int C,
                        const int block_size) {
    const int grid_size = div_up(N, block_size);
    layernorm_forward_kernel1<<<grid_size, block_size>>>(out, mean, rstd, inp, weight, bias, N, C);
    CUDA_CHECK(cudaGetLastError());
}

void layernorm_forward2(float* out, float* mean, float* rstd, const float* inp,
                        const float* weight, const float* bias, int N, int C,
                        const int block_size) {
    const int grid_size = div_up(N * 32, block_size);
    layernorm_forward_kernel2<<<grid_size, block_size>>>(out, mean, rstd, inp, weight, bias, N, C);
    CUDA_CHECK(cudaGetLastError());
}

void layernorm_forward(int kernel_num, float* out, float* mean, float* rstd, const float* inp,
                       const float* weight, const float* bias, int N, int C, int block_size) {
    switch (kernel_num) {
        case 1: layernorm_forward1(out, mean, rstd, inp, weight, bias, N, C, block_size); break;
        case 2: layernorm_forward2(out, mean, rstd, inp, weight, bias, N, C, block_size); break;
        default: printf("Invalid kernel number\n"); exit(1);
    }
}

// ----------------------------------------------------------------------------

int main(int argc, char** argv) {
    srand(0);
    int B = 8, T = 1024, C = 768;
    float* out = (float*)malloc(B * T * C * sizeof(float));
    float* mean = (float*)malloc(B * T * sizeof(float));
    float* rstd = (float*)malloc(B * T * sizeof(float));
    float* inp = make_random_float(B * T * C);
    float* weight = make_random_float(C);
    float* bias = make_random_float(C);
    std::vector<float> log_times;
    std::ofstream log("layernorm.log");
    clock_t start = clock();

    float *d_out, *d_mean, *d_rstd, *d_inp, *d_weight, *d_bias;
    CUDA_CHECK(cudaMalloc(&d_out, B * T * C * sizeof(float)));
    CUDA_CHECK(cudaMalloc(&d_mean, B * T * sizeof(float)));
    CUDA_CHECK(cudaMalloc(&d_rstd, B * T * sizeof(float)));
    CUDA_CHECK(cudaMalloc(&d_inp, B * T * C * sizeof(float)));
    CUDA_CHECK(cudaMalloc(&d_weight, C * sizeof(float)));
    CUDA_CHECK(cudaMalloc(&d_bias, C * sizeof(float)));
    CUDA_CHECK(cudaMemcpy(d_inp, inp, B * T * C * sizeof(float), cudaMemcpyHostToDevice));
    cudaProfilerStart();

    int kernel_num = argc > 1 ? atoi(argv[1]) : 2;
    layernorm_forward_cpu(out, mean, rstd, inp, weight, bias, B * T, C);
    int block_sizes[] = {32, 64, 128, 256, 512, 1024};
    for (int j = 0; j < sizeof(block_sizes) / sizeof(int); j++) {
        layernorm_forward(kernel_num, d_out, d_mean, d_rstd, d_inp, d_weight, d_bias, B * T, C,
                          block_sizes[j]);
        validate_result(d_out, out, "out", B * T * C, 1e-5f);
    }
    cudaProfilerStop();
    log << (double)(clock() - start) / CLOCKS_PER_SEC << "\n";
    free(out); free(mean); free(rstd); free(inp); free(weight); free(bias);
    cudaFree(d_out); cudaFree(d_mean); cudaFree(d_rstd); cudaFree(d_inp);
    cudaFree(d_weight); cudaFree(d_bias);
    return 0;
}
