// The test binary uses gtest_main, so the Clang readers are installed by a global test
// environment (the test-side twin of the CLI's `install_optional_readers()` call).
#include <gtest/gtest.h>

#ifdef ILINT_HAVE_CLANG
#include "analyzer/cpp/clang/clang_reader.h"
#include "analyzer/pipeline.h"

namespace {
struct ClangReaders : ::testing::Environment {
  void SetUp() override { ilint::install_optional_readers(); }
};
const ::testing::Environment* const kClangReaders = ::testing::AddGlobalTestEnvironment(new ClangReaders);
}  // namespace

TEST(ClangInstall, KernelReaderIsInstalled) { EXPECT_TRUE(static_cast<bool>(ilint::cpp_kernel_reader())); }
#endif
