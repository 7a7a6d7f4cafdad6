#pragma once
#include <ostream>

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

}  // namespace ilint
