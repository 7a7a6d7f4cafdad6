// SARIF output: structure, schema validation against the official SARIF 2.1.0 JSON schema, and
// fingerprints that survive a re-compile.
#include <gtest/gtest.h>

#include <algorithm>
#include <regex>
#include <set>

#include "analyzer/pipeline.h"
#include "analyzer/report/sarif.h"
#include "report_test_util.h"

using namespace ilint;
using namespace ilint_test;
using nlohmann::json;

namespace {

std::vector<RuleInfo> all_rule_infos() {
  std::vector<RuleInfo> out;
  for (const auto& d : rule_catalog()) out.push_back(d.info);
  return out;
}

json sarif_of(const Analysis& a, const SarifOptions& opts = {}) {
  std::ostringstream ss;
  write_sarif(a, all_rule_infos(), ss, opts);
  return json::parse(ss.str());
}

// Runs the schema validator on a SARIF document; "" when valid, else its report.
std::string schema_errors(const json& doc, const TempDir& dir, const std::string& name) {
  fs::path file = dir.path / name;
  write_file(file, doc.dump(2));
  auto r = run_cmd("node " + shell_quote(browser_dir() + "/validate-sarif.mjs") + " " + shell_quote(file.string()) + " 2>&1");
  return r.exit_code == 0 ? "" : ("exit " + std::to_string(r.exit_code) + ": " + r.output);
}

}  // namespace

TEST(ReportSarif, ArtifactLocationsAreUriReferences) {
  json rel = sarif_artifact_location("fixtures/s2 cuda/output_code.py", "/repo");
  EXPECT_EQ(rel["uri"], "fixtures/s2%20cuda/output_code.py");
  EXPECT_EQ(rel["uriBaseId"], "%SRCROOT%");
  json under = sarif_artifact_location("/repo/src/a.py", "/repo");
  EXPECT_EQ(under["uri"], "src/a.py");
  json outside = sarif_artifact_location("/tmp/x/y#1.py", "/repo");
  EXPECT_EQ(outside["uri"], "file:///tmp/x/y%231.py");
  EXPECT_FALSE(outside.contains("uriBaseId"));
  EXPECT_EQ(sarif_artifact_location("./a/../b.py", "/repo")["uri"], "b.py");
}

// Needs the reduced-precision-scan rule and the output_code.py parser (landing on main).
TEST(ReportSarif, S2CudaHasRulesResultsAndFingerprints) {
  auto ap = analyze_paths({fixture("s2_cuda")});
  Analysis& a = *ap;
  ASSERT_FALSE(a.findings.empty()) << "s2_cuda gives no finding: needs the reduced-precision-scan rule from main";
  json doc = sarif_of(a);
  ASSERT_EQ(doc["version"], "2.1.0");
  const json& run = doc["runs"][0];
  const json& rules = run["tool"]["driver"]["rules"];
  ASSERT_TRUE(rules.is_array());
  std::set<std::string> ids;
  for (const auto& r : rules) {
    ids.insert(r["id"].get<std::string>());
    EXPECT_FALSE(r["shortDescription"]["text"].get<std::string>().empty()) << r["id"];
    EXPECT_FALSE(r["fullDescription"]["text"].get<std::string>().empty()) << r["id"];
    EXPECT_FALSE(r["help"]["markdown"].get<std::string>().empty()) << r["id"];
    EXPECT_TRUE(r["defaultConfiguration"]["level"].is_string());
    EXPECT_TRUE(r["properties"]["tags"].is_array());
  }
  EXPECT_TRUE(ids.count("reduced-precision-scan"));
  const json& results = run["results"];
  ASSERT_EQ(results.size(), a.findings.size());
  for (size_t i = 0; i < results.size(); ++i) {
    const json& r = results[i];
    const Finding& f = a.findings[i];
    EXPECT_EQ(r["ruleId"], f.rule);
    size_t idx = r["ruleIndex"].get<size_t>();
    ASSERT_LT(idx, rules.size());
    EXPECT_EQ(rules[idx]["id"], f.rule);
    EXPECT_EQ(r["level"], severity_name(f.severity));
    std::string text = f.message;
    for (const auto& n : f.notes) text += "\n" + n;
    EXPECT_EQ(r["message"]["text"], text);  // the headline first: code scanning's title
    EXPECT_FALSE(f.notes.empty());
    EXPECT_EQ(r["partialFingerprints"]["inductorLint/v1"], f.fingerprint);
    // The primary location is the user's line; the generated line is the last related location.
    ASSERT_FALSE(r["locations"].empty());
    ASSERT_FALSE(f.related.empty());
    const json& pl = r["locations"][0]["physicalLocation"];
    EXPECT_EQ(pl["region"]["startLine"], f.related[0].loc.line);
    EXPECT_NE(pl["artifactLocation"]["uri"].get<std::string>().find("seed2.py"), std::string::npos);
    size_t valid_related = std::count_if(f.related.begin(), f.related.end(), [](auto& x) { return x.loc.valid(); });
    ASSERT_EQ(r["relatedLocations"].size(), valid_related);  // the others, and the generated line
    const json& generated = r["relatedLocations"].back();
    EXPECT_EQ(generated["physicalLocation"]["region"]["startLine"], f.location.line);
    EXPECT_NE(generated["physicalLocation"]["artifactLocation"]["uri"].get<std::string>().find("output_code.py"),
              std::string::npos);
    EXPECT_EQ(generated["physicalLocation"]["artifactLocation"]["uriBaseId"], "RUN0");
    EXPECT_NE(generated["message"]["text"].get<std::string>().find(f.kernel), std::string::npos);
    // The user source -> kernel path as a code flow.
    EXPECT_GE(r["codeFlows"][0]["threadFlows"][0]["locations"].size(), 2u);
  }
}

