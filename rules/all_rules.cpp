// Every rule of the project, registered by id (as a clang-tidy module registers its checks).
#include <mutex>

#include "analyzer/rule.h"

namespace ilint {

// One declaration per rule file.
std::unique_ptr<Rule> make_reduced_precision_scan();
std::unique_ptr<Rule> make_low_precision_accumulator();
std::unique_ptr<Rule> make_scalar_recompile();
std::unique_ptr<Rule> make_stale_scalar();
std::unique_ptr<Rule> make_inplace_read_after_write();
std::unique_ptr<Rule> make_mutated_arg_never_stored();
std::unique_ptr<Rule> make_restrict_alias();
std::unique_ptr<Rule> make_elided_low_precision_cast();
std::unique_ptr<Rule> make_output_aliases_input();
std::unique_ptr<Rule> make_unmasked_atomic();
std::unique_ptr<Rule> make_index_overflow();
std::unique_ptr<Rule> make_rounding_before_compare();
std::unique_ptr<Rule> make_output_dtype_mismatch();
std::unique_ptr<Rule> make_read_after_writeback();
std::unique_ptr<Rule> make_argreduce_memory_order();
std::unique_ptr<Rule> make_integer_abs_promotion();
std::unique_ptr<Rule> make_reinplace_into_expand();

void register_all_rules() {
  static std::once_flag once;
  std::call_once(once, [] {
    auto& r = RuleRegistry::instance();
    r.add("reduced-precision-scan", make_reduced_precision_scan);
    r.add("low-precision-accumulator", make_low_precision_accumulator);
    r.add("scalar-recompile", make_scalar_recompile);
    r.add("stale-scalar", make_stale_scalar);
    r.add("inplace-read-after-write", make_inplace_read_after_write);
    r.add("mutated-arg-never-stored", make_mutated_arg_never_stored);
    r.add("restrict-alias", make_restrict_alias);
    r.add("elided-low-precision-cast", make_elided_low_precision_cast);
    r.add("output-aliases-input", make_output_aliases_input);
    r.add("unmasked-atomic", make_unmasked_atomic);
    r.add("index-overflow", make_index_overflow);
    r.add("rounding-before-compare", make_rounding_before_compare);
    r.add("output-dtype-mismatch", make_output_dtype_mismatch);
    r.add("read-after-writeback", make_read_after_writeback);
    r.add("argreduce-memory-order", make_argreduce_memory_order);
    r.add("integer-abs-promotion", make_integer_abs_promotion);
    r.add("reinplace-into-expand", make_reinplace_into_expand);
  });
}

}  // namespace ilint
