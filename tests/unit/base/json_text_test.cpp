#include "base/json_text.hpp"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

namespace gpurun {
namespace {

// A path or an axis value may hold any bytes; nlohmann's dump() threw type_error 316 on them.
TEST(JsonText, BytesThatAreNotUtf8BecomeTheReplacementCharacter) {
  const nlohmann::json doc{{"path", "sa\xffxpy.cu"}, {"ok", "µs"}};
  EXPECT_EQ(json_text(doc), "{\"ok\":\"µs\",\"path\":\"sa\xEF\xBF\xBDxpy.cu\"}");
  const nlohmann::ordered_json ordered{{"z", "\xed\xa0\x80"}, {"a", 1}};
  EXPECT_EQ(json_text(ordered, 2), "{\n  \"z\": \"\xEF\xBF\xBD\xEF\xBF\xBD\xEF\xBF\xBD\",\n  "
                                   "\"a\": 1\n}");
}

TEST(JsonText, TheResultParsesBack) {
  std::string every_byte;
  for (int b = 1; b < 256; ++b)
    every_byte += static_cast<char>(b);
  const nlohmann::json doc{{"bytes", every_byte}};
  EXPECT_NO_THROW((void)nlohmann::json::parse(json_text(doc)));
}

} // namespace
} // namespace gpurun
