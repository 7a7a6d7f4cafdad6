// scalar-recompile: a Python scalar that crosses a graph break (the `.item()` result a resumed
// frame receives) is specialized per value: every new value fails the frame's guard
// `L['___stack0'] == <v>` and recompiles it, until recompile_limit is reached and the frame runs
// in eager. See rules/scalar-recompile.md.
#include <map>
#include <set>

#include "analyzer/rule.h"

namespace ilint {
namespace {

std::string frame_compile_of(const std::string& compile_id) {
  auto us = compile_id.find('_');
  return us == std::string::npos ? compile_id : compile_id.substr(0, us);
}

std::string short_file(const std::string& p) {
  auto pos = p.find_last_of('/');
  return pos == std::string::npos ? p : p.substr(pos + 1);
}

std::string loc_text(const SourceLoc& l) { return short_file(l.file) + ":" + std::to_string(l.line); }

class ScalarRecompile : public Rule {
 public:
  const RuleInfo& info() const override {
    static const RuleInfo i{"scalar-recompile",
                            "Scalar crossing a graph break recompiles the resumed frame per value",
                            Severity::Warning,
                            "high",
                            {"performance", "recompilation", "dynamo"},
                            "A Python scalar (.item(), tolist, float argument) enters a compiled frame "
                            "specialized on its value: one recompile per distinct value, eager after "
                            "recompile_limit",
                            "rules/scalar-recompile.md", /*experimental=*/false, ReadsDynamoLogs};
    return i;
  }

