// A readable text dump of the joined Dynamo model (frames, compiles, guards that pin scalars,
// graph breaks, scalar crossings and the literals derived from them), for --dump-model.
#pragma once
#include <ostream>

#include "analyzer/model/program.h"

namespace ilint {

void dump_dynamo_model(const Program& program, std::ostream& os);

}  // namespace ilint
