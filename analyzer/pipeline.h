// The one-way flow: ingest -> parse -> model -> rules -> findings. (Confirmation and reports
// come after, in analyzer/confirm and analyzer/report.)
#pragma once
#include <functional>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "analyzer/coverage/coverage.h"
#include "analyzer/findings.h"
#include "analyzer/ingest/ingest.h"
#include "analyzer/localize/localization.h"
#include "analyzer/model/program.h"
#include "analyzer/parse/output_code.h"
#include "analyzer/util/diag.h"

namespace ilint {

struct AnalyzeOptions {
  std::vector<std::string> paths;
  int jobs = 1;                         // threads (ingest, parsers, rules): at most this many
  // When true, `jobs` is an upper bound and each stage takes fewer threads on a small input (the
  // CLI's default, -j auto): below ~64 compile folders, one. A debug dir holds 1 to 12, and a second
  // thread pays from about 60-80 (docs/performance.md, 'Threads fitted to the input'). False: `jobs` threads.
  bool fit_jobs_to_input = false;
  std::vector<std::string> only_rules;  // empty: every registered rule
  std::vector<std::string> disabled_rules;
  // Kernel source texts stay in the model (Compile::source_of) only when a report shows them
  // (HTML): every rule reads the parsed facts, and the texts are a fifth of output_code.py's bytes.
  bool keep_kernel_sources = true;
  // A kernel whose source is longer is not read (parse_output_code); 0: no limit.
  size_t max_kernel_bytes = kDefaultMaxKernelBytes;
  size_t max_memory_ratio = kDefaultMaxMemoryRatio;  // ParseOptions::max_memory_ratio
  // Called as each stage starts ("reading inputs", "parsing 12 compiles", ...), for a progress line.
  std::function<void(const std::string& stage)> on_stage;
};

// The threads the stages after ingest take on an input of `compiles` compile folders: opts.jobs,
// or with opts.fit_jobs_to_input one per kCompilesPerThread compiles (at least one, at most jobs).
constexpr size_t kCompilesPerThread = 32;
int jobs_for_input(const AnalyzeOptions& opts, size_t compiles);

// Time spent in one stage of the pipeline (--time-report).
struct StageTime {
  std::string stage;
  double wall_seconds = 0;
  double cpu_seconds = 0;  // user + system time of the whole process (all threads) in the stage
};

struct Analysis {
  IngestResult ingest;
  Program program;
  DiagSink diags;
  std::vector<Finding> findings;
  Coverage coverage;       // what was read of each compile, against the rules that ran
  size_t files_read = 0;   // files that parsed into the model (0: nothing could be read -> exit 2)
  int jobs_used = 1;       // threads the parallel stages after ingest took (reports written after take as many)
  std::vector<StageTime> times;
  std::vector<Localization> localizations;  // `localize` / `confirm --localize`: one per compile localized
  // The suppression step after the analysis (the CLI's): findings the config or an inline comment
  // moved out of `findings`, and how many more the baseline held (dropped, only counted).
  std::vector<SuppressedFinding> suppressed;
  size_t in_baseline = 0;
};

// Wall and process CPU time of a piece of work, for StageTime.
class StageClock {
 public:
  StageClock();
  StageTime stop(std::string stage) const;

 private:
  double wall0_, cpu0_;
};

// Runs the rules over the model, side by side on `jobs` threads (0: jobs_for_input(opts, the
// program's compiles); analyze() passes the count its other stages took).
// With `ran`, the rules run are appended to it.
void run_rules(const Program& program, const AnalyzeOptions& opts, std::vector<Finding>& out, DiagSink& diags,
               int jobs = 0, std::vector<RuleInfo>* ran = nullptr);

// The whole flow.
void analyze(const AnalyzeOptions& opts, Analysis& out);

}  // namespace ilint
