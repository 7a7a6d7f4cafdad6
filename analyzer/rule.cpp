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

}  // namespace ilint
