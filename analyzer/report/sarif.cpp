#include "analyzer/report/sarif.h"

#include "analyzer/report/json.h"
#include "analyzer/report/review_location.h"

#include <algorithm>
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

// How paths are written. A generated file lies in a run folder (torch_compile_debug/run_<time>-
// pid_<n>/) whose name changes on every run: it is written relative to that folder, under a base id
// (RUN0, RUN1, ... in path order) that run.originalUriBaseIds resolves, so that two captures of one
// program give the same results and only the run's metadata differs. Other paths are relative to
// the source root (%SRCROOT%) when under it.
struct SarifPaths {
  std::string root;                       // the source root
  std::vector<std::string> run_dirs;      // sorted, each ending in '/'
  const GeneratedFiles* generated = nullptr;

  json artifact(const std::string& path) const {
    for (size_t i = 0; i < run_dirs.size(); ++i)
      if (path.size() > run_dirs[i].size() && path.compare(0, run_dirs[i].size(), run_dirs[i]) == 0)
        return {{"uri", percent_encode_path(path.substr(run_dirs[i].size()))}, {"uriBaseId", "RUN" + std::to_string(i)}};
    return sarif_artifact_location(path, root);
  }
};

json physical_location(const SourceLoc& loc, const SarifPaths& paths) {
  json pl;
  pl["artifactLocation"] = paths.artifact(loc.file);
  if (loc.line > 0) {
    json region{{"startLine", loc.line}};
    if (loc.column > 0) region["startColumn"] = loc.column;
    pl["region"] = region;
  }
  return pl;
}

