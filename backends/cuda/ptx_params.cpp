#include "backends/cuda/ptx_params.hpp"

#include <cctype>
#include <charconv>

namespace gpurun::cuda {
namespace {

bool is_ident_char(char c) {
  return std::isalnum(static_cast<unsigned char>(c)) != 0 || c == '_' || c == '$' || c == '.';
}

// Skips whitespace and // and /* */ comments.
std::size_t skip_space(std::string_view s, std::size_t i) {
  while (i < s.size()) {
    if (std::isspace(static_cast<unsigned char>(s[i])) != 0) {
      ++i;
    } else if (s.substr(i, 2) == "//") {
      const auto nl = s.find('\n', i);
      i = nl == std::string_view::npos ? s.size() : nl + 1;
    } else if (s.substr(i, 2) == "/*") {
      const auto end = s.find("*/", i + 2);
      i = end == std::string_view::npos ? s.size() : end + 2;
    } else {
      break;
    }
  }
  return i;
}

std::size_t type_size(std::string_view t) {
  if (t == ".pred")
    return 1;
  if (t.size() < 3)
    return 0;
  const auto bits = t.substr(2);
  if (bits == "8")
    return 1;
  if (bits == "16")
    return 2;
  if (bits == "32")
    return 4;
  if (bits == "64")
    return 8;
  return 0;
}

std::size_t parse_number(std::string_view s) {
  std::size_t value = 0;
  std::from_chars(s.data(), s.data() + s.size(), value);
  return value;
}

// One `.param …` declaration: size and alignment.
ParamLayout parse_param(std::string_view decl) {
  ParamLayout p;
  std::size_t element = 0;
  std::size_t explicit_align = 0;
  std::size_t count = 1;
  std::size_t i = 0;
  while ((i = skip_space(decl, i)) < decl.size()) {
    std::size_t j = i;
    while (j < decl.size() && is_ident_char(decl[j]))
      ++j;
    if (j == i)
      ++j;
    const auto token = decl.substr(i, j - i);
    if (token == ".align") {
      i = skip_space(decl, j);
      j = i;
      while (j < decl.size() && std::isdigit(static_cast<unsigned char>(decl[j])) != 0)
        ++j;
      explicit_align = parse_number(decl.substr(i, j - i));
    } else if (token == "[") {
      const auto close = decl.find(']', j);
      count = parse_number(decl.substr(j, close - j));
      j = close == std::string_view::npos ? decl.size() : close + 1;
    } else if (token.starts_with(".") && type_size(token) != 0) {
      element = type_size(token);
    }
    i = j;
  }
  p.size = element * count;
  p.align = explicit_align != 0 ? explicit_align : element;
  return p;
}

// PTX with comments blanked out, so that text in comments is never taken for declarations.
std::string without_comments(std::string_view ptx) {
  std::string out(ptx);
  for (std::size_t i = 0; i < out.size(); ++i) {
    if (out.compare(i, 2, "//") == 0) {
      while (i < out.size() && out[i] != '\n')
        out[i++] = ' ';
    } else if (out.compare(i, 2, "/*") == 0) {
      const auto end = out.find("*/", i + 2);
      const auto stop = end == std::string::npos ? out.size() : end + 2;
      for (; i < stop; ++i)
        if (out[i] != '\n')
          out[i] = ' ';
      --i;
    } else if (out[i] == '"') {
      // String literals (in .file directives) may contain "//".
      for (++i; i < out.size() && out[i] != '"'; ++i) {
      }
    }
  }
  return out;
}

} // namespace

std::vector<PtxEntry> parse_ptx_entries(std::string_view text) {
  const std::string clean = without_comments(text);
  const std::string_view ptx = clean;
  std::vector<PtxEntry> entries;
  std::size_t pos = 0;
  while ((pos = ptx.find(".entry", pos)) != std::string_view::npos) {
    const bool starts_token = pos == 0 || !is_ident_char(ptx[pos - 1]);
    pos += 6;
    if (!starts_token || pos >= ptx.size() || is_ident_char(ptx[pos]))
      continue;
    std::size_t i = skip_space(ptx, pos);
    std::size_t j = i;
    while (j < ptx.size() && is_ident_char(ptx[j]))
      ++j;
    PtxEntry entry;
    entry.name = std::string(ptx.substr(i, j - i));
    i = skip_space(ptx, j);
    if (i < ptx.size() && ptx[i] == '(') {
      const auto close = ptx.find(')', i);
      const auto list =
          ptx.substr(i + 1, (close == std::string_view::npos ? ptx.size() : close) - i - 1);
      std::size_t offset = 0;
      std::size_t start = 0;
      while (start < list.size()) {
        auto comma = list.find(',', start);
        if (comma == std::string_view::npos)
          comma = list.size();
        const auto decl = list.substr(start, comma - start);
        if (decl.find(".param") != std::string_view::npos) {
          auto p = parse_param(decl);
          if (p.align > 1)
            offset = (offset + p.align - 1) / p.align * p.align;
          p.offset = offset;
          offset += p.size;
          entry.params.push_back(p);
        }
        start = comma + 1;
      }
      pos = close == std::string_view::npos ? ptx.size() : close;
    }
    if (!entry.name.empty())
      entries.push_back(std::move(entry));
  }
  return entries;
}

} // namespace gpurun::cuda
