#pragma once
#include <ostream>

#include "analyzer/model/program.h"

namespace ilint {

// Readable dump of the Dynamo layer (frames, compiles, guards, graph breaks, scalars).
void dump_dynamo_model(const Program& program, std::ostream& os);

}  // namespace ilint