json location(const SourceLoc& loc, const SarifPaths& paths, const std::string& message, int id = -1) {
  json l;
  if (id >= 0) l["id"] = id;
  l["physicalLocation"] = physical_location(loc, paths);
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

json thread_flow_location(const SourceLoc& loc, const std::string& msg, const SarifPaths& paths) {
  return json{{"location", location(loc, paths, msg)}};
}

json result_for(const Finding& f, int rule_index, const SarifPaths& paths) {
  json r;
  r["ruleId"] = f.rule;
  if (rule_index >= 0) r["ruleIndex"] = rule_index;
  r["level"] = sarif_level(f.severity);
  // The headline, then the notes a line each: code scanning shows the first line as the alert's title.
  std::string text = f.message.empty() ? f.rule : f.message;
  for (const auto& n : f.notes) text += "\n" + n;
  r["message"] = {{"text", text}};
  // The primary location is the user's line (review_location.h): code scanning keys an alert on
  // its path and line, and an annotation lands on a diff only in the repository's own files. The
  // generated line and the kernel come after, as a related location and properties.
  const SourceLoc primary = review_location(f, *paths.generated);
  json locs = json::array();
  if (primary.valid()) {
    json l = location(primary, paths, "");
    if (!f.kernel.empty()) l["logicalLocations"] = json::array({{{"name", f.kernel}, {"kind", "function"}}});
    locs.push_back(l);
  }
  r["locations"] = locs;
  json rel = json::array();
  int id = 1;
  for (const auto& rl : f.related)
    if (rl.loc.valid() && !(rl.loc == primary)) rel.push_back(location(rl.loc, paths, rl.message, id++));
  if (f.location.valid() && !(f.location == primary))
    rel.push_back(location(f.location, paths, f.kernel.empty() ? "generated code" : "generated code: kernel " + f.kernel, id++));
  if (!rel.empty()) r["relatedLocations"] = rel;

  // Where a value flows from one place to another (a scalar produced by `.item()` and consumed by
  // a later graph): the rule's evidence "flow" steps, else the user-source steps then the kernel.
  json steps = json::array();
  if (f.evidence.is_object() && f.evidence.contains("flow") && f.evidence["flow"].is_array()) {
    for (const auto& s : f.evidence["flow"]) {
      SourceLoc l;
      std::string m;
      if (flow_step_from_json(s, l, m)) steps.push_back(thread_flow_location(l, m, paths));
    }
  } else {
    size_t valid_related = 0;
    for (const auto& rl : f.related) valid_related += rl.loc.valid();
    if (valid_related >= 2 || (valid_related >= 1 && f.location.valid())) {
      for (const auto& rl : f.related)
        if (rl.loc.valid()) steps.push_back(thread_flow_location(rl.loc, rl.message, paths));
      if (f.location.valid())
        steps.push_back(thread_flow_location(f.location, f.kernel.empty() ? "generated code" : "kernel " + f.kernel, paths));
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

namespace {

// A rule's reportingDescriptor: its id, names, descriptions, help and default level.
json rule_descriptor(const RuleDoc& d) {
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
  if (!d.help_uri.empty())
    r["helpUri"] = d.help_uri.rfind("file://", 0) == 0 ? "file://" + percent_encode_path(d.help_uri.substr(7)) : d.help_uri;
  r["defaultConfiguration"] = {{"level", sarif_level(ri.default_severity)}};
  json props;
  json tags = json::array();
  for (size_t i = 0; i < ri.tags.size() && i < 20; ++i) tags.push_back(ri.tags[i]);  // GitHub: <= 20 tags
  if (ri.experimental) tags.push_back("experimental");
  props["tags"] = tags;
  if (!ri.precision.empty()) props["precision"] = ri.precision;
  props["problem.severity"] = problem_severity(ri.default_severity);
  r["properties"] = props;
  return r;
}

// Problems with the input (a file that could not be parsed) as tool execution notifications;
// `had_error` is set when one is an error.
json execution_notifications(const Analysis& analysis, const SarifPaths& paths, bool& had_error) {
  json notes = json::array();
  for (const auto& d : analysis.diags.sorted()) {
    json n;
    n["level"] = d.level == DiagLevel::Error ? "error" : d.level == DiagLevel::Warning ? "warning" : "note";
    had_error |= d.level == DiagLevel::Error;
    n["message"] = {{"text", d.message}};
    if (!d.code.empty()) n["descriptor"] = {{"id", d.code}};
    if (d.loc.valid() || !d.loc.file.empty()) {
      json pl;
      pl["artifactLocation"] = paths.artifact(d.loc.file);
      if (d.loc.line > 0) pl["region"] = {{"startLine", d.loc.line}};
      n["locations"] = json::array({{{"physicalLocation", pl}}});
    }
    notes.push_back(n);
  }
  return notes;
}

}  // namespace

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
  GeneratedFiles generated(analysis.ingest);
  SarifPaths paths;
  paths.root = root;
  paths.generated = &generated;
  for (const auto& c : analysis.ingest.compiles)
    if (!c.run_dir.empty()) paths.run_dirs.push_back(c.run_dir.str() + (c.run_dir.str().back() == '/' ? "" : "/"));
  std::sort(paths.run_dirs.begin(), paths.run_dirs.end());
  paths.run_dirs.erase(std::unique(paths.run_dirs.begin(), paths.run_dirs.end()), paths.run_dirs.end());
  json driver;
  driver["name"] = "inductor-lint";
  driver["semanticVersion"] = opts.tool_version;
  driver["version"] = opts.tool_version;
  json jrules = json::array();
  std::map<std::string, int> index;
  auto add_rule = [&](const RuleDoc& d) {
    index[d.info.id] = static_cast<int>(jrules.size());
    jrules.push_back(rule_descriptor(d));
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
  for (const auto& f : analysis.findings) results.push_back(result_for(f, index.at(f.rule), paths));
  if (opts.suppressed) {
    for (const auto& s : *opts.suppressed) {
      json r = result_for(s.finding, index.at(s.finding.rule), paths);
      json sup{{"kind", s.in_source ? "inSource" : "external"}, {"status", "accepted"}, {"justification", s.reason}};
      if (s.suppressed_by.valid()) sup["location"] = location(s.suppressed_by, paths, "");
      r["suppressions"] = json::array({sup});
      results.push_back(r);
    }
  }

  bool had_error = false;
  json notes = execution_notifications(analysis, paths, had_error);
  json invocation{{"executionSuccessful", analysis.files_read > 0 && !had_error}};
  if (!notes.empty()) invocation["toolExecutionNotifications"] = notes;

  json run;
  run["tool"] = {{"driver", driver}};
  run["automationDetails"] = {{"id", "inductor-lint/"}};
  std::string root_uri = "file://" + percent_encode_path(fs::path(root).lexically_normal().generic_string());
  if (root_uri.back() != '/') root_uri += '/';
  run["originalUriBaseIds"] = {{"%SRCROOT%", {{"uri", root_uri}}}};
  for (size_t i = 0; i < paths.run_dirs.size(); ++i) {
    fs::path dir = fs::absolute(paths.run_dirs[i]).lexically_normal();
    std::string uri = "file://" + percent_encode_path(dir.generic_string());
    if (uri.back() != '/') uri += '/';
    run["originalUriBaseIds"]["RUN" + std::to_string(i)] = {{"uri", uri}};
  }
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
