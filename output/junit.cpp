#include "output/junit.hpp"

#include <string_view>

#include <fmt/format.h>

namespace gpurun {

namespace {

constexpr std::string_view k_replacement = "\xEF\xBF\xBD"; // U+FFFD

/// The length of the UTF-8 character that starts `text` and its code point, or 0 when the bytes
/// there are not one (a stray continuation byte, a cut sequence, an overlong form, a surrogate,
/// beyond U+10FFFF).
std::size_t utf8_character(std::string_view text, char32_t& code) {
  const auto byte = [&](std::size_t i) { return static_cast<unsigned char>(text[i]); };
  const unsigned char lead = byte(0);
  std::size_t length = 0;
  if (lead < 0x80) {
    code = lead;
    return 1;
  }
  if (lead >= 0xC2 && lead <= 0xDF)
    length = 2, code = lead & 0x1F;
  else if (lead >= 0xE0 && lead <= 0xEF)
    length = 3, code = lead & 0x0F;
  else if (lead >= 0xF0 && lead <= 0xF4)
    length = 4, code = lead & 0x07;
  else
    return 0;
  if (text.size() < length)
    return 0;
  for (std::size_t i = 1; i < length; ++i) {
    if ((byte(i) & 0xC0) != 0x80)
      return 0;
    code = (code << 6) | (byte(i) & 0x3F);
  }
  const char32_t least = length == 2 ? 0x80 : length == 3 ? 0x800 : 0x10000;
  if (code < least || code > 0x10FFFF || (code >= 0xD800 && code <= 0xDFFF))
    return 0;
  return length;
}

/// Whether XML 1.0 can carry the character at all (its production Char), even as a reference.
bool xml_char(char32_t code) {
  return code == '\t' || code == '\n' || code == '\r' || (code >= 0x20 && code <= 0xD7FF) ||
         (code >= 0xE000 && code <= 0xFFFD) || code >= 0x10000;
}

// XML text and attribute values: the five special characters escaped; any byte that does not
// begin a UTF-8 character, and the characters XML 1.0 cannot carry (control characters, U+FFFE,
// U+FFFF), as U+FFFD, so that a report stays well-formed whatever bytes an axis value holds.
std::string xml(std::string_view text) {
  std::string out;
  out.reserve(text.size());
  while (!text.empty()) {
    char32_t code = 0;
    const std::size_t length = utf8_character(text, code);
    if (length == 0 || !xml_char(code)) {
      out += k_replacement;
      text.remove_prefix(length == 0 ? 1 : length);
      continue;
    }
    switch (code) {
    case '&':
      out += "&amp;";
      break;
    case '<':
      out += "&lt;";
      break;
    case '>':
      out += "&gt;";
      break;
    case '"':
      out += "&quot;";
      break;
    case '\'':
      out += "&apos;";
      break;
    default:
      out += text.substr(0, length);
    }
    text.remove_prefix(length);
  }
  return out;
}

std::string first_line(const std::string& text) {
  return text.substr(0, text.find('\n'));
}

} // namespace

std::string junit_xml(const std::string& suite, const std::vector<JunitCase>& cases) {
  std::size_t failures = 0, errors = 0, skipped = 0;
  double total = 0;
  for (const auto& c : cases) {
    failures += c.failure.has_value();
    errors += c.error.has_value();
    skipped += c.skipped.has_value();
    total += c.seconds;
  }
  std::string out = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n";
  out += fmt::format("<testsuites name=\"gpurun\" tests=\"{}\" failures=\"{}\" errors=\"{}\" "
                     "skipped=\"{}\" time=\"{:.6f}\">\n",
                     cases.size(), failures, errors, skipped, total);
  out += fmt::format("  <testsuite name=\"{}\" tests=\"{}\" failures=\"{}\" errors=\"{}\" "
                     "skipped=\"{}\" time=\"{:.6f}\">\n",
                     xml(suite), cases.size(), failures, errors, skipped, total);
  for (const auto& c : cases) {
    out += fmt::format("    <testcase name=\"{}\" classname=\"{}\" time=\"{:.6f}\"", xml(c.name),
                       xml(c.classname), c.seconds);
    if (!c.failure && !c.error && !c.skipped) {
      out += "/>\n";
      continue;
    }
    out += ">\n";
    if (c.failure)
      out += fmt::format("      <failure message=\"{}\">{}</failure>\n",
                         xml(first_line(*c.failure)), xml(*c.failure));
    if (c.error)
      out += fmt::format("      <error message=\"{}\">{}</error>\n", xml(first_line(*c.error)),
                         xml(*c.error));
    if (c.skipped)
      out += fmt::format("      <skipped message=\"{}\"/>\n", xml(*c.skipped));
    out += "    </testcase>\n";
  }
  out += "  </testsuite>\n</testsuites>\n";
  return out;
}

} // namespace gpurun
