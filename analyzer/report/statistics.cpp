#include "analyzer/report/statistics.h"

#include <algorithm>
#include <iomanip>
#include <map>
#include <nlohmann/json.hpp>

#include "analyzer/report/text.h"
#include "analyzer/rule.h"

namespace ilint {

namespace {

struct RuleCount {
  std::string rule;
  std::string name;
  Severity severity = Severity::Warning;  // the highest of its findings
  size_t count = 0;
  size_t suppressed = 0;
};

std::vector<RuleCount> count_by_rule(const Analysis& a) {
  std::map<std::string, RuleCount> by_rule;
  auto entry = [&](const Finding& f) -> RuleCount& {
    auto [it, fresh] = by_rule.try_emplace(f.rule);
    if (fresh) {
      it->second.rule = f.rule;
      it->second.severity = f.severity;
      if (auto rule = RuleRegistry::instance().create(f.rule)) it->second.name = rule->info().name;
    }
    it->second.severity = std::min(it->second.severity, f.severity);  // Error < Warning < Note
    return it->second;
  };
  for (const auto& f : a.findings) entry(f).count++;
  for (const auto& s : a.suppressed) entry(s.finding).suppressed++;
  std::vector<RuleCount> rows;
  for (auto& [id, row] : by_rule) rows.push_back(std::move(row));
  std::stable_sort(rows.begin(), rows.end(), [](const RuleCount& x, const RuleCount& y) { return x.count > y.count; });
  return rows;
}

}  // namespace

void write_statistics_text(const Analysis& a, std::ostream& os) {
  auto rows = count_by_rule(a);
  size_t id_width = 0;
  for (const auto& r : rows) id_width = std::max(id_width, r.rule.size());
  for (const auto& r : rows) {
    if (r.count == 0) continue;
    os << std::setw(5) << r.count << "  " << std::left << std::setw(static_cast<int>(id_width)) << r.rule << "  "
       << std::setw(7) << severity_name(r.severity) << std::right << "  " << r.name << "\n";
  }
  os << a.findings.size() << " finding(s) in " << std::count_if(rows.begin(), rows.end(), [](const RuleCount& r) { return r.count > 0; })
     << " rule(s); " << suppressed_summary(a) << "\n";
}

void write_statistics_json(const Analysis& a, std::ostream& os) {
  nlohmann::json rows = nlohmann::json::array();
  for (const auto& r : count_by_rule(a))
    rows.push_back({{"rule", r.rule},
                    {"name", r.name},
                    {"severity", severity_name(r.severity)},
                    {"count", r.count},
                    {"suppressed", r.suppressed}});
  os << rows.dump(2) << "\n";
}

}  // namespace ilint
