// A complete text form of an FX graph read from a print_readable module and of the diagnostics
// its read left: every field of every node and the name index. Two reads of one file compare
// equal exactly when these texts do (tests/unit/fx_readable_scan_test.cpp, fuzz_fx_text).
#pragma once
#include <sstream>
#include <string>

#include "analyzer/model/model.h"
#include "analyzer/util/diag.h"

namespace ilint::testing {

inline std::string describe_fx(const FxGraph& g, const DiagSink& diags) {
  std::ostringstream o;
  auto list = [&](const IStringList& l) {
    o << "[";
    for (const auto& e : l) o << e.str() << "|";
    o << "]";
  };
  auto loc = [&](const SourceLoc& l) { o << l.file.str() << ":" << l.line << ":" << l.column; };
  o << "origin " << g.origin << " file " << g.file << " nodes " << g.nodes.size() << "\n";
  for (const auto& n : g.nodes) {
    o << n.name << " op=" << n.op << " target=" << n.target << " args=";
    list(n.args);
    o << " kwargs={";
    for (const auto& [k, v] : n.kwargs) o << k << ":" << v << "|";
    o << "} in=";
    list(n.input_nodes);
    o << " kind=" << static_cast<int>(n.kind) << " dtype=" << dtype_name(n.meta.dtype) << " shape=";
    list(n.meta.shape);
    o << " stride=";
    list(n.meta.stride);
    o << " device=" << n.meta.device << " ann=" << n.annotation << " user=";
    if (n.user_loc()) loc(*n.user_loc());
    else o << "-";
    o << " fn=" << n.user_function() << " code=" << n.user_code() << " def=";
    loc(n.def_loc);
    o << " mutates=" << n.mutates << "\n";
  }
  for (const auto& n : g.nodes) {
    const FxNode* found = g.find(n.name.str());
    o << "find " << n.name << " " << (found ? found - g.nodes.data() : -1) << "\n";
  }
  for (const auto& d : diags.sorted()) {
    o << "diag " << static_cast<int>(d.level) << " " << d.code << " " << d.message << " ";
    loc(d.loc);
    o << "\n";
  }
  return o.str();
}

}  // namespace ilint::testing
