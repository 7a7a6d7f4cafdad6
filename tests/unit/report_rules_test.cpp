// Rule docs for SARIF help and `inductor-lint rules`.
#include <gtest/gtest.h>

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
