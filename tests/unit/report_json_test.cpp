// --format json: the streamed document (write_json, member by member, arrays on threads) is
// the same bytes as the whole document built and dumped at once (analysis_json).
#include <gtest/gtest.h>

#include <sstream>

#include "analyzer/report/json.h"
#include "test_util.h"

using namespace ilint;
using namespace ilint::testing;

namespace {

std::string dom_dump(const Analysis& a) {
  return analysis_json(a).dump(2, ' ', false, nlohmann::json::error_handler_t::replace) + "\n";
}

std::string streamed(const Analysis& a, int jobs) {
  std::ostringstream os;
  write_json(a, os, jobs);
  return os.str();
}

}  // namespace

TEST(ReportJson, StreamedEqualsTheWholeDocumentOnEveryFixture) {
  // Every fixture at once (real findings with related locations and evidence, compiles,
  // diagnostics), the findings repeated past one group of 64 and one window of 16 groups at 1
  // thread, and a group left part full.
  std::vector<std::string> paths;
  for (auto& e : std::filesystem::directory_iterator(ILINT_FIXTURES_DIR))
    if (e.is_directory()) paths.push_back(e.path().string());
  std::sort(paths.begin(), paths.end());
  Analysis a;
  run_analysis(paths, a);
  ASSERT_FALSE(a.findings.empty());
  const std::vector<Finding> real = a.findings;
  while (a.findings.size() < 64u * 16u + 5u) a.findings.insert(a.findings.end(), real.begin(), real.end());
  ASSERT_GT(a.program.compiles.size(), 64u) << "the compiles array fits one group";
  a.diags.warning("test-diag", "made by the test", SourceLoc{"x.py", 3, 1});
  const std::string want = dom_dump(a);
  EXPECT_EQ(streamed(a, 1), want);
  EXPECT_EQ(streamed(a, 3), want);
}

TEST(ReportJson, StreamedEqualsTheWholeDocumentWhenEmptyOrOdd) {
  Analysis empty;
  EXPECT_EQ(streamed(empty, 2), dom_dump(empty));
  // One of each array, a message with invalid UTF-8 (replaced, not thrown), quotes and newlines.
  Analysis a;
  {
    Finding f;
    f.rule = "some-rule";
    f.message = std::string("bad \xff byte, \"quoted\"\nsecond line");
    f.location = SourceLoc{"out\xfe.py", 7, 2};
    f.related.push_back({SourceLoc{"user.py", 1, 0}, "user source"});
    f.evidence = {{"nested", {{"list", {1, 2, 3}}, {"empty", nlohmann::json::object()}}}};
    a.findings.push_back(f);
  }
  a.diags.error("bad-input", "line\twith tab", SourceLoc{"in.log", 9, 0});
  a.program.inputs.push_back("some/path");
  EXPECT_EQ(streamed(a, 1), dom_dump(a));
  EXPECT_EQ(streamed(a, 4), dom_dump(a));
}
