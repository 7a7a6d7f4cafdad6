#include "analyzer/pipeline.h"

namespace ilint {

size_t build_compiles(const IngestResult& in, Program& program, DiagSink& diags, int jobs) { return 0; }

}  // namespace ilint
