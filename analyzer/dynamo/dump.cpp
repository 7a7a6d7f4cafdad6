#include "analyzer/dynamo/dump.h"

#include <string>

namespace ilint {

namespace {
std::string loc_str(const SourceLoc& l) {
  if (l.file.empty()) return "?";
  return l.file + (l.line > 0 ? ":" + std::to_string(l.line) : "");
}
std::string join(const std::vector<std::string>& v, const char* sep = ", ") {
  std::string s;
  for (size_t i = 0; i < v.size(); ++i) s += (i ? sep : "") + v[i];
  return s;
}
// Guards worth showing: the ones about frame locals' values and types, not the ambient ones.
bool interesting_guard(const Guard& g) {
  if (g.kind == "GuardManager") return g.value == "float" || g.value == "int";
  if (g.kind == "EQUALS_MATCH" || g.kind == "CONSTANT_MATCH" || g.kind == "TYPE_MATCH") return true;
  if (g.kind == "LAMBDA_GUARD") return g.source.find("L['") != std::string::npos;
  return false;
}
}  // namespace

void dump_dynamo_model(const Program& program, std::ostream& os) {
  const DynamoModel& dm = program.dynamo;
  os << "Dynamo model: " << dm.frames.size() << " frames, " << dm.graph_breaks.size() << " graph breaks, "
     << dm.scalars.size() << " scalar crossings, " << dm.sessions << " torch.compile session(s)\n";
  os << "recompile_limit: " << dm.recompile_limit << (dm.recompile_limit_from_config ? " (from dynamo_config)" : " (default)")
     << "\n";
  for (const auto& h : dm.recompile_limit_hits) os << "recompile limit hit: " << h << "\n";
  os << "sources:\n";
  for (const auto& s : dm.sources) os << "  " << s << "\n";

  for (int session = 0; session < dm.sessions; ++session) {
    os << "\n== session " << session << "\n";
    for (const auto& f : dm.frames) {
      if (f.session != session) continue;
      os << "frame " << f.frame_id << ": " << (f.function.empty() ? "?" : f.function) << " at " << loc_str(f.code_loc);
      if (f.is_resume) os << "  [resume of " << f.resumed_function << " at line " << f.resume_line << "]";
      if (f.fell_back_to_eager) os << "  [runs eager: " << f.skip_reason << "]";
      os << "\n";
      for (const auto& c : f.compiles) {
        os << "  compile " << c.compile_id;
        if (c.superseded) os << " (restarted)";
        for (const auto& r : c.restart_reasons) os << " restart: " << r.substr(0, r.find('\n'));
        os << "\n";
        if (!c.inductor_compiles.empty()) os << "    graphs: " << join(c.inductor_compiles) << "\n";
        if (!c.aot_ids.empty()) os << "    AOT ids: " << join(c.aot_ids) << "\n";
        if (!c.cache_events.empty()) os << "    caches: " << c.cache_events << "\n";
        if (!c.graph_inputs.empty()) os << "    dynamo graph inputs: " << join(c.graph_inputs) << "\n";
        for (const auto& r : c.recompile_reasons) os << "    recompiled because: " << r << "\n";
        for (const auto& [sym, hint] : c.symbols) os << "    symbol " << sym << " = " << hint << "\n";
        for (const auto& s : c.specializations) os << "    specialized: " << s << "\n";
        for (const auto& g : c.shape_env_guards) os << "    shape-env guard: " << g << "\n";
        for (const auto& g : c.guards) {
          if (!interesting_guard(g)) continue;
          os << "    guard " << g.kind << ": " << (g.kind == "GuardManager" ? g.source + " (" + g.value + ")" : g.expr);
          if (g.user_loc) os << "   <- " << loc_str(*g.user_loc) << " " << g.comment.substr(0, g.comment.find("  #"));
          os << "   [" << loc_str(g.log_loc) << "]\n";
        }
      }
    }
    for (const auto& b : dm.graph_breaks) {
      if (b.session != session) continue;
      os << "graph break [" << (b.compile_id.empty() ? "?" : b.compile_id) << "] at " << loc_str(b.user_loc) << " ("
         << b.kind << (b.frame_skipped ? ", frame skipped" : "") << "): " << b.user_code << "\n";
      os << "    reason: " << b.reason.substr(0, b.reason.find('\n')) << "\n";
    }
    for (const auto& sc : dm.scalars) {
      if (sc.session != session) continue;
      os << "scalar " << sc.source << " (" << sc.produced_by << ")";
      if (sc.origin.valid()) os << " from " << loc_str(sc.origin) << " `" << sc.origin_code << "`";
      if (sc.from_frame >= 0) os << " in frame " << sc.from_frame << " " << sc.from_function;
      os << " -> frame " << sc.into_frame << " " << sc.into_function << "\n";
      for (const auto& u : sc.uses) {
        os << "  " << u.compile_id << ": " << u.treatment << (u.value.empty() ? "" : " = " + u.value);
        if (!u.value_source.empty()) os << " (" << u.value_source << ")";
        if (!u.symbol.empty()) os << " symbol " << u.symbol;
        if (u.dynamic_input) os << " [graph input]";
        os << (u.pinned_by_guard ? " pinned" : " NOT pinned");
        if (u.guard_user_loc) os << " by guard at " << loc_str(*u.guard_user_loc);
        if (!u.cache_event.empty()) os << " cache: " << u.cache_event;
        if (!u.same_artifact_as.empty()) os << " same artifact as " << u.same_artifact_as;
        os << "\n";
        for (const auto& g : u.guards) os << "      guard " << g << "\n";
        for (const auto& g : u.shape_env_guards) os << "      shape-env guard " << g << "\n";
        for (const auto& d : u.literals) {
          os << "      derived literal " << d.text << " (" << d.where << " " << d.node
             << (d.target.empty() ? "" : " " + d.target) << ") at " << loc_str(d.loc);
          if (d.user_loc) os << " <- " << loc_str(*d.user_loc);
          if (!d.other_values.empty()) os << "; elsewhere " << join(d.other_values);
          os << "\n";
        }
      }
    }
  }
}

}  // namespace ilint
