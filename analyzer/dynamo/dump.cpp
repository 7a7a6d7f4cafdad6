// Placeholder until the Dynamo layer lands.
#include "analyzer/dynamo/dump.h"

namespace ilint {

void dump_dynamo_model(const Program& program, std::ostream& os) {}

}  // namespace ilint
