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
#include "analyzer/model/program.h"
#include "analyzer/util/diag.h"

namespace ilint {

struct AnalyzeOptions {
  std::vector<std::string> paths;
  int jobs = 1;                         // threads (ingest, parsers, rules): at most this many
  // When true, `jobs` is an upper bound and each stage takes fewer threads on a small input (the
  // CLI's default, -j auto): below ~64 compile folders, one. On two cores a second thread costs a
  // small capture more than it saves (docs/performance.md, session 13). False: `jobs` threads.
  bool fit_jobs_to_input = false;
  std::vector<std::string> only_rules;  // empty: every registered rule
  std::vector<std::string> disabled_rules;
  // Kernel source texts stay in the model only when a report shows them (HTML): every rule
  // reads the parsed facts, and the texts are a fifth of output_code.py's bytes.
  bool keep_kernel_sources = true;
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
};

// Wall and process CPU time of a piece of work, for StageTime.
class StageClock {
 public:
  StageClock();
  StageTime stop(std::string stage) const;

 private:
  double wall0_, cpu0_;
};

// Reads the C++ source of C++ kernels into each `kernel` (params, loads, stores, casts,
// reductions), on up to `threads` threads; `file` is the file the kernel's lines belong to.
// Installed by the Clang LibTooling reader (analyzer/clang/); without it the core keeps what
// its line patterns read (the signature and literal loop ranges).
struct CppKernelJob {
  Kernel* kernel = nullptr;
  FilePath file;
};
using CppKernelReader = std::function<void(const std::vector<CppKernelJob>& jobs, DiagSink& diags, int threads)>;
void set_cpp_kernel_reader(CppKernelReader reader);
const CppKernelReader& cpp_kernel_reader();

// Reads the C++ wrapper of a cpp_wrapper=True compile (the text of `cpp_wrapper_src`, whose
// line 1 is line `first_line` of `file`) into the wrapper model of `c`, and the C++ kernels it
// defines into c.kernels. With `kernels_to_read`, those kernels get only their signature here
// and their indices in c.kernels are appended, for the caller to read with the kernel reader.
// Installed by the Clang reader (analyzer/clang/); unset without it.
using CppWrapperReader = std::function<void(Compile& c, const std::string& source, int first_line,
                                            const FilePath& file, DiagSink& diags,
                                            std::vector<size_t>* kernels_to_read)>;
void set_cpp_wrapper_reader(CppWrapperReader reader);
const CppWrapperReader& cpp_wrapper_reader();

// Optional, with the wrapper reader: prepares the C++ wrappers of several output_code.py texts
// (compiles the calling thread builds next) so that the wrapper reader, called for them on the
// same thread while the returned handle lives, reads them from fewer Clang runs. Results are the
// same with or without it. Unset without Clang.
using CppWrapperBatcher = std::function<std::shared_ptr<void>(const std::vector<std::string_view>& output_code_texts)>;
void set_cpp_wrapper_batcher(CppWrapperBatcher batcher);
const CppWrapperBatcher& cpp_wrapper_batcher();

// Parse stage: fills program.compiles from the ingested files. Returns the number of files read.
// C++ kernels the hand reader takes (cpp_hand.h) are read here, with their compile. With
// `cpp_kernels`, those it declines are not read here: they are appended for
// read_cpp_kernels_with_reader (the pipeline times that stage apart); without it, they are read
// before returning.
// Without `keep_kernel_sources`, each kernel's source text is dropped once read (the declined C++
// kernels keep theirs for that reader).
size_t build_compiles(const IngestResult& in, Program& program, DiagSink& diags, int jobs,
                      std::vector<CppKernelJob>* cpp_kernels = nullptr, bool keep_kernel_sources = true);

// Parse stage for the compiles a TORCH_TRACE log holds and no compile folder of the input gives
// (take_unread_trace_compiles): each is read from its payloads as a folder is read from its
// files, appended to program.compiles, and its C++ kernels read. Returns the payloads read.
size_t build_trace_compiles(std::vector<TraceCompileSource>&& sources, Program& program, DiagSink& diags, int jobs,
                            bool keep_kernel_sources = true);

// Reads C++ kernels: the hand reader first (when on, cpp_hand.h), then the installed reader for
// what it declines (every distinct source once, batched, on `jobs` threads). Without a reader,
// declined kernels keep their signature facts.
void read_cpp_kernels(const std::vector<CppKernelJob>& cpp_kernels, DiagSink& diags, int jobs);
// The installed reader alone: for the kernels build_compiles left, which its hand reader has
// declined already (or all of them, with the hand readers off).
void read_cpp_kernels_with_reader(const std::vector<CppKernelJob>& cpp_kernels, DiagSink& diags, int jobs);

// Dynamo layer (analyzer/dynamo/), in two steps. read_dynamo_logs reads every capture's TORCH_LOGS
// text, TORCH_TRACE and debug.log; it needs only the ingest, so analyze() runs it beside the
// reading of the C++ kernels when it has two threads or more. build_dynamo_model then fills
// program.dynamo from what was read and joins frames to compiles (it reads the compiles'
// kernels and FX graphs); it returns the number of files read by both steps.
struct DynamoLogs;
std::shared_ptr<DynamoLogs> read_dynamo_logs(const IngestResult& in, DiagSink& diags);
size_t build_dynamo_model(const IngestResult& in, DynamoLogs& logs, Program& program, DiagSink& diags);
// Between the two: the compiles whose output code a capture's TORCH_TRACE holds and none of the
// capture's compile folders does (the same text), moved out of `logs` for build_trace_compiles.
// The payloads of the others are dropped.
std::vector<TraceCompileSource> take_unread_trace_compiles(DynamoLogs& logs, DiagSink& diags);
// Both steps, one after the other.
size_t build_dynamo_model(const IngestResult& in, Program& program, DiagSink& diags);

// Runs the rules over the model, side by side on `jobs` threads (0: jobs_for_input(opts, the
// program's compiles); analyze() passes the count its other stages took).
// With `ran`, the rules run are appended to it.
void run_rules(const Program& program, const AnalyzeOptions& opts, std::vector<Finding>& out, DiagSink& diags,
               int jobs = 0, std::vector<RuleInfo>* ran = nullptr);

// The whole flow.
void analyze(const AnalyzeOptions& opts, Analysis& out);

}  // namespace ilint
