#include "analyzer/model/model.h"

namespace ilint {

std::string compile_origin(const CompileFiles& f) {
  if (!f.dir.empty()) return f.dir.str();
  if (!f.trace_compile_id.empty()) return f.output_code.str() + ":" + std::to_string(f.trace_output_code_line);
  return !f.output_code.empty() ? f.output_code.str() : f.fx_json.str();
}

}  // namespace ilint
