#include "output/junit.hpp"

#include <gtest/gtest.h>

namespace gpurun {
namespace {

const std::string k_fffd = "\xEF\xBF\xBD";

/// The text junit_xml writes for a case named `name` (its name attribute).
std::string written_name(const std::string& name) {
  const std::string xml = junit_xml("s", {JunitCase{name, "c", 0, {}, {}, {}}});
  const std::string before = "<testcase name=\"";
  const auto start = xml.find(before) + before.size();
  return xml.substr(start, xml.find("\" classname=", start) - start);
}

TEST(Junit, SpecialCharactersAreEscapedAndUtf8Kept) {
  EXPECT_EQ(written_name("µs <&> \"'"), "µs &lt;&amp;&gt; &quot;&apos;");
  EXPECT_EQ(written_name("a\tb\nc\rd"), "a\tb\nc\rd");
  EXPECT_EQ(written_name("\xF0\x9F\x98\x80"), "\xF0\x9F\x98\x80"); // beyond the BMP
}

// An axis value may hold any bytes; the report stays well-formed XML 1.0 in UTF-8.
TEST(Junit, BytesXmlCannotCarryBecomeTheReplacementCharacter) {
  EXPECT_EQ(written_name("a\xFFz"), "a" + k_fffd + "z");
  EXPECT_EQ(written_name("x\x01y\x1B"), "x" + k_fffd + "y" + k_fffd);
  EXPECT_EQ(written_name("\xED\xA0\x80"), k_fffd + k_fffd + k_fffd);           // a UTF-16 surrogate
  EXPECT_EQ(written_name("\xC0\xAF"), k_fffd + k_fffd);                        // overlong '/'
  EXPECT_EQ(written_name("x\xE2\x82"), "x" + k_fffd + k_fffd);                 // cut short
  EXPECT_EQ(written_name("\xEF\xBF\xBE\xEF\xBF\xBF"), k_fffd + k_fffd);        // U+FFFE, U+FFFF
  EXPECT_EQ(written_name("\xF4\x90\x80\x80").find('\xF4'), std::string::npos); // > U+10FFFF
}

TEST(Junit, EveryByteGivesWellFormedText) {
  std::string every_byte, expected;
  for (int b = 1; b < 256; ++b) {
    const char c = static_cast<char>(b);
    every_byte += c;
    if (b == '&')
      expected += "&amp;";
    else if (b == '<')
      expected += "&lt;";
    else if (b == '>')
      expected += "&gt;";
    else if (b == '"')
      expected += "&quot;";
    else if (b == '\'')
      expected += "&apos;";
    else if (b == '\t' || b == '\n' || b == '\r' || (b >= 0x20 && b < 0x80))
      expected += c;
    else
      expected += k_fffd; // a control character, or a byte that begins no UTF-8 character here
  }
  EXPECT_EQ(written_name(every_byte), expected);
}

} // namespace
} // namespace gpurun
