#include "analyzer/report/sarif.h"

#include "analyzer/report/json.h"

#include <filesystem>
#include <map>

namespace fs = std::filesystem;
using nlohmann::json;

namespace ilint {

namespace {

const char* sarif_level(Severity s) {
  switch (s) {
    case Severity::Error: return "error";
    case Severity::Warning: return "warning";
    case Severity::Note: return "note";
  }
  return "note";
}

// CodeQL's problem.severity vocabulary.
const char* problem_severity(Severity s) {
  switch (s) {
    case Severity::Error: return "error";
    case Severity::Warning: return "warning";
    case Severity::Note: return "recommendation";
  }
  return "recommendation";
}

std::string percent_encode_path(const std::string& p) {
  static const char* hex = "0123456789ABCDEF";
  std::string out;
  for (unsigned char c : p) {
    bool keep = (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '-' ||
                c == '.' || c == '_' || c == '~' || c == '/';
    if (keep) {
      out += static_cast<char>(c);
    } else {
      out += '%';
      out += hex[c >> 4];
      out += hex[c & 15];
    }
  }
  return out;
}

json physical_location(const SourceLoc& loc, const std::string& root) {
  json pl;
  pl["artifactLocation"] = sarif_artifact_location(loc.file, root);
  if (loc.line > 0) {
    json region{{"startLine", loc.line}};
    if (loc.column > 0) region["startColumn"] = loc.column;
    pl["region"] = region;
  }
  return pl;
}

json location(const SourceLoc& loc, const std::string& root, const std::string& message, int id = -1) {
  json l;
  if (id >= 0) l["id"] = id;
  l["physicalLocation"] = physical_location(loc, root);
  if (!message.empty()) l["message"] = {{"text", message}};
  return l;
}

std::string strip_dot_slash(std::string s) {
  while (s.rfind("./", 0) == 0) s = s.substr(2);
  return s;
}

// A step of a flow, from the rule's evidence: {"file", "line", "column"?, "message"?}.
bool flow_step_from_json(const json& j, SourceLoc& loc, std::string& msg) {
  if (!j.is_object() || !j.contains("file") || !j["file"].is_string() || !j.contains("line") ||
      !j["line"].is_number_integer())
    return false;
  loc.file = j["file"].get<std::string>();
  loc.line = j["line"].get<int>();
  loc.column = j.contains("column") && j["column"].is_number_integer() ? j["column"].get<int>() : 0;
  msg = j.contains("message") && j["message"].is_string() ? j["message"].get<std::string>() : "";
  return loc.valid();
}

json thread_flow_location(const SourceLoc& loc, const std::string& msg, const std::string& root) {
  return json{{"location", location(loc, root, msg)}};
}

json result_for(const Finding& f, int rule_index, const std::string& root) {
  json r;
  r["ruleId"] = f.rule;
  if (rule_index >= 0) r["ruleIndex"] = rule_index;
  r["level"] = sarif_level(f.severity);
  r["message"] = {{"text", f.message.empty() ? f.rule : f.message}};
  json locs = json::array();
  if (f.location.valid()) {
    json l = location(f.location, root, "");
    if (!f.kernel.empty() || !f.compile_id.empty()) {
      json lg = json::array();
      if (!f.kernel.empty()) lg.push_back({{"name", f.kernel}, {"kind", "function"}});
      l["logicalLocations"] = lg;
      if (lg.empty()) l.erase("logicalLocations");
    }
    locs.push_back(l);
  } else if (!f.related.empty() && f.related.front().loc.valid()) {
    // No generated-code location (a frame-level finding): the user source is the location.
    locs.push_back(location(f.related.front().loc, root, ""));
  }
  r["locations"] = locs;
  json rel = json::array();
  int id = 1;
  for (const auto& rl : f.related)
    if (rl.loc.valid()) rel.push_back(location(rl.loc, root, rl.message, id++));
  if (!rel.empty()) r["relatedLocations"] = rel;

  // Where a value flows from one place to another (a scalar produced by `.item()` and consumed by
  // a later graph): the rule's evidence "flow" steps, else the user-source steps then the kernel.
  json steps = json::array();
  if (f.evidence.is_object() && f.evidence.contains("flow") && f.evidence["flow"].is_array()) {
    for (const auto& s : f.evidence["flow"]) {
      SourceLoc l;
      std::string m;
      if (flow_step_from_json(s, l, m)) steps.push_back(thread_flow_location(l, m, root));
    }
  } else {
    size_t valid_related = 0;
    for (const auto& rl : f.related) valid_related += rl.loc.valid();
    if (valid_related >= 2 || (valid_related >= 1 && f.location.valid())) {
      for (const auto& rl : f.related)
        if (rl.loc.valid()) steps.push_back(thread_flow_location(rl.loc, rl.message, root));
      if (f.location.valid())
        steps.push_back(thread_flow_location(f.location, f.kernel.empty() ? "generated code" : "kernel " + f.kernel, root));
    }
  }
  if (steps.size() >= 2) r["codeFlows"] = json::array({{{"threadFlows", json::array({{{"locations", steps}}})}}});

  // GitHub de-duplicates alerts across runs by partialFingerprints. Giving primaryLocationLineHash
  // ourselves stops upload-sarif from hashing the (regenerated, line-shifting) generated file.
  if (!f.fingerprint.empty())
    r["partialFingerprints"] = {{"primaryLocationLineHash", f.fingerprint + ":1"}, {"inductorLint/v1", f.fingerprint}};
  json props = json::object();
  if (!f.compile_id.empty()) props["compile"] = f.compile_id;
  if (!f.kernel.empty()) props["kernel"] = f.kernel;
  if (!f.fix.empty()) props["fix"] = f.fix;
  if (!f.confirmation.is_null()) props["confirmation"] = f.confirmation;
  if (!props.empty()) r["properties"] = props;
  return r;
}

}  // namespace

json sarif_artifact_location(const std::string& path, const std::string& root) {
  json a;
  std::error_code ec;
  fs::path p(path);
  if (p.is_relative()) {
    a["uri"] = percent_encode_path(strip_dot_slash(p.lexically_normal().generic_string()));
    a["uriBaseId"] = "%SRCROOT%";
    return a;
  }
  if (!root.empty()) {
    fs::path rel = p.lexically_normal().lexically_relative(fs::path(root).lexically_normal());
    std::string rs = rel.generic_string();
    if (!rel.empty() && rs.rfind("..", 0) != 0) {
      a["uri"] = percent_encode_path(strip_dot_slash(rs));
      a["uriBaseId"] = "%SRCROOT%";
      return a;
    }
  }
  a["uri"] = "file://" + percent_encode_path(p.lexically_normal().generic_string());
  return a;
}

void write_sarif(const Analysis& analysis, const std::vector<RuleInfo>& rules, std::ostream& out,
                 const SarifOptions& opts) {
  std::vector<RuleDoc> docs;
  for (const auto& r : rules) docs.push_back(load_rule_doc(r));
  write_sarif(analysis, docs, out, opts);
}

void write_sarif(const Analysis& analysis, const std::vector<RuleDoc>& rules, std::ostream& out,
                 const SarifOptions& opts) {
  std::string root = opts.source_root;
  if (root.empty()) {
    std::error_code ec;
    root = fs::current_path(ec).string();
  }
  json driver;
  driver["name"] = "inductor-lint";
  driver["semanticVersion"] = opts.tool_version;
  driver["version"] = opts.tool_version;
  json jrules = json::array();
  std::map<std::string, int> index;
  auto add_rule = [&](const RuleDoc& d) {
    const RuleInfo& ri = d.info;
    json r;
    r["id"] = ri.id;
    if (!ri.name.empty()) {
      // reportingDescriptor.name is meant to be an identifier-like name: CamelCase of the title.
      std::string n;
      bool up = true;
      for (char c : ri.name) {
        if (std::isalnum(static_cast<unsigned char>(c))) {
          n += up ? static_cast<char>(std::toupper(static_cast<unsigned char>(c))) : c;
          up = false;
        } else {
          up = true;
        }
      }
      if (!n.empty()) r["name"] = n;
    }
    std::string shortd = !ri.short_description.empty() ? ri.short_description : (!ri.name.empty() ? ri.name : ri.id);
    r["shortDescription"] = {{"text", shortd}};
    r["fullDescription"] = {{"text", d.full_description.empty() ? shortd : d.full_description}};
    std::string md = d.markdown.empty() ? shortd : d.markdown;
    r["help"] = {{"text", md}, {"markdown", md}};
    r["defaultConfiguration"] = {{"level", sarif_level(ri.default_severity)}};
    json props;
    json tags = json::array();
    for (size_t i = 0; i < ri.tags.size() && i < 20; ++i) tags.push_back(ri.tags[i]);  // GitHub: <= 20 tags
    if (ri.experimental) tags.push_back("experimental");
    props["tags"] = tags;
    if (!ri.precision.empty()) props["precision"] = ri.precision;
    props["problem.severity"] = problem_severity(ri.default_severity);
    r["properties"] = props;
    index[ri.id] = static_cast<int>(jrules.size());
    jrules.push_back(r);
  };
  for (const auto& d : rules)
    if (!index.count(d.info.id)) add_rule(d);
  auto ensure_rule = [&](const Finding& f) {
    if (index.count(f.rule)) return;
    RuleDoc d;
    d.info.id = f.rule;
    d.info.default_severity = f.severity;
    add_rule(d);
  };
  for (const auto& f : analysis.findings) ensure_rule(f);
  if (opts.suppressed)
    for (const auto& s : *opts.suppressed) ensure_rule(s.finding);
  driver["rules"] = jrules;

  json results = json::array();
  for (const auto& f : analysis.findings) results.push_back(result_for(f, index.at(f.rule), root));
  if (opts.suppressed) {
    for (const auto& s : *opts.suppressed) {
      json r = result_for(s.finding, index.at(s.finding.rule), root);
      json sup{{"kind", "external"}, {"status", "accepted"}, {"justification", s.reason}};
      if (s.suppressed_by.valid()) sup["location"] = location(s.suppressed_by, root, "");
      r["suppressions"] = json::array({sup});
      results.push_back(r);
    }
  }

  // Problems with the input (a file that could not be parsed) as tool execution notifications.
  json notes = json::array();
  bool had_error = false;
  for (const auto& d : analysis.diags.sorted()) {
    json n;
    n["level"] = d.level == DiagLevel::Error ? "error" : d.level == DiagLevel::Warning ? "warning" : "note";
    had_error |= d.level == DiagLevel::Error;
    n["message"] = {{"text", d.message}};
    if (!d.code.empty()) n["descriptor"] = {{"id", d.code}};
    if (d.loc.valid() || !d.loc.file.empty()) {
      json pl;
      pl["artifactLocation"] = sarif_artifact_location(d.loc.file, root);
      if (d.loc.line > 0) pl["region"] = {{"startLine", d.loc.line}};
      n["locations"] = json::array({{{"physicalLocation", pl}}});
    }
    notes.push_back(n);
  }
  json invocation{{"executionSuccessful", analysis.files_read > 0 && !had_error}};
  if (!notes.empty()) invocation["toolExecutionNotifications"] = notes;

  json run;
  run["tool"] = {{"driver", driver}};
  run["automationDetails"] = {{"id", "inductor-lint/"}};
  std::string root_uri = "file://" + percent_encode_path(fs::path(root).lexically_normal().generic_string());
  if (root_uri.back() != '/') root_uri += '/';
  run["originalUriBaseIds"] = {{"%SRCROOT%", {{"uri", root_uri}}}};
  run["invocations"] = json::array({invocation});
  run["columnKind"] = "unicodeCodePoints";
  run["results"] = results;
  // What was read of each compile (docs/json-output.md, "coverage"): the analysis-incomplete notes
  // above say where it falls short.
  run["properties"] = {{"coverage", coverage_json(analysis.coverage)}};

  json log;
  log["$schema"] = "https://json.schemastore.org/sarif-2.1.0.json";
  log["version"] = "2.1.0";
  log["runs"] = json::array({run});
  out << log.dump(2, ' ', false, json::error_handler_t::replace) << "\n";
}

}  // namespace ilint
