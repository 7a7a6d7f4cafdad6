// The HTML report in a real browser: Debian's headless chromium driven by playwright-core
// (tests/browser/report-check.mjs). Screenshots of the s2_cuda and s1_cuda reports are left in
// build/screenshots/ for a person to look at.
#include <gtest/gtest.h>

#include <set>

#include "analyzer/confirm/confirm.h"
#include "analyzer/localize/localize.h"
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
  // Its forward and backward findings map to one user line: one group. Each of its two compiles
  // links output_code.py, fx_graph_readable.py and fx_graph_runnable.py.
  EXPECT_EQ(res[0]["finding_groups"], 1);
  EXPECT_EQ(res[0]["raw_file_links"], 3 * s2->program.compiles.size());

  // s1_cuda: frames, graph breaks and recompiles; the page must render them (or its empty states)
  // without a console error.
  auto res1 = check_in_browser({p1.string()}, "", rc, raw);
  ASSERT_EQ(res1.size(), 1u) << raw;
  EXPECT_EQ(rc, 0) << raw;
  EXPECT_TRUE(res1[0]["problems"].empty()) << res1[0].dump(2);
  EXPECT_TRUE(fs::exists(res1[0]["shot"].get<std::string>()));
}

TEST(ReportBrowser, LocalizationDrawsOneChartPerCompileAndMarksTheFirstLaunch) {
  std::string missing = node_helpers_missing(true);
  if (!missing.empty()) GTEST_SKIP() << missing;
  fs::create_directories(screenshots_dir());
  // Recorded answers of tools/localize.py on an H100 (tests/gpu/results/): s2_cuda's two compiles
  // depart as precision artifacts, mut_foreach_flip's foreach kernel is divergent.
  auto a = analyze_paths({fixture("s2_cuda"), fixture("mut_foreach_flip")});
  json rec = json::array();
  for (const char* f : {"localize_s2_cuda__model__0_forward_1.0.json", "localize_s2_cuda__model__0_backward_3.1.json",
                        "localize_mut_foreach_flip__model__0_inference_0.0.json"})
    rec.push_back(json::parse(read_file(source_dir() + "/tests/gpu/results/" + f)));
  ASSERT_EQ(attach_recorded_localizations(*a, rec, a->diags), 3u);
  fs::path p = fs::path(screenshots_dir()) / "report_localize.html";
  write_report(*a, p, "inductor-lint: localize");
  int rc = -1;
  std::string raw;
  auto res = check_in_browser({p.string()}, "--expect-finding --expect-text " + shell_quote("model__0_inference_0.0: divergent"),
                              rc, raw);
  ASSERT_EQ(res.size(), 1u) << raw;
  EXPECT_EQ(rc, 0) << raw;
  EXPECT_TRUE(res[0]["problems"].empty()) << res[0].dump(2);
  EXPECT_EQ(res[0]["localize_charts"], 3);
  EXPECT_EQ(res[0]["localize_marks"], 3);
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

// A report of many compiles (past the page's 200, each compile a closed <details> whose data is
// parsed when it is opened): the findings still show their kernel's source, and opening a compile
// shows its kernels. The page used to build every kernel table at once, and on 8,004 captures had
// not loaded after 30 s.
TEST(ReportBrowser, ManyCompilesAreClosedUntilOpened) {
  std::string missing = node_helpers_missing(true);
  if (!missing.empty()) GTEST_SKIP() << missing;
  TempDir dir;
  fs::path src;
  for (auto& e : fs::recursive_directory_iterator(fixture("s2_cuda")))
    if (e.is_directory() && e.path().filename().string().rfind("model__", 0) == 0) src = e.path();
  ASSERT_FALSE(src.empty());
  const int copies = 210;
  fs::create_directories(dir.path / "torchinductor");
  for (int i = 0; i < copies; ++i)
    fs::copy(src, dir.path / "torchinductor" / ("model__" + std::to_string(i) + "_forward_1.0"), fs::copy_options::recursive);
  auto a = analyze_paths({dir.path.string()});
  ASSERT_EQ(a->program.compiles.size(), size_t(copies));
  ASSERT_FALSE(a->findings.empty());
  fs::create_directories(screenshots_dir());
  fs::path p = fs::path(screenshots_dir()) / "report_many_compiles.html";
  write_report(*a, p, "inductor-lint: 210 compiles");
  // A screenshot of the first screen (the whole page is very tall), for a person to look at: the
  // findings come first, one group of 12 and the row that opens the rest.
  std::string cmd = "node " + shell_quote(browser_dir() + "/report-check.mjs") + " --expect-finding --open-compile --shots " +
                    shell_quote(screenshots_dir()) + " --viewport-shot " + shell_quote(p.string()) + " 2>&1";
  auto r = run_cmd(cmd);
  ASSERT_EQ(r.exit_code, 0) << r.output;
  json res = json::parse(r.output.substr(r.output.find('{')), nullptr, false);
  ASSERT_FALSE(res.is_discarded()) << r.output;
  EXPECT_TRUE(res["problems"].empty()) << res.dump(2);
  EXPECT_EQ(res["compile_blocks"], copies);
  EXPECT_EQ(res["compile_details"], copies);
  // One user line, 210 findings: its group shows 12 and opens the rest on a click.
  EXPECT_EQ(res["finding_groups"], 1);
  EXPECT_EQ(res["findings"], 12);
  EXPECT_EQ(res["more_rows"], 1);
  EXPECT_EQ(res["findings_after_more"].get<size_t>(), a->findings.size());
  EXPECT_GT(res["kernel_source_lines"].get<int>(), 5);
  EXPECT_GT(res["opened_kernel_source_lines"].get<int>(), 5);
}

// The confirmation chart reads the answer as a reader wants it: per output, eager's and compiled's
// error against float64 (graph mode, recorded on an H100: s2_cuda's forward), per call how far
// compiled left eager (script mode, recorded on an H100: stale_clamp, whose calls 3-6 diverge), not
// one bar per number of the answer.
TEST(ReportBrowser, ConfirmationChartShowsEagerAndCompiledPerOutput) {
  std::string missing = node_helpers_missing(true);
  if (!missing.empty()) GTEST_SKIP() << missing;
  fs::create_directories(screenshots_dir());
  struct Case {
    std::string fixture, answer, page;
    size_t expected_bars;
  };
  json fwd = json::parse(read_file(source_dir() + "/tests/gpu/results/confirm_s2_cuda_fwd.json"));
  std::set<std::string> outputs;
  for (const auto& s : fwd["seeds"])
    for (const auto& o : s["outputs"])
      if (o.contains("eager_vs_fp64")) outputs.insert(o.value("role", "output") + std::to_string(o["index"].get<int>()));
  json script = json::parse(read_file(source_dir() + "/tests/gpu/results/confirm_stale_clamp_script.json"));
  size_t call_bars = 0;
  for (const auto& c : script["calls"]) call_bars += c.contains("inductor") + c.contains("aot_eager");
  const Case cases[] = {{"s2_cuda", "/tests/gpu/results/confirm_s2_cuda_fwd.json", "report_confirm_graph.html", 2 * outputs.size()},
                        {"stale_clamp", "/tests/gpu/results/confirm_stale_clamp_script.json", "report_confirm_script.html", call_bars}};
  for (const auto& c : cases) {
    auto a = analyze_paths({fixture(c.fixture)});
    json answer = json::parse(read_file(source_dir() + c.answer));
    // A script answer names no compile: it is given to the finding of its rule, by fingerprint.
    if (!answer.contains("compile_dir") || !answer["compile_dir"].is_string())
      for (const auto& f : a->findings)
        if (f.rule == answer["finding"]["rule"]) answer["fingerprint"] = f.fingerprint;
    ASSERT_GE(attach_recorded(*a, json::array({answer}), a->diags), 1u) << c.fixture;
    fs::path p = fs::path(screenshots_dir()) / c.page;
    write_report(*a, p, "inductor-lint: " + c.page);
    int rc = -1;
    std::string raw;
    // stale_clamp's finding is about a frame, not a kernel: no kernel link is expected there.
    auto res = check_in_browser({p.string()}, c.fixture == "s2_cuda" ? "--expect-finding" : "", rc, raw);
    ASSERT_EQ(res.size(), 1u) << raw;
    EXPECT_TRUE(res[0]["problems"].empty()) << res[0].dump(2);
    EXPECT_GT(c.expected_bars, 0u);
    EXPECT_EQ(res[0]["confirmation_bars"].get<size_t>(), c.expected_bars) << c.fixture;
    std::string labels = res[0]["confirmation_labels"].dump();
    EXPECT_NE(labels.find(c.page == "report_confirm_graph.html" ? "eager vs fp64" : "compiled vs eager"), std::string::npos) << labels;
  }
}
