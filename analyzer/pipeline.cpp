#include "analyzer/pipeline.h"

#include <algorithm>
#include <set>

#include "analyzer/rule.h"

namespace ilint {

void run_rules(const Program& program, const AnalyzeOptions& opts, std::vector<Finding>& out, DiagSink& diags) {
  register_all_rules();
  auto& reg = RuleRegistry::instance();
  std::set<std::string> only(opts.only_rules.begin(), opts.only_rules.end());
  std::set<std::string> off(opts.disabled_rules.begin(), opts.disabled_rules.end());
  for (const auto& id : only)
    if (!reg.create(id)) diags.warning("unknown-rule", "no rule named '" + id + "'");
  for (const auto& id : reg.ids()) {
    if (!only.empty() && !only.count(id)) continue;
    if (off.count(id)) continue;
    auto rule = reg.create(id);
    std::vector<Finding> found;
    rule->check(program, found);
    for (auto& f : found) {
      f.rule = id;
      out.push_back(std::move(f));
    }
  }
  finalize_findings(out);
}

void analyze(const AnalyzeOptions& opts, Analysis& out) {
  auto stage = [&](const std::string& s) {
    if (opts.on_stage) opts.on_stage(s);
  };
  out.program.inputs = opts.paths;
  stage("reading inputs");
  out.ingest = ingest_paths(opts.paths, out.diags);
  stage("parsing " + std::to_string(out.ingest.compiles.size()) + " compiles");
  out.files_read = build_compiles(out.ingest, out.program, out.diags, opts.jobs);
  stage("reading Dynamo logs");
  out.files_read += build_dynamo_model(out.ingest, out.program, out.diags);
  stage("running rules");
  run_rules(out.program, opts, out.findings, out.diags);
}

}  // namespace ilint
