// Everything a C++ wrapper reader writes into a compile, as text: for comparing the hand reader
// with the Clang reader (tests/unit/cpp_wrapper_hand_test.cpp, tests/fuzz/fuzz_cpp_wrapper_hand.cpp).
#pragma once
#include <sstream>
#include <string>
#include <vector>

#include "analyzer/model/names.h"
#include "analyzer/model/program.h"
#include "analyzer/report/dump_model.h"
#include "analyzer/util/diag.h"

namespace ilint::testing {

inline std::string loc_text(const SourceLoc& l) {
  return std::string(l.file.str()) + ":" + std::to_string(l.line) + ":" + std::to_string(l.column);
}

template <class S>
inline std::string joined(const std::vector<S>& v) {
  std::string s;
  for (size_t i = 0; i < v.size(); ++i) s += (i ? "|" : "") + std::string(v[i]);
  return s;
}

inline std::string meta_text(const TensorMeta& m) {
  return dtype_name(m.dtype) + " shape[" + joined(m.shape.vec()) + "] stride[" + joined(m.stride.vec()) + "] device " +
         std::string(m.device.str());
}

// Everything a wrapper reader writes into a compile, every field, plus the --dump-model text
// (the kernel reader's facts of the kernels it defines) and the diagnostics.
inline std::string wrapper_model_text(const Compile& c, const DiagSink& diags, const std::vector<size_t>* kernels_to_read) {
  std::ostringstream os;
  os << "cpp_wrapper " << c.cpp_wrapper << " device " << c.device_type << "\n";
  for (auto& in : c.inputs)
    os << "input " << in.name << " " << value_kind_name(in.kind) << " " << meta_text(in.meta) << " cpu_scalar "
       << in.is_cpu_scalar << "\n";
  for (auto& k : c.kernels) {
    os << "kernel " << k.name << " backend " << backend_name(k.backend) << " kind " << kind_name(k.kind) << " def "
       << loc_text(k.def_loc) << " body " << loc_text(k.body_loc) << " first_line " << k.source_first_line << "\n";
    for (auto& p : k.params)
      os << "  param " << p.name << " " << dtype_name(p.dtype) << " ptr " << p.is_pointer << " constexpr "
         << p.is_constexpr << " const " << p.is_const << " restrict " << p.is_restrict << " type '" << p.type_text
         << "'\n";
    os << "  source <<" << k.source << ">>\n";
    os << "  facts " << k.loads.size() << " " << k.stores.size() << " " << k.casts.size() << " " << k.literals.size()
       << " " << k.reductions.size() << " " << k.stmts.size() << " " << k.parse_errors.size() << "\n";
  }
  for (auto& [name, i] : c.kernel_index) os << "kernel_index " << name << " " << i << "\n";
  for (auto& b : c.buffers)
    os << "buffer " << b.name << " " << meta_text(b.meta) << " input " << b.is_graph_input << " output "
       << b.is_graph_output << " alias_of " << b.alias_of << " reuse " << b.is_reuse << " offset " << b.alias_offset
       << " at " << loc_text(b.alloc_loc) << "\n";
  for (auto& [name, i] : c.buffer_index) os << "buffer_index " << name << " " << i << "\n";
  for (auto& l : c.launches) {
    os << "launch #" << l.order << " " << l.kernel << " fallback " << l.is_fallback << " shim " << l.shim << " args("
       << joined(l.args) << ") results(" << joined(l.results) << ") nodes(" << joined(l.source_nodes) << ") handle "
       << l.provenance_handle << " at " << loc_text(l.loc) << " kwargs";
    for (auto& [k, v] : l.kwargs) os << " " << k << "=" << v;
    os << "\n";
  }
  for (auto& m : c.mutations) os << "mutation " << m.target << " via " << m.via << " in " << m.kernel << " at " << loc_text(m.loc) << "\n";
  os << "outputs " << joined(c.outputs) << "\n";
  if (kernels_to_read)
    for (size_t k : *kernels_to_read) os << "kernel to read " << k << "\n";
  for (auto& d : diags.sorted())
    os << "diag " << diag_level_name(d.level) << " " << d.code << " " << d.message << " " << loc_text(d.loc) << "\n";
  Program p;
  p.compiles.push_back(c);
  dump_compiles(p, os);
  return os.str();
}

}  // namespace ilint::testing
