// What the two readers of C++ kernels (Clang's, analyzer/clang/kernel_reader.cpp, and the hand
// reader, analyzer/parse/cpp_kernel_hand.cpp) decide the same way from names alone: kept in one
// place so that they cannot drift apart.
#pragma once
#include <map>
#include <string>

namespace ilint::cpp_kernel_facts {

// tmp_acc0, tmp_acc0_vec, tmp_acc0_arr, tmp_acc0_local -> "tmp_acc0"; "" otherwise.
inline std::string accumulator_base(const std::string& name) {
  // By hand: called for every local variable of every kernel.
  if (name.rfind("tmp_acc", 0) != 0) return "";
  size_t i = 7;
  while (i < name.size() && name[i] >= '0' && name[i] <= '9') ++i;
  if (i == 7) return "";
  if (i == name.size()) return name;
  if (name[i] != '_' || i + 1 == name.size()) return "";
  for (size_t j = i + 1; j < name.size(); ++j) {
    char c = name[j];
    if (!((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_')) return "";
  }
  return name.substr(0, i);
}

// The combine of an accumulator update `acc = <rhs>` from what the rhs is classified as:
// `acc = acc + x` (add), `acc = max_propagate_nan(acc, x)` (call:max_propagate_nan) ...; "unknown".
inline std::string combine_of_update(const std::string& rhs_op) {
  static const std::map<std::string, std::string> combines = {
      {"call:max_propagate_nan", "max"}, {"call:min_propagate_nan", "min"}, {"call:maximum", "max"},
      {"call:minimum", "min"}, {"call:welford_combine", "welford"}, {"call:argmax_combine", "argmax"},
      {"call:argmin_combine", "argmin"}, {"call:sum_masked_reduce", "add"}, {"call:prod_masked_reduce", "mul"},
      {"call:max_masked_reduce", "max"}, {"call:min_masked_reduce", "min"},
      {"call:cascade_sum_combine", "add"}, {"call:xor_sum_masked_reduce", "xor_sum"},
      {"add", "add"}, {"mul", "mul"}, {"xor", "xor_sum"}, {"or", "any"}, {"lor", "any"}, {"and", "all"},
      {"land", "all"}};
  auto it = combines.find(rhs_op);
  return it == combines.end() ? "unknown" : it->second;
}

}  // namespace ilint::cpp_kernel_facts
