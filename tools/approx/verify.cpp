// Holds the CPU backend's `.approx` instructions against the GPU: every input of each checked
// instruction (or every STRIDE-th where noted) evaluated on both, mismatches counted per
// instruction with the first few shown. Built with the emulator's own numeric code and tables
// (tools/approx/verify.sh builds and runs it):
//
//   verify [--tables DIR] [--quick] [OP...]
//
// --tables replaces the built-in tables with DIR's (derive.py's output); --quick takes every
// 257th input of the exhaustive checks; OPs (capture.cu's names) limit the checks to those.
#include <algorithm>
#include <atomic>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <functional>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include "backends/cpu/emu/numeric.hpp"
#include "backends/cpu/emu/sfu.hpp"
#include "base/error.hpp"

size_t gpu_result_width(const char* name);
void gpu_evaluate(const char* name, uint32_t lo, uint32_t stride, uint64_t n, uint32_t low,
                  void* host_out);

namespace nm = gpurun::emu::numeric;
using Model = std::function<uint64_t(uint32_t x, uint32_t low)>;

namespace {

float f(uint32_t u) {
  return nm::f32_from_bits(u);
}
uint64_t u(float v) {
  return nm::bits_of(v);
}
double d(uint32_t hi, uint32_t lo) {
  return nm::f64_from_bits(uint64_t{hi} << 32 | lo);
}

struct Check {
  std::string op;
  uint32_t stride;
  uint32_t low;
  Model model;
  std::string label;
};

std::vector<Check> plan(bool quick) {
  const uint32_t all = quick ? 257 : 1;
  std::vector<Check> c;
  auto f32 = [&](const char* op, uint32_t stride, std::function<float(float)> m) {
    c.push_back({op, stride, 0, [m](uint32_t x, uint32_t) { return u(m(f(x))); }, op});
  };
  f32("rcp_approx_ftz_f32", all, [](float a) { return nm::rcp_approx(a, true); });
  f32("rcp_approx_f32", all, [](float a) { return nm::rcp_approx(a, false); });
  f32("rsqrt_approx_ftz_f32", all, [](float a) { return nm::rsqrt_approx(a, true); });
  f32("rsqrt_approx_f32", all, [](float a) { return nm::rsqrt_approx(a, false); });
  f32("sqrt_approx_ftz_f32", all, [](float a) { return nm::sqrt_approx(a, true); });
  f32("sqrt_approx_f32", all, [](float a) { return nm::sqrt_approx(a, false); });
  f32("ex2_approx_ftz_f32", all, [](float a) { return nm::ex2_approx(a, true); });
  f32("ex2_approx_f32", all, [](float a) { return nm::ex2_approx(a, false); });
  f32("sin_approx_ftz_f32", all, [](float a) { return nm::sin_approx(a, true); });
  f32("sin_approx_f32", all, [](float a) { return nm::sin_approx(a, false); });
  f32("cos_approx_ftz_f32", all, [](float a) { return nm::cos_approx(a, true); });
  f32("cos_approx_f32", all, [](float a) { return nm::cos_approx(a, false); });
  f32("lg2_approx_ftz_f32", all, [](float a) { return nm::lg2_approx(a, true); });
  f32("lg2_approx_f32", all, [](float a) { return nm::lg2_approx(a, false); });
  f32("tanh_approx_f32", all, [](float a) { return nm::tanh_approx(a); });
  c.push_back(
      {"rcp_approx_ftz_f64", all, 0,
       [](uint32_t x, uint32_t lo) { return nm::bits_of(nm::rcp_approx_ftz_f64(d(x, lo))); },
       "rcp_approx_ftz_f64"});
  c.push_back(
      {"rsqrt_approx_ftz_f64", all, 0,
       [](uint32_t x, uint32_t lo) { return nm::bits_of(nm::rsqrt_approx_ftz_f64(d(x, lo))); },
       "rsqrt_approx_ftz_f64"});
  for (uint32_t lo : {0u, 0x9abcdef1u})
    c.push_back({"rsqrt_approx_f64", all, lo,
                 [](uint32_t x, uint32_t lo) { return nm::bits_of(nm::rsqrt_approx(d(x, lo))); },
                 "rsqrt_approx_f64 low " + std::to_string(lo)});
  auto h16 = [&](const char* op, uint16_t (*m)(uint16_t) noexcept) {
    c.push_back({op, 1, 0, [m](uint32_t x, uint32_t) -> uint64_t { return m(uint16_t(x)); }, op});
  };
  h16("ex2_approx_f16", gpurun::emu::sfu::ex2_f16);
  h16("ex2_approx_f16x2", gpurun::emu::sfu::ex2_f16);
  h16("ex2_approx_ftz_bf16", gpurun::emu::sfu::ex2_bf16);
  h16("ex2_approx_ftz_bf16x2", gpurun::emu::sfu::ex2_bf16);
  h16("tanh_approx_f16", gpurun::emu::sfu::tanh_f16);
  h16("tanh_approx_f16x2", gpurun::emu::sfu::tanh_f16);
  h16("tanh_approx_bf16", gpurun::emu::sfu::tanh_bf16);
  h16("tanh_approx_bf16x2", gpurun::emu::sfu::tanh_bf16);
  // Division: every 257th divisor against dividends of every kind.
  for (uint32_t num : {0x3f800000u, 0x40400000u, 0xc0f9999au, 0x00000123u, 0x7f7fffffu, 0x00800000u,
                       0x80000000u, 0x7f800000u, 0x7fc00000u}) {
    auto div = [&](const char* op, float (*m)(float, float, bool), bool ftz) {
      c.push_back({op, 257, num, [m, ftz](uint32_t b, uint32_t a) { return u(m(f(a), f(b), ftz)); },
                   std::string(op) + " a=" + std::to_string(num)});
    };
    div("div_approx_f32", nm::div_approx, false);
    div("div_approx_ftz_f32", nm::div_approx, true);
    div("div_full_f32", nm::div_full, false);
    div("div_full_ftz_f32", nm::div_full, true);
  }
  return c;
}

} // namespace

