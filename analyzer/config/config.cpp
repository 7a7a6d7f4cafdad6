#include "analyzer/config/config.h"

#include <cctype>
#include <charconv>
#include <filesystem>
#include <set>

#include "analyzer/rule.h"
#include "analyzer/util/json_fields.h"
#include "analyzer/util/read_file.h"
#include "analyzer/util/text.h"

namespace fs = std::filesystem;

namespace ilint {

namespace {

// Best-effort line of the n-th occurrence of `"key"` in the text, to point diagnostics at it.
// nlohmann::json keeps no positions; the key text is the next best thing.
int line_of_key(const std::string& text, const std::string& key, int occurrence = 0) {
  std::string needle = "\"" + key + "\"";
  size_t pos = 0;
  for (int i = 0; i <= occurrence; ++i) {
    pos = text.find(needle, i == 0 ? 0 : pos + 1);
    if (pos == std::string::npos) return 0;
  }
  return line_of_offset(text, pos);
}

}  // namespace

bool path_matches(const std::string& path, const std::string& pattern) {
  if (pattern.empty()) return false;
  if (path == pattern) return true;
  if (path.size() > pattern.size() && path.compare(path.size() - pattern.size(), pattern.size(), pattern) == 0)
    return path[path.size() - pattern.size() - 1] == '/';
  return false;
}

std::string find_config_upward(const std::string& start_dir) {
  std::error_code ec;
  fs::path dir = fs::absolute(start_dir.empty() ? fs::path(".") : fs::path(start_dir), ec);
  if (ec) return {};
  for (int depth = 0; depth < 256; ++depth) {  // bounded: a path has finitely many parents
    fs::path cand = dir / ".inductor-lint.json";
    if (fs::is_regular_file(cand, ec)) return cand.string();
    // As ruff takes pyproject.toml only when it has [tool.ruff]: one without our table is not ours.
    fs::path pyproject = dir / "pyproject.toml";
    if (fs::is_regular_file(pyproject, ec) && pyproject_has_config(pyproject.string())) return pyproject.string();
    if (!dir.has_parent_path() || dir.parent_path() == dir) break;
    dir = dir.parent_path();
  }
  return {};
}

Config load_config(const std::string& path, DiagSink& diags) {
  Config cfg;
  cfg.path = path;
  std::string text;
  // A config is a few lines: 16 MiB is far past any real one, and bounds what a wrong path costs.
  if (!read_named_file(path, text, diags, "config-unreadable", "config file", size_t(16) << 20)) {
    cfg.ok = false;
    return cfg;
  }
  return parse_config(path, text, diags);
}

namespace {

// One entry of "rules": "off" / "on" / false / true / "error" / "warning" / "note", or
// {"enabled": ..., "severity": ...}. False when the entry is not a setting at all (nothing kept);
// `ok` turns false on any error.
bool read_rule_setting(const std::string& id, const nlohmann::json& v, const SourceLoc& at, RuleSetting& rs,
                       bool& ok, DiagSink& diags) {
  rs.rule = id;
  if (v.is_boolean()) {
    rs.enabled = v.get<bool>();
  } else if (v.is_string()) {
    std::string s = v.get<std::string>();
    if (s == "off" || s == "disabled") rs.enabled = false;
    else if (s == "on" || s == "enabled") rs.enabled = true;
    else if (auto sev = parse_severity(s)) rs.severity = *sev;
    else {
      diags.error("config-value", "rule setting '" + s + "' is not off/on/error/warning/note", at);
      ok = false;
      return false;
    }
  } else if (v.is_object()) {
    for (auto f = v.begin(); f != v.end(); ++f) {
      if (f.key() == "enabled" && f.value().is_boolean()) {
        rs.enabled = f.value().get<bool>();
      } else if (f.key() == "severity" && f.value().is_string() && parse_severity(f.value().get<std::string>())) {
        rs.severity = *parse_severity(f.value().get<std::string>());
      } else {
        diags.error("config-value",
                    "rule '" + id + "': '" + f.key() +
                        "' must be \"enabled\": true|false or \"severity\": \"error\"|\"warning\"|\"note\"",
                    at);
        ok = false;
      }
    }
  } else {
    diags.error("config-value", "rule '" + id + "': setting must be a string, boolean or object", at);
    ok = false;
    return false;
  }
  return true;
}

// One entry of "suppress": {"rule", "location": "file[:line]" (or "file" and "line"), "reason"}.
// Nothing when the entry cannot be one; `ok` turns false on any error.
std::optional<Suppression> read_suppression(const nlohmann::json& e, const SourceLoc& at,
                                            const std::set<std::string>& known, bool& ok, DiagSink& diags) {
  if (!e.is_object()) {
    diags.error("config-value", "each 'suppress' entry must be an object", at);
    ok = false;
    return std::nullopt;
  }
  Suppression s;
  s.defined_at = at;
  // A member of another type is named, not thrown on (nlohmann's value() would throw).
  const char* mistyped = nullptr;
  for (const char* key : {"rule", "reason", "location", "file"})
    if (json_member_mistyped(e, key, &nlohmann::json::is_string)) mistyped = key;
  if (json_member_mistyped(e, "line", json_is_int)) mistyped = "line";
  if (mistyped) {
    diags.error("config-value",
                std::string("a suppression's \"") + mistyped + "\" must be " +
                    (std::string_view(mistyped) == "line" ? "an integer" : "a string"),
                at);
    ok = false;
    return std::nullopt;
  }
  s.rule = json_string(e, "rule");
  s.reason = json_string(e, "reason");
  std::string where = json_string(e, "location");
  if (where.empty()) where = json_string(e, "file");
  s.line = json_int(e, "line", s.line);
  // "seed2.py:12" -> file + line. A tail that starts with a digit and is not a number
  // ("seed2.py:13abc") is a mistyped line, which as a file name would never match.
  auto colon = where.rfind(':');
  if (colon != std::string::npos && colon + 1 < where.size() && std::isdigit(static_cast<unsigned char>(where[colon + 1])) &&
      where.find_first_not_of("0123456789", colon + 1) != std::string::npos) {
    diags.error("config-value", "a suppression's location '" + where + "' has no line number after ':' (file[:line])", at);
    ok = false;
    return std::nullopt;
  }
  if (colon != std::string::npos && colon + 1 < where.size() &&
      where.find_first_not_of("0123456789", colon + 1) == std::string::npos) {
    std::string_view digits = std::string_view(where).substr(colon + 1);
    int line = 0;
    auto [end, ec] = std::from_chars(digits.data(), digits.data() + digits.size(), line);
    if (ec != std::errc() || end != digits.data() + digits.size()) {
      diags.error("config-value", "a suppression's line number " + std::string(digits) + " is out of range", at);
      ok = false;
      return std::nullopt;
    }
    s.line = line;
    where = where.substr(0, colon);
  }
  s.file = where;
  if (s.rule.empty() || s.file.empty() || s.reason.empty()) {
    diags.error("config-value",
                "a suppression needs \"rule\", \"location\" (user file[:line]) and a non-empty \"reason\"", at);
    ok = false;
    return std::nullopt;
  }
  if (s.rule != "*" && !known.count(s.rule)) {
    diags.error("config-unknown-rule",
                "suppression: " + RuleRegistry::instance().unknown_rule_message(s.rule), at);
    ok = false;
  }
  return s;
}

}  // namespace

Config parse_config(const std::string& path, const std::string& text, DiagSink& diags) {
  if (path.size() >= 5 && path.compare(path.size() - 5, 5, ".toml") == 0) return parse_pyproject_config(path, text, diags);
  nlohmann::json j;
  if (!parse_json_document(path, text, "config-parse", "config is not valid JSON: ", diags, j)) {
    Config cfg;
    cfg.path = path;
    cfg.ok = false;
    return cfg;
  }
  return config_from_document(
      path, j, [&](const std::string& key, int occurrence) { return line_of_key(text, key, occurrence); }, diags);
}

Config config_from_document(const std::string& path, const nlohmann::json& j, const KeyLineFn& key_line, DiagSink& diags) {
  Config cfg;
  cfg.path = path;
  if (!j.is_object()) {
    diags.error("config-parse", "config must be a JSON object", SourceLoc{path, 1, 0});
    cfg.ok = false;
    return cfg;
  }
  register_all_rules();
  std::set<std::string> known;
  for (const auto& id : RuleRegistry::instance().ids()) known.insert(id);

  static const std::set<std::string> kTopKeys = {"$schema", "rules", "suppress", "fail_on", "fail-on"};
  for (auto it = j.begin(); it != j.end(); ++it)
    if (!kTopKeys.count(it.key()))
      diags.warning("config-unknown-key", "unknown key '" + it.key() + "' (ignored)",
                    SourceLoc{path, key_line(it.key(), 0), 0});

  for (const char* k : {"fail_on", "fail-on"}) {
    if (!j.contains(k)) continue;
    const auto& v = j[k];
    static const std::set<std::string> kLevels = {"error", "warning", "note", "never"};
    if (v.is_string() && kLevels.count(v.get<std::string>())) {
      cfg.fail_on = v.get<std::string>();
    } else {
      diags.error("config-value", std::string("'") + k + "' must be one of error, warning, note, never",
                  SourceLoc{path, key_line(k, 0), 0});
      cfg.ok = false;
    }
  }

  if (j.contains("rules")) {
    const auto& rules = j["rules"];
    if (!rules.is_object()) {
      diags.error("config-value", "'rules' must be an object of rule id -> setting",
                  SourceLoc{path, key_line("rules", 0), 0});
      cfg.ok = false;
    } else {
      for (auto it = rules.begin(); it != rules.end(); ++it) {
        SourceLoc at{path, key_line(it.key(), 0), 0};
        if (!known.count(it.key())) {
          diags.error("config-unknown-rule", RuleRegistry::instance().unknown_rule_message(it.key()), at);
          cfg.ok = false;
        }
        RuleSetting rs;
        if (read_rule_setting(it.key(), it.value(), at, rs, cfg.ok, diags)) cfg.rules.push_back(rs);
      }
    }
  }

  if (j.contains("suppress")) {
    const auto& sup = j["suppress"];
    if (!sup.is_array()) {
      diags.error("config-value", "'suppress' must be an array", SourceLoc{path, key_line("suppress", 0), 0});
      cfg.ok = false;
    } else {
      int idx = 0;
      for (const auto& e : sup) {
        SourceLoc at{path, key_line("reason", idx) ? key_line("reason", idx) : key_line("suppress", 0), 0};
        ++idx;
        if (auto s = read_suppression(e, at, known, cfg.ok, diags)) cfg.suppressions.push_back(*s);
      }
    }
  }
  return cfg;
}

void apply_config_to_options(const Config& cfg, AnalyzeOptions& opts) {
  for (const auto& r : cfg.rules) {
    if (r.enabled && !*r.enabled) opts.disabled_rules.push_back(r.rule);
  }
}

std::vector<SuppressedFinding> apply_config_to_findings(const Config& cfg, std::vector<Finding>& findings) {
  std::vector<SuppressedFinding> suppressed;
  std::vector<Finding> kept;
  for (auto& f : findings) {
    bool disabled = false;
    for (const auto& r : cfg.rules) {
      if (r.rule != f.rule) continue;
      if (r.severity) f.severity = *r.severity;
      if (r.enabled && !*r.enabled) disabled = true;  // a rule disabled after the fact (apply to saved findings)
    }
    if (disabled) continue;
    const Suppression* hit = nullptr;
    for (const auto& s : cfg.suppressions) {
      if (s.rule != "*" && s.rule != f.rule) continue;
      for (const auto& rel : f.related) {
        if (!rel.loc.valid()) continue;
        if (path_matches(rel.loc.file, s.file) && (s.line == 0 || s.line == rel.loc.line)) {
          hit = &s;
          break;
        }
      }
      if (hit) break;
    }
    if (hit) {
      suppressed.push_back(SuppressedFinding{f, hit->reason, hit->defined_at});
    } else {
      kept.push_back(std::move(f));
    }
  }
  findings = std::move(kept);
  return suppressed;
}

std::vector<SuppressedFinding> apply_config(const Config& cfg, std::vector<Finding>& findings, AnalyzeOptions& opts) {
  apply_config_to_options(cfg, opts);
  return apply_config_to_findings(cfg, findings);
}

}  // namespace ilint
