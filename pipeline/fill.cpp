#include "pipeline/fill.hpp"

#include <cctype>
#include <cmath>
#include <cstring>
#include <fstream>
#include <iterator>
#include <thread>

#include <fmt/format.h>

#include "base/error.hpp"
#include "base/npy.hpp"
#include "base/read_file.hpp"
#include "base/rng.hpp"

namespace gpurun {

namespace {

constexpr std::string_view k_fill_forms =
    "zeros uninit ones CONST iota iota(START,STEP) rand(seed=S[,LO,HI]) randn(seed=S[,MEAN,STD]) "
    "[v,...] @PATH";

/// One comma-separated piece of a parameter or value list, with its offset in the fill text.
struct Piece {
  std::string_view text;
  std::size_t offset;
};

/// Splits `inner` (which starts at `offset` in the fill text) at commas outside parentheses.
std::vector<Piece> split_top_level(std::string_view inner, std::size_t offset) {
  std::vector<Piece> pieces;
  if (trim(inner).empty())
    return pieces;
  int depth = 0;
  std::size_t start = 0;
  for (std::size_t i = 0; i <= inner.size(); ++i) {
    if (i < inner.size() && inner[i] == '(')
      ++depth;
    if (i < inner.size() && inner[i] == ')')
      --depth;
    if (i == inner.size() || (inner[i] == ',' && depth == 0)) {
      pieces.push_back({inner.substr(start, i - start), offset + start});
      start = i + 1;
    }
  }
  return pieces;
}

/// Validates one value for an element of `dtype` (integer range, or a parsable number).
double check_value(DType dtype, std::string_view text, const SourceText& where) {
  if (is_float(dtype))
    return eval_number(text, where);
  return static_cast<double>(eval_int_for(dtype, text, where));
}

/// The element value as an exact integer (integer dtypes) from its text, or from `fallback`
/// when the spec was built without texts.
WideInt int_param(DType dtype, const std::string& text, double fallback, const SourceText& where) {
  if (text.empty())
    return static_cast<WideInt>(fallback);
  return eval_int_for(dtype, text, where);
}

void store_wide(DType dtype, std::byte* p, WideInt v) {
  // Wrapping to 64 bits first is exact for every value that fits the element type.
  store_from_int64(dtype, p, static_cast<long long>(static_cast<unsigned long long>(v)));
}

/// Parses "seed=S" into the fill's seed.
std::uint64_t parse_seed(const Piece& piece, const SourceText& where) {
  const std::size_t lead = piece.text.find_first_not_of(" \t");
  const std::string_view t = trim(piece.text);
  std::size_t eq = 4;
  while (eq < t.size() && t[eq] == ' ')
    ++eq;
  if (lead == std::string_view::npos || t.substr(0, 4) != "seed" || eq >= t.size() || t[eq] != '=')
    throw_at(where, piece.offset + (lead == std::string_view::npos ? 0 : lead),
             "expected seed=S as the first parameter");
  const SourceText at = where.at(piece.offset + lead + eq + 1);
  const WideInt seed = eval_wide_int(t.substr(eq + 1), at);
  if (seed < 0 || seed > static_cast<WideInt>(UINT64_MAX))
    throw_at(at, 0, "the seed must be between 0 and 2**64-1");
  return static_cast<std::uint64_t>(seed);
}

void parse_call(FillSpec& fill, std::string_view text, std::size_t open, DType dtype,
                const SourceText& where) {
  const std::string_view name = text.substr(0, open);
  if (text.back() != ')')
    throw_at(where, text.size(), fmt::format("missing ')' after {}(", name));
  auto params = split_top_level(text.substr(open + 1, text.size() - open - 2), open + 1);
  std::size_t first_value = 0;
  if (name == "iota") {
    fill.kind = FillSpec::Kind::iota;
    if (params.size() != 2)
      throw_at(where, open, "iota takes (START,STEP)");
  } else {
    fill.kind = name == "rand" ? FillSpec::Kind::rand : FillSpec::Kind::randn;
    if (fill.kind == FillSpec::Kind::randn && !is_float(dtype))
      throw_at(where, 0,
               fmt::format("randn needs a floating-point buffer, not {}", dtype_name(dtype)));
    const std::string_view usage = name == "rand" ? "rand(seed=S) or rand(seed=S,LO,HI)"
                                                  : "randn(seed=S) or randn(seed=S,MEAN,STD)";
    if (params.empty())
      throw_at(where, open + 1, fmt::format("expected {}", usage));
    if (params.size() != 1 && params.size() != 3)
      throw_at(where, open, fmt::format("expected {}", usage));
    fill.seed = parse_seed(params[0], where);
    first_value = 1;
  }
  if (params.size() == first_value)
    return;
  fill.has_params = true;
  const Piece& pa = params[first_value];
  const Piece& pb = params[first_value + 1];
  fill.a_text = std::string(trim(pa.text));
  fill.b_text = std::string(trim(pb.text));
  fill.a = check_value(dtype, pa.text, where.at(pa.offset));
  // STEP and STD are not elements: a negative STEP is fine for unsigned buffers.
  if (fill.kind == FillSpec::Kind::iota && !is_float(dtype))
    fill.b = static_cast<double>(eval_int_for(DType::i64, pb.text, where.at(pb.offset)));
  else
    fill.b = check_value(dtype, pb.text, where.at(pb.offset));
  if (!std::isfinite(fill.a) || !std::isfinite(fill.b))
    throw_at(where, !std::isfinite(fill.a) ? pa.offset : pb.offset,
             fill.kind == FillSpec::Kind::rand ? "rand needs finite LO and HI"
                                               : "randn needs a finite MEAN and STD");
  if (fill.kind == FillSpec::Kind::rand) {
    const bool ordered = is_float(dtype) ? fill.a <= fill.b
                                         : eval_wide_int(pa.text, where.at(pa.offset)) <=
                                               eval_wide_int(pb.text, where.at(pb.offset));
    if (!ordered)
      throw_at(where, pa.offset, "rand needs LO <= HI");
  }
  if (fill.kind == FillSpec::Kind::randn && !(fill.b >= 0))
    throw_at(where, pb.offset, "randn needs STD >= 0");
}

/// Runs f(i) for i in [0, n), split over threads for large buffers. Each element depends only on
/// its index (the generator is counter-based), so the result is the same for any split.
template <typename F> void for_each_index(std::size_t n, const F& f) {
  constexpr std::size_t k_min_per_thread = std::size_t{1} << 18;
  const std::size_t threads = std::min<std::size_t>(
      std::max(1u, std::thread::hardware_concurrency()), n / k_min_per_thread);
  if (threads <= 1) {
    for (std::size_t i = 0; i < n; ++i)
      f(i);
    return;
  }
  const std::size_t per = (n + threads - 1) / threads;
  std::vector<std::jthread> pool;
  for (std::size_t t = 0; t < threads; ++t)
    pool.emplace_back([&f, t, per, n] {
      for (std::size_t i = t * per; i < std::min(n, (t + 1) * per); ++i)
        f(i);
    });
}

[[noreturn]] void fail_applying(const FillSpec& fill, std::string_view what) {
  throw usage_error(fmt::format("{} '{}': {}", fill.field, fill.origin, what));
}

std::string read_bytes(const std::filesystem::path& path, const FillSpec& fill) {
  std::string why;
  auto raw = read_file(path, &why, k_no_read_limit);
  if (!raw)
    fail_applying(fill, fmt::format("cannot read {}: {}", path.string(), why));
  return std::move(*raw);
}

void fill_from_file(const FillSpec& fill, HostBuffer& buffer, const std::filesystem::path& base) {
  const std::filesystem::path written(fill.path);
  const std::filesystem::path path = written.is_absolute() ? written : base / written;
  if (path.extension() != ".npy") {
    const auto raw = read_bytes(path, fill);
    if (raw.size() != buffer.size_bytes())
      fail_applying(fill, fmt::format("{} has {} bytes, the buffer needs {}", fill.path, raw.size(),
                                      buffer.size_bytes()));
    if (!raw.empty()) // a zero-element buffer has no storage (memcpy from null is undefined)
      std::memcpy(buffer.data(), raw.data(), raw.size());
    return;
  }
  const HostBuffer file = read_npy(path);
  // bf16 is saved as '<u2' (NumPy has no bf16), so such a file fills a bf16 buffer bit for bit.
  const bool same_type = file.dtype() == buffer.dtype() ||
                         (buffer.dtype() == DType::bf16 && file.dtype() == DType::u16);
  if (!same_type)
    fail_applying(fill, fmt::format("{} holds {} ('{}'), the buffer is {}", fill.path,
                                    dtype_name(file.dtype()), numpy_descr(file.dtype()),
                                    dtype_name(buffer.dtype())));
  // Only the element count must agree: the C-order bytes are the same for any shape.
  if (file.element_count() != buffer.element_count())
    fail_applying(fill, fmt::format("{} has {} elements, the buffer has {}", fill.path,
                                    file.element_count(), buffer.element_count()));
  if (buffer.size_bytes() > 0)
    std::memcpy(buffer.data(), file.data(), buffer.size_bytes());
}

} // namespace

FillSpec parse_fill(std::string_view text, DType dtype, std::size_t count,
                    const SourceText& where) {
  FillSpec fill;
  fill.field = std::string(where.field);
  fill.origin = std::string(where.whole);
  if (text.empty())
    throw_at(where, 0, fmt::format("expected a fill ({})", k_fill_forms));
  if (text == "zeros")
    return fill;
  if (text == "uninit") {
    fill.kind = FillSpec::Kind::uninit;
    return fill;
  }
  if (text == "ones") {
    fill.kind = FillSpec::Kind::ones;
    return fill;
  }
  if (text == "iota") {
    fill.kind = FillSpec::Kind::iota;
    return fill;
  }
  if (text == "rand" || text == "randn")
    throw_at(where, text.size(), fmt::format("{} needs a seed: {}(seed=S)", text, text));
  if (const auto open = text.find('(');
      open != std::string_view::npos &&
      (text.substr(0, open) == "iota" || text.substr(0, open) == "rand" ||
       text.substr(0, open) == "randn")) {
    parse_call(fill, text, open, dtype, where);
    return fill;
  }
  if (text.front() == '[') {
    fill.kind = FillSpec::Kind::list;
    if (text.back() != ']')
      throw_at(where, text.size(), "missing ']' at the end of the list");
    for (const auto& piece : split_top_level(text.substr(1, text.size() - 2), 1)) {
      if (trim(piece.text).empty())
        throw_at(where, piece.offset, "empty list value");
      if (trim(piece.text).front() == '[')
        throw_at(where, piece.offset,
                 "nested lists are not supported; list the values flat, in C order");
      check_value(dtype, piece.text, where.at(piece.offset));
      fill.list.emplace_back(trim(piece.text));
    }
    if (fill.list.size() != count)
      throw_whole(where, fmt::format("the list has {} values but the buffer has {} elements",
                                     fill.list.size(), count));
    return fill;
  }
  if (text.front() == '@') {
    fill.kind = FillSpec::Kind::file;
    fill.path = std::string(text.substr(1));
    if (fill.path.empty())
      throw_at(where, 1, "expected a file path after '@'");
    return fill;
  }
  // Anything else must be a constant; a word is most likely a misspelt fill name.
  const std::string_view word = text.substr(0, text.find_first_of("(=,"));
  const bool is_word = std::isalpha(static_cast<unsigned char>(text.front())) && word != "inf" &&
                       word != "nan" && word != "infinity";
  if (is_word)
    throw_at(where, 0, fmt::format("unknown fill '{}' ({})", text, k_fill_forms));
  fill.kind = FillSpec::Kind::constant;
  fill.a = check_value(dtype, text, where);
  fill.a_text = std::string(trim(text));
  return fill;
}

void apply_fill(const FillSpec& fill, HostBuffer& buffer, const std::filesystem::path& base_dir) {
  const DType dtype = buffer.dtype();
  const std::size_t n = buffer.element_count();
  const bool integer = !is_float(dtype);
  const SourceText where{fill.field, fill.origin, 0};
  using Kind = FillSpec::Kind;
  switch (fill.kind) {
  case Kind::zeros:
  case Kind::uninit: // the host copy reads as zeros; the device buffer is never written
    if (buffer.size_bytes() > 0)
      std::memset(buffer.data(), 0, buffer.size_bytes());
    return;
  case Kind::ones:
    for (std::size_t i = 0; i < n; ++i)
      store_from_int64(dtype, buffer.element(i), 1);
    return;
  case Kind::constant:
    if (integer) {
      const WideInt v = int_param(dtype, fill.a_text, fill.a, where);
      for (std::size_t i = 0; i < n; ++i)
        store_wide(dtype, buffer.element(i), v);
    } else {
      for (std::size_t i = 0; i < n; ++i)
        store_from_double(dtype, buffer.element(i), fill.a);
    }
    return;
  case Kind::iota:
    if (integer) {
      // Integer iota wraps at the type's width, as C arithmetic on the element type would.
      const WideInt start = int_param(dtype, fill.a_text, fill.a, where);
      const WideInt step = int_param(DType::i64, fill.b_text, fill.b, where);
      for_each_index(n, [&](std::size_t i) {
        store_wide(dtype, buffer.element(i), start + static_cast<WideInt>(i) * step);
      });
    } else {
      for_each_index(n, [&](std::size_t i) {
        store_from_double(dtype, buffer.element(i), fill.a + static_cast<double>(i) * fill.b);
      });
    }
    return;
  case Kind::rand:
    if (integer) {
      // Not a structured binding: clang before 16 cannot capture one in the lambda below.
      WideInt lo = int_range(dtype).first;
      WideInt hi = int_range(dtype).second;
      if (fill.has_params) {
        lo = int_param(dtype, fill.a_text, fill.a, where);
        hi = int_param(dtype, fill.b_text, fill.b, where);
      }
      // A span of 2^64 (the whole u64/i64 range) wraps to 0, which bits_to_range reads as 2^64.
      const auto span = static_cast<std::uint64_t>(hi - lo + 1);
      for_each_index(n, [&](std::size_t i) {
        store_wide(dtype, buffer.element(i),
                   lo + static_cast<WideInt>(bits_to_range(rand_bits64(fill.seed, i), span)));
      });
    } else {
      const double lo = fill.has_params ? fill.a : 0.0;
      const double hi = fill.has_params ? fill.b : 1.0;
      const bool wide = dtype == DType::f64;
      for_each_index(n, [&](std::size_t i) {
        store_from_double(dtype, buffer.element(i), lo + (hi - lo) * rand_unit(fill.seed, i, wide));
      });
    }
    return;
  case Kind::randn: {
    if (integer)
      fail_applying(fill,
                    fmt::format("randn needs a floating-point buffer, not {}", dtype_name(dtype)));
    const double mean = fill.has_params ? fill.a : 0.0;
    const double stddev = fill.has_params ? fill.b : 1.0;
    const bool wide = dtype == DType::f64;
    for_each_index(n, [&](std::size_t i) {
      store_from_double(dtype, buffer.element(i), mean + stddev * randn_unit(fill.seed, i, wide));
    });
    return;
  }
  case Kind::list:
    if (fill.list.size() != n)
      fail_applying(fill, fmt::format("the list has {} values but the buffer has {} elements",
                                      fill.list.size(), n));
    for (std::size_t i = 0; i < n; ++i) {
      const SourceText at{fill.field, fill.list[i], 0};
      if (integer)
        store_wide(dtype, buffer.element(i), eval_int_for(dtype, fill.list[i], at));
      else
        store_from_double(dtype, buffer.element(i), eval_number(fill.list[i], at));
    }
    return;
  case Kind::file:
    fill_from_file(fill, buffer, base_dir);
    return;
  }
}

} // namespace gpurun
