// Baselines: the findings a project has accepted for now. `--write-baseline FILE` records the
// current findings by fingerprint; `--baseline FILE` then reports only findings whose fingerprint
// is not in it. Fingerprints are content-based (rule + user source file:line + the rule's own key),
// so a re-compile that renames kernels or renumbers buffers does not make old findings look new.
#pragma once
#include <ostream>
#include <string>
#include <vector>

#include "analyzer/findings.h"
#include "analyzer/util/diag.h"

namespace ilint {

struct BaselineEntry {
  std::string rule;
  std::string fingerprint;
  std::string message;   // for a person reading the file; not used to match
  std::string user_loc;  // "seed2.py:12", for a person reading the file
  int count = 1;         // how many findings had this fingerprint when the baseline was written
};

struct Baseline {
  std::string path;
  std::vector<BaselineEntry> entries;
  bool ok = true;  // false when the file could not be read or is not a baseline (exit 2)
};

constexpr int kBaselineFormatVersion = 1;

Baseline load_baseline(const std::string& path, DiagSink& diags);
// The same, of a baseline's text (`path` names it in diagnostics).
Baseline parse_baseline(const std::string& path, const std::string& text, DiagSink& diags);

// Findings not accounted for by the baseline. Matching is by (rule, fingerprint), with counts:
// a baseline entry with count 2 absorbs two findings of that fingerprint, and a third is new.
std::vector<Finding> filter_new(const std::vector<Finding>& findings, const Baseline& baseline);

// Writes the baseline JSON for `findings` (deterministic: sorted by rule, fingerprint).
void write_baseline(const std::vector<Finding>& findings, std::ostream& out);

}  // namespace ilint
