#include "base/json_read.hpp"

#include <filesystem>
#include <fstream>
#include <functional>
#include <stdexcept>
#include <string>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "base/error.hpp"
#include "base/read_file.hpp"
#include "support/test_support.hpp"

namespace gpurun {
namespace {

using test::usage_message;

std::string nested(std::size_t depth, char open = '[', char close = ']') {
  return std::string(depth, open) + std::string(depth, close);
}

TEST(JsonRead, ErrorTextLosesNlohmannsTagOnly) {
  try {
    (void)nlohmann::json::object().at("tune_params_keys");
    FAIL() << "no exception";
  } catch (const nlohmann::json::exception& e) {
    EXPECT_EQ(json_error_text(e), "key 'tune_params_keys' not found");
  }
  EXPECT_EQ(json_error_text(std::runtime_error("[a] b")), "[a] b") << "not nlohmann's: kept whole";
}

TEST(JsonRead, NestingUpToTheLimitIsRead) {
  const auto doc = parse_json(nested(k_max_json_depth), "ok.json");
  std::size_t depth = 0;
  for (const nlohmann::json* j = &doc; j->is_array(); j = &j->front()) {
    ++depth;
    if (j->empty())
      break;
  }
  EXPECT_EQ(depth, k_max_json_depth);
}

// 200 000 levels once overflowed the stack in the recursive code that walks nlohmann's tree.
TEST(JsonRead, DeeperNestingIsRefusedNamingTheFileAndWhere) {
  EXPECT_EQ(usage_message([] { (void)parse_json(nested(k_max_json_depth + 1), "deep.json"); }),
            "deep.json: invalid JSON: nested deeper than 512 levels at line 1, column 513");
  EXPECT_EQ(usage_message([] { (void)parse_json(nested(200'000, '{', '}'), "deep.json"); }),
            "deep.json: invalid JSON: nested deeper than 512 levels at line 1, column 513");
  std::string objects;
  for (std::size_t i = 0; i < 200'000; ++i)
    objects += "{\"a\":\n";
  EXPECT_EQ(usage_message([&] { (void)parse_json<nlohmann::ordered_json>(objects, "o.json"); }),
            "o.json: invalid JSON: nested deeper than 512 levels at line 513, column 1");
}

TEST(JsonRead, BracketsInStringsDoNotNest) {
  const std::string brackets(100'000, '[');
  const auto doc = parse_json("{\"a\\\"[\": \"" + brackets + "\", \"b\": [\"\\\\\", 1]}", "s.json");
  EXPECT_EQ(doc["a\"["], brackets);
  EXPECT_EQ(doc["b"][1], 1);
}

TEST(JsonRead, NumbersBeyondADoubleAreInvalidJson) {
  EXPECT_EQ(usage_message([] { (void)parse_json(R"({"x": [1, -1e400]})", "big.json"); }),
            "big.json: invalid JSON: number overflow parsing '-1e400'");
  EXPECT_EQ(usage_message([] { (void)parse_json<nlohmann::ordered_json>("1e400", "big.json"); }),
            "big.json: invalid JSON: number overflow parsing '1e400'");
}

// nlohmann's parser takes a NUL byte for the end of the input and ignores what follows it.
TEST(JsonRead, ANulByteIsInvalidJson) {
  EXPECT_EQ(usage_message([] { (void)parse_json(std::string("{}\n\0trailing", 12), "n.json"); }),
            "n.json: invalid JSON: a NUL byte at line 2, column 1");
  EXPECT_EQ(usage_message([] { (void)parse_json(std::string("\"a\0\"", 4), "n.json"); }),
            "n.json: invalid JSON: a NUL byte at line 1, column 3");
}

TEST(JsonRead, SyntaxErrorsKeepTheParsersPositionWithoutItsPrefix) {
  EXPECT_EQ(usage_message([] {
              (void)parse_json("{\"a\": [1,\n}", "x.json");
            }).rfind("x.json: invalid JSON: parse error at line 2, column 1", 0),
            0u);
}

TEST(JsonRead, FilesAreNamedInEveryError) {
  const auto dir = test::temp_dir();
  EXPECT_EQ(usage_message([&] { (void)read_json_file(dir / "absent.json", "suite"); }),
            (dir / "absent.json").string() +
                ": cannot read the suite file: No such file or directory");
  EXPECT_EQ(usage_message([&] {
              (void)read_json_file(dir / "absent.json", "bench result", "--balance-from x");
            }),
            "--balance-from x: cannot read the bench result file: No such file or directory");
  std::ofstream(dir / "shard.json") << R"({"cases": [1, 2]})";
  EXPECT_EQ(read_json_file<nlohmann::ordered_json>(dir / "shard.json", "shard")["cases"][1], 2);
}

// A sparse file: 16 GiB by its size, no blocks on disk. It is refused by its size, before any of
// it is read or allocated.
TEST(JsonRead, AFileBeyondTheLimitIsRefusedBySize) {
  const auto path = test::temp_dir() / "huge.json";
  std::ofstream(path).close();
  std::filesystem::resize_file(path, std::uint64_t{16} << 30);
  EXPECT_EQ(usage_message([&] { (void)read_json_file(path, "suite"); }),
            path.string() + ": cannot read the suite file: is 16.0 GiB, more than the 4.00 GiB "
                            "gpurun reads");
  std::filesystem::remove(path);
}

} // namespace
} // namespace gpurun
