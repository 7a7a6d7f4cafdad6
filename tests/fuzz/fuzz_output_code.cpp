// The wrapper reader (parse_output_code): kernels, inputs, buffers, launches, mutations; it runs
// the Triton reader on every kernel it finds. Then the rules run on the resulting model, so a
// model shape no capture ever produced cannot crash a rule either.
#include <cstdint>

#include "analyzer/parse/output_code.h"
#include "analyzer/pipeline.h"
#include "fuzz_util.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  std::string text(reinterpret_cast<const char*>(data), size);
  ilint::Analysis a;
  ilint::Compile c;
  c.id = "model__0_forward_1.0";
  c.graph_kind = "forward";
  ilint::parse_output_code("fuzz/output_code.py", text, c, a.diags);
  // A launch of the Python wrapper names a kernel of the file. A C++ wrapper's need not: a CUDA
  // one launches Triton kernels loaded from cubins built elsewhere (their sources sit in the
  // autotuning string, s1_cuda_cppwrap), and a cut file can declare a C++ kernel it no longer
  // defines (input 863836f6); its readers keep such a launch.
  for (const auto& l : c.launches)
    if (!c.cpp_wrapper && !l.is_fallback && l.kernel != "copy_" && !c.kernel(l.kernel))
      ilint::fuzz::fail("launch of unknown kernel");
  for (const auto& [name, i] : c.buffer_index)
    if (i >= c.buffers.size()) ilint::fuzz::fail("buffer index out of range");
  a.program.compiles.push_back(std::move(c));
  ilint::AnalyzeOptions o;
  ilint::run_rules(a.program, o, a.findings, a.diags);
  return 0;
}