  void check(const Program& program, std::vector<Finding>& out) const override {
    const DynamoModel& dm = program.dynamo;
    // The same crossing seen in several torch.compile sessions of one run (the captures compile with
    // inductor, then with aot_eager) is one problem: report the session with the most compiles.
    std::map<std::string, const ScalarCrossing*> best;
    std::map<std::string, std::set<int>> sessions_of;
    auto pinned_values = [](const ScalarCrossing& sc) {
      std::set<std::string> v;
      for (const auto& u : sc.uses)
        if (u.pinned_by_guard && u.treatment == "specialized" && !u.value.empty()) v.insert(u.value);
      return v;
    };
    for (const auto& sc : dm.scalars) {
      if (sc.produced_by == "stack value") continue;  // not known to be a scalar from user code
      if (pinned_values(sc).size() < 2) continue;
      // A later compile that takes the scalar dynamically (automatic dynamic after the 2nd value)
      // stopped the per-value recompiles: not this rule's pattern (stale-scalar looks at it).
      bool went_dynamic = false;
      for (const auto& u : sc.uses) went_dynamic |= u.guards_logged && !u.pinned_by_guard && u.treatment == "dynamic";
      if (went_dynamic) continue;
      std::string key = sc.capture + "|" + sc.into_function + "|" + sc.local_name + "|" + sc.origin.file + ":" + std::to_string(sc.origin.line);
      sessions_of[key].insert(sc.session);
      auto it = best.find(key);
      if (it == best.end() || pinned_values(sc).size() > pinned_values(*it->second).size()) best[key] = &sc;
    }
    for (const auto& [key, scp] : best) {
      const ScalarCrossing& sc = *scp;
      const Frame* frame = dm.frame(sc.session, sc.into_frame);
      Finding f;
      f.severity = Severity::Warning;
      bool from_item = sc.produced_by == ".item()" || sc.produced_by == "tolist";
      std::string what = from_item ? "`" + sc.origin_code.substr(0, sc.origin_code.find("  #")) + "` (" +
                                         loc_text(sc.origin) + ") returns a Python scalar that crosses the graph break into"
                                   : "The Python float " + sc.source + " enters";
      std::string list;
      int n = 0;
      nlohmann::json compiles = nlohmann::json::array();
      for (const auto& u : sc.uses) {
        if (!u.pinned_by_guard || u.value.empty()) continue;
        list += std::string(n++ ? ", " : "") + frame_compile_of(u.compile_id) + " = " + u.value;
        compiles.push_back({{"compile_id", u.compile_id},
                            {"value", u.value},
                            {"value_source", u.value_source},
                            {"guards", u.guards},
                            {"graphs", u.compile_dirs}});
      }
      bool hit = frame && frame->fell_back_to_eager && frame->skip_reason == "recompile_limit reached";
      const std::string limit = "recompile_limit (" + std::to_string(dm.recompile_limit) + ")";
      f.message = fit_headline({"`", input_text(sc.into_function),
                                hit ? "`: one recompile per scalar value up to " + limit + "; now runs in eager"
                                    : "`: one recompile per scalar value (" + std::to_string(n) + " compiles), eager after " + limit});
      f.notes = {what + " `" + sc.into_function + "`, and Dynamo specializes that frame on its value (guard " + sc.source +
                     " == <value>).",
                 std::to_string(n) + " compiles of frame " + std::to_string(sc.into_frame) + " for the values seen (" + list +
                     "), one recompile per new value.",
                 hit ? limit + " was reached and the frame now runs in eager."
                     : "After " + limit + " distinct values the frame falls back to eager."};
      f.location = from_item && sc.origin.valid() ? sc.origin : SourceLoc{};
      // Related: the resumed frame, then the user lines whose guards pin the value, then the user
      // lines of compiled literals derived from it.
      if (sc.into_loc.valid()) f.related.push_back({sc.into_loc, "resumed frame " + sc.into_function});
      std::set<std::pair<std::string, int>> seen;
      for (const auto& u : sc.uses)
        if (u.guard_user_loc && seen.insert({u.guard_user_loc->file, u.guard_user_loc->line}).second) {
          if (!f.location.valid()) f.location = *u.guard_user_loc;
          std::string vals;
          for (const auto& w : sc.uses)
            if (w.guard_user_loc && *w.guard_user_loc == *u.guard_user_loc && !w.value.empty())
              vals += (vals.empty() ? "" : ", ") + w.value;
          f.related.push_back({*u.guard_user_loc, "use of the scalar that the guards name (" + sc.source + " == " + vals + ")"});
        }
      for (const auto& u : sc.uses)
        for (const auto& d : u.literals)
          if (d.user_loc && seen.insert({d.user_loc->file, d.user_loc->line}).second)
            f.related.push_back({*d.user_loc, "compiled as a literal that changes with the scalar: " + d.user_code});
      if (f.related.empty() && f.location.valid()) f.related.push_back({f.location, "scalar origin"});
      f.fix = "Keep the scalar out of Python: set `torch._dynamo.config.capture_scalar_outputs = True` so `.item()` "
              "stays in the graph as an unbacked SymFloat (no graph break, no per-value recompiles), or keep the "
              "value as a 0-d tensor and compute with tensor ops (as torch.optim.Adam(capturable=True) does with its "
              "step), or mark it dynamic (specialize_float=False / dynamic=True) where every op using it can be "
              "tensorified; torch 2.11 still re-specialized this resumed float with both.";
      f.fingerprint_key = sc.into_function + "|" + sc.local_name;
      f.evidence = {{"scalar", sc.source},
                    {"produced_by", sc.produced_by},
                    {"origin", sc.origin.valid() ? sc.origin.file + ":" + std::to_string(sc.origin.line) : ""},
                    {"origin_code", sc.origin_code},
                    {"from_function", sc.from_function},
                    {"into_function", sc.into_function},
                    {"into_frame", sc.into_frame},
                    {"session", sc.session},
                    {"sessions_with_same_pattern", sessions_of[key].size()},
                    {"compiles", compiles},
                    {"recompile_limit", dm.recompile_limit},
                    {"recompile_limit_reached", hit}};
      out.push_back(std::move(f));
    }
  }
};

}  // namespace
std::unique_ptr<Rule> make_scalar_recompile() { return std::make_unique<ScalarRecompile>(); }
}  // namespace ilint
