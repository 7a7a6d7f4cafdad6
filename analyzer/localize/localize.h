// Localization: hands one compile at a time to tools/localize.py (next to PyTorch) with the model's
// map of what each kernel launch writes and which FX nodes those buffers hold, and keeps the answer:
// for every launch, compiled vs eager vs float64, and the first launch that departs from eager and
// the first that is further from float64 than eager (docs/localize-protocol.md).
#pragma once
#include <nlohmann/json.hpp>
#include <string>

#include "analyzer/pipeline.h"

namespace ilint {

struct LocalizeOptions {
  std::string python = "python3";
  std::string tool;             // path of tools/localize.py (empty: the one installed with the binary)
  std::string device = "cuda";  // cuda | cpu: must be where the output code was generated for
  int seed = 0;
  double tol = 1e-4;
  int timeout_s = 300;          // per compile
  // A written buffer larger than this is not compared (the answer says so): the tool keeps the
  // eager and float64 value of every node it compares, so this bounds its memory per buffer.
  int64_t max_buffer_bytes = int64_t{1} << 30;
};

// The request for compile `c` (protocol 1): its files, and per launch in wrapper order the buffers
// it writes, where to observe each, and the FX nodes each may hold.
nlohmann::json localize_request(const Compile& c, const LocalizeOptions& o);

// Why `c` cannot be localized ("" when it can): a C++ wrapper runs no Python launch to observe, a
// compile read from TORCH_TRACE payloads has no folder to load, and one needs launches.
std::string localize_refusal(const Compile& c);

// Checks the tool's answer (verdicts recomputed from its numbers, as confirm does), adds the model's
// facts to each launch (output-code line, FX nodes with user lines) and stores it in a.localizations.
void attach_localization(Analysis& a, const Compile& c, const nlohmann::json& answer);

// Localizes the compiles of `a`: all of them, or with `only_with_findings` those a finding names.
void localize_compiles(Analysis& a, const LocalizeOptions& o, bool only_with_findings);

// Attaches recorded answers (a JSON array or {"results": [...]}, each an answer whose `compile` or
// `compile_dir` names a compile of `a`), as tests/gpu records them. Returns how many were attached.
size_t attach_recorded_localizations(Analysis& a, const nlohmann::json& recorded, DiagSink& diags);

// Recomputes one written buffer's verdict from its numbers: "ok", "precision-artifact" or
// "divergent" by same()'s rule; "" when the numbers are missing or mistyped.
std::string recompute_write_verdict(const nlohmann::json& write);

}  // namespace ilint
