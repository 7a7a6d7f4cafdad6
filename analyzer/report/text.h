#pragma once
#include <ostream>
#include <string>

#include "analyzer/pipeline.h"

namespace ilint {

struct TextOptions {
  bool color = false;
  bool show_diagnostics = true;
  bool show_fix = true;
  bool show_coverage = false;  // what was read of each compile, not only the summary line
};

// clang-style: `file:line:col: warning: message [rule-id]`, the generated line with a caret, an
// indented `  note:` line per note of the finding, `note:` lines for the user source and related
// places, then a summary line.
void write_text(const Analysis& a, const TextOptions& opts, std::ostream& os);

// The summary every line-oriented report ends with: "2 finding(s): 0 error, 2 warning, 0 note; 1
// suppressed[, 3 in the baseline]" (findings_summary), and its suppressed part alone.
std::string findings_summary(const Analysis& a);
std::string suppressed_summary(const Analysis& a);

}  // namespace ilint
