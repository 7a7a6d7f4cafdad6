// Every fact the Triton kernel reader puts in a Kernel, as text, and what it reported, for
// checking that the decorator scanner's path (TritonDecoratorRead::Scan) and the whole-source
// parse (TritonDecoratorRead::Parse) build the same Kernel: in the unit test and the fuzz target.
#pragma once
#include <cctype>
#include <sstream>
#include <string>

#include "analyzer/model/dtype.h"
#include "analyzer/model/model.h"
#include "analyzer/model/names.h"
#include "analyzer/parse/triton_kernel.h"
#include "analyzer/util/diag.h"

namespace ilint::testing {

inline std::string loc_text(const SourceLoc& l) {
  return l.file.str() + ":" + std::to_string(l.line) + ":" + std::to_string(l.column);
}

inline std::string kernel_facts(const Kernel& k) {
  std::ostringstream o;
  o << "backend " << backend_name(k.backend) << " kind " << kind_name(k.kind) << " heuristic '" << k.heuristic
    << "' body " << loc_text(k.body_loc) << "\n";
  for (const auto& p : k.params)
    o << "param " << p.name << " '" << p.type_text << "' " << dtype_name(p.dtype) << " ptr " << p.is_pointer
      << " constexpr " << p.is_constexpr << " const " << p.is_const << " restrict " << p.is_restrict << "\n";
  o << "has_mutated_args " << k.has_mutated_args << "\n";
  for (const auto& a : k.mutated_args) o << "mutated " << a << "\n";
  for (const auto& [n, v] : k.numels) o << "numel " << n << " " << v << "\n";
  auto access = [&](const char* what, const MemAccess& a) {
    o << what << " " << a.var << " " << a.ptr << " [" << a.index << "] " << dtype_name(a.value_dtype) << " vec "
      << a.vectorized << " nest " << a.nest << " " << loc_text(a.loc) << "\n";
  };
  for (const auto& a : k.loads) access("load", a);
  for (const auto& a : k.stores) access("store", a);
  for (const auto& c : k.casts) o << "cast " << c.var << " " << c.src << " " << dtype_name(c.to) << " " << loc_text(c.loc) << "\n";
  for (const auto& l : k.literals) o << "literal " << l.text << " " << l.value << " " << l.var << " " << loc_text(l.loc) << "\n";
  for (const auto& r : k.reductions)
    o << "reduce scan " << r.is_scan << " " << r.combine << " " << r.input_var << " -> " << r.result_var << " "
      << dtype_name(r.compute_dtype) << "/" << dtype_name(r.accumulator_dtype) << " len " << r.length << " '"
      << r.length_expr << "' " << loc_text(r.loc) << "\n";
  for (const auto& s : k.stmts) {
    o << "stmt " << s.var << " = " << s.op << "(";
    for (const auto& x : s.operands) o << x << ",";
    o << ") " << loc_text(s.loc) << "\n";
  }
  for (const auto& [v, d] : k.var_defs) o << "def " << v << " = " << d << "\n";
  for (const auto& l : k.loops)
    o << "loop " << l.var << " " << l.start << " " << l.end << " " << l.step << " " << l.first_line << "-" << l.last_line << "\n";
  for (const auto& e : k.parse_errors) o << "error " << e << "\n";
  return o.str();
}

// The name fuzz_triton gives an input: that of its first `def NAME(`, else triton_fuzz_kernel.
inline std::string first_def_name(const std::string& source) {
  size_t d = source.find("def ");
  if (d == std::string::npos) return "triton_fuzz_kernel";
  size_t e = d + 4;
  while (e < source.size() && (std::isalnum(static_cast<unsigned char>(source[e])) || source[e] == '_')) ++e;
  return e > d + 4 ? source.substr(d + 4, e - d - 4) : "triton_fuzz_kernel";
}

// The kernel `name` of `source` (its first line at `first_line` of output_code.py) read one way:
// the Kernel's facts and the diagnostics reported, as text.
inline std::string read_triton_facts(const std::string& name, const std::string& source, int first_line,
                                     TritonDecoratorRead how) {
  Kernel k;
  k.name = name;
  k.source = source;
  k.source_first_line = first_line;
  DiagSink diags;
  read_triton_kernel(k, "output_code.py", diags, how);
  std::string out = kernel_facts(k);
  for (const auto& d : diags.sorted())
    out += std::string("diag ") + diag_level_name(d.level) + " " + d.code + " " + d.message + " " + loc_text(d.loc) + "\n";
  return out;
}

}  // namespace ilint::testing