TEST(ReportSarif, S2CudaValidatesAgainstTheSarifSchema) {
  std::string missing = node_helpers_missing(false);
  if (!missing.empty()) GTEST_SKIP() << missing;
  auto ap = analyze_paths({fixture("s2_cuda")});
  Analysis& a = *ap;
  ASSERT_FALSE(a.findings.empty()) << "s2_cuda gives no finding: needs the reduced-precision-scan rule from main";
  TempDir dir;
  EXPECT_EQ(schema_errors(sarif_of(a), dir, "s2_cuda.sarif"), "");
}

TEST(ReportSarif, SuppressionsAndInputDiagnosticsValidate) {
  std::string missing = node_helpers_missing(false);
  if (!missing.empty()) GTEST_SKIP() << missing;
  TempDir dir;
  // A folder with nothing readable: diagnostics become toolExecutionNotifications.
  fs::create_directories(dir.path / "empty");
  write_file(dir.path / "empty" / "output_code.py", "this is not python (\n");
  auto ap = analyze_paths({(dir.path / "empty").string(), (dir.path / "missing").string()});
  Analysis& a = *ap;
  ASSERT_GT(a.diags.size(), 0u);
  auto s2p = analyze_paths({fixture("s2_cuda")});
  Analysis& s2 = *s2p;
  std::vector<SuppressedFinding> suppressed;
  for (const auto& f : s2.findings) suppressed.push_back({f, "accepted: fixed upstream", {"/repo/.inductor-lint.json", 4, 0}});
  SarifOptions opts;
  opts.suppressed = &suppressed;
  json doc = sarif_of(a, opts);
  const json& inv = doc["runs"][0]["invocations"][0];
  EXPECT_FALSE(inv["executionSuccessful"].get<bool>());
  EXPECT_FALSE(inv["toolExecutionNotifications"].empty());
  for (const auto& r : doc["runs"][0]["results"]) EXPECT_EQ(r["suppressions"][0]["kind"], "external");
  EXPECT_EQ(doc["runs"][0]["results"].size(), suppressed.size());
  EXPECT_EQ(schema_errors(doc, dir, "diags.sarif"), "");
}

TEST(ReportSarif, TheValidatorRejectsABrokenLog) {
  // The schema check must be able to fail: a result without a message is invalid SARIF.
  std::string missing = node_helpers_missing(false);
  if (!missing.empty()) GTEST_SKIP() << missing;
  TempDir dir;
  Analysis none;
  json doc = sarif_of(none);
  doc["runs"][0]["results"] = json::array({{{"ruleId", "x"}, {"level", "fatal"}}});
  EXPECT_NE(schema_errors(doc, dir, "broken.sarif"), "");
}

