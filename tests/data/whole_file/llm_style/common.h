// Shared helpers of the kernels in this folder, as a benchmark collection keeps them: host-side
// error checks and library handles next to device-side reductions.
#include <stdlib.h>
#include <stdio.h>
#include <cuda_runtime.h>
#include <cublas_v2.h>
#include <cublasLt.h>
#include <float.h>

#define WARP_SIZE 32U
extern cudaDeviceProp device_properties;

template <class T>
__host__ __device__ T div_up(T a, T b) {
    return (a + b - 1) / b;
}

__device__ float warp_sum(float v) {
    for (int offset = 16; offset > 0; offset /= 2)
        v += __shfl_xor_sync(0xFFFFFFFF, v, offset);
    return v;
}

using warp_op_t = float (*)(float);

template <warp_op_t op>
__device__ inline float block_reduce(float v) {
    __shared__ float partial[WARP_SIZE];
    const int lane = threadIdx.x % WARP_SIZE;
    const int warp = threadIdx.x / WARP_SIZE;
    const int warps = blockDim.x / WARP_SIZE;
    float w = op(v);
    if (lane == 0) partial[warp] = w;
    __syncthreads();
    w = lane < warps ? partial[lane] : 0.0f;
    return op(w);
}

void check_cuda(cudaError_t error, const char* file, int line) {
    if (error != cudaSuccess) {
        printf("[CUDA ERROR] %s:%d: %s\n", file, line, cudaGetErrorString(error));
        exit(EXIT_FAILURE);
    }
}
#define CUDA_CHECK(err) (check_cuda(err, __FILE__, __LINE__))

void check_cublas(cublasStatus_t status, const char* file, int line) {
    if (status != CUBLAS_STATUS_SUCCESS) {
        printf("[cuBLAS ERROR] %d %s:%d\n", status, file, line);
        exit(EXIT_FAILURE);
    }
}

static cublasHandle_t cublas_handle;

#if defined(ENABLE_BF16)
typedef __nv_bfloat16 floatX;
#elif defined(ENABLE_FP16)
typedef half floatX;
#else
typedef float floatX;
#endif

float* make_random_float(size_t n) {
    float* out = (float*)malloc(n * sizeof(float));
    for (size_t i = 0; i < n; i++)
        out[i] = ((float)rand() / (float)RAND_MAX) * 2.0f - 1.0f;
    return out;
}

template <class D, class T>
void validate_result(D* device_result, const T* cpu_reference, const char* name, size_t n,
                     T tolerance = 1e-4) {
    D* out_gpu = (D*)malloc(n * sizeof(D));
    CUDA_CHECK(cudaMemcpy(out_gpu, device_result, n * sizeof(D), cudaMemcpyDeviceToHost));
    for (size_t i = 0; i < n; i++) {
        if (fabs(cpu_reference[i] - (T)out_gpu[i]) > tolerance) {
            printf("mismatch of %s at %zu\n", name, i);
            exit(EXIT_FAILURE);
        }
    }
    free(out_gpu);
}
