// Rule metadata for reports: the registry's RuleInfo plus the rule's doc page (rules/<id>.md),
// which SARIF embeds as `help` and `inductor-lint rules` prints.
#pragma once
#include <string>
#include <vector>

#include "analyzer/rule.h"

namespace ilint {

struct RuleDoc {
  RuleInfo info;
  std::string markdown;          // the whole doc page; empty when it could not be found
  std::string doc_path;          // where it was read from (empty when not found)
  // The page's "What it detects" section as plain text (paragraphs, list items on lines of their
  // own), else its first paragraph, else the short description: whole sentences, never cut.
  std::string full_description;
  // Where the page can be read: ILINT_DOCS_URL (a CMake option) + "<id>.md" when the build sets
  // it, else the file:// URI of the page found.
  std::string help_uri;
};

// Every registered rule (register_all_rules() is called), sorted by id, with its doc page.
// Doc pages are the binary's companion files rules/<id>.md (analyzer/util/install_layout.h): the
// installed copy's, else the source tree's it was built from.
std::vector<RuleDoc> rule_catalog();

// The doc of one RuleInfo, found as above.
RuleDoc load_rule_doc(const RuleInfo& info);

// First paragraph of a markdown page that is not a heading, a front-matter block or a list of
// `key: value` metadata lines. Exposed for tests.
std::string first_paragraph(const std::string& markdown);
// The "## What it detects" section as RuleDoc::full_description holds it; empty when absent.
std::string detects_section(const std::string& markdown);

}  // namespace ilint
