// Baselines: write, load, filter; the CLI round trip with exit codes.
#include <gtest/gtest.h>

#include "analyzer/report/baseline.h"
#include "report_test_util.h"

using namespace ilint;
using namespace ilint_test;

namespace {
Finding finding(const std::string& rule, const std::string& fp) {
  Finding f;
  f.rule = rule;
  f.fingerprint = fp;
  f.message = "m " + fp;
  return f;
}
}  // namespace

TEST(ReportBaseline, WriteLoadFilterRoundTrip) {
  TempDir dir;
  std::vector<Finding> fs{finding("a", "1"), finding("a", "2"), finding("b", "1"), finding("a", "2")};
  std::ostringstream ss;
  write_baseline(fs, ss);
  write_file(dir.path / "b.json", ss.str());
  DiagSink diags;
  Baseline b = load_baseline((dir.path / "b.json").string(), diags);
  ASSERT_TRUE(b.ok);
  EXPECT_EQ(diags.size(), 0u);
  EXPECT_EQ(b.entries.size(), 3u);  // ("a","2") twice is one entry with count 2
  EXPECT_TRUE(filter_new(fs, b).empty());
  // A third finding with an accepted fingerprint is new; so is one with the same fingerprint
  // under another rule.
  auto more = fs;
  more.push_back(finding("a", "2"));
  more.push_back(finding("c", "1"));
  auto fresh = filter_new(more, b);
  ASSERT_EQ(fresh.size(), 2u);
  EXPECT_EQ(fresh[0].rule, "a");
  EXPECT_EQ(fresh[1].rule, "c");
}

TEST(ReportBaseline, BadFilesAreDiagnosedWithFileAndLine) {
  TempDir dir;
  write_file(dir.path / "broken.json", "{\n  \"tool\": \"inductor-lint\",\n  \"findings\": [\n    {,\n");
  DiagSink d1;
  Baseline b1 = load_baseline((dir.path / "broken.json").string(), d1);
  EXPECT_FALSE(b1.ok);
  ASSERT_EQ(d1.size(), 1u);
  EXPECT_EQ(d1.sorted()[0].loc.file, (dir.path / "broken.json").string());
  EXPECT_EQ(d1.sorted()[0].loc.line, 4);

  write_file(dir.path / "other.json", "{\"version\": 1, \"runs\": []}");
  DiagSink d2;
  EXPECT_FALSE(load_baseline((dir.path / "other.json").string(), d2).ok);
  EXPECT_EQ(d2.sorted()[0].code, "baseline-format");

  DiagSink d3;
  EXPECT_FALSE(load_baseline((dir.path / "nope.json").string(), d3).ok);
  EXPECT_EQ(d3.sorted()[0].code, "baseline-unreadable");
}

// Members of other types: nlohmann's value() threw type_error on them and aborted the analyzer.
TEST(ReportBaseline, MembersOfOtherTypesAreDiagnosedNotThrown) {
  TempDir dir;
  write_file(dir.path / "version.json", "{\"tool\": \"inductor-lint\", \"version\": \"x\", \"findings\": []}");
  DiagSink d1;
  EXPECT_FALSE(load_baseline((dir.path / "version.json").string(), d1).ok);
  ASSERT_EQ(d1.size(), 1u);
  EXPECT_EQ(d1.sorted()[0].code, "baseline-format");
  EXPECT_NE(d1.sorted()[0].message.find("\"x\""), std::string::npos);

  // A version past int's range is no version 1 (a float cast to int was undefined behaviour).
  write_file(dir.path / "huge.json", "{\"tool\": 5, \"version\": 1e300, \"findings\": []}");
  DiagSink d2;
  EXPECT_FALSE(load_baseline((dir.path / "huge.json").string(), d2).ok);

  // out_of_range, not parse_error, from nlohmann (fuzz_user_files): a baseline-parse error.
  write_file(dir.path / "overflow.json", "{\"tool\": \"inductor-lint\",\n\"version\": -1e999, \"findings\": []}");
  DiagSink over;
  EXPECT_FALSE(load_baseline((dir.path / "overflow.json").string(), over).ok);
  ASSERT_EQ(over.size(), 1u);
  EXPECT_EQ(over.sorted()[0].code, "baseline-parse");
  EXPECT_EQ(over.sorted()[0].loc.line, 2);

  write_file(dir.path / "entries.json",
             "{\"tool\": \"inductor-lint\", \"version\": 1, \"findings\": ["
             "{\"rule\": \"a\", \"fingerprint\": \"f1\", \"count\": \"many\", \"message\": 5, \"user_location\": []},"
             "{\"rule\": \"b\", \"fingerprint\": \"f2\", \"count\": 3}]}");
  DiagSink d3;
  Baseline b = load_baseline((dir.path / "entries.json").string(), d3);
  ASSERT_TRUE(b.ok);
  ASSERT_EQ(b.entries.size(), 2u);
  EXPECT_EQ(b.entries[0].count, 1);
  EXPECT_EQ(b.entries[0].message, "");
  EXPECT_EQ(b.entries[0].user_loc, "");
  EXPECT_EQ(b.entries[1].count, 3);
  ASSERT_EQ(d3.size(), 1u);
  EXPECT_EQ(d3.sorted()[0].code, "baseline-entry");
  EXPECT_NE(d3.sorted()[0].message.find("count"), std::string::npos);
}

