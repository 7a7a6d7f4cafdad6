// What `localize` found for one compile: tools/localize.py's answer (docs/localize-protocol.md),
// checked and joined with the model (each launch's output-code line, FX nodes and user lines) by
// analyzer/localize/localize.cpp. Kept in the Analysis for the reports.
#pragma once
#include <nlohmann/json.hpp>
#include <string>

namespace ilint {

struct Localization {
  std::string compile_id;  // Compile::id
  nlohmann::json answer;   // the tool's answer, with `launches[].fx_nodes` and `verdict_recomputed` added
};

}  // namespace ilint
