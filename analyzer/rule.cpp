#include "analyzer/rule.h"

#include <algorithm>

namespace ilint {

RuleRegistry& RuleRegistry::instance() {
  static RuleRegistry r;
  return r;
}

void RuleRegistry::add(const std::string& id, RuleFactory factory) {
  for (auto& [k, f] : factories_)
    if (k == id) {
      f = std::move(factory);
      return;
    }
  factories_.emplace_back(id, std::move(factory));
}

std::vector<std::string> RuleRegistry::ids() const {
  std::vector<std::string> out;
  for (auto& [k, f] : factories_) out.push_back(k);
  std::sort(out.begin(), out.end());
  return out;
}

std::unique_ptr<Rule> RuleRegistry::create(const std::string& id) const {
  for (auto& [k, f] : factories_)
    if (k == id) return f();
  return nullptr;
}

namespace {
// Levenshtein distance: the edits from one id to another.
size_t edit_distance(const std::string& a, const std::string& b) {
  std::vector<size_t> row(b.size() + 1);
  for (size_t j = 0; j <= b.size(); ++j) row[j] = j;
  for (size_t i = 1; i <= a.size(); ++i) {
    size_t diag = row[0];
    row[0] = i;
    for (size_t j = 1; j <= b.size(); ++j) {
      size_t up = row[j];
      row[j] = std::min({row[j] + 1, row[j - 1] + 1, diag + (a[i - 1] == b[j - 1] ? 0 : 1)});
      diag = up;
    }
  }
  return row[b.size()];
}
}  // namespace

std::string RuleRegistry::unknown_rule_message(const std::string& id) const {
  std::string best;
  size_t best_d = std::string::npos;
  for (const auto& k : ids()) {
    size_t d = edit_distance(id, k);
    if (d < best_d) best_d = d, best = k;
  }
  std::string msg = "no rule named '" + id + "'";
  // A third of the id's length: `reduced-precision-scans` or `stale_scalar` come back, `bogus` does not.
  if (!best.empty() && best_d <= std::max<size_t>(2, id.size() / 3)) return msg + "; did you mean '" + best + "'?";
  std::string all;
  for (const auto& k : ids()) all += (all.empty() ? "" : ", ") + k;
  return msg + " (the rules: " + all + ")";
}

}  // namespace ilint
