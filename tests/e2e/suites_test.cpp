// End-to-end: every case of the bundled benchmark suites (kernels/suites) is a valid run spec once
// its axes are substituted, and its kernel passes the case's own check on the CPU backend at a
// small size. The transposes and matrix products are also compared with references computed
// here, which the suites' own checks (all-ones inputs) cannot do.
#include <cstring>
#include <fstream>
#include <map>
#include <set>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "base/arithmetic.hpp"
#include "base/error.hpp"
#include "bench/axes.hpp"
#include "support/test_support.hpp"

namespace gpurun::test {
namespace {

using nlohmann::json;

const std::filesystem::path suites_dir() {
  return source_dir() / "kernels" / "suites";
}

json read_json(const std::filesystem::path& path) {
  std::ifstream in(path);
  return json::parse(in);
}

// The run spec of a case at one axis point: the suite-only keys dropped, the source made absolute.
std::filesystem::path write_spec(const json& case_doc, const bench::AxisPoint& point,
                                 const std::string& file_name) {
  json spec = bench::substitute_case(case_doc, point);
  for (const char* key : {"name", "axes", "bytes", "flops"})
    spec.erase(key);
  spec["source"] = (suites_dir() / spec.at("source").get<std::string>()).string();
  spec["print"] = "none";
  const auto path = temp_dir() / file_name;
  std::ofstream(path) << spec.dump(2);
  return path;
}

// Small sizes the CPU backend runs in well under a second, per suite.
const std::map<std::string, std::string> k_small_n{
    {"stream", "4096"}, {"reduce", "4096"}, {"transpose", "64"}, {"matmul", "64"}};

TEST(SuitesE2E, TheFourSuitesAreBundled) {
  std::set<std::string> names;
  for (const auto& entry : std::filesystem::directory_iterator(suites_dir()))
    if (entry.path().extension() == ".json")
      names.insert(read_json(entry.path()).at("name").get<std::string>());
  EXPECT_EQ(names, (std::set<std::string>{"matmul", "reduce", "stream", "transpose"}));
}

TEST(SuitesE2E, EveryCasePassesItsCheckOnTheCpuBackendAtASmallSize) {
  for (const auto& entry : std::filesystem::directory_iterator(suites_dir())) {
    if (entry.path().extension() != ".json")
      continue;
    const json suite = read_json(entry.path());
    const std::string suite_name = suite.at("name");
    ASSERT_TRUE(k_small_n.count(suite_name)) << "no small size for suite " << suite_name;
    ASSERT_FALSE(suite.at("cases").empty()) << suite_name;
    for (const json& c : suite.at("cases")) {
      const std::string where = suite_name + "/" + c.at("name").get<std::string>();
      SCOPED_TRACE(where);
      ASSERT_TRUE(c.contains("expect")) << "every bundled case checks its result";
      // The default axes are GPU-sized: at least 2^10 along every one.
      std::vector<bench::Axis> axes;
      for (const auto& text : c.at("axes"))
        axes.push_back(bench::parse_axis(text.get<std::string>(), where + " axes"));
      ASSERT_EQ(axes.size(), 1u);
      ASSERT_EQ(axes[0].name, "N");
      for (const auto& value : axes[0].values)
        EXPECT_GE(std::stoll(value), 1024);

      const bench::AxisPoint point{{"N", k_small_n.at(suite_name)}};
      const auto substituted = bench::substitute_case(c, point);
      EXPECT_GE(eval_int_expr(substituted.at("bytes").get<std::string>(), "bytes"), 1);
      EXPECT_GE(eval_int_expr(substituted.at("flops").get<std::string>(), "flops"), 0);

      const auto spec = write_spec(c, point, "case.json");
      const auto r = run_gpurun(spec.string() + " --backend cpu --memcheck");
      EXPECT_EQ(r.exit_code, 0) << r.out << r.err;
    }
  }
}

void write_f32(const std::filesystem::path& path, const std::vector<float>& values) {
  std::ofstream out(path, std::ios::binary);
  out.write(reinterpret_cast<const char*>(values.data()),
            static_cast<std::streamsize>(values.size() * sizeof(float)));
}

json find_case(const std::string& suite, const std::string& name) {
  const json doc = read_json(suites_dir() / (suite + ".json"));
  for (const json& c : doc.at("cases"))
    if (c.at("name") == name)
      return c;
  ADD_FAILURE() << "no case " << name << " in " << suite;
  return json::object();
}

// n = 48 is not a multiple of the 32-wide tiles, so the edges are exercised too.
constexpr int k_n = 48;

TEST(SuitesE2E, TransposesMatchAReference) {
  std::vector<float> expected(k_n * k_n);
  for (int r = 0; r < k_n; ++r)
    for (int c = 0; c < k_n; ++c)
      expected[r * k_n + c] = static_cast<float>(c * k_n + r); // in is iota
  const auto ref = temp_dir() / "transposed.bin";
  write_f32(ref, expected);
  for (const char* name : {"naive", "tiled"}) {
    SCOPED_TRACE(name);
    json c = find_case("transpose", name);
    c["args"][0] = "in=f32[N,N]:iota";
    c["expect"] = {{"out", "@" + ref.string()}};
    const auto spec = write_spec(c, {{"N", std::to_string(k_n)}}, "transpose.json");
    const auto r = run_gpurun(spec.string() + " --backend cpu");
    EXPECT_EQ(r.exit_code, 0) << r.out << r.err;
  }
}

TEST(SuitesE2E, MatrixProductsMatchAReference) {
  // A = iota, B = iota(1,2): products of distinct values, summed in double here.
  std::vector<float> expected(k_n * k_n);
  for (int i = 0; i < k_n; ++i)
    for (int j = 0; j < k_n; ++j) {
      double sum = 0;
      for (int k = 0; k < k_n; ++k)
        sum += double(i * k_n + k) * double(1 + 2 * (k * k_n + j));
      expected[i * k_n + j] = static_cast<float>(sum);
    }
  const auto ref = temp_dir() / "product.bin";
  write_f32(ref, expected);
  for (const char* name : {"naive", "tiled"}) {
    SCOPED_TRACE(name);
    json c = find_case("matmul", name);
    c["args"][0] = "A=f32[N,N]:iota";
    c["args"][1] = "B=f32[N,N]:iota(1,2)";
    c["expect"] = {{"C", "@" + ref.string()}};
    const auto spec = write_spec(c, {{"N", std::to_string(k_n)}}, "matmul.json");
    const auto r = run_gpurun(spec.string() + " --backend cpu");
    EXPECT_EQ(r.exit_code, 0) << r.out << r.err;
  }
}

} // namespace
} // namespace gpurun::test
