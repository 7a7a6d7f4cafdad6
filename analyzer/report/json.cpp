#include "analyzer/report/json.h"

namespace ilint {

nlohmann::json location_json(const SourceLoc& l) {
  return {{"file", l.file}, {"line", l.line}, {"column", l.column}};
}

nlohmann::json finding_json(const Finding& f) {
  nlohmann::json j;
  j["rule"] = f.rule;
  j["severity"] = severity_name(f.severity);
  j["message"] = f.message;
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

nlohmann::json analysis_json(const Analysis& a) {
  nlohmann::json j;
  j["tool"] = {{"name", "inductor-lint"}, {"version", "0.1.0"}};
  j["torch_version"] = a.program.torch_version;
  nlohmann::json inputs = nlohmann::json::array();
  for (const auto& p : a.program.inputs) inputs.push_back(p);
  j["inputs"] = inputs;
  nlohmann::json compiles = nlohmann::json::array();
  for (const auto& c : a.program.compiles)
    compiles.push_back({{"id", c.id}, {"kind", c.graph_kind}, {"output_code", c.files.output_code},
                        {"kernels", c.kernels.size()}, {"launches", c.launches.size()}});
  j["compiles"] = compiles;
  nlohmann::json fs = nlohmann::json::array();
  for (const auto& f : a.findings) fs.push_back(finding_json(f));
  j["findings"] = fs;
  nlohmann::json ds = nlohmann::json::array();
  for (const auto& d : a.diags.sorted())
    ds.push_back({{"level", diag_level_name(d.level)}, {"code", d.code}, {"message", d.message},
                  {"location", location_json(d.loc)}});
  j["diagnostics"] = ds;
  nlohmann::json counts = {{"error", 0}, {"warning", 0}, {"note", 0}};
  for (const auto& f : a.findings) counts[severity_name(f.severity)] = counts[severity_name(f.severity)].get<int>() + 1;
  j["summary"] = {{"findings", a.findings.size()}, {"by_severity", counts}, {"files_read", a.files_read}};
  return j;
}

void write_json(const Analysis& a, std::ostream& os) {
  // Invalid UTF-8 in any string (from a corrupt input) is replaced, never a throw.
  os << analysis_json(a).dump(2, ' ', false, nlohmann::json::error_handler_t::replace) << "\n";
}

}  // namespace ilint
