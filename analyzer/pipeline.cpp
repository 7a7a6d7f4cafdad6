#include "analyzer/pipeline.h"

#include <time.h>

#include <algorithm>
#include <future>
#include <memory>
#include <set>

#include "analyzer/dynamo/dynamo_model.h"
#include "analyzer/parse/build_compiles.h"
#include "analyzer/rule.h"
#include "analyzer/util/parallel.h"

namespace ilint {

namespace {

// Once every kernel is read (the C++ stage is the last reader), each gives up its copy of its source.
void drop_read_kernel_sources(Program& program, bool keep_kernel_sources) {
  for (auto& c : program.compiles)
    for (auto& k : c.kernels) drop_read_source(k, keep_kernel_sources);
}

}  // namespace

int jobs_for_input(const AnalyzeOptions& opts, size_t compiles) {
  int most = std::max(1, opts.jobs);
  if (!opts.fit_jobs_to_input) return most;
  return static_cast<int>(std::clamp<size_t>(compiles / kCompilesPerThread, 1, static_cast<size_t>(most)));
}

void run_rules(const Program& program, const AnalyzeOptions& opts, std::vector<Finding>& out, DiagSink& diags,
               int jobs, std::vector<RuleInfo>* ran) {
  register_all_rules();
  auto& reg = RuleRegistry::instance();
  std::set<std::string> only(opts.only_rules.begin(), opts.only_rules.end());
  std::set<std::string> off(opts.disabled_rules.begin(), opts.disabled_rules.end());
  for (const auto& id : only)
    if (!reg.create(id)) diags.warning("unknown-rule", reg.unknown_rule_message(id));
  std::vector<std::string> ids;
  for (const auto& id : reg.ids())
    if ((only.empty() || only.count(id)) && !off.count(id)) ids.push_back(id);
  // Rules only read the model: they run side by side, each into its own list, and the lists are
  // joined in registry order, so the findings are the same at any -j.
  if (ran)
    for (const auto& id : ids) ran->push_back(reg.create(id)->info());
  std::vector<std::vector<Finding>> found(ids.size());
  if (jobs <= 0) jobs = jobs_for_input(opts, program.compiles.size());
  parallel_for(ids.size(), jobs, [&](size_t i) { reg.create(ids[i])->check(program, found[i]); });
  for (size_t i = 0; i < ids.size(); ++i)
    for (auto& f : found[i]) {
      f.rule = ids[i];
      out.push_back(std::move(f));
    }
  finalize_findings(out);
}

namespace {
double now_wall() {
  timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return static_cast<double>(ts.tv_sec) + 1e-9 * static_cast<double>(ts.tv_nsec);
}
double now_cpu() {
  timespec ts;
  clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
  return static_cast<double>(ts.tv_sec) + 1e-9 * static_cast<double>(ts.tv_nsec);
}
}  // namespace

StageClock::StageClock() : wall0_(now_wall()), cpu0_(now_cpu()) {}
StageTime StageClock::stop(std::string stage) const {
  return StageTime{std::move(stage), now_wall() - wall0_, now_cpu() - cpu0_};
}

void analyze(const AnalyzeOptions& opts, Analysis& out) {
  std::unique_ptr<StageClock> clock;
  std::string current;
  auto stage = [&](const std::string& s, const std::string& label) {
    if (clock) out.times.push_back(clock->stop(current));
    if (s.empty()) return;
    if (opts.on_stage) opts.on_stage(s);
    current = label;
    clock = std::make_unique<StageClock>();
  };
  out.program.inputs = opts.paths;
  stage("reading inputs", "ingest");
  // A folder is walked before its size is known: fitted, the walk takes a second thread only
  // once a listing has many folders waiting.
  out.ingest = ingest_paths(opts.paths, out.diags, opts.jobs, opts.fit_jobs_to_input ? 2 * kCompilesPerThread : 0);
  const int jobs = out.jobs_used = jobs_for_input(opts, out.ingest.compiles.size());
  stage("parsing " + std::to_string(out.ingest.compiles.size()) + " compiles", "parse compiles");
  std::vector<CppKernelJob> cpp_kernels;
  const ParseOptions parse_options{opts.keep_kernel_sources, opts.max_kernel_bytes, opts.max_memory_ratio,
                                   !out.ingest.trace_logs.empty()};
  out.files_read =
      build_compiles(out.ingest, out.program, out.diags, jobs, &cpp_kernels, parse_options);
  // The C++ kernels the hand reader declined (it read the others with their compile).
  stage("reading " + std::to_string(cpp_kernels.size()) + " C++ kernels", "C++ kernels");
  // The Dynamo logs need only the ingest. With two threads or more, while C++ kernels are read
  // they are read on a thread of their own: on one capture of a CPU model that stage is mostly
  // loading Clang, one thread's work. Not beside the compiles: on a Triton capture reading the
  // logs is the longest stage, and a third thread only slowed it (docs/performance.md, 'Threads
  // fitted to the input'). What is read, and so the model, is the same either way; only the
  // order diagnostics are reported in differs, and every output sorts them.
  std::future<std::shared_ptr<DynamoLogs>> logs_read;
  bool has_logs = !out.ingest.torch_logs.empty() || !out.ingest.trace_logs.empty() || !out.ingest.dynamo_debug_logs.empty();
  if (opts.jobs >= 2 && has_logs && !cpp_kernels.empty() && cpp_kernel_reader())
    logs_read = std::async(std::launch::async, [&] { return read_dynamo_logs(out.ingest, out.diags); });
  read_cpp_kernels_with_reader(cpp_kernels, out.diags, jobs);
  drop_read_kernel_sources(out.program, opts.keep_kernel_sources);
  stage("reading Dynamo logs", "Dynamo logs");
  std::shared_ptr<DynamoLogs> logs = logs_read.valid() ? logs_read.get() : read_dynamo_logs(out.ingest, out.diags);
  // A TORCH_TRACE given without its compile folders is a whole input: the compiles its payloads
  // hold are read as a folder's files are, before the logs' compiles are joined to the model's.
  std::vector<TraceCompileSource> from_trace = take_unread_trace_compiles(*logs, out.program, out.diags);
  if (size_t n = from_trace.size()) {
    stage("reading " + std::to_string(n) + " compiles from TORCH_TRACE", "trace compiles");
    out.files_read += build_trace_compiles(std::move(from_trace), out.program, out.diags,
                                           jobs_for_input(opts, out.ingest.compiles.size() + n), parse_options);
    drop_read_kernel_sources(out.program, opts.keep_kernel_sources);
    stage("joining Dynamo logs", "Dynamo logs");
  }
  out.files_read += build_dynamo_model(out.ingest, *logs, out.program, out.diags);
  stage("running rules", "rules");
  std::vector<RuleInfo> ran;
  run_rules(out.program, opts, out.findings, out.diags, jobs, &ran);
  out.coverage = account_coverage(out.program, ran, out.diags);
  stage("", "");
}

}  // namespace ilint
