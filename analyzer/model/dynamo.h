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

// One output of an inference graph, position by position: the node it returns. Added so a rule can
// compare the graph AOTAutograd traced (`aot_inference_graph`, what eager computes) with the graph
// Inductor's joint-graph passes left (`after_joint_graph`), which may return an input where eager
// made a new tensor (a no-op removed: `x * 1`, `x / 1.0`, `x + 0`).
struct GraphOutput {
  std::string node;                   // the returned node ("div"); "" for a value that is no node
  std::string op;                     // placeholder | call_function | get_attr | ...
  std::string target;                 // "torch.ops.aten.div.Tensor"
  std::vector<std::string> args;      // its argument texts ("arg0_1", "1.0")
  std::optional<SourceLoc> user_loc;  // from the node's "# File:" comment
  std::string user_code;
  SourceLoc loc;                      // the node's line in the log
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
  // Added by the Dynamo layer. A process can call torch.compile several times with
  // torch._dynamo.reset() in between (the captures run inductor, then aot_eager): compile ids
  // restart from 0/0, so every compile also carries the index of the session it belongs to.
  int session = 0;
  int frame_compile_id = -1;                   // the 1 of "2/1"
  bool superseded = false;                     // a later attempt of the same compile restarted it
  std::vector<std::string> restart_reasons;    // compilation_metrics.restart_reasons
  std::vector<std::string> compile_dirs;       // the compiles it produced, by compile_origin() (folder paths)
  std::vector<std::string> aot_ids;            // "3_inference" from the output code's "# AOT ID" line
  std::string output_code_hash;                // md5 of the inductor_output_code payload (cache reuse test)
  std::vector<std::string> shape_env_guards;   // ShapeEnv guards ("Eq(zf2, 2.0)"), not in the guard tree
  // Symbols created for frame locals: "zf2" -> hint "2.0", with the source "L['___stack0']".
  std::vector<std::pair<std::string, std::string>> symbols;       // (symbol, hint)
  std::vector<std::pair<std::string, std::string>> symbol_sources;  // (symbol, source)
  std::vector<std::string> specializations;    // "zf2=2.0" from symbolic_shape_specialization
  bool has_graph = false;                      // dynamo produced a graph (output graph / guards seen)
  std::vector<std::string> sym_exprs;          // the Dynamo graph's symbolic float/int expressions (Sym(...))
  std::string backend_hint;                    // "inductor" when a compile folder or output code was seen
  // TORCH_TRACE, inference graphs: the outputs AOTAutograd traced and those the joint-graph passes
  // left, when the log holds both graphs (empty otherwise). Inductor may produce no output code at
  // all for the second (a graph left with no op), so these are the only record of it.
  std::vector<GraphOutput> aot_outputs, joint_pass_outputs;
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
  int session = 0;                  // added: see FrameCompile::session
  std::string skip_reason;          // added: "graph break in loop" etc. when Dynamo skipped the frame
};

struct GraphBreak {
  std::string compile_id;
  SourceLoc user_loc;         // "Graph break in user code at file:line"
  std::string user_code;      // the line of user code
  std::string reason;
  SourceLoc log_loc;
  // Added: the session (see FrameCompile::session), the user traceback (outermost first) and
  // what the break was about, so that scalar crossings can name the `.item()` line.
  int session = 0;
  std::vector<std::pair<SourceLoc, std::string>> traceback;  // (file:line, code) pairs
  std::string function;       // the user function the break is in ("adam_step")
  std::string kind;           // item | tolist | loop | user | other
  bool frame_skipped = false; // "Skipping the function and falling back to eager"
};

