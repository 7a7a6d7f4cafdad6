// --statistics: the number of findings per rule instead of the findings, as ruff's --statistics
// prints them (count, rule id, severity, rule name; most frequent first), in text or JSON.
#pragma once
#include <ostream>

#include "analyzer/pipeline.h"

namespace ilint {

// Rules with no finding are left out; suppressed findings are counted apart in the last line (text)
// or the `suppressed` member of each row (JSON).
void write_statistics_text(const Analysis& a, std::ostream& os);
void write_statistics_json(const Analysis& a, std::ostream& os);

}  // namespace ilint
