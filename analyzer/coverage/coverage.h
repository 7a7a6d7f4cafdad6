// The coverage account: what was read of each compile, and which rules could therefore not look at
// part of it. Every report carries it, so that "no finding" is only said over what was read; a
// compile with something unread also gets an `analysis-incomplete` note.
#pragma once
#include <string>
#include <vector>

#include "analyzer/model/program.h"
#include "analyzer/rule.h"
#include "analyzer/util/diag.h"

namespace ilint {

struct KernelCoverage {
  std::string kernel;
  std::vector<std::string> unmodeled_forms;  // forms no reader models (kernel_forms.h)
  std::vector<std::string> parse_errors;     // what its reader could not understand
  bool body_read = true;                     // false: only its signature was read
};

struct CompileCoverage {
  std::string compile_id;
  std::string origin;          // compile_origin(): its folder, or the log and line of its output code
  bool output_code = false;    // its output code was read
  size_t kernels = 0;
  size_t kernels_fully_read = 0;
  std::vector<KernelCoverage> incomplete;  // kernels partly read or not read
  bool fx_graph = false;       // an FX graph (fx_graph_readable.py, an AOT graph payload, FX JSON) was read
  bool logs_joined = false;    // a Dynamo log names this compile (its frame, guards, recompiles)
  std::vector<std::string> undecided_rules;  // rules run that could not look at part of it
  bool complete() const { return undecided_rules.empty(); }
};

struct Coverage {
  std::vector<CompileCoverage> compiles;
  size_t dynamo_logs = 0;  // Dynamo logs read (TORCH_TRACE, TORCH_LOGS text, debug.log)
  bool compiles_logged = false;  // one of them names compile ids (debug.log names none)
};

// Accounts for every compile of `program` against the rules that ran (`rules`), and adds an
// `analysis-incomplete` note for each compile where one of them could not look at something (and
// one for the whole input when it holds no Dynamo log while a rule that reads them ran).
Coverage account_coverage(const Program& program, const std::vector<RuleInfo>& rules, DiagSink& diags);

}  // namespace ilint