int main(int argc, char** argv) {
  bool quick = false;
  std::vector<std::string> only;
  for (int i = 1; i < argc; ++i) {
    if (std::strcmp(argv[i], "--tables") == 0 && i + 1 < argc) {
      try {
        gpurun::emu::sfu::load_tables(argv[++i]);
      } catch (const std::exception& e) {
        std::fprintf(stderr, "verify: %s\n", e.what());
        return 2;
      }
    } else if (std::strcmp(argv[i], "--quick") == 0) {
      quick = true;
    } else if (argv[i][0] != '-') {
      only.emplace_back(argv[i]);
    } else {
      std::fprintf(stderr, "usage: verify [--tables DIR] [--quick] [OP...]\n");
      return 2;
    }
  }
  const unsigned threads = std::max(1u, std::thread::hardware_concurrency());
  std::printf("%-34s %12s %12s  %s\n", "instruction", "inputs", "mismatches",
              "first mismatches (input: gpu model)");
  int failed = 0;
  for (const Check& c : plan(quick)) {
    if (!only.empty() && std::find(only.begin(), only.end(), c.op) == only.end())
      continue;
    const size_t width = gpu_result_width(c.op.c_str());
    const uint64_t space = width == 2 ? (1ull << 16) : (1ull << 32);
    const uint64_t total = (space + c.stride - 1) / c.stride;
    const uint64_t chunk = 1ull << 27;
    std::vector<unsigned char> buf(std::min(total, chunk) * width);
    std::atomic<uint64_t> mismatches{0};
    std::string examples;
    std::atomic<int> shown{0};
    std::mutex m;
    for (uint64_t first = 0; first < total; first += chunk) {
      const uint64_t n = std::min(chunk, total - first);
      const auto lo = static_cast<uint32_t>(first * c.stride);
      gpu_evaluate(c.op.c_str(), lo, c.stride, n, c.low, buf.data());
      std::vector<std::thread> pool;
      for (unsigned t = 0; t < threads; ++t)
        pool.emplace_back([&, t] {
          uint64_t bad = 0;
          for (uint64_t i = t; i < n; i += threads) {
            const auto x = static_cast<uint32_t>(lo + i * c.stride);
            uint64_t gpu = 0;
            std::memcpy(&gpu, buf.data() + i * width, width);
            const uint64_t model = c.model(x, c.low);
            if (gpu != model) {
              ++bad;
              if (shown.fetch_add(1) < 3) {
                char line[96];
                std::snprintf(line, sizeof line, " %08x: %llx %llx;", x,
                              static_cast<unsigned long long>(gpu),
                              static_cast<unsigned long long>(model));
                std::lock_guard<std::mutex> lock(m);
                examples += line;
              }
            }
          }
          mismatches += bad;
        });
      for (auto& th : pool)
        th.join();
    }
    std::printf("%-34s %12llu %12llu %s\n", c.label.c_str(), static_cast<unsigned long long>(total),
                static_cast<unsigned long long>(mismatches.load()), examples.c_str());
    std::fflush(stdout);
    failed += mismatches != 0;
  }
  return failed ? 1 : 0;
}
