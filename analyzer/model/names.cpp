#include "analyzer/model/names.h"

namespace ilint {

const char* kind_name(KernelKind k) {
  switch (k) {
    case KernelKind::Pointwise: return "pointwise";
    case KernelKind::Reduction: return "reduction";
    case KernelKind::PersistentReduction: return "persistent_reduction";
    case KernelKind::Scan: return "scan";
    case KernelKind::Template: return "template";
    case KernelKind::Extern: return "extern";
    case KernelKind::Fallback: return "fallback";
    case KernelKind::Unknown: break;
  }
  return "unknown";
}

const char* backend_name(KernelBackend b) {
  switch (b) {
    case KernelBackend::Triton: return "triton";
    case KernelBackend::Cpp: return "cpp";
    case KernelBackend::Aten: return "aten";
    case KernelBackend::Unknown: break;
  }
  return "unknown";
}

const char* value_kind_name(ValueKind k) {
  switch (k) {
    case ValueKind::Tensor: return "tensor";
    case ValueKind::SymInt: return "symint";
    case ValueKind::SymFloat: return "symfloat";
    case ValueKind::SymBool: return "symbool";
    case ValueKind::Scalar: return "scalar";
    case ValueKind::None: return "none";
    case ValueKind::Other: break;
  }
  return "other";
}

}  // namespace ilint
