// The vocabulary of Inductor's kernels: every statement and call form the kernel readers meet
// (Kernel::forms), and how the model holds each. A form with no entry here is one the readers passed
// over: the coverage account reports its kernel as partly read, and the census test
// (tests/unit/kernel_forms_test.cpp) fails on it. docs/kernel-forms.md is this table.
#pragma once
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "analyzer/model/model.h"

namespace ilint {

enum class FormHandling {
  Modeled,   // the model holds what it does (an access, a cast, a value, a reduction)
  NoEffect,  // it writes no memory and computes no value a rule reads (index space, synchronisation)
};

struct KernelForm {
  KernelBackend backend;
  std::string_view form;  // as in Kernel::forms; a trailing '*' matches any rest ("libdevice.*")
  FormHandling handling;
  std::string_view how;   // where the model holds it, or why nothing needs holding
};

std::span<const KernelForm> kernel_forms();

// The entry that covers `form` of a kernel of `backend`, or null.
const KernelForm* find_kernel_form(KernelBackend backend, std::string_view form);

// The forms of `k` no entry covers.
std::vector<std::string> unmodeled_forms(const Kernel& k);

}  // namespace ilint
