#pragma once
#include <ostream>

#include "analyzer/model/program.h"

namespace ilint {

// A readable text dump of the per-compile model (what --dump-model prints), for a person
// checking what the analyzer understood.
void dump_compiles(const Program& program, std::ostream& os);

}  // namespace ilint