// A re-compile renames kernels (triton_..._0 -> _5), renumbers buffers (buf0 -> buf7) and shifts
// lines of output_code.py. Done here on a copy of the real s2_cuda capture, consistently in every
// file of it, as a re-capture would. Fingerprints must not move.
TEST(ReportSarif, FingerprintsSurviveARecompile) {
  TempDir dir;
  std::string copy = copy_fixture("s2_cuda", dir);
  static const std::regex kernel_re(R"(\b((?:triton|cpp)_(?:per|poi|red|tem|spl)?_?fused_\w*?_)(\d+)\b)");
  static const std::regex buf_re(R"(\bbuf(\d+)\b)");
  auto renumber = [](const std::string& text, const std::regex& re, int group_prefix, int add) {
    std::string out;
    auto begin = std::sregex_iterator(text.begin(), text.end(), re);
    size_t last = 0;
    for (auto it = begin; it != std::sregex_iterator(); ++it) {
      const auto& m = *it;
      out.append(text, last, m.position(0) - last);
      std::string prefix = group_prefix ? m[1].str() : "buf";
      int n = std::stoi(m[group_prefix ? 2 : 1].str());
      out += prefix + std::to_string(n + add);
      last = m.position(0) + m.length(0);
    }
    out.append(text, last, std::string::npos);
    return out;
  };
  int files_changed = 0;
  for (auto& e : fs::recursive_directory_iterator(copy)) {
    if (!e.is_regular_file()) continue;
    std::string text = read_file(e.path());
    std::string t = renumber(text, kernel_re, 1, 5);
    t = renumber(t, buf_re, 0, 7);
    if (e.path().filename() == "output_code.py") {
      auto nl = t.find('\n');  // after the "# AOT ID" header line
      t.insert(nl + 1, "# re-captured\n\n\n\n\n");
    }
    if (t != text) {
      write_file(e.path(), t);
      ++files_changed;
    }
  }
  ASSERT_GT(files_changed, 0);
  auto beforep = analyze_paths({fixture("s2_cuda")});
  auto afterp = analyze_paths({copy});
  Analysis& before = *beforep;
  Analysis& after = *afterp;
  ASSERT_FALSE(before.findings.empty()) << "s2_cuda gives no finding: needs the reduced-precision-scan rule from main";
  ASSERT_EQ(before.findings.size(), after.findings.size());
  std::multiset<std::pair<std::string, std::string>> fa, fb;
  std::set<std::string> kernels_before, kernels_after;
  std::set<int> lines_before, lines_after;
  for (const auto& f : before.findings) {
    fb.insert({f.rule, f.fingerprint});
    kernels_before.insert(f.kernel);
    lines_before.insert(f.location.line);
  }
  for (const auto& f : after.findings) {
    fa.insert({f.rule, f.fingerprint});
    kernels_after.insert(f.kernel);
    lines_after.insert(f.location.line);
  }
  // The copy really is different where a naive fingerprint would look ...
  EXPECT_NE(kernels_before, kernels_after);
  EXPECT_NE(lines_before, lines_after);
  // ... and the fingerprints are the same.
  EXPECT_EQ(fb, fa);
  for (const auto& f : before.findings) EXPECT_EQ(f.fingerprint.size(), 16u);
}

// Two captures of one program (other run folders, timestamps and pids; made one after the other
// with tools/capture.py, torch 2.13 CPU) give the same results: code scanning keys an alert on its
// path, line and fingerprints, so a result that changed with the run folder would close every alert
// and open a new one on each run. Only the run's metadata (originalUriBaseIds) differs.
TEST(ReportSarif, TwoCapturesOfOneProgramGiveTheSameResults) {
  for (const char* program : {"s2_pair", "stale_pair"}) {
    auto a = analyze_paths({fixture(std::string(program) + "_a_t213")});
    auto b = analyze_paths({fixture(std::string(program) + "_b_t213")});
    ASSERT_FALSE(a->findings.empty()) << program;
    json da = sarif_of(*a), db = sarif_of(*b);
    const json& ra = da["runs"][0]["results"];
    EXPECT_EQ(ra.size(), a->findings.size()) << program;
    EXPECT_EQ(ra, db["runs"][0]["results"]) << program << "\n" << ra.dump(1).substr(0, 3000) << "\n"
                                            << db["runs"][0]["results"].dump(1).substr(0, 3000);
    // The captures are two runs: their run folders, written once in the run's metadata, differ.
    EXPECT_NE(da["runs"][0]["originalUriBaseIds"]["RUN0"], db["runs"][0]["originalUriBaseIds"]["RUN0"]) << program;
    for (const auto& r : ra) {
      std::string uri = r["locations"][0]["physicalLocation"]["artifactLocation"]["uri"];
      EXPECT_NE(uri.find(".py"), std::string::npos) << uri;
      EXPECT_EQ(uri.find("output_code"), std::string::npos) << "the primary location is the user's line: " << uri;
    }
  }
}

// Every rule's fullDescription is its doc's "What it detects" section, whole (it ended mid-sentence
// when it was the first paragraph before a list), and helpUri points at the doc page.
TEST(ReportSarif, RuleDescriptionsAreWholeAndLinkTheirDoc) {
  auto a = analyze_paths({fixture("s2_cuda")});
  json doc = sarif_of(*a);
  for (const auto& r : doc["runs"][0]["tool"]["driver"]["rules"]) {
    std::string id = r["id"], full = r["fullDescription"]["text"];
    ASSERT_FALSE(full.empty()) << id;
    EXPECT_NE(std::string(".)`").find(full.back()), std::string::npos) << id << " ends mid-sentence: ..." << full.substr(full.size() > 80 ? full.size() - 80 : 0);
    std::string uri = r["helpUri"];
    EXPECT_EQ(uri.rfind("file://", 0), 0u) << uri;
    EXPECT_TRUE(fs::is_regular_file(uri.substr(7))) << uri;
    EXPECT_NE(uri.find("/rules/" + id + ".md"), std::string::npos) << uri;
  }
}
