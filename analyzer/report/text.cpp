#include "analyzer/report/text.h"

#include <algorithm>
#include <cstdio>

#include "analyzer/report/terminal.h"
#include "analyzer/util/json_fields.h"
#include "analyzer/util/read_file.h"

namespace ilint {

namespace {

std::string loc_text(const SourceLoc& l) {
  std::string s = l.file.empty() ? "<unknown>" : terminal_safe(l.file);
  if (l.line > 0) s += ":" + std::to_string(l.line);
  if (l.line > 0 && l.column > 0) s += ":" + std::to_string(l.column);
  return s;
}

}  // namespace

namespace {

// "coverage: 4 compiles, 9 of 10 kernels fully read, FX graphs 4/4, Dynamo logs name 4/4; 1 compile
// incomplete (--coverage)", then with `detail` a line per compile.
void write_coverage(const Coverage& c, bool detail, std::ostream& os) {
  size_t kernels = 0, full = 0, fx = 0, joined = 0, incomplete = 0;
  for (const auto& cc : c.compiles) {
    kernels += cc.kernels;
    full += cc.kernels_fully_read;
    fx += cc.fx_graph;
    joined += cc.logs_joined;
    incomplete += !cc.complete();
  }
  size_t n = c.compiles.size();
  os << "coverage: " << n << " compile(s), " << full << " of " << kernels << " kernel(s) fully read, FX graphs "
     << fx << "/" << n << ", Dynamo logs " << (c.compiles_logged ? "name " + std::to_string(joined) + "/" + std::to_string(n)
                                                                : std::string("without compile ids"));
  if (incomplete) os << "; " << incomplete << " compile(s) incomplete" << (detail ? "" : " (--coverage lists them)");
  os << "\n";
  if (!detail) return;
  for (const auto& cc : c.compiles) {
    os << "  " << terminal_safe(cc.compile_id) << ": " << cc.kernels_fully_read << "/" << cc.kernels
       << " kernels fully read, FX graph " << (cc.fx_graph ? "read" : "missing") << ", Dynamo log "
       << (cc.logs_joined ? "joined" : "not joined");
    if (!cc.undecided_rules.empty()) {
      os << "; could not decide:";
      for (const auto& r : cc.undecided_rules) os << " " << r;
    }
    os << "\n";
    for (const auto& k : cc.incomplete) {
      os << "    " << terminal_safe(k.kernel) << (k.body_read ? ": partly read" : ": not read");
      for (const auto& f : k.unmodeled_forms) os << " [" << terminal_safe(f) << "]";
      for (const auto& e : k.parse_errors) os << " (" << terminal_safe(e) << ")";
      os << "\n";
    }
  }
}

// "localize model__0_inference_0.0 (cpu, seed 0): divergent - launch 0 ...", then one line per
// launch with its verdict and RMSE against float64 of compiled and of eager (the worst written
// buffer), and the user lines of the first divergent (else first departing) launch.
void write_localizations(const std::vector<Localization>& locs, std::ostream& os) {
  auto num = [](const nlohmann::json& w, const char* key) {
    if (!w.is_object() || !w.contains(key) || !w[key].is_object()) return std::string("-");
    char b[32];
    std::snprintf(b, sizeof b, "%.3g", json_number(w[key], "rmse", 0.0));
    return std::string(b);
  };
  for (const auto& l : locs) {
    const nlohmann::json& ans = l.answer;
    os << "localize " << terminal_safe(l.compile_id) << ": " << terminal_safe(json_string(ans, "verdict"));
    if (std::string d = json_string(ans, "detail"); !d.empty()) os << " - " << terminal_safe(d);
    os << "\n";
    if (!ans.contains("launches") || !ans["launches"].is_array()) continue;
    const nlohmann::json& first_div = ans["first_divergent_recomputed"];
    const nlohmann::json& first_dep = ans["first_departure_recomputed"];
    os << "  launch  verdict             RMSE vs fp64: compiled  eager      kernel\n";
    for (const auto& row : ans["launches"]) {
      if (!row.is_object()) continue;
      const nlohmann::json* worst = nullptr;
      double worst_rmse = -1;
      if (row.contains("writes") && row["writes"].is_array())
        for (const auto& w : row["writes"])
          if (w.is_object() && w.contains("compiled_vs_fp64") && w["compiled_vs_fp64"].is_object() &&
              json_number(w["compiled_vs_fp64"], "rmse", 0.0) > worst_rmse) {
            worst = &w;
            worst_rmse = json_number(w["compiled_vs_fp64"], "rmse", 0.0);
          }
      char line[160];
      std::snprintf(line, sizeof line, "  %-6d  %-18s  %-22s  %-9s  ", static_cast<int>(json_number(row, "order", -1)),
                    json_string(row, "verdict_recomputed").c_str(), worst ? num(*worst, "compiled_vs_fp64").c_str() : "-",
                    worst ? num(*worst, "eager_vs_fp64").c_str() : "-");
      os << line << terminal_safe(json_string(row, "kernel"));
      if (row.contains("source") && row["source"].is_object())
        os << " (line " << static_cast<int>(json_number(row["source"], "line", 0)) << ")";
      os << "\n";
    }
    const nlohmann::json& first = first_div.is_number() ? first_div : first_dep;
    if (!first.is_number()) continue;
    for (const auto& row : ans["launches"]) {
      if (!row.is_object() || json_number(row, "order", -1) != first.get<double>()) continue;
      os << "  " << (first_div.is_number() ? "first divergent" : "first departing") << " launch "
         << static_cast<int>(json_number(row, "order", -1)) << " computes "
         << terminal_safe(row.contains("fx_nodes") && row["fx_nodes"].is_array() ? row["fx_nodes"].dump() : "[]") << "\n";
      if (row.contains("user_lines") && row["user_lines"].is_array())
        for (const auto& u : row["user_lines"])
          os << "    " << terminal_safe(json_string(u, "file")) << ":" << static_cast<int>(json_number(u, "line", 0))
             << ": " << terminal_safe(json_string(u, "code")) << "\n";
    }
  }
}

}  // namespace

std::string suppressed_summary(const Analysis& a) {
  std::string s = std::to_string(a.suppressed.size()) + " suppressed";
  if (a.in_baseline) s += ", " + std::to_string(a.in_baseline) + " in the baseline";
  return s;
}

std::string findings_summary(const Analysis& a) {
  size_t e = 0, w = 0, n = 0;
  for (const auto& f : a.findings) (f.severity == Severity::Error ? e : f.severity == Severity::Warning ? w : n)++;
  return std::to_string(a.findings.size()) + " finding(s): " + std::to_string(e) + " error, " + std::to_string(w) +
         " warning, " + std::to_string(n) + " note; " + suppressed_summary(a);
}

void write_text(const Analysis& a, const TextOptions& o, std::ostream& os) {
  auto c = [&](const char* code) { return o.color ? std::string("\033[") + code + "m" : std::string(); };
  // The files findings point at: generated code the analysis read (an output_code.py past the
  // HTML report's 8 MiB keeps its snippets) and user sources the logs name.
  SourceLineCache lines(kMaxInputFileBytes);
  for (const auto& f : a.findings) lines.want(f.location.file, f.location.line);
  for (const auto& f : a.findings) {
    const char* sev_color = f.severity == Severity::Error ? "1;31" : f.severity == Severity::Warning ? "1;35" : "1;36";
    os << c("1") << loc_text(f.location) << ":" << c("0") << " " << c(sev_color) << severity_name(f.severity) << ":"
       << c("0") << " " << terminal_safe(f.message) << " [" << f.rule << "]\n";
    const std::string* line = lines.line(f.location.file, f.location.line);
    std::string src = line ? *line : std::string();
    if (!src.empty()) {
      if (src.size() > 200) src = src.substr(0, 200) + " ...";
      int col = f.location.column > 0 ? f.location.column : static_cast<int>(src.find_first_not_of(' ')) + 1;
      if (col < 1) col = 1;
      // The caret goes under the column as printed: escapes before it widen the line.
      size_t shown_col = terminal_safe(std::string_view(src).substr(0, std::min(src.size(), static_cast<size_t>(col - 1)))).size();
      os << terminal_safe(src) << "\n";
      os << std::string(shown_col, ' ') << c("1;32") << "^" << c("0") << "\n";
    }
    // The headline's detail, under the line it is about and before the other locations.
    for (const auto& n : f.notes) os << "  " << c("1;30") << "note:" << c("0") << " " << terminal_safe(n) << "\n";
    for (const auto& r : f.related)
      os << loc_text(r.loc) << ": " << c("1;30") << "note:" << c("0") << " " << terminal_safe(r.message) << "\n";
    if (o.show_fix && !f.fix.empty()) os << "  fix: " << terminal_safe(f.fix) << "\n";
    // A recorded answer (--confirm-results) may hold any types: read by type (json_fields.h).
    if (std::string verdict = json_string(f.confirmation, "verdict"); !verdict.empty()) {
      std::string summary = json_string(f.confirmation, "summary");
      os << "  confirmation: " << terminal_safe(verdict) << (summary.empty() ? "" : " - " + terminal_safe(summary)) << "\n";
    }
  }
  if (o.show_diagnostics)
    for (const auto& d : a.diags.sorted())
      os << loc_text(d.loc) << ": " << diag_level_name(d.level) << ": " << terminal_safe(d.message) << " [input:" << d.code
         << "]\n";
  write_coverage(a.coverage, o.show_coverage, os);
  write_localizations(a.localizations, os);
  os << findings_summary(a) << "; " << a.program.compiles.size() << " compile(s) read";
  if (a.diags.size()) os << "; " << a.diags.sorted().size() << " input diagnostic(s)";
  os << "\n";
}

}  // namespace ilint
