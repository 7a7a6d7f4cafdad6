// The HTML report: self-contained, data embedded as escaped JSON, and untrusted text stays text.
// The page itself is exercised in a real browser by report_browser_test.cpp.
#include <gtest/gtest.h>

#include <regex>

#include "analyzer/report/html.h"
#include "report_adversarial.h"
#include "report_test_util.h"

using namespace ilint;
using namespace ilint_test;
using nlohmann::json;

namespace {
std::string html_of(const Analysis& a, const HtmlOptions& o = {}) {
  std::ostringstream ss;
  write_html(a, ss, o);
  return ss.str();
}
// The JSON between <script type="application/json" id="report-data"> and </script>.
std::string embedded_json(const std::string& html) {
  std::string open = "<script type=\"application/json\" id=\"report-data\">";
  auto b = html.find(open);
  if (b == std::string::npos) return {};
  b += open.size();
  auto e = html.find("</script>", b);
  return html.substr(b, e - b);
}
// The texts of the page's compile blocks (<script type="application/json" class="report-compile">), in order.
std::vector<std::string> compile_blocks(const std::string& html) {
  const std::string open = "<script type=\"application/json\" class=\"report-compile\">";
  std::vector<std::string> out;
  for (size_t b = html.find(open); b != std::string::npos; b = html.find(open, b)) {
    b += open.size();
    auto e = html.find("</script>", b);
    out.push_back(html.substr(b, e - b));
  }
  return out;
}
// The page's data put back together as html_report_data's document: report-data without its
// compile_index, the compile blocks as "compiles".
json page_data(const std::string& html) {
  json data = json::parse(embedded_json(html));
  data.erase("compile_index");
  data["compiles"] = json::array();
  for (const auto& block : compile_blocks(html)) data["compiles"].push_back(json::parse(block));
  return data;
}
size_t count_of(const std::string& s, const std::string& needle) {
  size_t n = 0;
  for (size_t p = s.find(needle); p != std::string::npos; p = s.find(needle, p + 1)) ++n;
  return n;
}
}  // namespace

TEST(ReportHtml, EscapesEverythingThatCouldCloseTheScriptBlock) {
  std::string in = json("</script><!-- & \xE2\x80\xA8 \xE2\x80\xA9 >").dump(-1, ' ', false);
  std::string out = escape_json_for_script(in);
  EXPECT_EQ(out.find('<'), std::string::npos);
  EXPECT_EQ(out.find('>'), std::string::npos);
  EXPECT_EQ(out.find('&'), std::string::npos);
  EXPECT_EQ(out.find("\xE2\x80\xA8"), std::string::npos);
  EXPECT_EQ(out.find("\xE2\x80\xA9"), std::string::npos);
  // JSON reads the escapes back as the same text.
  EXPECT_EQ(json::parse(out).get<std::string>(), "</script><!-- & \xE2\x80\xA8 \xE2\x80\xA9 >");
}

TEST(ReportHtml, SelfContainedPageWithTheModelOfS2Cuda) {
  auto a = analyze_paths({fixture("s2_cuda")});
  std::string html = html_of(*a);
  // No network: nothing is loaded from anywhere, and the CSP forbids it anyway.
  EXPECT_EQ(count_of(html, "<script"), 2u + a->program.compiles.size());  // data, a block per compile, code
  EXPECT_EQ(html.find("src="), std::string::npos);
  EXPECT_EQ(html.find("href="), std::string::npos);
  EXPECT_EQ(html.find("http://"), html.find("http://www.w3.org/2000/svg"));  // only the SVG namespace name
  EXPECT_EQ(html.find("https://"), std::string::npos);
  EXPECT_NE(html.find("default-src 'none'"), std::string::npos);
  // The embedded data is the model.
  json data = page_data(html);
  ASSERT_EQ(data["compiles"].size(), a->program.compiles.size());
  ASSERT_FALSE(a->program.compiles.empty()) << "s2_cuda gives no compile: needs the output_code.py parser from main";
  size_t kernels = 0;
  for (const auto& c : a->program.compiles) kernels += c.kernels.size();
  size_t kernels_in_page = 0;
  for (const auto& c : data["compiles"]) kernels_in_page += c["kernels"].size();
  EXPECT_EQ(kernels_in_page, kernels);
  EXPECT_GT(kernels, 0u);
  EXPECT_EQ(data["findings"].size(), a->findings.size());
  // Every finding about a kernel links to it, and its line lies in that kernel's source.
  for (const auto& f : data["findings"]) {
    if (f["kernel"].get<std::string>().empty()) continue;
    ASSERT_TRUE(f.contains("kernel_ref")) << f["kernel"];
    for (const auto& c : data["compiles"])
      for (const auto& k : c["kernels"])
        if (c["id"] == f["kernel_ref"]["compile"] && k["name"] == f["kernel_ref"]["kernel"]) {
          int first = k["source_first_line"], n = k["source_lines"], line = f["location"]["line"];
          EXPECT_GE(line, first);
          EXPECT_LT(line, first + n);
        }
  }
}

