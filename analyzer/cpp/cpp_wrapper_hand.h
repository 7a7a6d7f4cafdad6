// A hand reader of the C++ wrapper of cpp_wrapper=True compiles (`cpp_wrapper_src = (r'''...''')`),
// without Clang. It fills exactly what read_cpp_wrapper_clang (analyzer/cpp/clang/wrapper_reader.cpp)
// fills, for the wrappers it accepts, and declines every other wrapper, which then goes to the
// Clang reader as before (analyzer/cpp/cpp_hand.h says why: Clang's parse costs more than
// issue 7's whole budget on a C++ capture).
//
// What it accepts is the vocabulary Inductor's C++ wrapper codegen writes (torch 2.11), token
// by token; anything else declines the whole wrapper:
//
//   at namespace scope
//     `#include ...` lines (blanked, as for Clang); `#define NAME(params) body` whose name is
//     used only inside skipped function bodies (CUDA_DRIVER_CHECK); `CACHE_TORCH_DTYPE(x);`
//     and its DEVICE/LAYOUT/MEMORY_FORMAT kin; `extern "C" void kernel(params);` and
//     `extern "C" void kernel(params) { ... }` with kernel parameters `[const] T* name` or
//     `[const] scalar name`; `static CUfunction name = nullptr;`; `[template <typename A_, ...>]
//     [static] [inline] R name(params) { ... }` helpers and `call_*` launchers over a fixed
//     list of types; and one `void inductor_entry_impl(AtenTensorHandle* input_handles,
//     AtenTensorHandle* output_handles) { ... }`.
//   in the entry, one statement form each:
//     `py::gil_scoped_release_simple v;` `AOTICudaGuard v(0);` `AtenTensorHandle v;`
//     `cudaStream_t v;` `int64_t v;` (and int32_t/double/float/bool) `RAIIAtenTensorHandle v(h);`
//     `auto inputs = steal_from_raw_handles_to_raii_handles(input_handles, N);`
//     `auto v = std::move(inputs[N]);` `auto v = std::move(w);`
//     `static constexpr int64_t a[] = {8L, 1L, ...};`
//     `auto v = wrap_with_raii_handle_if_needed(reinterpret_tensor_wrapper(w, N, a, b, K));`
//     `AOTI_TORCH_ERROR_CODE_CHECK(aoti_torch_*(args));` or the bare shim call, with literal,
//     variable, `&v`, `v[N]`, `(T*)&v` and `(T*)(v.data_ptr())` arguments;
//     `kernel((T*)(v.data_ptr()), ..., 8L);` `call_triton_x(v, ..., 40L, 0, stream0);`
//     `v.reset();` `output_handles[N] = v.release();`
//   and, in the function bodies it skips (kernels, launchers, helpers: Clang skips them too),
//   balanced brackets, `#pragma GCC ivdep` / `GCC unroll N` / `omp ...`, and macro uses with
//   as many arguments as the macro takes.
//
// Why declining is safe and accepting is exact: every name is resolved as C++ would resolve it
// (declared before use, no redeclaration, no clash with a macro, a keyword or a name the
// prelude declares), every argument is checked against its parameter's type as Clang would
// check the conversion, and each statement form maps to what the Clang reader's visitor does
// on its AST, so a wrapper it accepts is one Clang reads without an error and into the same
// model (tests/unit/cpp_wrapper_hand_test.cpp compares the two on every fixture wrapper and on
// mutated ones). Whatever is not in that list (a statement form, a type, a directive, a stray
// character) makes it decline, and the Clang reader reads the wrapper, errors and all.
#pragma once
#include <string>
#include <string_view>
#include <vector>

#include "analyzer/model/model.h"
#include "analyzer/util/diag.h"

namespace ilint {

// Same contract as read_cpp_wrapper_clang (analyzer/cpp/clang/clang_reader.h) for a wrapper it
// accepts: fills c's wrapper model, adds the kernels the wrapper defines (reads them with
// read_cpp_kernels, analyzer/pipeline.h, or, with `kernels_to_read`, appends their indices for
// the caller) and returns true. Returns false, leaving `c` and `diags` untouched, when it
// declines. Never throws on any input; linear in the source's size.
bool read_cpp_wrapper_hand(Compile& c, const std::string& source, int first_line, const FilePath& file,
                           DiagSink& diags, std::vector<size_t>* kernels_to_read = nullptr);

// Whether read_cpp_wrapper_hand accepts the C++ wrapper of this output_code.py text (false when
// the text holds none). The answer is kept for this thread, so a read_cpp_wrapper_hand of the
// same wrapper on this thread does not parse it again (build_compiles asks before it hands the
// Clang batcher the wrappers the hand reader will not take).
bool cpp_wrapper_hand_accepts(std::string_view output_code_text);

// The `cpp_wrapper_src = (r'''...''')` string of an output_code.py text: its text and the line of
// its opening quotes (line 1 of the text is that line). Empty source and line 0 when not found.
struct CppWrapperSourceText {
  std::string_view source;
  int first_line = 0;
};
CppWrapperSourceText find_cpp_wrapper_source(std::string_view output_code_text);

// How many wrappers this process's hand reader parsed (each distinct read once per thread
// between an accepts() and its read), for the tests of that reuse.
uint64_t cpp_wrapper_hand_parses();

}  // namespace ilint
