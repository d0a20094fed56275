#include "backends/compilers/source_launches.hpp"

#include <algorithm>

#include "backends/compilers/source_scan.hpp"

namespace gpurun::compilers::scan {

namespace {

std::string single_spaced(std::string_view text) {
  std::string out;
  for (const char c : text) {
    const bool space = c == ' ' || c == '\n' || c == '\t' || c == '\r';
    if (!space)
      out += c;
    else if (!out.empty() && out.back() != ' ')
      out += ' ';
  }
  return out;
}

} // namespace

std::vector<Launch> find_launches(std::string_view text) {
  Structure s = read_structure(text);
  std::vector<Launch> out;
  const auto& lx = s.lexemes;
  const auto str = [&](std::size_t i) { return text_of(text, lx[i]); };
  const auto is = [&](std::size_t i, std::string_view p) {
    return i < lx.size() && lx[i].kind == Kind::punct && str(i) == p;
  };
  const auto chevrons = [&](std::size_t i, char c) {
    return i + 2 < lx.size() && is(i, std::string(1, c)) && is(i + 1, std::string(1, c)) &&
           is(i + 2, std::string(1, c)) && lx[i + 1].begin == lx[i].end &&
           lx[i + 2].begin == lx[i + 1].end;
  };
  // The function each lexeme is in: the units that are function definitions.
  std::vector<std::pair<std::size_t, const Unit*>> functions;
  for (const auto& u : s.units)
    if (u.is_definition && !u.names.empty())
      functions.emplace_back(u.first, &u);
  const auto caller_of = [&](std::size_t at) {
    for (auto it = functions.rbegin(); it != functions.rend(); ++it)
      if (it->first <= at && it->second->last > at)
        return it->second->names.front();
    return std::string();
  };
  for (std::size_t i = 0; i < lx.size(); ++i) {
    // hipLaunchKernelGGL(kernel, grid, block, shared, stream, args…)
    if (lx[i].kind == Kind::identifier && str(i) == "hipLaunchKernelGGL" && is(i + 1, "(")) {
      std::vector<std::string> parts;
      int depth = 0;
      std::size_t part = i + 2;
      std::size_t k = i + 1;
      for (; k < lx.size(); ++k) {
        if (is(k, "(") || is(k, "[") || is(k, "{")) {
          ++depth;
        } else if (is(k, ")") || is(k, "]") || is(k, "}")) {
          if (--depth == 0)
            break;
        } else if (depth == 1 && is(k, ",")) {
          if (k > part)
            parts.emplace_back(text.substr(lx[part].begin, lx[k - 1].end - lx[part].begin));
          part = k + 1;
        }
      }
      if (k < lx.size() && k > part)
        parts.emplace_back(text.substr(lx[part].begin, lx[k - 1].end - lx[part].begin));
      if (parts.size() >= 5) {
        Launch l;
        l.line = lx[i].line;
        l.kernel = parts[0];
        l.config.assign(parts.begin() + 1, parts.begin() + 5);
        for (std::size_t a = 5; a < parts.size(); ++a)
          l.arguments += (a > 5 ? ", " : "") + parts[a];
        l.caller = caller_of(i);
        for (auto& c : l.config)
          c = single_spaced(c);
        l.arguments = single_spaced(l.arguments);
        out.push_back(std::move(l));
      }
      continue;
    }
    if (!chevrons(i, '<'))
      continue;
    // The kernel expression before "<<<": NAME, ns::NAME, NAME<ARGS>.
    std::size_t b = i;
    if (b > 0 && is(b - 1, ">")) {
      int angle = 0;
      while (b-- > 0) {
        if (is(b, ">"))
          ++angle;
        else if (is(b, "<") && --angle == 0)
          break;
      }
    }
    while (b > 0 && (lx[b - 1].kind == Kind::identifier || is(b - 1, "::"))) {
      --b;
      if (b > 0 && lx[b].kind == Kind::identifier && lx[b - 1].kind == Kind::identifier)
        break;
    }
    if (b >= i)
      continue;
    Launch l;
    l.line = lx[b].line;
    l.kernel = std::string(text.substr(lx[b].begin, lx[i - 1].end - lx[b].begin));
    std::erase_if(l.kernel, [](char c) { return c == '\n' || c == '\r'; });
    // The configuration up to ">>>", split at top-level commas.
    std::size_t k = i + 3;
    int depth = 0;
    std::size_t part = k;
    for (; k < lx.size(); ++k) {
      if (depth == 0 && chevrons(k, '>'))
        break;
      if (is(k, "(") || is(k, "[") || is(k, "{"))
        ++depth;
      else if (is(k, ")") || is(k, "]") || is(k, "}"))
        --depth;
      else if (depth == 0 && is(k, ",")) {
        if (k > part)
          l.config.emplace_back(text.substr(lx[part].begin, lx[k - 1].end - lx[part].begin));
        part = k + 1;
      }
    }
    if (k >= lx.size())
      continue;
    if (k > part)
      l.config.emplace_back(text.substr(lx[part].begin, lx[k - 1].end - lx[part].begin));
    const std::size_t open = k + 3;
    if (is(open, "(")) {
      int d = 0;
      std::size_t close = open;
      for (; close < lx.size(); ++close) {
        if (is(close, "("))
          ++d;
        else if (is(close, ")") && --d == 0)
          break;
      }
      if (close < lx.size() && close > open + 1)
        l.arguments =
            std::string(text.substr(lx[open + 1].begin, lx[close - 1].end - lx[open + 1].begin));
    }
    l.caller = caller_of(b);
    for (auto& c : l.config)
      c = single_spaced(c);
    l.arguments = single_spaced(l.arguments);
    out.push_back(std::move(l));
  }
  return out;
}

} // namespace gpurun::compilers::scan
