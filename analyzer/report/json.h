#pragma once
#include <nlohmann/json.hpp>
#include <ostream>

#include "analyzer/pipeline.h"

namespace ilint {

nlohmann::json location_json(const SourceLoc& l);
nlohmann::json finding_json(const Finding& f);
// The coverage account (analyzer/coverage/coverage.h), as every format carries it.
nlohmann::json coverage_json(const Coverage& c);
// The JSON document of --format json (schema: docs/json-output.md).
nlohmann::json analysis_json(const Analysis& a);
// `localize`'s answers, one per compile (docs/localize-protocol.md), in the order they were made:
// the JSON report's and the HTML page's `localizations`.
nlohmann::json localizations_json(const Analysis& a);
// Prints analysis_json(a).dump(2) and a newline, the large arrays rendered on `jobs` threads.
void write_json(const Analysis& a, std::ostream& os, int jobs = 1);

}  // namespace ilint
