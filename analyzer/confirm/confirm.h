// Confirmation: hands each finding to tools/confirm.py (next to PyTorch, on a CUDA machine) over
// the JSON protocol of docs/confirm-protocol.md, and attaches the verdict and numbers it returns.
#pragma once
#include <nlohmann/json.hpp>
#include <string>

#include "analyzer/pipeline.h"

namespace ilint {

struct ConfirmOptions {
  std::string python = "python3";
  std::string tool;            // path of tools/confirm.py (empty: the one installed with the binary)
  std::string device = "cuda"; // cuda | cpu
  std::string script;          // the user's program, for scalar findings (--script)
  std::vector<std::string> script_args;  // its arguments (--script-arg, in order)
  // Graph mode first, the script only for a finding graph mode cannot show (not-reproduced,
  // needs-script, no runnable): `run --confirm`, which knows the program but should not re-run a
  // whole training script three times for a finding one graph re-run confirms.
  bool script_as_fallback = false;
  std::vector<int> seeds = {0, 1, 2};
  int timeout_s = 300;         // per finding
};

// The verdicts confirm.py may return.
bool is_known_verdict(const std::string& v);

// The request for one finding (protocol 1).
nlohmann::json confirm_request(const Finding& f, const Compile* c, const ConfirmOptions& o);

// Runs the tool `o.tool` with `request` on stdin; returns its JSON answer, or a `skipped` answer
// saying why (no tool: `o.tool` empty or missing; no interpreter, timeout, unreadable answer). The
// callers resolve the installed default (confirm_findings, localize_compiles). Never throws.
nlohmann::json run_confirm_tool(const nlohmann::json& request, const ConfirmOptions& o);

// The verdict of a graph-mode answer, recomputed from its per-output numbers with same()'s rule;
// empty when the answer carries no numbers.
std::string recompute_graph_verdict(const nlohmann::json& answer);

// Validates an answer and stores it in f.confirmation; a malformed answer becomes `skipped`
// with reason "bad-answer".
void attach_confirmation(Finding& f, const nlohmann::json& answer);

// Confirms every finding of `a` (one tool run per finding).
void confirm_findings(Analysis& a, const ConfirmOptions& o);

// Attaches recorded answers (a JSON array or {"results": [...]}, each with "fingerprint" or
// "compile_dir" + "rule") to the matching findings. Returns how many were attached.
size_t attach_recorded(Analysis& a, const nlohmann::json& recorded, DiagSink& diags);

}  // namespace ilint
