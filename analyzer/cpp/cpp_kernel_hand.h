// The hand reader of Inductor's C++ kernels (`cpp_fused_*`): the same facts the Clang reader
// (analyzer/cpp/clang/kernel_reader.cpp) puts in a Kernel, read without Clang, for the vocabulary
// Inductor writes. Why it exists and how it is checked: analyzer/cpp/cpp_hand.h.
//
// It is a small C++ front end for one kernel: a lexer, a parser of the statements and
// expressions Inductor emits, and a type model of inductor-lint's prelude
// (analyzer/cpp/prelude/cpp_prefix_prelude.inc: Vectorized<T>, VectorizedN<T, N>,
// VecMask<T, N>, std::array, c10::BFloat16 ...), enough to tell, as Clang does, a builtin
// operator from an overloaded one, a conversion from a copy, and the element type of a value.
// Whatever it does not know (a name, a type, an overload, a preprocessor directive other than
// #include and #pragma, a form of statement) makes it decline the whole kernel, untouched:
// Clang then reads it, and Clang's answer, errors included, is the reference.
#pragma once
#include <string>
#include <string_view>

#include "analyzer/model/model.h"
#include "analyzer/util/diag.h"

namespace ilint {

// Reads k.source as read_cpp_kernel_clang would (params, loads, stores, casts, literals,
// reductions, stmts, kind, body_loc; lines of `file`). Returns false, with `k` untouched, when
// the source holds anything outside what the hand reader knows. Thread-safe. `why`, when given,
// receives the reason for declining (for tests and the benchmark).
bool read_cpp_kernel_hand(Kernel& k, const FilePath& file, std::string* why = nullptr);

// Whether the hand reader refuses to let a kernel declare this name (C++ keywords, the prelude's
// global names and namespaces). The list is kept by hand; a test holds it to the prelude.
bool cpp_kernel_hand_reserves(std::string_view name);

}  // namespace ilint