// How a scalar is seen by one compile of the frame it enters.
// A literal of a compiled graph or kernel that derives from a scalar: it changes with the
// scalar's value across the compiles of one frame. Added by the Dynamo layer.
struct DerivedLiteral {
  std::string where;          // "fx" (fx_graph_readable.py node argument) | "kernel" (output_code.py)
  std::string text;           // as written: "-0.005263157894736844"
  double value = 0;
  std::string key;            // alignment key across compiles ("15|torch.ops.aten.mul.Tensor|0|1")
  std::string node;           // FX node name ("mul") or kernel name
  std::string target;         // FX target, or the kernel line's variable ("tmp9")
  SourceLoc loc;              // the literal's line in fx_graph_readable.py / output_code.py
  std::optional<SourceLoc> user_loc;  // user line from the "# File:" comment
  std::string user_code;
  std::string compile_id;     // the model's compile it was read from (Compile::id)
  std::vector<std::string> other_values;  // the same literal in the other compiles ("cid=value")
  std::string derived_by = "alignment";   // alignment (changes across compiles) | sym_expr (equals expr at hint)
  std::string expr;                       // for sym_expr: "-(FloatTrueDiv(0.001, ...)) at zf2=2.0"
};

struct ScalarUse {
  std::string compile_id;
  std::string treatment;      // specialized | dynamic | unbacked
  std::string value;          // guarded value for specialized / hint for dynamic
  std::string symbol;         // zf0, zuf0 when known
  bool pinned_by_guard = false;
  // An equality of an expression of the local with a number holds in this compile's guards (torch 2.13:
  // `((-1)*((0.001 / (1.0 + ((-1)*0.9 ** L['___stack0']))))) == (-0.005263157894736844)`; torch 2.11:
  // `L['s'] == 2.0` as a LAMBDA_GUARD of unknown source): the compile's own calls are guarded on the
  // value it baked, though no guard on the local itself was read.
  bool guarded_by_expression = false;
  std::vector<std::string> guards;  // guard texts that pin it
  // Added by the Dynamo layer.
  int session = 0;
  std::vector<SourceLoc> guard_locs;          // where those guards were read
  std::optional<SourceLoc> guard_user_loc;    // the user line a pinning guard names
  std::string value_source;                   // guard | create_symbol | specialization | recompile_reason
  std::vector<std::string> shape_env_guards;  // ShapeEnv-only guards on its symbol (not in the guard tree)
  bool dynamic_input = false;                 // the graph takes it as an input (f64[] / SymFloat)
  std::vector<DerivedLiteral> literals;       // literals of this compile that derive from it
  std::string cache_event;                    // aotautograd/fx_graph cache hit, when one served this compile
  std::string same_artifact_as;               // compile id whose identical output code served this one
  std::vector<std::string> compile_dirs;      // the compiles of this compile, by compile_origin()
  bool guards_logged = false;                 // a guard tree of this compile was read (else "not pinned" is unknown)
};

struct ScalarCrossing {
  std::string local_name;       // "___stack0", "step"
  std::string produced_by;      // ".item()", "tolist", "float argument"
  SourceLoc origin;             // user file:line of the `.item()`
  std::string origin_code;
  int from_frame = -1;
  int into_frame = -1;
  std::vector<ScalarUse> uses;
  // Added by the Dynamo layer.
  int session = 0;
  std::string into_function;     // "torch_dynamo_resume_in_adam_step_at_10"
  SourceLoc into_loc;            // user file:line of the resumed frame
  std::string from_function;     // "adam_step"
  std::string source;            // guard source: "L['___stack0']"
  std::string capture;           // capture folder (one process) the logs came from
};

struct DynamoModel {
  std::vector<Frame> frames;
  std::vector<GraphBreak> graph_breaks;
  std::vector<ScalarCrossing> scalars;
  int recompile_limit = 8;      // torch._dynamo.config.recompile_limit default
  std::vector<std::string> sources;  // files it was read from
  int sessions = 0;             // added: torch.compile sessions seen (compile ids restarting at 0/0)
  bool recompile_limit_from_config = false;  // added: recompile_limit read from compilation_metrics
  std::vector<std::string> recompile_limit_hits;  // added: "hit config.recompile_limit" messages

  const Frame* frame(int session, int frame_id) const {
    for (const auto& f : frames)
      if (f.session == session && f.frame_id == frame_id) return &f;
    return nullptr;
  }
};

}  // namespace ilint
