#include "pipeline/check.hpp"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <limits>

#include <fmt/format.h>

#include "base/arithmetic.hpp"
#include "base/error.hpp"
#include "base/format.hpp"
#include "base/npy.hpp"
#include "pipeline/arg_spec.hpp"
#include "pipeline/fill.hpp"

namespace gpurun {
namespace fs = std::filesystem;

namespace {

// "f32[…" starts a whole buffer spec; anything else is a fill.
bool is_buffer_spec(std::string_view text) {
  const auto bracket = text.find('[');
  if (bracket == std::string_view::npos || bracket == 0)
    return false;
  return parse_dtype(text.substr(0, bracket)).has_value();
}

bool is_integer(DType t) {
  return !is_float(t);
}

struct Difference {
  bool match = false;
  double abs_error = 0;
  double rel_error = 0;
  bool counts = true; ///< false for matching NaNs/infinities, which have no error to report
};

Difference compare_ints(DType gt, const std::byte* g, DType et, const std::byte* e, double rtol,
                        double atol) {
  auto wide = [](DType t, const std::byte* p) -> WideInt {
    return is_signed_int(t) ? WideInt{load_as_int64(t, p)} : WideInt{load_as_uint64(t, p)};
  };
  const WideInt gv = wide(gt, g);
  const WideInt ev = wide(et, e);
  const WideInt diff = gv > ev ? gv - ev : ev - gv;
  const WideInt mag = ev < 0 ? -ev : ev;
  Difference d;
  d.abs_error = static_cast<double>(diff);
  d.rel_error = mag == 0 ? (diff == 0 ? 0.0 : std::numeric_limits<double>::infinity())
                         : static_cast<double>(diff) / static_cast<double>(mag);
  // Exact for the usual rtol = atol = 0 integer check; tolerances only ever widen it.
  d.match = diff == 0 || static_cast<long double>(diff) <=
                             static_cast<long double>(atol) +
                                 static_cast<long double>(rtol) * static_cast<long double>(mag);
  return d;
}

Difference compare_floats(double g, double e, double rtol, double atol) {
  Difference d;
  if (std::isnan(g) || std::isnan(e)) {
    d.match = std::isnan(g) && std::isnan(e);
    d.counts = !d.match;
    d.abs_error = d.rel_error = std::numeric_limits<double>::quiet_NaN();
    return d;
  }
  if (std::isinf(g) || std::isinf(e)) {
    d.match = g == e;
    d.counts = !d.match;
    d.abs_error = d.rel_error = std::numeric_limits<double>::infinity();
    return d;
  }
  d.abs_error = std::fabs(g - e);
  d.rel_error = e == 0 ? (d.abs_error == 0 ? 0.0 : std::numeric_limits<double>::infinity())
                       : d.abs_error / std::fabs(e);
  d.match = d.abs_error <= atol + rtol * std::fabs(e);
  return d;
}

} // namespace

HostBuffer parse_expectation(std::string_view text, const HostBuffer& like,
                             const fs::path& base_dir, std::string_view field) {
  const SourceText where{field, text, 0};
  if (text.empty())
    throw_whole(where, "expected values are missing");
  if (text.front() == '@' && text.ends_with(".npy")) {
    fs::path path(std::string(text.substr(1)));
    if (path.is_relative())
      path = base_dir / path;
    HostBuffer file = read_npy(path);
    // bf16 has no NumPy dtype and is saved as raw '<u2' bits: read such a file back as bf16.
    if (like.dtype() == DType::bf16 && file.dtype() == DType::u16) {
      HostBuffer as_bf16(DType::bf16, file.shape());
      std::copy(file.bytes().begin(), file.bytes().end(), as_bf16.bytes().begin());
      return as_bf16;
    }
    return file;
  }
  if (is_buffer_spec(text)) {
    ArgSpec spec = parse_arg_spec(text, field);
    HostBuffer expected(*spec.dtype, spec.shape);
    apply_fill(spec.fill, expected, base_dir);
    return expected;
  }
  FillSpec fill = parse_fill(text, like.dtype(), like.element_count(), where);
  HostBuffer expected(like.dtype(), like.shape());
  apply_fill(fill, expected, base_dir);
  return expected;
}

CheckReport compare_buffers(const std::string& name, const HostBuffer& got,
                            const HostBuffer& expected, double rtol, double atol, bool exact) {
  CheckReport report;
  report.name = name;
  if (got.element_count() != expected.element_count()) {
    report.message =
        fmt::format("{} elements expected ({}), the buffer has {} ({})", expected.element_count(),
                    buffer_type_text(expected), got.element_count(), buffer_type_text(got));
    return report;
  }
  const DType gt = got.dtype();
  const DType et = expected.dtype();
  if (exact && dtype_size(gt) != dtype_size(et)) {
    report.message = fmt::format("a bit-for-bit comparison needs elements of one size: {} "
                                 "expected, the buffer is {}",
                                 buffer_type_text(expected), buffer_type_text(got));
    return report;
  }
  const bool ints = is_integer(gt) && is_integer(et);
  report.compared = got.element_count();
  for (std::size_t i = 0; i < report.compared; ++i) {
    const std::byte* g = got.element(i);
    const std::byte* e = expected.element(i);
    Difference d =
        ints ? compare_ints(gt, g, et, e, rtol, atol)
             : compare_floats(load_as_double(gt, g), load_as_double(et, e), rtol, atol);
    if (exact) // -0 against +0, or NaNs of different payloads, differ in their bits
      d.match = std::memcmp(g, e, dtype_size(gt)) == 0;
    // A NaN on one side has no size: it counts as a mismatch but not in the largest errors.
    if (d.counts && !std::isnan(d.abs_error)) {
      report.max_abs_error = std::max(report.max_abs_error, d.abs_error);
      report.max_rel_error = std::max(report.max_rel_error, d.rel_error);
    }
    if (d.match)
      continue;
    ++report.mismatches;
    if (report.first_mismatches.size() < k_reported_mismatches) {
      report.first_mismatches.emplace_back(i, format_element(gt, g), format_element(et, e));
    }
  }
  report.passed = report.mismatches == 0;
  return report;
}

} // namespace gpurun
