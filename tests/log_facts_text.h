// Everything a Dynamo log reader found (LogFacts) and said (its diagnostics) as text, for tests
// that compare two ways of reading the same log.
#pragma once
#include <sstream>
#include <string>

#include "analyzer/dynamo/readers.h"
#include "analyzer/util/diag.h"

namespace ilint::testing {

inline std::string describe_loc(const SourceLoc& l) {
  return std::string(std::string_view(l.file)) + ":" + std::to_string(l.line) + ":" + std::to_string(l.column);
}

inline std::string describe_log_facts(const dynamo::LogFacts& f, DiagSink& diags) {
  std::ostringstream os;
  auto list = [&](const char* name, const std::vector<std::string>& v) {
    os << "  " << name << ":";
    for (const auto& s : v) os << " [" << s << "]";
    os << "\n";
  };
  auto pairs = [&](const char* name, const std::vector<std::pair<std::string, std::string>>& v) {
    os << "  " << name << ":";
    for (const auto& [a, b] : v) os << " [" << a << "=" << b << "]";
    os << "\n";
  };
  os << "lines " << f.lines << " unparsed " << f.unparsed_lines << " sessions " << f.sessions << " limit "
     << f.recompile_limit << "\n";
  list("limit hits", f.recompile_limit_hits);
  list("limit functions", f.limit_hit_functions);
  list("user files", f.user_files);
  for (const auto& c : f.compiles) {
    os << "compile " << c.session << " " << c.id.str() << " fn=" << c.function << " at " << describe_loc(c.code_loc)
       << " first " << describe_loc(c.first_loc) << " " << c.source_kind << " graph=" << c.has_graph
       << " skipped=" << c.frame_skipped << " guards_seen=" << c.guards_seen << " hash=" << c.output_code_hash
       << " recompile_log " << describe_loc(c.recompile_log_loc) << "\n";
    for (const auto& g : c.guards)
      os << "  guard " << g.kind << " | " << g.source << " | " << g.expr << " | " << g.value << " | " << g.comment
         << " | " << (g.user_loc ? describe_loc(*g.user_loc) : "-") << " | " << describe_loc(g.log_loc) << "\n";
    for (const auto& x : c.failures)
      os << "  failure " << x.compile_id << " | " << x.guard << " | " << x.source << " | " << x.value << " | "
         << x.user_code << " | " << (x.user_loc ? describe_loc(*x.user_loc) : "-") << "\n";
    list("recompile reasons", c.recompile_reasons);
    list("dirs", c.compile_dirs);
    list("aot ids", c.aot_ids);
    list("cache", c.cache_events);
    list("restarts", c.restart_reasons);
    pairs("symbols", c.symbols);
    pairs("symbol sources", c.symbol_sources);
    list("specializations", c.specializations);
    list("shape guards", c.shape_env_guards);
    list("inputs", c.graph_inputs);
    list("sym exprs", c.sym_exprs);
  }
  for (const auto& b : f.breaks) {
    os << "break " << b.session << " " << b.compile_id << " at " << describe_loc(b.user_loc) << " | " << b.user_code
       << " | " << b.reason << " | " << describe_loc(b.log_loc) << " | " << b.function << " | " << b.kind
       << " | skipped=" << b.frame_skipped << "\n";
    for (const auto& [loc, code] : b.traceback) os << "  tb " << describe_loc(loc) << " " << code << "\n";
  }
  for (const auto& d : diags.sorted())
    os << "diag " << static_cast<int>(d.level) << " " << d.code << " " << describe_loc(d.loc) << " " << d.message << "\n";
  return os.str();
}

}  // namespace ilint::testing
