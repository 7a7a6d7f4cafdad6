// Every rule of the project, registered by id (as a clang-tidy module registers its checks).
#include <mutex>

#include "analyzer/rule.h"

namespace ilint {

// One declaration per rule file.
std::unique_ptr<Rule> make_reduced_precision_scan();
std::unique_ptr<Rule> make_inplace_read_after_write();

void register_all_rules() {
  static std::once_flag once;
  std::call_once(once, [] {
    auto& r = RuleRegistry::instance();
    r.add("reduced-precision-scan", make_reduced_precision_scan);
    r.add("inplace-read-after-write", make_inplace_read_after_write);
  });
}

}  // namespace ilint
