#include "output/output_format.hpp"

#include <string>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "base/error.hpp"

namespace gpurun {
namespace {

TEST(OutputFormat, ParsesNamesAndRejectsOthers) {
  EXPECT_EQ(parse_output_format("md"), OutputFormat::md);
  EXPECT_EQ(parse_output_format("csv"), OutputFormat::csv);
  try {
    (void)parse_output_format("xml");
    FAIL() << "expected an error";
  } catch (const Error& e) {
    EXPECT_EQ(e.code(), ExitCode::usage);
    EXPECT_EQ(std::string(e.what()), "--format 'xml': expected table, csv, json or md");
  }
}

TEST(OutputFormat, NamesReadBack) {
  for (const auto f :
       {OutputFormat::human, OutputFormat::json, OutputFormat::csv, OutputFormat::md})
    EXPECT_EQ(parse_output_format(format_name(f)), f);
  EXPECT_EQ(format_name(OutputFormat::human), "table");
}

TEST(OutputFormat, ErrorNamesTheFlag) {
  try {
    (void)parse_output_format("yaml", "--output-format");
    FAIL() << "expected an error";
  } catch (const Error& e) {
    EXPECT_EQ(std::string(e.what()), "--output-format 'yaml': expected table, csv, json or md");
  }
}

} // namespace
} // namespace gpurun
