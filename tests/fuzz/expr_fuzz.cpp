// The expression parser (base/expression_parser) through each of its languages: integer expressions
// of sizes and scalars (base/arithmetic), float values, integers for an element type, and `--where`
// filters over thread tables (threads/thread_filter), parsed and evaluated on one row.
#include <array>
#include <cstddef>
#include <cstdint>
#include <string>

#include "base/arithmetic.hpp"
#include "base/error.hpp"
#include "tests/fuzz/fuzz_input.hpp"
#include "threads/thread_filter.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace gpurun;
  const auto [choice, text] = fuzz::select(data, size, 5);
  const SourceText where{"--shared", text, 0};
  try {
    switch (choice) {
    case 0:
      (void)eval_wide_int(text, where);
      break;
    case 1:
      (void)eval_int_expr(text, "--shared");
      break;
    case 2:
      (void)eval_number(text, where);
      break;
    case 3: {
      constexpr DType k_types[] = {DType::u8, DType::i8, DType::u64, DType::i64, DType::i32};
      (void)eval_int_for(k_types[text.size() % std::size(k_types)], text, where);
      break;
    }
    default: {
      static const std::array<std::string, 4> k_columns = {"block_x", "thread_x", "warp", "lane"};
      const RowFilter filter = RowFilter::parse(text, k_columns);
      constexpr std::array<std::uint64_t, 4> k_row = {0, 5, ~std::uint64_t{0}, 1ull << 63};
      (void)filter.matches(k_row);
      break;
    }
    }
  } catch (const Error&) {
  }
  return 0;
}
