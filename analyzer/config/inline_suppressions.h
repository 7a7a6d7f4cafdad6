// Inline suppressions: `# inductor-lint: ignore[rule-id]` on a line of the user's program that a
// finding points at, with the reason after it, as ruff reads `# noqa: E501 reason` and clang-tidy
// `// NOLINT(check)`. The comment goes in the user's source, not in generated code: output_code.py
// is rewritten on every compile, the user's line is not.
#pragma once
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "analyzer/config/config.h"
#include "analyzer/model/user_source_lines.h"
#include "analyzer/report/review_location.h"

namespace ilint {

struct InlineSuppression {
  std::vector<std::string> rules;  // rule ids, or "*" for every rule
  std::string reason;              // the text after the closing bracket; may be empty
};

// The suppression a line's comment holds: `# inductor-lint: ignore[a, b] reason` anywhere after a
// `#` (so a line that already has a `# noqa` keeps it). Spaces around the colon and the ids are
// allowed; `ignore` without brackets is no suppression (a blanket one would hide rules added later).
std::optional<InlineSuppression> parse_inline_suppression(std::string_view line);

// Moves each finding one of whose lines in the user's program (user_locations(): its location and
// related locations outside the generated files) carries a suppression of its rule out of
// `findings`, into the returned list. A line is read from the file, or from an FX comment that
// names the same path (never from one of a file of the same name elsewhere). A comment that names an
// id no rule has gets a warning in `diags` (when given), once per line and id.
std::vector<SuppressedFinding> apply_inline_suppressions(std::vector<Finding>& findings, UserSourceLines& lines,
                                                         const GeneratedFiles& generated, DiagSink* diags = nullptr);

}  // namespace ilint
