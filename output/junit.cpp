#include "output/junit.hpp"

#include <fmt/format.h>

namespace gpurun {

namespace {

// XML text and attribute values: the five special characters, and control characters (which XML
// 1.0 cannot carry at all) as U+FFFD.
std::string xml(const std::string& text) {
  std::string out;
  out.reserve(text.size());
  for (const char c : text) {
    switch (c) {
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
      if (static_cast<unsigned char>(c) < 0x20 && c != '\n' && c != '\t' && c != '\r')
        out += "\xEF\xBF\xBD";
      else
        out += c;
    }
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
