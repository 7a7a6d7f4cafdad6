#include "analyzer/util/version.h"
#include "analyzer/report/json.h"

#include <string>

#include "analyzer/util/parallel.h"

namespace ilint {

nlohmann::json location_json(const SourceLoc& l) {
  return {{"file", l.file}, {"line", l.line}, {"column", l.column}};
}

nlohmann::json coverage_json(const Coverage& c) {
  nlohmann::json compiles = nlohmann::json::array();
  size_t complete = 0;
  for (const auto& cc : c.compiles) {
    nlohmann::json incomplete = nlohmann::json::array();
    for (const auto& k : cc.incomplete)
      incomplete.push_back({{"kernel", k.kernel},
                            {"body_read", k.body_read},
                            {"unmodeled_forms", k.unmodeled_forms},
                            {"parse_errors", k.parse_errors}});
    complete += cc.complete();
    compiles.push_back({{"compile", cc.compile_id},
                        {"origin", cc.origin},
                        {"output_code", cc.output_code},
                        {"kernels", cc.kernels},
                        {"kernels_fully_read", cc.kernels_fully_read},
                        {"incomplete_kernels", incomplete},
                        {"fx_graph", cc.fx_graph},
                        {"logs_joined", cc.logs_joined},
                        {"undecided_rules", cc.undecided_rules}});
  }
  return {{"compiles", compiles},
          {"complete_compiles", complete},
          {"dynamo_logs", c.dynamo_logs},
          {"compile_ids_logged", c.compiles_logged}};
}

nlohmann::json finding_json(const Finding& f) {
  nlohmann::json j;
  j["rule"] = f.rule;
  j["severity"] = severity_name(f.severity);
  j["message"] = f.message;
  j["notes"] = f.notes;
  j["location"] = location_json(f.location);
  nlohmann::json rel = nlohmann::json::array();
  for (const auto& r : f.related) {
    auto l = location_json(r.loc);
    l["message"] = r.message;
    rel.push_back(l);
  }
  j["related"] = rel;
  j["compile"] = f.compile_id;
  j["kernel"] = f.kernel;
  j["evidence"] = f.evidence;
  j["fix"] = f.fix;
  j["fingerprint"] = f.fingerprint;
  j["confirmation"] = f.confirmation;
  return j;
}

namespace {

nlohmann::json compile_json(const Compile& c) {
  return {{"id", c.id}, {"kind", c.graph_kind}, {"output_code", c.files.output_code},
          {"kernels", c.kernels.size()}, {"launches", c.launches.size()}};
}

nlohmann::json diagnostic_json(const Diagnostic& d) {
  return {{"level", diag_level_name(d.level)}, {"code", d.code}, {"message", d.message},
          {"location", location_json(d.loc)}};
}

nlohmann::json inputs_json(const Analysis& a) {
  nlohmann::json inputs = nlohmann::json::array();
  for (const auto& p : a.program.inputs) inputs.push_back(p);
  return inputs;
}

nlohmann::json summary_json(const Analysis& a) {
  nlohmann::json counts = {{"error", 0}, {"warning", 0}, {"note", 0}};
  for (const auto& f : a.findings) counts[severity_name(f.severity)] = counts[severity_name(f.severity)].get<int>() + 1;
  return {{"findings", a.findings.size()},
          {"by_severity", counts},
          {"files_read", a.files_read},
          {"suppressed", a.suppressed.size()},
          {"in_baseline", a.in_baseline}};
}

// Findings the config or an inline comment suppressed, each with why and where it was said.
nlohmann::json suppressed_json(const Analysis& a) {
  nlohmann::json out = nlohmann::json::array();
  for (const auto& s : a.suppressed) {
    nlohmann::json f = finding_json(s.finding);
    f["suppression"] = {{"kind", s.in_source ? "inline" : "config"},
                        {"reason", s.reason},
                        {"location", location_json(s.suppressed_by)}};
    out.push_back(std::move(f));
  }
  return out;
}

nlohmann::json tool_json() { return {{"name", "inductor-lint"}, {"version", kToolVersion}}; }

// `v` printed as nlohmann's dump(2) prints it `depth` levels down in an enclosing document: its
// own dump, with every line after the first moved right by two spaces a level. A dump's strings
// hold no raw newline (JSON escapes them), so every '\n' in it starts a line.
void append_nested(std::string& out, const nlohmann::json& v, int depth) {
  // Invalid UTF-8 in any string (from a corrupt input) is replaced, never a throw.
  std::string s = v.dump(2, ' ', false, nlohmann::json::error_handler_t::replace);
  const std::string pad(static_cast<size_t>(2 * depth), ' ');
  size_t start = 0;
  for (size_t nl; (nl = s.find('\n', start)) != std::string::npos; start = nl + 1) {
    out.append(s, start, nl + 1 - start);
    out += pad;
  }
  out.append(s, start, std::string::npos);
}

// The array member `"key": [...]` of the document's top level, its elements made by
// `element(i)` for i in [0, n), printed in groups on `jobs` threads and written in order.
template <class Element>
void write_array_member(std::ostream& os, const char* key, size_t n, int jobs, Element&& element) {
  os << "  \"" << key << "\": ";
  if (n == 0) {
    os << "[]";
    return;
  }
  os << "[\n";
  constexpr size_t kGroup = 64;  // elements per task: enough work to outweigh the hand-out
  const size_t groups = (n + kGroup - 1) / kGroup;
  // Groups are printed a window at a time, so the text held at once stays a fraction of the
  // output (findings carry evidence and fixes: a few KB each).
  const size_t window = static_cast<size_t>(std::max(1, jobs)) * 16;
  std::vector<std::string> text(std::min(groups, window));
  for (size_t first = 0; first < groups; first += window) {
    size_t count = std::min(window, groups - first);
    parallel_for(count, jobs, [&](size_t g) {
      std::string& out = text[g];
      out.clear();
      size_t begin = (first + g) * kGroup, end = std::min(n, begin + kGroup);
      for (size_t i = begin; i < end; ++i) {
        out += "    ";
        append_nested(out, element(i), 2);
        out += i + 1 < n ? ",\n" : "\n";
      }
    });
    for (size_t g = 0; g < count; ++g) os << text[g];
  }
  os << "  ]";
}

}  // namespace

nlohmann::json localizations_json(const Analysis& a) {
  nlohmann::json out = nlohmann::json::array();
  for (const auto& l : a.localizations) out.push_back(l.answer);
  return out;
}

nlohmann::json analysis_json(const Analysis& a) {
  nlohmann::json j;
  j["tool"] = tool_json();
  j["torch_version"] = a.program.torch_version;
  j["inputs"] = inputs_json(a);
  nlohmann::json compiles = nlohmann::json::array();
  for (const auto& c : a.program.compiles) compiles.push_back(compile_json(c));
  j["compiles"] = compiles;
  j["coverage"] = coverage_json(a.coverage);
  nlohmann::json fs = nlohmann::json::array();
  for (const auto& f : a.findings) fs.push_back(finding_json(f));
  j["findings"] = fs;
  nlohmann::json ds = nlohmann::json::array();
  for (const auto& d : a.diags.sorted()) ds.push_back(diagnostic_json(d));
  j["diagnostics"] = ds;
  if (!a.localizations.empty()) j["localizations"] = localizations_json(a);
  j["summary"] = summary_json(a);
  if (!a.suppressed.empty()) j["suppressed"] = suppressed_json(a);
  return j;
}

void write_json(const Analysis& a, std::ostream& os, int jobs) {
  // The same bytes as analysis_json(a).dump(2) (a unit test compares them), printed member by
  // member in the order nlohmann sorts the keys in, the large arrays element by element on
  // `jobs` threads: the report of a 100k-kernel corpus is tens of MB, and building the whole
  // document before printing it was one thread's work and twice its memory.
  const auto& compiles = a.program.compiles;
  const std::vector<Diagnostic> diags = a.diags.sorted();
  os << "{\n";
  write_array_member(os, "compiles", compiles.size(), jobs, [&](size_t i) { return compile_json(compiles[i]); });
  os << ",\n";
  {
    std::string coverage = "  \"coverage\": ";
    append_nested(coverage, coverage_json(a.coverage), 1);
    os << coverage << ",\n";
  }
  write_array_member(os, "diagnostics", diags.size(), jobs, [&](size_t i) { return diagnostic_json(diags[i]); });
  os << ",\n";
  write_array_member(os, "findings", a.findings.size(), jobs, [&](size_t i) { return finding_json(a.findings[i]); });
  os << ",\n";
  std::string rest;
  std::vector<std::pair<const char*, nlohmann::json>> members = {{"inputs", inputs_json(a)}};
  if (!a.localizations.empty()) members.push_back({"localizations", localizations_json(a)});
  members.push_back({"summary", summary_json(a)});
  if (!a.suppressed.empty()) members.push_back({"suppressed", suppressed_json(a)});
  members.push_back({"tool", tool_json()});
  members.push_back({"torch_version", a.program.torch_version});
  for (auto& [key, value] : members) {
    rest += rest.empty() ? "  \"" : ",\n  \"";
    rest += key;
    rest += "\": ";
    append_nested(rest, value, 1);
  }
  os << rest << "\n}\n";
}

}  // namespace ilint
