// parallel_for: every index exactly once at any thread count, and an exception thrown by an item
// reaches the caller instead of ending the process from a worker thread.
#include <gtest/gtest.h>

#include <algorithm>
#include <atomic>
#include <stdexcept>
#include <vector>

#include "analyzer/util/parallel.h"
#include "test_util.h"

using ilint::parallel_for;

TEST(ParallelFor, EveryIndexExactlyOnceAtAnyThreadCount) {
  for (int jobs : {0, 1, 2, 7}) {
    for (size_t n : {size_t(0), size_t(1), size_t(1000)}) {
      std::vector<std::atomic<int>> seen(n);
      parallel_for(n, jobs, [&](size_t i) { seen[i].fetch_add(1); });
      for (size_t i = 0; i < n; ++i) EXPECT_EQ(seen[i].load(), 1) << "jobs " << jobs << " n " << n << " i " << i;
    }
  }
}

TEST(ParallelFor, AnItemsExceptionReachesTheCaller) {
  for (int jobs : {1, 4}) {
    std::atomic<size_t> ran{0};
    EXPECT_THROW(parallel_for(10000, jobs,
                              [&](size_t i) {
                                ran.fetch_add(1);
                                if (i == 17) throw std::runtime_error("item 17");
                              }),
                 std::runtime_error)
        << jobs;
    // On one thread nothing runs after the throw. On several, the others may finish the items
    // they hold or take more before the stop is seen: no bound to check there.
    if (jobs == 1) EXPECT_EQ(ran.load(), 18u);
  }
}

// -j auto: the threads follow the input's compile folders, never above the cores.
TEST(FittedJobs, OneThreadUnderSixtyFourCompiles) {
  ilint::AnalyzeOptions o;
  o.jobs = 4;
  EXPECT_EQ(ilint::jobs_for_input(o, 1), 4);  // not fitted: what -j said
  o.fit_jobs_to_input = true;
  EXPECT_EQ(ilint::jobs_for_input(o, 0), 1);
  EXPECT_EQ(ilint::jobs_for_input(o, 63), 1);
  EXPECT_EQ(ilint::jobs_for_input(o, 64), 2);
  EXPECT_EQ(ilint::jobs_for_input(o, 100), 3);
  EXPECT_EQ(ilint::jobs_for_input(o, 100000), 4);
  o.jobs = 0;
  EXPECT_EQ(ilint::jobs_for_input(o, 100000), 1);
}

TEST(FittedJobs, SameAnalysisAsOneThread) {
  // One capture takes one thread; every fixture at once (over 100 compile folders) takes one
  // thread per kCompilesPerThread compiles, more than one and at most the four allowed.
  size_t compiles = 0;
  auto jobs_used = [&compiles](const std::vector<std::string>& paths) {
    ilint::AnalyzeOptions o;
    o.paths = paths;
    o.jobs = 4;
    o.fit_jobs_to_input = true;
    auto a = std::make_unique<ilint::Analysis>();
    ilint::analyze(o, *a);
    compiles = a->ingest.compiles.size();
    return a->jobs_used;
  };
  EXPECT_EQ(jobs_used({ilint::testing::fixture("s1_cuda")}), 1);
  std::vector<std::string> every;
  for (auto& e : std::filesystem::directory_iterator(ILINT_FIXTURES_DIR))
    if (e.is_directory()) every.push_back(e.path().string());
  std::sort(every.begin(), every.end());
  const int every_jobs = jobs_used(every);
  EXPECT_GE(compiles, 2 * ilint::kCompilesPerThread);
  EXPECT_EQ(static_cast<size_t>(every_jobs), std::min<size_t>(compiles / ilint::kCompilesPerThread, 4));
  const std::string one = ilint::testing::analysis_text(every, 1);
  EXPECT_NE(one.find("cpp_fused"), std::string::npos);
  EXPECT_EQ(ilint::testing::analysis_text(every, 4, true), one);
}
