// Rule docs for SARIF help and `inductor-lint rules`.
#include <gtest/gtest.h>

#include <map>
#include <sstream>

#include "analyzer/report/rule_docs.h"
#include "report_test_util.h"

using namespace ilint;
using namespace ilint_test;

TEST(ReportRules, FirstParagraphSkipsTitlesTablesAndMetadata) {
  EXPECT_EQ(first_paragraph("# t\n\n| a | b |\n|---|---|\n\n## What\nA scan\nin bf16.\n\nMore."), "A scan in bf16.");
  EXPECT_EQ(first_paragraph("---\nid: x\n---\n# t\nid: x\nseverity: warning\n\nBody here.\n"), "Body here.");
  EXPECT_EQ(first_paragraph("```\ncode\n```\nText."), "Text.");
  EXPECT_EQ(first_paragraph(""), "");
}

TEST(ReportRules, CatalogHasEveryRuleWithItsDoc) {
  auto cat = rule_catalog();
  ASSERT_FALSE(cat.empty());
  bool seen = false;
  for (const auto& d : cat) {
    EXPECT_FALSE(d.info.id.empty());
    if (d.info.id != "reduced-precision-scan") continue;
    seen = true;
    EXPECT_FALSE(d.doc_path.empty()) << "rules/reduced-precision-scan.md not found";
    EXPECT_NE(d.markdown.find("## What it detects"), std::string::npos);
    EXPECT_NE(d.full_description.find("cumulative reduction"), std::string::npos) << d.full_description;
  }
  EXPECT_TRUE(seen);
}

TEST(ReportRules, CliListsRulesAndPrintsADoc) {
  std::string bin = shell_quote(binary());
  auto list = run_cmd(bin + " rules 2>&1");
  EXPECT_EQ(list.exit_code, 0) << list.output;
  EXPECT_NE(list.output.find("reduced-precision-scan (warning"), std::string::npos) << list.output;
  EXPECT_EQ(list.output.find("(not found)"), std::string::npos) << list.output;
  auto one = run_cmd(bin + " rules reduced-precision-scan 2>&1");
  EXPECT_EQ(one.exit_code, 0);
  EXPECT_NE(one.output.find("## What it detects"), std::string::npos) << one.output;
  EXPECT_EQ(run_cmd(bin + " rules no-such-rule 2>&1").exit_code, 2);
}

// The registry's RuleInfo is the one source of a rule's metadata: `rules`, SARIF and the HTML report
// take it from there, and the table at the top of each rule's doc page must say the same (id,
// default severity, precision, tags, experimental status).
TEST(ReportRules, EveryDocTableAgreesWithTheRegistry) {
  auto cat = rule_catalog();
  ASSERT_GE(cat.size(), 8u);
  for (const auto& d : cat) {
    ASSERT_FALSE(d.markdown.empty()) << d.info.id;
    std::map<std::string, std::string> row;  // the table's `| key | value |` rows
    std::istringstream in(d.markdown);
    for (std::string line; std::getline(in, line);) {
      if (line.rfind("## ", 0) == 0) break;
      if (line.rfind("| ", 0) != 0) continue;
      size_t bar = line.find(" | ", 2);
      if (bar == std::string::npos || line.size() < bar + 5) continue;
      row[line.substr(2, bar - 2)] = line.substr(bar + 3, line.size() - bar - 5);
    }
    const RuleInfo& i = d.info;
    EXPECT_EQ(row["id"], "`" + i.id + "`") << d.doc_path;
    EXPECT_EQ(row["severity"].substr(0, row["severity"].find(' ')), severity_name(i.default_severity)) << d.doc_path;
    EXPECT_EQ(row["precision"], i.precision) << d.doc_path;
    std::string tags;
    for (const auto& t : i.tags) tags += (tags.empty() ? "" : ", ") + t;
    EXPECT_EQ(row["tags"], tags) << d.doc_path;
    EXPECT_EQ(row["status"].find("experimental") != std::string::npos, i.experimental) << d.doc_path;
  }
}
