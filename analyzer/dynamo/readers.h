// Readers of the three Dynamo logs. Each reads its file once, line by line, and fills LogFacts:
// what the file says about each compile (by session and compile id) and about graph breaks.
// build_dynamo_model() then merges the facts of all files into the DynamoModel.
#pragma once
#include <map>
#include <string>
#include <vector>

#include "analyzer/dynamo/guard_text.h"
#include "analyzer/dynamo/log_line.h"
#include "analyzer/model/dynamo.h"
#include "analyzer/model/model.h"
#include "analyzer/util/diag.h"

namespace ilint::dynamo {

// What one log says about one compile attempt.
struct CompileFacts {
  int session = 0;
  CompileId id;
  std::string function;            // co_name when the log names it
  SourceLoc code_loc;              // co_filename:co_firstlineno
  std::vector<Guard> guards;       // leaf guards and GuardManager lines of the guard tree
  bool guards_seen = false;
  std::vector<std::string> recompile_reasons;  // raw "2/0: ___stack0 == 1.0  # ..." texts
  std::vector<GuardFailure> failures;          // the same, parsed
  SourceLoc recompile_log_loc;
  std::vector<std::string> compile_dirs;       // folder names or paths ("model__3_inference_2.2")
  std::vector<std::string> aot_ids;            // "3_inference"
  std::string output_code_hash;
  std::vector<std::string> cache_events;       // "aotautograd_cache_miss", "fx_graph_cache_hit"
  std::vector<std::string> restart_reasons;
  std::vector<std::pair<std::string, std::string>> symbols;         // (zf2, 2.0)
  std::vector<std::pair<std::string, std::string>> symbol_sources;  // (zf2, L['___stack0'])
  std::vector<std::string> specializations;    // "zf2=2.0"
  std::vector<std::string> shape_env_guards;   // "Eq(zf2, 2.0)"
  std::vector<std::string> graph_inputs;       // "L_stack0_: f64[][]cpu" from the Dynamo graph
  std::vector<std::string> sym_exprs;          // "-(FloatTrueDiv(0.001, 1.0 - FloatPow(0.9, zf2)))" from Sym(...) annotations
  bool has_graph = false;
  bool frame_skipped = false;
  SourceLoc first_loc;                         // first line that named this compile
  std::string source_kind;                     // "torch_logs" | "trace"
  std::vector<GraphOutput> aot_outputs, joint_pass_outputs;  // see FrameCompile
};

struct LogFacts {
  std::vector<CompileFacts> compiles;
  std::vector<GraphBreak> breaks;
  std::vector<std::string> recompile_limit_hits;  // "function: 'f' (file:line)" texts
  std::vector<std::string> limit_hit_functions;   // function names of those hits
  int recompile_limit = -1;                       // from dynamo_config, when logged
  int sessions = 0;                               // sessions seen in this file
  std::vector<std::string> user_files;            // full user paths the file names (for comment paths)
  size_t lines = 0;
  size_t unparsed_lines = 0;
  // TORCH_TRACE: every compile whose output code the log holds, with the payloads that stand for
  // its files, in the order of the log.
  std::vector<TraceCompileSource> compile_sources;

  CompileFacts& at(int session, const CompileId& id, const SourceLoc& loc, const char* kind);
};

// TORCH_LOGS text (a capture's stderr.txt). Returns false when the file cannot be opened.
bool read_torch_logs(const std::string& path, LogFacts& out, DiagSink& diags);
// TORCH_TRACE structured log.
bool read_trace_log(const std::string& path, LogFacts& out, DiagSink& diags);
// The same, with `skim_envelopes` false: every envelope parsed whole by nlohmann (the reference
// that tests compare the skimmed read with).
bool read_trace_log(const std::string& path, LogFacts& out, DiagSink& diags, bool skim_envelopes);
// torchdynamo/debug.log: graph breaks only (it carries no compile ids); session is -1.
bool read_dynamo_debug_log(const std::string& path, LogFacts& out, DiagSink& diags);

// Parses the text of one graph-break message (first line "Graph break in user code at F:L").
// `lines` are the message lines, `first_loc` the position of the first.
GraphBreak parse_graph_break(const std::vector<std::string_view>& lines, const SourceLoc& first_loc);

}  // namespace ilint::dynamo
