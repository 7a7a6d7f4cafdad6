// Every rule of the project, registered by id (as a clang-tidy module registers its checks).
#include <mutex>

#include "analyzer/rule.h"

namespace ilint {

// One declaration per rule file.
std::unique_ptr<Rule> make_reduced_precision_scan();
std::unique_ptr<Rule> make_low_precision_accumulator();
std::unique_ptr<Rule> make_scalar_recompile();
std::unique_ptr<Rule> make_stale_scalar();

void register_all_rules() {
  static std::once_flag once;
  std::call_once(once, [] {
    auto& r = RuleRegistry::instance();
    r.add("reduced-precision-scan", make_reduced_precision_scan);
    r.add("low-precision-accumulator", make_low_precision_accumulator);
    r.add("scalar-recompile", make_scalar_recompile);
    r.add("stale-scalar", make_stale_scalar);
  });
}

}  // namespace ilint
