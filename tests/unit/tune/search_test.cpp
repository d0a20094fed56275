#include "tune/search.hpp"

#include <gtest/gtest.h>

#include "bench/axes.hpp"
#include "tune/strategy.hpp"

namespace gpurun::tune {
namespace {

Evaluation timed(std::string key, double t) {
  Evaluation e;
  e.key = std::move(key);
  e.time_s = t;
  e.wall_s = 1;
  return e;
}

TEST(TuneSearch, AnswersKnownConfigurationsAndAsksForTheOthers) {
  const Space space{{bench::parse_axis("A=[1,2,3,4]")}, {}};
  auto s = make_strategy("brute_force", space, 1);
  Search search(space, *s, Objective::time, {}, {{"2", timed("2", 0.5)}});
  EXPECT_EQ(search.next(), 0u);
  search.record(timed("1", 2.0));
  // "2" is known: not asked for.
  EXPECT_EQ(search.next(), 2u);
  Evaluation failed;
  failed.key = "3";
  failed.status = Status::wrong_answer;
  search.record(failed);
  EXPECT_EQ(search.next(), 3u);
  search.record(timed("4", 1.0));
  EXPECT_FALSE(search.next());
  const auto& r = search.result();
  EXPECT_EQ(r.configs, (std::vector<std::size_t>{0, 1, 2, 3}));
  EXPECT_EQ(r.evaluated, 3u);
  EXPECT_TRUE(r.evaluations[1].from_cache);
  ASSERT_TRUE(r.best);
  EXPECT_EQ(r.evaluations[*r.best].key, "2");
  EXPECT_EQ(r.stop, "space exhausted");
  // Best so far after each visit: 2.0, 0.5, 0.5, 0.5.
  ASSERT_EQ(r.convergence.size(), 4u);
  EXPECT_EQ(r.convergence[0].best, 2.0);
  EXPECT_EQ(r.convergence[3].best, 0.5);
}

TEST(TuneSearch, TheBudgetCountsConfigurationsVisitedKnownOrNew) {
  const Space space{{bench::parse_axis("A=[1:10]")}, {}};
  auto s = make_strategy("brute_force", space, 1);
  Search search(space, *s, Objective::time, {3, {}}, {{"1", timed("1", 1)}, {"2", timed("2", 1)}});
  EXPECT_EQ(search.next(), 2u);
  search.record(timed("3", 1));
  EXPECT_FALSE(search.next());
  EXPECT_EQ(search.result().stop, "budget");
  EXPECT_EQ(search.result().evaluated, 1u);
}

TEST(TuneSearch, MaximizedObjectivesPreferMore) {
  const Space space{{bench::parse_axis("A=[1,2]")}, {}};
  auto s = make_strategy("brute_force", space, 1);
  Evaluation a = timed("1", 1);
  a.gbs = 100;
  Evaluation b = timed("2", 2);
  b.gbs = 300;
  const auto r = simulate(space, *s, Objective::bandwidth, {}, {{"1", a}, {"2", b}});
  ASSERT_TRUE(r.best);
  EXPECT_EQ(r.evaluations[*r.best].key, "2");
  // A simulated clock: the evaluations' own wall time.
  EXPECT_EQ(r.convergence.back().elapsed_s, 2.0);
}

TEST(TuneSearch, RatesAStrategyByTheVisitsItNeedsToComeNearTheBest) {
  const Space space{{bench::parse_axis("A=[1:10]")}, {}};
  std::map<std::string, Evaluation> known;
  for (int a = 1; a <= 10; ++a)
    known[std::to_string(a)] = timed(std::to_string(a), a == 7 ? 1.0 : a == 4 ? 1.04 : 2.0);
  EXPECT_EQ(best_value(space, known, Objective::time), 1.0);
  // Brute force reaches 1.04 (within 5 %) at its 4th visit, the best itself at its 7th.
  EXPECT_EQ(rate_strategy("brute_force", space, known, Objective::time, {}, 1, 3, 0.05).median,
            4.0);
  const auto exact = rate_strategy("brute_force", space, known, Objective::time, {}, 1, 3, 0.0);
  EXPECT_EQ(exact.median, 7.0);
  EXPECT_EQ(exact.reached, 3u);
  // A budget too small to get there counts the whole space.
  EXPECT_EQ(rate_strategy("brute_force", space, known, Objective::time, {2, {}}, 1, 1, 0.0).median,
            10.0);
}

TEST(TuneSearch, ObjectivesAndStatusesReadBack) {
  EXPECT_EQ(parse_objective("GB/s", "--objective"), Objective::bandwidth);
  EXPECT_EQ(parse_objective("gflops", "--objective"), Objective::flops);
  EXPECT_THROW((void)parse_objective("speed", "--objective"), Error);
  for (auto s : {Status::ok, Status::compile_error, Status::launch_failure, Status::wrong_answer,
                 Status::invalid, Status::error})
    EXPECT_EQ(status_from_string(to_string(s)), s);
}

} // namespace
} // namespace gpurun::tune
