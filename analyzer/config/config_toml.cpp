// pyproject.toml's [tool.inductor-lint] table, read with toml++ (header-only here: no shared
// library to carry) and handed to config_from_document as the JSON file's document would be.
#include <algorithm>
#include <map>
// Errors as values (parse_result), not exceptions: a broken pyproject.toml is a diagnostic.
#define TOML_EXCEPTIONS 0
#include <toml++/toml.h>

#include "analyzer/config/config.h"
#include "analyzer/util/read_file.h"

namespace ilint {

namespace {

constexpr size_t kMaxPyprojectBytes = size_t(16) << 20;

// `node` as JSON, noting the line of every key in `key_lines` (in document order once sorted).
nlohmann::json to_json(const toml::node& node, std::map<std::string, std::vector<int>>& key_lines) {
  if (const auto* t = node.as_table()) {
    nlohmann::json out = nlohmann::json::object();
    for (const auto& [key, value] : *t) {
      key_lines[std::string(key.str())].push_back(static_cast<int>(key.source().begin.line));
      out[std::string(key.str())] = to_json(value, key_lines);
    }
    return out;
  }
  if (const auto* a = node.as_array()) {
    nlohmann::json out = nlohmann::json::array();
    for (const auto& e : *a) out.push_back(to_json(e, key_lines));
    return out;
  }
  if (auto v = node.value<bool>(); v && node.is_boolean()) return *v;
  if (auto v = node.value<int64_t>(); v && node.is_integer()) return *v;
  if (auto v = node.value<double>(); v && node.is_floating_point()) return *v;
  if (auto v = node.value<std::string>(); v && node.is_string()) return *v;
  // Dates and times mean nothing in this config: null, which every key refuses as a wrong type.
  return nlohmann::json();
}

const toml::table* tool_table(const toml::table& doc) {
  const toml::node* tool = doc.get("tool");
  if (!tool || !tool->is_table()) return nullptr;
  const toml::node* ours = tool->as_table()->get("inductor-lint");
  return ours ? ours->as_table() : nullptr;
}

}  // namespace

Config parse_pyproject_config(const std::string& path, const std::string& text, DiagSink& diags) {
  Config cfg;
  cfg.path = path;
  toml::parse_result parsed = toml::parse(text, path);
  if (!parsed) {
    const auto& err = parsed.error();
    diags.error("config-parse", "pyproject.toml is not valid TOML: " + std::string(err.description()),
                SourceLoc{path, static_cast<int>(err.source().begin.line), static_cast<int>(err.source().begin.column)});
    cfg.ok = false;
    return cfg;
  }
  const toml::table* ours = tool_table(parsed.table());
  if (!ours) {
    if (const toml::node* tool = parsed.table().get("tool"); tool && tool->is_table() && tool->as_table()->get("inductor-lint")) {
      diags.error("config-value", "[tool.inductor-lint] must be a table", SourceLoc{path, 1, 0});
      cfg.ok = false;
    }
    return cfg;
  }
  std::map<std::string, std::vector<int>> key_lines;
  nlohmann::json doc = to_json(*ours, key_lines);
  for (auto& [key, lines] : key_lines) std::sort(lines.begin(), lines.end());
  return config_from_document(
      path, doc,
      [&](const std::string& key, int occurrence) {
        auto it = key_lines.find(key);
        return it != key_lines.end() && occurrence >= 0 && static_cast<size_t>(occurrence) < it->second.size()
                   ? it->second[static_cast<size_t>(occurrence)]
                   : 0;
      },
      diags);
}

bool pyproject_has_config(const std::string& path) {
  DiagSink ignored;
  std::string text;
  if (!read_named_file(path, text, ignored, "config-unreadable", "pyproject.toml", kMaxPyprojectBytes)) return false;
  toml::parse_result parsed = toml::parse(text, path);
  // A pyproject.toml that does not parse but names our table is ours, broken: it is loaded, so the
  // error is reported, rather than passed over for a parent's config.
  if (!parsed) return text.find("tool.inductor-lint") != std::string::npos;
  return parsed.table().get("tool") && parsed.table().get("tool")->is_table() &&
         parsed.table().get("tool")->as_table()->get("inductor-lint");
}

}  // namespace ilint