// A count past int's range was "not an integer" and a count of 0 or below silently 1: the first is the
// largest count now, the second an entry that stands for nothing, each said.
TEST(ReportBaseline, CountsOutOfRangeAreSaidAsWhatTheyAre) {
  TempDir dir;
  write_file(dir.path / "counts.json",
             "{\"tool\": \"inductor-lint\", \"version\": 1, \"findings\": ["
             "{\"rule\": \"a\", \"fingerprint\": \"f1\", \"count\": 2147483648},"
             "{\"rule\": \"b\", \"fingerprint\": \"f2\", \"count\": 0},"
             "{\"rule\": \"c\", \"fingerprint\": \"f3\", \"count\": -5},"
             "{\"rule\": \"d\", \"fingerprint\": \"f4\", \"count\": 2}]}");
  DiagSink d;
  Baseline b = load_baseline((dir.path / "counts.json").string(), d);
  ASSERT_TRUE(b.ok);
  ASSERT_EQ(b.entries.size(), 2u);
  EXPECT_EQ(b.entries[0].count, 2147483647);
  EXPECT_EQ(b.entries[1].rule, "d");
  EXPECT_EQ(b.entries[1].count, 2);
  auto ds = d.sorted();
  ASSERT_EQ(ds.size(), 3u);
  std::string all;
  for (const auto& x : ds) all += x.message + "\n";
  EXPECT_NE(all.find("of 2147483648, past the largest (taken as 2147483647)"), std::string::npos) << all;
  EXPECT_NE(all.find("of 0: an entry stands for at least one finding (ignored)"), std::string::npos) << all;
  EXPECT_NE(all.find("of -5: an entry stands"), std::string::npos) << all;
  EXPECT_EQ(all.find("not an integer"), std::string::npos) << all;
}

TEST(ReportBaseline, RealFindingsRoundTrip) {
  auto a = analyze_paths({fixture("s2_cuda")});
  ASSERT_FALSE(a->findings.empty()) << "s2_cuda gives no finding: needs the reduced-precision-scan rule from main";
  TempDir dir;
  std::ostringstream ss;
  write_baseline(a->findings, ss);
  write_file(dir.path / "b.json", ss.str());
  DiagSink diags;
  Baseline b = load_baseline((dir.path / "b.json").string(), diags);
  ASSERT_TRUE(b.ok);
  auto again = analyze_paths({fixture("s2_cuda")});
  EXPECT_TRUE(filter_new(again->findings, b).empty());
  auto more = analyze_paths({fixture("s2_cuda"), fixture("prec_cumsum_bf16")});
  EXPECT_FALSE(filter_new(more->findings, b).empty());
}

// The CLI: write a baseline on s2_cuda; re-run against it: nothing new, exit 0; add a capture
// with another finding (prec_cumsum_bf16): exit 1. Needs --baseline/--write-baseline in main.cpp.
TEST(ReportBaseline, CliRoundTripExitCodes) {
  TempDir dir;
  std::string bl = (dir.path / "baseline.json").string();
  std::string bin = shell_quote(binary());
  auto w = run_cmd(bin + " --write-baseline " + shell_quote(bl) + " --fail-on never " + shell_quote(fixture("s2_cuda")) + " 2>&1");
  ASSERT_EQ(w.exit_code, 0) << w.output;
  ASSERT_TRUE(fs::exists(bl)) << w.output;
  auto plain = run_cmd(bin + " " + shell_quote(fixture("s2_cuda")) + " >/dev/null 2>&1");
  EXPECT_EQ(plain.exit_code, 1) << "s2_cuda has warnings: the default --fail-on warning exits 1";
  auto same = run_cmd(bin + " --baseline " + shell_quote(bl) + " " + shell_quote(fixture("s2_cuda")) + " 2>&1");
  EXPECT_EQ(same.exit_code, 0) << same.output;
  auto more = run_cmd(bin + " --baseline " + shell_quote(bl) + " " + shell_quote(fixture("s2_cuda")) + " " +
                      shell_quote(fixture("prec_cumsum_bf16")) + " 2>&1");
  EXPECT_EQ(more.exit_code, 1) << more.output;
  EXPECT_NE(more.output.find("prec_cumsum"), std::string::npos) << more.output;
  // A broken baseline is an input error: exit 2.
  write_file(dir.path / "bad.json", "not json");
  auto bad = run_cmd(bin + " --baseline " + shell_quote((dir.path / "bad.json").string()) + " " +
                     shell_quote(fixture("s2_cuda")) + " 2>&1");
  EXPECT_EQ(bad.exit_code, 2) << bad.output;
  EXPECT_NE(bad.output.find("bad.json"), std::string::npos) << bad.output;
}
