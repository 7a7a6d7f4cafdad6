// The HTML report in a real browser: Debian's headless chromium driven by playwright-core
// (tests/browser/report-check.mjs). Screenshots of the s2_cuda and s1_cuda reports are left in
// build/screenshots/ for a person to look at.
#include <gtest/gtest.h>

#include "analyzer/report/html.h"
#include "report_adversarial.h"
#include "report_test_util.h"

using namespace ilint;
using namespace ilint_test;
using nlohmann::json;

namespace {

std::string screenshots_dir() {
  // ILINT_BINARY is build/inductor-lint: screenshots go beside it.
  return (fs::path(binary()).parent_path() / "screenshots").string();
}

void write_report(const Analysis& a, const fs::path& out, const std::string& title) {
  std::ofstream f(out, std::ios::binary);
  HtmlOptions o;
  o.title = title;
  write_html(a, f, o);
}

// One JSON line per report from report-check.mjs.
std::vector<json> check_in_browser(const std::vector<std::string>& files, const std::string& extra, int& exit_code,
                                   std::string& raw) {
  std::string cmd = "node " + shell_quote(browser_dir() + "/report-check.mjs") + " --shots " + shell_quote(screenshots_dir()) +
                    " " + extra;
  for (const auto& f : files) cmd += " " + shell_quote(f);
  auto r = run_cmd(cmd + " 2>&1");
  exit_code = r.exit_code;
  raw = r.output;
  std::vector<json> out;
  std::istringstream in(r.output);
  std::string line;
  while (std::getline(in, line))
    if (!line.empty() && line[0] == '{') out.push_back(json::parse(line, nullptr, false));
  return out;
}

}  // namespace

TEST(ReportBrowser, S2AndS1ReportsRenderAndShowKernelSource) {
  std::string missing = node_helpers_missing(true);
  if (!missing.empty()) GTEST_SKIP() << missing;
  fs::create_directories(screenshots_dir());
  auto s2 = analyze_paths({fixture("s2_cuda")});
  auto s1 = analyze_paths({fixture("s1_cuda")});
  ASSERT_FALSE(s2->findings.empty()) << "s2_cuda gives no finding: needs the reduced-precision-scan rule from main";
  fs::path p2 = fs::path(screenshots_dir()) / "report_s2_cuda.html";
  fs::path p1 = fs::path(screenshots_dir()) / "report_s1_cuda.html";
  write_report(*s2, p2, "inductor-lint: s2_cuda");
  write_report(*s1, p1, "inductor-lint: s1_cuda");

  int rc = -1;
  std::string raw;
  auto res = check_in_browser({p2.string()}, "--expect-finding --expect-text reduced-precision-scan", rc, raw);
  ASSERT_EQ(res.size(), 1u) << raw;
  EXPECT_EQ(rc, 0) << raw;
  EXPECT_TRUE(res[0]["problems"].empty()) << res[0].dump(2);
  EXPECT_EQ(res[0]["findings"].get<size_t>(), s2->findings.size());
  EXPECT_GT(res[0]["kernel_source_lines"].get<int>(), 5);
  EXPECT_TRUE(fs::exists(res[0]["shot"].get<std::string>()));

  // s1_cuda: frames, graph breaks and recompiles; the page must render them (or its empty states)
  // without a console error.
  auto res1 = check_in_browser({p1.string()}, "", rc, raw);
  ASSERT_EQ(res1.size(), 1u) << raw;
  EXPECT_EQ(rc, 0) << raw;
  EXPECT_TRUE(res1[0]["problems"].empty()) << res1[0].dump(2);
  EXPECT_TRUE(fs::exists(res1[0]["shot"].get<std::string>()));
}

TEST(ReportBrowser, AdversarialCaptureRendersAsText) {
  std::string missing = node_helpers_missing(true);
  if (!missing.empty()) GTEST_SKIP() << missing;
  TempDir dir;
  auto a = adversarial_s2_cuda(dir);
  ASSERT_TRUE(a) << "needs the output_code.py parser from main";
  fs::create_directories(screenshots_dir());
  fs::path p = fs::path(screenshots_dir()) / "report_adversarial.html";
  write_report(*a, p, std::string("adversarial ") + kEvilKernelName);
  int rc = -1;
  std::string raw;
  // The markup must show as text (the kernel name in the kernel table, the source comment in the
  // kernel view) and never become elements; any alert() would open a dialog, which fails the check.
  auto res = check_in_browser({p.string()},
                              std::string("--expect-text ") + shell_quote(kEvilKernelName) + " --forbid-text img --forbid-text textarea --forbid-text b",
                              rc, raw);
  ASSERT_EQ(res.size(), 1u) << raw;
  EXPECT_EQ(rc, 0) << raw;
  EXPECT_TRUE(res[0]["problems"].empty()) << res[0].dump(2);
}
