// SARIF 2.1.0 output, the subset GitHub code scanning reads (docs/sarif.md).
#pragma once
#include <ostream>
#include <string>
#include <vector>

#include "analyzer/util/version.h"
#include "analyzer/config/config.h"
#include "analyzer/pipeline.h"
#include "analyzer/report/rule_docs.h"
#include "analyzer/rule.h"

namespace ilint {

struct SarifOptions {
  std::string tool_version = kToolVersion;
  // Paths under this directory are written relative to it, with uriBaseId "%SRCROOT%". Default:
  // the working directory.
  std::string source_root;
  const std::vector<SuppressedFinding>* suppressed = nullptr;  // written with result.suppressions
};

// `rules`: every rule that ran (ruleIndex points into it); their doc pages are loaded for `help`.
void write_sarif(const Analysis& analysis, const std::vector<RuleInfo>& rules, std::ostream& out,
                 const SarifOptions& opts = {});
// Same, with doc pages already loaded.
void write_sarif(const Analysis& analysis, const std::vector<RuleDoc>& rules, std::ostream& out,
                 const SarifOptions& opts = {});

// A path as a SARIF artifactLocation: relative to `root` when under it (with uriBaseId), an
// absolute file:// URI otherwise; characters outside RFC 3986's unreserved set and '/' are
// percent-encoded. Exposed for tests.
nlohmann::json sarif_artifact_location(const std::string& path, const std::string& root);

}  // namespace ilint
