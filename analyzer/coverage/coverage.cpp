#include "analyzer/coverage/coverage.h"

#include <set>

#include "analyzer/parse/kernel_forms.h"

namespace ilint {

namespace {

std::string join(const std::vector<std::string>& v, const char* sep = ", ") {
  std::string out;
  for (size_t i = 0; i < v.size(); ++i) out += (i ? sep : "") + v[i];
  return out;
}

}  // namespace

Coverage account_coverage(const Program& program, const std::vector<RuleInfo>& rules, DiagSink& diags) {
  Coverage cov;
  cov.dynamo_logs = program.dynamo.sources.size();
  cov.compiles_logged = false;
  std::set<std::string> joined;  // compile_origin() of the compiles a Dynamo frame names
  bool compiles_logged = false;  // a log named compile ids (torchdynamo/debug.log names none)
  for (const auto& fr : program.dynamo.frames)
    for (const auto& fc : fr.compiles) {
      compiles_logged = cov.compiles_logged = true;
      joined.insert(fc.compile_dirs.begin(), fc.compile_dirs.end());
    }
  std::vector<std::string> log_rules;
  for (const auto& r : rules)
    if (r.reads & ReadsDynamoLogs) log_rules.push_back(r.id);
  if (!compiles_logged && !log_rules.empty() && !program.compiles.empty())
    diags.note("analysis-incomplete",
               "no Dynamo log with compile ids (TORCH_TRACE, TORCH_LOGS text) among the inputs: " + join(log_rules) +
                   " could not look at any compile (give the run's trace/ folder or its stderr)",
               {program.inputs.empty() ? FilePath() : FilePath(program.inputs.front()), 0, 0});
  for (const auto& c : program.compiles) {
    CompileCoverage cc;
    cc.compile_id = c.id;
    cc.origin = compile_origin(c.files);
    cc.output_code = !c.files.output_code.empty();
    cc.fx_graph = !c.fx.nodes.empty();
    cc.logs_joined = joined.count(cc.origin) > 0;
    cc.kernels = c.kernels.size();
    for (const auto& k : c.kernels) {
      KernelCoverage kc;
      kc.kernel = k.name;
      kc.body_read = k.body_loc.valid();
      kc.unmodeled_forms = unmodeled_forms(k);
      kc.parse_errors = k.parse_errors;
      if (kc.body_read && kc.unmodeled_forms.empty() && kc.parse_errors.empty()) ++cc.kernels_fully_read;
      else cc.incomplete.push_back(std::move(kc));
    }
    std::vector<std::string> missing;
    if (!cc.incomplete.empty()) {
      std::vector<std::string> what;
      for (const auto& kc : cc.incomplete) {
        std::string w = kc.kernel + (kc.body_read ? " partly read" : " not read");
        std::vector<std::string> why = kc.unmodeled_forms;
        if (!kc.parse_errors.empty()) why.push_back(std::to_string(kc.parse_errors.size()) + " parse error(s)");
        if (!why.empty()) w += " (" + join(why) + ")";
        what.push_back(w);
      }
      missing.push_back("kernel " + join(what, "; kernel "));
    }
    if (!cc.fx_graph) missing.push_back("no FX graph");
    if (compiles_logged && !cc.logs_joined) missing.push_back("no Dynamo log names this compile");
    for (const auto& r : rules) {
      bool undecided = ((r.reads & ReadsKernelBodies) && !cc.incomplete.empty()) ||
                       ((r.reads & ReadsFxGraph) && !cc.fx_graph) ||
                       ((r.reads & ReadsDynamoLogs) && compiles_logged && !cc.logs_joined);
      if (undecided) cc.undecided_rules.push_back(r.id);
    }
    if (!cc.undecided_rules.empty()) {
      SourceLoc at{c.files.output_code.empty() ? c.files.fx_json : c.files.output_code,
                   c.files.trace_output_code_line ? c.files.trace_output_code_line : 1, 0};
      diags.note("analysis-incomplete",
                 "compile " + c.id + ": " + join(missing, "; ") + "; " + join(cc.undecided_rules) +
                     " could not look at it",
                 at);
    }
    cov.compiles.push_back(std::move(cc));
  }
  return cov;
}

}  // namespace ilint
