// The project configuration file, `.inductor-lint.json`: which rules run, at which severity, and
// which findings are suppressed (by rule + user source location, with a reason). Suppressions live
// here rather than in comments because the code the findings point at is regenerated on every
// compile (docs/config.md).
#pragma once
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "analyzer/findings.h"
#include "analyzer/pipeline.h"
#include "analyzer/util/diag.h"

namespace ilint {

struct RuleSetting {
  std::string rule;
  std::optional<bool> enabled;
  std::optional<Severity> severity;
};

struct Suppression {
  std::string rule;      // rule id, or "*" for every rule
  std::string file;      // user source file: matched against the end of the finding's path ("seed2.py", "src/seed2.py")
  int line = 0;          // 0: any line of that file
  std::string reason;    // required: why it is accepted
  SourceLoc defined_at;  // where in the config file (for diagnostics and reports)
};

struct Config {
  std::string path;                   // file it was read from; empty when none was found
  std::vector<RuleSetting> rules;
  std::vector<Suppression> suppressions;
  std::optional<std::string> fail_on; // "error" | "warning" | "note" | "never"
  bool ok = true;                     // false when the file could not be read or parsed (exit 2)
};

// Walks from `start_dir` up to the filesystem root and returns the first `.inductor-lint.json`, or
// `pyproject.toml` that has a [tool.inductor-lint] table, found (in one folder the first wins), or
// an empty string.
std::string find_config_upward(const std::string& start_dir);

// Reads a config file. Problems are reported to `diags` with the file and line; a file that cannot
// be read or is not JSON gives ok=false; unknown keys and unknown rule ids give warnings.
Config load_config(const std::string& path, DiagSink& diags);
// The same, of a config's text (`path` names it in diagnostics; a path ending in .toml is read as
// a pyproject.toml).
Config parse_config(const std::string& path, const std::string& text, DiagSink& diags);

// The config of a parsed document (the JSON file's, or the [tool.inductor-lint] table's as JSON);
// `line_of_key(key, n)` is the line of the n-th occurrence of `key` in the file, 0 when unknown.
using KeyLineFn = std::function<int(const std::string& key, int occurrence)>;
Config config_from_document(const std::string& path, const nlohmann::json& doc, const KeyLineFn& line_of_key,
                            DiagSink& diags);

// pyproject.toml (config_toml.cpp): its [tool.inductor-lint] table read as the JSON file is; a
// file without the table gives an empty config. The same keys, TOML-spelled:
//   [tool.inductor-lint]            fail_on = "warning"
//   [tool.inductor-lint.rules]      reduced-precision-scan = "error"
//   [[tool.inductor-lint.suppress]] rule = "...", location = "model/x.py:13", reason = "..."
Config parse_pyproject_config(const std::string& path, const std::string& text, DiagSink& diags);
// Does the pyproject.toml at `path` have a [tool.inductor-lint] table (false when unreadable)?
bool pyproject_has_config(const std::string& path);

// Before analysis: disabled rules go to opts.disabled_rules.
void apply_config_to_options(const Config& cfg, AnalyzeOptions& opts);

// After analysis: severity overrides, then suppressions. Suppressed findings are moved out of
// `findings` into the returned list (reports may show them as suppressed).
std::vector<SuppressedFinding> apply_config_to_findings(const Config& cfg, std::vector<Finding>& findings);

// Both steps, for callers that have the findings already (the options matter for a re-run).
std::vector<SuppressedFinding> apply_config(const Config& cfg, std::vector<Finding>& findings, AnalyzeOptions& opts);

// Does `path` name the file `pattern` ("seed2.py" or "dir/seed2.py"): equal, or ends with "/"+pattern.
bool path_matches(const std::string& path, const std::string& pattern);

}  // namespace ilint
