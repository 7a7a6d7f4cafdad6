#include "analyzer/report/baseline.h"

#include <algorithm>
#include <climits>
#include <map>

#include <nlohmann/json.hpp>

#include "analyzer/util/json_fields.h"
#include "analyzer/util/read_file.h"

namespace ilint {

namespace {
std::string basename_of(const std::string& p) {
  auto pos = p.find_last_of('/');
  return pos == std::string::npos ? p : p.substr(pos + 1);
}
}  // namespace

Baseline load_baseline(const std::string& path, DiagSink& diags) {
  Baseline b;
  b.path = path;
  std::string text;
  if (!read_named_file(path, text, diags, "baseline-unreadable", "baseline file")) {
    b.ok = false;
    return b;
  }
  return parse_baseline(path, text, diags);
}

Baseline parse_baseline(const std::string& path, const std::string& text, DiagSink& diags) {
  Baseline b;
  b.path = path;
  nlohmann::json j;
  if (!parse_json_document(path, text, "baseline-parse", "baseline is not valid JSON: ", diags, j)) {
    b.ok = false;
    return b;
  }
  if (!j.is_object() || json_string(j, "tool") != "inductor-lint" || !j.contains("findings") ||
      !j["findings"].is_array()) {
    diags.error("baseline-format",
                "not an inductor-lint baseline (expected {\"tool\": \"inductor-lint\", \"findings\": [...]})",
                SourceLoc{path, 1, 0});
    b.ok = false;
    return b;
  }
  // Read without nlohmann's value(), which throws on a member of another type (json_fields.h).
  const nlohmann::json* version = json_member(j, "version");
  if (!version || json_as_int(*version) != kBaselineFormatVersion) {
    diags.error("baseline-format",
                "baseline format version " + (version ? version->dump() : std::string("(none)")) +
                    " is not supported (expected " + std::to_string(kBaselineFormatVersion) + ")",
                SourceLoc{path, 1, 0});
    b.ok = false;
    return b;
  }
  size_t idx = 0;
  for (const auto& e : j["findings"]) {
    ++idx;
    if (!e.is_object() || !e.contains("rule") || !e["rule"].is_string() || !e.contains("fingerprint") ||
        !e["fingerprint"].is_string()) {
      diags.warning("baseline-entry", "entry " + std::to_string(idx) + " has no rule/fingerprint (ignored)",
                    SourceLoc{path, 0, 0});
      continue;
    }
    BaselineEntry be;
    be.rule = e["rule"].get<std::string>();
    be.fingerprint = e["fingerprint"].get<std::string>();
    be.message = json_string(e, "message");
    be.user_loc = json_string(e, "user_location");
    // "count": how many findings of the fingerprint the entry stands for, at least 1.
    be.count = 1;
    if (const nlohmann::json* c = json_member(e, "count")) {
      const std::string entry = "entry " + std::to_string(idx) + " has a \"count\" ";
      if (!c->is_number_integer()) {
        diags.warning("baseline-entry", entry + "that is not an integer (taken as 1)", SourceLoc{path, 0, 0});
      } else if (c->is_number_unsigned() ? c->get<uint64_t>() > uint64_t(INT_MAX) : c->get<int64_t>() > INT_MAX) {
        be.count = INT_MAX;
        diags.warning("baseline-entry", entry + "of " + c->dump() + ", past the largest (taken as " +
                                            std::to_string(INT_MAX) + ")", SourceLoc{path, 0, 0});
      } else if (c->get<int64_t>() < 1) {
        diags.warning("baseline-entry", entry + "of " + c->dump() + ": an entry stands for at least one finding (ignored)",
                      SourceLoc{path, 0, 0});
        continue;
      } else {
        be.count = c->get<int>();
      }
    }
    b.entries.push_back(std::move(be));
  }
  return b;
}

std::vector<Finding> filter_new(const std::vector<Finding>& findings, const Baseline& baseline) {
  std::map<std::pair<std::string, std::string>, int> budget;
  for (const auto& e : baseline.entries) budget[{e.rule, e.fingerprint}] += e.count;
  std::vector<Finding> out;
  for (const auto& f : findings) {
    auto it = budget.find({f.rule, f.fingerprint});
    if (it != budget.end() && it->second > 0) {
      --it->second;
      continue;
    }
    out.push_back(f);
  }
  return out;
}

void write_baseline(const std::vector<Finding>& findings, std::ostream& out) {
  std::map<std::pair<std::string, std::string>, BaselineEntry> by_key;
  for (const auto& f : findings) {
    auto key = std::make_pair(f.rule, f.fingerprint);
    auto it = by_key.find(key);
    if (it != by_key.end()) {
      ++it->second.count;
      continue;
    }
    BaselineEntry e;
    e.rule = f.rule;
    e.fingerprint = f.fingerprint;
    e.message = f.message;
    if (!f.related.empty() && f.related.front().loc.valid())
      e.user_loc = basename_of(f.related.front().loc.file) + ":" + std::to_string(f.related.front().loc.line);
    by_key.emplace(key, e);
  }
  nlohmann::json j;
  j["tool"] = "inductor-lint";
  j["version"] = kBaselineFormatVersion;
  j["findings"] = nlohmann::json::array();
  for (const auto& [k, e] : by_key) {
    nlohmann::json je{{"rule", e.rule}, {"fingerprint", e.fingerprint}, {"message", e.message}};
    if (!e.user_loc.empty()) je["user_location"] = e.user_loc;
    if (e.count != 1) je["count"] = e.count;
    j["findings"].push_back(je);
  }
  out << j.dump(2, ' ', false, nlohmann::json::error_handler_t::replace) << "\n";
}

}  // namespace ilint
