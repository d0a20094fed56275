#include "base/regex.hpp"

#include <regex>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "base/error.hpp"

namespace gpurun {
namespace {

bool search(std::string_view pattern, std::string_view text) {
  return Regex::compile(pattern, "--filter").search(text);
}

/// The message of the usage Error that compiling `pattern` throws ("" when it compiles).
std::string refusal(std::string_view pattern) {
  try {
    (void)Regex::compile(pattern, "--filter 'P'");
  } catch (const Error& e) {
    EXPECT_EQ(e.code(), ExitCode::usage);
    return e.what();
  }
  return "";
}

TEST(Regex, SearchesAsStdRegexDoesForTheSyntaxItTakes) {
  const std::vector<std::string> patterns = {
      "",          "copy",   "^copy",        "copy$",        "^copy/N:1024$",
      "N:[0-9]+$", "a|b",    "^(copy|mul)/", "(?:add|mul)_", "x*",
      "^x+y?z$",   "^.{3}$", "a{2,3}",       "^a{2,}$",      "^a{0}b",
      "[^/]+/N",   "\\d{4}", "\\bN\\b",      "\\Bopy",       "[\\w-]+:",
      "\\.",       "\\s",    "\\S+$",        "^$",           "[a-c]{2}",
      "(a|)b",     "(|a)+$", "((x)*)*y",     "a+?b",         "[]",
      "[^]",       "\\x41",  "[-a]",         "[a-]",         "T:(float|double)$"};
  const std::vector<std::string> texts = {"",
                                          "copy",
                                          "copy/N:1024",
                                          "mul/N:1024/T:float",
                                          "add_float/N:16",
                                          "x",
                                          "xxyz",
                                          "xz",
                                          "aab",
                                          "b",
                                          "aaaa",
                                          "A.B",
                                          "x y",
                                          "abc",
                                          "N",
                                          "Ncopy",
                                          "kernel:N:1",
                                          "xxxxy",
                                          "T:double",
                                          "a-b:c"};
  for (const auto& p : patterns) {
    const std::regex reference(p, std::regex::ECMAScript);
    for (const auto& t : texts)
      EXPECT_EQ(search(p, t), std::regex_search(t, reference)) << "'" << p << "' in '" << t << "'";
  }
}

TEST(Regex, LinearInTheTextWhereBacktrackingIsExponential) {
  const std::string name(1'000'000, 'x');
  EXPECT_FALSE(search("^(x|y)*z$", name));
  EXPECT_TRUE(search("^(x|y)*$", name));
  EXPECT_FALSE(search("(x*)*z", name));
  EXPECT_FALSE(search("^(x|x)*y", name));
  EXPECT_TRUE(search("x{10}$", name));
}

TEST(Regex, DeepNestingCompilesWithoutRecursion) {
  const std::size_t depth = 2000; // 4001 characters: within the length limit
  const std::string pattern = std::string(depth, '(') + "a" + std::string(depth, ')');
  EXPECT_TRUE(search(pattern, "xa"));
  EXPECT_FALSE(search(pattern, "b"));
  const std::string starred = std::string(1000, '(') + "a" + std::string(1000, ')') + "*$";
  EXPECT_TRUE(search(starred, "aaa"));
}

TEST(Regex, RefusesPatternsBeyondItsLimits) {
  const std::string deep = std::string(30'000, '(') + "a" + std::string(30'000, ')');
  EXPECT_NE(refusal(deep).find("a pattern of 60001 characters, longer than the 4096"),
            std::string::npos)
      << refusal(deep);
  EXPECT_NE(refusal("a{1001}").find("a count in {n,m} above 1000"), std::string::npos);
  EXPECT_NE(refusal("(a{100}){101}").find("more than 10000 states"), std::string::npos)
      << refusal("(a{100}){101}");
  EXPECT_EQ(refusal("(a{100}){99}"), "");
}

TEST(Regex, SaysWhatIsWrongAndWhere) {
  EXPECT_EQ(refusal("(ab"), "--filter 'P': not a regular expression: '(' is not closed (at "
                            "character 1)");
  EXPECT_EQ(refusal("ab)"), "--filter 'P': not a regular expression: ')' closes no '(' (at "
                            "character 3)");
  EXPECT_NE(refusal("*a").find("'*' has nothing to repeat (at character 1)"), std::string::npos);
  EXPECT_NE(refusal("^*").find("nothing to repeat"), std::string::npos);
  EXPECT_NE(refusal("(a)\\1").find("backreferences (\\1) are not supported"), std::string::npos);
  EXPECT_NE(refusal("a(?=b)").find("lookaround"), std::string::npos);
  EXPECT_NE(refusal("[abc").find("'[' is not closed (at character 1)"), std::string::npos);
  EXPECT_NE(refusal("[z-a]").find("a range whose end is below its start"), std::string::npos);
  EXPECT_NE(refusal("a{3,2}").find("the first count is above the second"), std::string::npos);
  EXPECT_NE(refusal("\\q").find("unknown escape \\q"), std::string::npos);
  EXPECT_NE(refusal("ab\\").find("'\\' ends the pattern"), std::string::npos);
  EXPECT_NE(refusal("\\xZ1").find("\\x needs two hexadecimal digits"), std::string::npos);
}

TEST(Regex, BracesThatAreNoCountAreCharacters) {
  EXPECT_TRUE(search("^a{$", "a{"));
  EXPECT_TRUE(search("a{x}", "a{x}"));
  EXPECT_TRUE(search("a{1,b", "a{1,b"));
}

TEST(Regex, MatchesBytesSoUtf8CharactersMatchThemselves) {
  EXPECT_TRUE(search("^µs$", "µs"));
  EXPECT_FALSE(search("^.s$", "µs")); // two bytes
  EXPECT_TRUE(search("^..s$", "µs"));
  EXPECT_FALSE(search("a.b", "a\nb"));
}

} // namespace
} // namespace gpurun
