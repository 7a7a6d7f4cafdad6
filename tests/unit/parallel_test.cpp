// parallel_for: every index exactly once at any thread count, and an exception thrown by an item
// reaches the caller instead of ending the process from a worker thread.
#include <gtest/gtest.h>

#include <atomic>
#include <stdexcept>
#include <vector>

#include "analyzer/util/parallel.h"

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
