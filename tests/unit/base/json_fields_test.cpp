#include "base/json_fields.hpp"

#include <functional>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "base/error.hpp"
#include "support/test_support.hpp"

namespace gpurun {
namespace {

using nlohmann::json;

using test::usage_message;

TEST(JsonFields, ReadsEachTypeAndTreatsNullAsAbsent) {
  const json o = json::parse(R"({"s": "x", "b": true, "n": 1.5, "c": 18446744073709551615,
                                 "i": -3, "z": null, "a": [], "o": {}})");
  const JsonFields f("f.json", o, "ctx");
  EXPECT_EQ(f.text("s"), "x");
  EXPECT_EQ(f.flag("b"), true);
  EXPECT_EQ(f.number("n"), 1.5);
  EXPECT_EQ(f.count("c"), 18446744073709551615u);
  EXPECT_EQ(f.integer("i"), -3);
  EXPECT_FALSE(f.text("z").has_value());
  EXPECT_FALSE(f.number("z").has_value());
  EXPECT_FALSE(f.number("absent").has_value());
  EXPECT_EQ(f.text_or_empty("absent"), "");
  EXPECT_NE(f.array("a"), nullptr);
  EXPECT_NE(f.object("o"), nullptr);
  EXPECT_EQ(f.field("s"), "ctx.s");
  EXPECT_EQ(JsonFields("f.json", o, "").field("s"), "s");
}

TEST(JsonFields, ErrorsNameTheFileAndTheField) {
  const json o = json::parse(R"({"s": 1, "n": "1", "c": -1, "big": 18446744073709551615,
                                 "a": {}, "o": []})");
  const JsonFields f("f.json", o, "ctx");
  EXPECT_EQ(usage_message([&] { (void)f.text("s"); }), "f.json: ctx.s: expected a string");
  EXPECT_EQ(usage_message([&] { (void)f.number("n"); }), "f.json: ctx.n: expected a number");
  EXPECT_EQ(usage_message([&] { (void)f.count("c"); }),
            "f.json: ctx.c: expected a whole number ≥ 0");
  EXPECT_EQ(usage_message([&] { (void)f.integer("big"); }), "f.json: ctx.big: too large");
  EXPECT_EQ(usage_message([&] { (void)f.array("a"); }), "f.json: ctx.a: expected an array");
  EXPECT_EQ(usage_message([&] { (void)f.object("o"); }), "f.json: ctx.o: expected an object");
  EXPECT_EQ(usage_message([&] { (void)f.required_text("x"); }), "f.json: ctx.x: missing");
  EXPECT_EQ(usage_message([&] { (void)f.required_count("x"); }), "f.json: ctx.x: missing");
  EXPECT_EQ(usage_message([] { (void)JsonFields("f.json", json::array(), ""); }),
            "f.json: not a JSON object");
  EXPECT_EQ(usage_message([] { (void)JsonFields("f.json", json(1), "benchmarks[2]"); }),
            "f.json: benchmarks[2]: expected an object");
}

} // namespace
} // namespace gpurun
