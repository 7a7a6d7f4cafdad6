// The rule interface. One rule per class, one class per file under rules/, each with a doc page
// rules/<id>.md, registered by id in rules/all_rules.cpp (as clang-tidy modules register checks).
// A rule reads the model (Program) and reports findings; it never reads raw files.
#pragma once
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "analyzer/findings.h"
#include "analyzer/model/program.h"

namespace ilint {

// The parts of the model a rule reads (RuleInfo::reads): where a compile lacks one, the rule could
// not decide there, and the coverage account says so.
enum RuleReads : unsigned {
  ReadsKernelBodies = 1,  // kernels' statements, accesses, casts, reductions
  ReadsFxGraph = 2,       // the compile's FX graph (user lines, dtypes of the nodes)
  ReadsDynamoLogs = 4,    // frames, guards, recompiles (TORCH_TRACE, TORCH_LOGS)
};

struct RuleInfo {
  std::string id;                 // "reduced-precision-scan"
  std::string name;               // "Reduced-precision cumulative reduction"
  Severity default_severity = Severity::Warning;
  std::string precision;          // very-high | high | medium | low (CodeQL convention)
  std::vector<std::string> tags;  // "correctness", "precision", "performance"
  std::string short_description;  // one line
  std::string doc_file;           // "rules/reduced-precision-scan.md", relative to the repo
  bool experimental = false;      // no real positive capture yet
  unsigned reads = 0;             // RuleReads
};

class Rule {
 public:
  virtual ~Rule() = default;
  virtual const RuleInfo& info() const = 0;
  // Appends findings. `severity` in each finding defaults to info().default_severity;
  // rules may lower it (e.g. to a note) when the evidence is weaker.
  virtual void check(const Program& program, std::vector<Finding>& out) const = 0;
};

using RuleFactory = std::function<std::unique_ptr<Rule>()>;

class RuleRegistry {
 public:
  static RuleRegistry& instance();
  void add(const std::string& id, RuleFactory factory);
  std::vector<std::string> ids() const;  // sorted
  std::unique_ptr<Rule> create(const std::string& id) const;
  // "no rule named 'x'", with the closest registered id when one is near (a typo), as ruff and
  // clang-tidy answer an unknown rule or check name.
  std::string unknown_rule_message(const std::string& id) const;

 private:
  std::vector<std::pair<std::string, RuleFactory>> factories_;
};

// Defined in rules/all_rules.cpp: registers every rule of the project, once.
void register_all_rules();

}  // namespace ilint
