// The Clang C++ wrapper reader (read_cpp_wrapper_clang) on wrapper sources (cpp_wrapper_src):
// the entry's launches, buffers, inputs and outputs, with the kernels it defines read by the
// kernel reader. Locations must stay inside the wrapper's text.
//
// Each input is also read from a batch (prepare_cpp_wrappers_clang), first in a translation unit
// with a small valid wrapper after it: the input must read the same as alone, and the wrapper
// after it must read as it does alone (nothing the input does may reach it: a macro, an open
// brace, a declaration). Batches parse against the prelude the build precompiled, wrappers
// alone against one built in memory (fuzz_prelude.h).
#include <cstdint>
#include <sstream>
#include <string>
#include <string_view>

#include "analyzer/cpp/clang/clang_reader.h"
#include "analyzer/model/program.h"
#include "analyzer/report/dump_model.h"
#include "fuzz_prelude.h"
#include "fuzz_util.h"

namespace {

const char kCompanion[] = R"(
#include <torch/csrc/inductor/cpp_wrapper/cpu.h>
#define ILINT_FUZZ_COMPANION 1

void inductor_entry_impl(
    AtenTensorHandle* input_handles,
    AtenTensorHandle* output_handles
) {
    auto inputs = steal_from_raw_handles_to_raii_handles(input_handles, 2);
    auto arg0_1 = std::move(inputs[0]);
    auto arg1_1 = std::move(inputs[1]);
    AOTI_TORCH_ERROR_CODE_CHECK(aoti_torch_cpu_cumsum(arg0_1, 0L, nullptr, nullptr));
    output_handles[0] = arg1_1.release();
} // inductor_entry_impl
)";

// The compile model the reader filled and its diagnostics, as text.
std::string read(const std::string& source, int first_line) {
  ilint::Program p;
  p.compiles.emplace_back();
  ilint::Compile& c = p.compiles.back();
  c.id = "model__0_inference_0.0";
  ilint::DiagSink diags;
  ilint::read_cpp_wrapper_clang(c, source, first_line, "fuzz/output_code.py", diags);
  std::ostringstream os;
  ilint::dump_compiles(p, os);
  for (auto& d : diags.sorted()) os << d.code << " " << d.message << " " << d.loc.line << ":" << d.loc.column << "\n";
  return os.str();
}

std::string as_output_code(const std::string& wrapper) { return "cpp_wrapper_src = (\nr'''" + wrapper + "'''\n)\n"; }

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  std::string text(reinterpret_cast<const char*>(data), size);
  const int lines = ilint::fuzz::clang_line_count(text);
  const int first_line = 25;
  ilint::Compile c;
  c.id = "model__0_inference_0.0";
  ilint::clear_clang_parse_cache();
  ilint::fuzz::use_prelude_built_in_memory();
  ilint::DiagSink diags;
  ilint::read_cpp_wrapper_clang(c, text, first_line, "fuzz/output_code.py", diags);
  auto inside = [&](const ilint::SourceLoc& l) {
    if (l.line < 0 || (l.line > 0 && (l.line < first_line || l.line >= first_line + lines)))
      ilint::fuzz::fail("location outside the wrapper's text");
  };
  for (const auto& l : c.launches) inside(l.loc);
  for (const auto& b : c.buffers) inside(b.alloc_loc);
  for (const auto& k : c.kernels) inside(k.def_loc);
  (void)diags.sorted();

  // The batch only sees wrappers in `r'''...'''` strings: an input holding `'''` is cut there.
  if (text.find("'''") != std::string::npos) return 0;
  static const std::string companion = kCompanion;
  static const std::string companion_alone = read(companion, 7);
  if (companion_alone.find("cpp-wrapper-parse") != std::string::npos || companion_alone.find("launch") == std::string::npos)
    ilint::fuzz::fail("the companion wrapper does not read alone: the batches would never be used");
  const std::string input_alone = read(text, first_line);
  std::string outputs[2] = {as_output_code(text), as_output_code(companion)};
  std::vector<std::string_view> texts(std::begin(outputs), std::end(outputs));
  ilint::fuzz::use_prebuilt_prelude();
  std::shared_ptr<void> prepared = ilint::prepare_cpp_wrappers_clang(texts);
  if (read(text, first_line) != input_alone) ilint::fuzz::fail("the input reads differently from a batch");
  if (read(companion, 7) != companion_alone) ilint::fuzz::fail("the wrapper after the input reads differently");
  return 0;
}
