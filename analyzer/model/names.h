// Display names of the model's enums, shared by every report.
#pragma once
#include "analyzer/model/model.h"

namespace ilint {

const char* kind_name(KernelKind k);          // "pointwise", "persistent_reduction", "scan", ...
const char* backend_name(KernelBackend b);    // "triton", "cpp", "aten"
const char* value_kind_name(ValueKind k);     // "tensor", "symint", "symfloat", ...

}  // namespace ilint
