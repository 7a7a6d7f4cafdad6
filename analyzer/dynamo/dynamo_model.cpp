// Placeholder until the Dynamo layer lands (issue: graph breaks, guards and scalars).
#include "analyzer/pipeline.h"

namespace ilint {

size_t build_dynamo_model(const IngestResult& in, Program& program, DiagSink& diags) { return 0; }

}  // namespace ilint
