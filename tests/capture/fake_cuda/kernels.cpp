#include "kernels.hpp"

#include <algorithm>
#include <cstring>

#include "fake_module.hpp"

namespace gpurun::test::fake_cuda {

using namespace gpurun::cuda;

namespace {

template <class T> T read_param(const std::vector<std::byte>& params, std::size_t offset) {
  T value{};
  std::memcpy(&value, params.data() + offset, sizeof value);
  return value;
}

CUresult run_saxpy(const Function& f, const std::vector<std::byte>& params, std::uint64_t threads) {
  if (f.slots != std::vector<Slot>{{0, 4}, {4, 4}, {8, 8}, {16, 8}})
    return CUDA_ERROR_INVALID_VALUE;
  const auto n = read_param<std::int32_t>(params, 0);
  const auto a = read_param<float>(params, 4);
  const auto x = read_param<std::uint64_t>(params, 8);
  const auto y = read_param<std::uint64_t>(params, 16);
  const std::uint64_t count = std::min<std::uint64_t>(std::max(n, 0), threads);
  if (count > 0 && (!inside_allocation(x, count * 4) || !inside_allocation(y, count * 4)))
    return CUDA_ERROR_ILLEGAL_ADDRESS;
  const auto* xs = reinterpret_cast<const float*>(x);
  auto* ys = reinterpret_cast<float*>(y);
  for (std::uint64_t i = 0; i < count; ++i)
    ys[i] = a * xs[i] + ys[i];
  return CUDA_SUCCESS;
}

CUresult run_scale_bias(const Function& f, const std::vector<std::byte>& params,
                        std::uint64_t threads) {
  if (f.slots != std::vector<Slot>{{0, sizeof(Scale)}, {sizeof(Scale), 8}})
    return CUDA_ERROR_INVALID_VALUE;
  const auto s = read_param<Scale>(params, 0);
  const auto out = read_param<std::uint64_t>(params, sizeof(Scale));
  const std::uint64_t count = std::min<std::uint64_t>(std::max(s.n, 0), threads);
  if (count > 0 && (!inside_allocation(s.bias, count * 4) || !inside_allocation(out, count * 4)))
    return CUDA_ERROR_ILLEGAL_ADDRESS;
  const auto* bias = reinterpret_cast<const float*>(s.bias);
  auto* outs = reinterpret_cast<float*>(out);
  for (std::uint64_t i = 0; i < count; ++i)
    outs[i] = s.a * outs[i] + bias[i];
  return CUDA_SUCCESS;
}

} // namespace

CUresult run_kernel(const Function& f, const std::vector<std::byte>& params,
                    std::uint64_t threads) {
  if (f.name == saxpy_name)
    return run_saxpy(f, params, threads);
  if (f.name == scale_bias_name)
    return run_scale_bias(f, params, threads);
  return CUDA_SUCCESS;
}

} // namespace gpurun::test::fake_cuda
