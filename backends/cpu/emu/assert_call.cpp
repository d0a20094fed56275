// A failed device assert: NVRTC and clang compile it to `call __assertfail, (message, file, line,
// function, charSize)`, an external function the CUDA driver provides on a GPU. Each calling lane
// prints the line the GPU prints, on standard error where the driver prints it (device printf
// goes to standard output), and the launch ends as a device error naming the launch's first such
// line (on a GPU: CUDA_ERROR_ASSERT). An assert that holds branches around the call, so it costs
// what its comparison costs.
#include <algorithm>
#include <bit>
#include <cstdio>
#include <cstring>
#include <string>
#include <vector>

#include <fmt/format.h>

#include "backends/cpu/emu/interpreter.hpp"
#include "backends/cpu/emu/memory_access.hpp"
#include "base/error.hpp"

namespace gpurun::emu {
namespace {

// Characters read of one string at most: a pointer into a large buffer that holds no terminator
// must not print all of it.
constexpr std::size_t kMaxStringChars = 4096;

void append_utf8(std::string& out, std::uint32_t c) {
  if (c < 0x80) {
    out.push_back(static_cast<char>(c));
  } else if (c < 0x800) {
    out.push_back(static_cast<char>(0xc0 | c >> 6));
    out.push_back(static_cast<char>(0x80 | (c & 0x3f)));
  } else if (c < 0x10000) {
    out.push_back(static_cast<char>(0xe0 | c >> 12));
    out.push_back(static_cast<char>(0x80 | (c >> 6 & 0x3f)));
    out.push_back(static_cast<char>(0x80 | (c & 0x3f)));
  } else {
    out.push_back(static_cast<char>(0xf0 | (c >> 18 & 0x07)));
    out.push_back(static_cast<char>(0x80 | (c >> 12 & 0x3f)));
    out.push_back(static_cast<char>(0x80 | (c >> 6 & 0x3f)));
    out.push_back(static_cast<char>(0x80 | (c & 0x3f)));
  }
}

// The runtime's strings are made of charSize-byte characters: 1 from assert on Linux, 2 from
// Windows' wide-character assert. Bytes pass through as they are; wider characters become UTF-8.
std::string read_string(Warp& w, int lane, std::uint64_t address, std::uint64_t char_size) {
  std::string out;
  if (address == 0)
    return out;
  if (char_size != 2 && char_size != 4)
    char_size = 1;
  for (std::size_t i = 0; i < kMaxStringChars; ++i, address += char_size) {
    std::uint32_t c = 0;
    for (unsigned k = 0; k < char_size; ++k) {
      std::uint8_t byte = 0;
      std::memcpy(&byte, translate(w, Space::generic, address + k, 1, lane, false), 1);
      c |= std::uint32_t{byte} << (8 * k);
    }
    if (c == 0)
      break;
    if (char_size == 1)
      out.push_back(static_cast<char>(c));
    else
      append_utf8(out, c);
  }
  return out;
}

} // namespace

void Interpreter::assert_fail(Warp& w, const Inst& in, std::uint32_t exec) {
  const CallSite& site = m_program.call_sites[in.aux];
  std::vector<std::string> lines;
  for (std::uint32_t g = exec; g; g &= g - 1) {
    const int l = std::countr_zero(g);
    const std::byte* frame = m_block.local_of(w.index, l) + w.frame_base[l];
    auto arg = [&](std::size_t i) {
      std::uint64_t value = 0;
      if (i < site.args.size())
        std::memcpy(&value, frame + site.args[i].offset,
                    std::min<std::size_t>(8, site.args[i].size));
      return value;
    };
    const std::uint64_t char_size = arg(4);
    const std::string message = read_string(w, l, arg(0), char_size);
    const std::string file = read_string(w, l, arg(1), char_size);
    const auto line = static_cast<std::uint32_t>(arg(2));
    const std::string function = read_string(w, l, arg(3), char_size);
    const Dim3 t = thread_index(m_launch.block, w.index, l);
    // CUDA's format, its %d included. Without a function name (Windows' assert passes "") the
    // runtime leaves the name and its colon out.
    lines.push_back(fmt::format(
        "{}:{}: {}{}block: [{},{},{}], thread: [{},{},{}] Assertion `{}` failed.\n", file,
        static_cast<std::int32_t>(line), function, function.empty() ? "" : ": ",
        static_cast<std::int32_t>(m_block.index.x), static_cast<std::int32_t>(m_block.index.y),
        static_cast<std::int32_t>(m_block.index.z), static_cast<std::int32_t>(t.x),
        static_cast<std::int32_t>(t.y), static_cast<std::int32_t>(t.z), message));
  }
  std::string first;
  {
    std::lock_guard lock(m_launch.output_mutex);
    if (m_launch.first_assertion.empty())
      m_launch.first_assertion = lines.front().substr(0, lines.front().size() - 1);
    first = m_launch.first_assertion;
    for (const std::string& text : lines)
      std::fwrite(text.data(), 1, text.size(), stderr);
    std::fflush(stderr);
  }
  throw device_error(
      fmt::format("kernel '{}' failed an assertion: {}", m_launch.kernel->name, first));
}

} // namespace gpurun::emu
