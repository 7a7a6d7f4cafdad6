#include "analyzer/rule.h"

namespace ilint {
namespace {
class ReducedPrecisionScan : public Rule {
 public:
  const RuleInfo& info() const override {
    static const RuleInfo i{"reduced-precision-scan", "Reduced-precision cumulative reduction", Severity::Warning,
                            "high", {"correctness", "precision"}, "", "rules/reduced-precision-scan.md"};
    return i;
  }
  void check(const Program& program, std::vector<Finding>& out) const override {}
};
}  // namespace
std::unique_ptr<Rule> make_reduced_precision_scan() { return std::make_unique<ReducedPrecisionScan>(); }
}  // namespace ilint
