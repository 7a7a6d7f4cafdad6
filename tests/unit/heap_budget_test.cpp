// The memory budget's allowance (analyzer/util/heap_budget.h): `ratio` bytes per byte of the
// compile's input, at least kMemoryBudgetFloor. What it counts needs jemalloc's per-thread
// counters (the CLI's): Cli.KernelsPastTheMemoryBudgetAreReadByNoReader holds that.
#include <gtest/gtest.h>

#include "analyzer/util/heap_budget.h"

namespace ilint {
namespace {

TEST(HeapBudget, AllowsRatioTimesItsInputAndAtLeastTheFloor) {
  constexpr size_t kMiB = size_t{1} << 20;
  HeapBudget budget(3);
  EXPECT_EQ(budget.allowed(), kMemoryBudgetFloor);
  budget.add_input(kMiB);
  EXPECT_EQ(budget.allowed(), kMemoryBudgetFloor);  // 3 MiB: under the floor
  budget.add_input(27 * kMiB, /*held=*/true);
  EXPECT_EQ(budget.allowed(), 84 * kMiB);  // 3 x 28 MiB, the floor not added
  EXPECT_NE(budget.reason().find("3 times its files' 28 MiB, at least 16 MiB"), std::string::npos) << budget.reason();
  HeapBudget none(0);
  none.add_input(100 * kMiB);
  EXPECT_FALSE(none.exceeded());
}

}  // namespace
}  // namespace ilint
