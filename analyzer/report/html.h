// The interactive report: one self-contained HTML file (no network: inline CSS and script, a
// Content-Security-Policy that forbids every fetch). The model and findings are embedded as JSON
// in <script type="application/json"> blocks (one for the whole but the compiles, one per
// compile: html.cpp, write_report_data), escaped so no text in them can close a block, and the
// page builds its DOM with textContent only: kernel names and sources are untrusted text.
#pragma once
#include <ostream>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "analyzer/config/config.h"
#include "analyzer/pipeline.h"
#include "analyzer/report/rule_docs.h"
#include "analyzer/util/version.h"

namespace ilint {

struct HtmlOptions {
  std::string title = "inductor-lint report";
  std::string tool_version = kToolVersion;
  std::vector<RuleDoc> rules;                                  // empty: rule_catalog()
  const std::vector<SuppressedFinding>* suppressed = nullptr;  // listed as suppressed
  bool read_user_sources = true;  // embed the text of user source lines the findings point at
  // Folders whose files may be quoted (canonical paths: the inputs and --source-root). A user source
  // the logs name elsewhere (a log can name any path, ~/.ssh/id_rsa too) is not read: the page shows
  // the FX comment's copy of the line, if any, and says why the file was not quoted. Empty: any file.
  std::vector<std::string> quotable_roots;
};

// The data the page renders, as one document (exposed for tests: the page's blocks put back
// together are this).
nlohmann::json html_report_data(const Analysis& analysis, const HtmlOptions& opts);

// JSON text made safe inside <script type="application/json">: <, >, & and U+2028/U+2029 become
// \u escapes (JSON.parse reads them back unchanged).
std::string escape_json_for_script(const std::string& json_text);

void write_html(const Analysis& analysis, std::ostream& out, const HtmlOptions& opts = {});

}  // namespace ilint
