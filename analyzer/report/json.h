#pragma once
#include <nlohmann/json.hpp>
#include <ostream>

#include "analyzer/pipeline.h"

namespace ilint {

nlohmann::json location_json(const SourceLoc& l);
nlohmann::json finding_json(const Finding& f);
// The JSON document of --format json (schema: docs/json-output.md).
nlohmann::json analysis_json(const Analysis& a);
void write_json(const Analysis& a, std::ostream& os);

}  // namespace ilint
