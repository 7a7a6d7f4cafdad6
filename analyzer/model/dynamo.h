// The Dynamo layer of the model: frames, their compiles and recompiles, guards, graph breaks,
// and the Python scalars that leave one graph and enter another. Filled from the TORCH_LOGS text,
// torchdynamo/debug.log and the TORCH_TRACE structured log.
#pragma once
#include <optional>
#include <string>
#include <vector>

#include "analyzer/util/source_loc.h"

namespace ilint {

struct Guard {
  std::string kind;         // EQUALS_MATCH, TENSOR_MATCH, TYPE_MATCH, LAMBDA_GUARD, CONSTANT_MATCH, ...
  std::string source;       // L['___stack0']
  std::string expr;         // the guard text after "KIND: "
  std::string value;        // the compared value for EQUALS_MATCH / LAMBDA_GUARD "== 2.0" forms
  std::string comment;      // the user code in the trailing "# ..." comment
  std::optional<SourceLoc> user_loc;  // from the comment: file:line
  SourceLoc log_loc;        // where the guard was read
};

// One compile of a frame: compile id "2/1" is frame 2, attempt 1.
struct FrameCompile {
  std::string compile_id;               // "2/1" (an "_1" restart suffix is kept: "1/0_1")
  int frame_id = -1;
  int attempt = -1;
  std::vector<Guard> guards;
  std::vector<std::string> recompile_reasons;  // guard failures that triggered this compile
  std::vector<std::string> inductor_compiles;  // Compile::id of the graphs it produced
  std::vector<std::string> graph_inputs;       // placeholder annotations when known
  std::string cache_events;                    // "aotautograd_cache_hit", "fx_graph_cache_miss", ...
  SourceLoc log_loc;
};

struct Frame {
  int frame_id = -1;
  std::string function;       // "adam_step", "torch_dynamo_resume_in_adam_step_at_10"
  SourceLoc code_loc;         // user file:line of the function
  bool is_resume = false;
  std::string resumed_function;  // "adam_step" for a resume function
  int resume_line = 0;           // 10 for ..._at_10
  std::vector<FrameCompile> compiles;
  bool fell_back_to_eager = false;  // recompile_limit hit / skipped
};

struct GraphBreak {
  std::string compile_id;
  SourceLoc user_loc;         // "Graph break in user code at file:line"
  std::string user_code;      // the line of user code
  std::string reason;
  SourceLoc log_loc;
};

// How a scalar is seen by one compile of the frame it enters.
struct ScalarUse {
  std::string compile_id;
  std::string treatment;      // specialized | dynamic | unbacked
  std::string value;          // guarded value for specialized / hint for dynamic
  std::string symbol;         // zf0, zuf0 when known
  bool pinned_by_guard = false;
  std::vector<std::string> guards;  // guard texts that pin it
};

struct ScalarCrossing {
  std::string local_name;       // "___stack0", "step"
  std::string produced_by;      // ".item()", "tolist", "float argument"
  SourceLoc origin;             // user file:line of the `.item()`
  std::string origin_code;
  int from_frame = -1;
  int into_frame = -1;
  std::vector<ScalarUse> uses;
};

struct DynamoModel {
  std::vector<Frame> frames;
  std::vector<GraphBreak> graph_breaks;
  std::vector<ScalarCrossing> scalars;
  int recompile_limit = 8;      // torch._dynamo.config.recompile_limit default
  std::vector<std::string> sources;  // files it was read from
};

}  // namespace ilint