TEST(ReportHtml, AdversarialCaptureStaysText) {
  TempDir dir;
  auto a = adversarial_s2_cuda(dir);
  ASSERT_TRUE(a) << "needs the output_code.py parser from main";
  const std::string evil_name = kEvilKernelName, evil_src = kEvilSource;
  std::string html = html_of(*a);
  EXPECT_EQ(count_of(html, "<script"), 2u + a->program.compiles.size());
  EXPECT_EQ(count_of(html, "</script>"), 2u + a->program.compiles.size());
  EXPECT_EQ(html.find("</textarea>"), std::string::npos);
  EXPECT_EQ(html.find("<img"), std::string::npos);
  json data = page_data(html);
  bool name_kept = false, source_kept = false;
  for (const auto& c : data["compiles"])
    for (const auto& k : c["kernels"]) {
      name_kept |= k["name"].get<std::string>().rfind(evil_name, 0) == 0;
      source_kept |= k["source"].get<std::string>().find(evil_src) != std::string::npos;
    }
  EXPECT_TRUE(name_kept);
  EXPECT_TRUE(source_kept) << "the edited kernel source should reach the page unchanged (as text)";
}

// write_html writes the data in pieces (report-data, then a block per compile; the whole
// document of a large capture held 2.9 GB, and its one text passed the longest string a browser
// makes). Put back together, the pieces are html_report_data's document; each block is that
// compile's JSON with the same invalid-UTF-8 replacement and escaping; the index matches the
// compiles. Checked on captures with several compiles, findings, suppressed findings, none, and
// the adversarial one.
TEST(ReportHtml, DataBlocksMakeTheDocument) {
  auto check = [](const Analysis& a, const HtmlOptions& o, const std::string& what) {
    std::string html = html_of(a, o);
    json whole = html_report_data(a, o);
    EXPECT_EQ(page_data(html), whole) << what;
    std::vector<std::string> blocks = compile_blocks(html);
    ASSERT_EQ(blocks.size(), whole["compiles"].size()) << what;
    json index = json::parse(embedded_json(html))["compile_index"];
    ASSERT_EQ(index.size(), blocks.size()) << what;
    for (size_t i = 0; i < blocks.size(); ++i) {
      const json& c = whole["compiles"][i];
      EXPECT_EQ(blocks[i], escape_json_for_script(c.dump(-1, ' ', false, json::error_handler_t::replace))) << what;
      EXPECT_EQ(index[i]["id"], c["id"]) << what;
      EXPECT_EQ(index[i]["kernels"], c["kernels"].size()) << what;
      EXPECT_EQ(index[i]["fx"], c["fx"].size()) << what;
      EXPECT_EQ(index[i]["buffers"], c["buffers"]) << what;
      EXPECT_EQ(index[i]["launches"], c["launches"]) << what;
    }
  };
  for (const char* name : {"s2_cuda", "stale_clamp", "s1_cpu", "clean_resnet", "mut_cast_bf16"}) {
    auto a = analyze_paths({fixture(name)});
    ASSERT_FALSE(a->program.compiles.empty()) << name;
    HtmlOptions o;
    o.title = "t</script>";
    std::vector<SuppressedFinding> suppressed;
    if (!a->findings.empty()) suppressed.push_back({a->findings.front(), "a reason", SourceLoc{"cfg.json", 3, 0}});
    o.suppressed = &suppressed;
    check(*a, o, name);
    Analysis none;  // no compile at all: an empty index and no block
    none.findings = a->findings;
    check(none, o, std::string(name) + " without compiles");
  }
  TempDir dir;
  auto evil = adversarial_s2_cuda(dir);
  ASSERT_TRUE(evil);
  check(*evil, {}, "adversarial");
}

// A log can name any path as the user's source. Built from s2_cuda: every mention of its user file
// (/work/steering/probe/seed2.py, in the FX dumps and the trace) is replaced by a file in a folder that
// is neither an input nor the source root, whose line 13 holds a marker. The page must not carry the
// marker and must say why the line was not quoted; with --source-root naming that folder it quotes it.
TEST(ReportHtml, QuotesUserSourcesOnlyUnderTheInputsAndTheSourceRoot) {
  TempDir t;
  fs::create_directories(t.path / "secret");
  fs::create_directories(t.path / "cwd");
  std::string secret = (t.path / "secret" / "seed2.py").string();
  std::string body;
  for (int i = 1; i < 30; ++i) body += i == 13 ? "SECRET_MARKER = 1\n" : "# line " + std::to_string(i) + "\n";
  write_file(secret, body);
  fs::copy(fixture("s2_cuda"), t.path / "cap", fs::copy_options::recursive);
  size_t rewritten = 0;
  for (auto& e : fs::recursive_directory_iterator(t.path / "cap")) {
    if (!e.is_regular_file()) continue;
    std::string text = read_file(e.path());
    size_t n = 0;
    for (size_t at; (at = text.find("/work/steering/probe/seed2.py")) != std::string::npos; ++n)
      text.replace(at, std::strlen("/work/steering/probe/seed2.py"), secret);
    if (n) write_file(e.path(), text), ++rewritten;
  }
  ASSERT_GT(rewritten, 0u);
  const std::string run = "cd " + (t.path / "cwd").string() + " && " + std::string(ILINT_BINARY) + " " + (t.path / "cap").string() +
                          " --format html --fail-on never -o r.html";
  ASSERT_EQ(run_cmd(run).exit_code, 0);
  std::string page = read_file(t.path / "cwd" / "r.html");
  EXPECT_EQ(page.find("SECRET_MARKER"), std::string::npos);
  EXPECT_NE(page.find("the file is outside the inputs and --source-root"), std::string::npos);
  ASSERT_EQ(run_cmd(run + " --source-root " + (t.path / "secret").string()).exit_code, 0);
  EXPECT_NE(read_file(t.path / "cwd" / "r.html").find("SECRET_MARKER"), std::string::npos);
}
