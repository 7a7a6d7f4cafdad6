// The Clang C++ kernel reader (read_cpp_kernels_clang) on kernel sources. A form feed splits the
// input into several kernels, read together: the batch path (several kernels per Clang run) and
// its fallback (a batch Clang rejects is read again one kernel at a time). Locations must stay
// inside each kernel's own text, and every kernel must read the same as it does alone (nothing
// one kernel holds, a macro say, may reach its batch-mates). The batch parses against the
// prelude the build precompiled, each kernel alone against one built in memory (fuzz_prelude.h).
#include <cstdint>
#include <string>
#include <vector>

#include "analyzer/cpp/clang/clang_reader.h"
#include "fuzz_prelude.h"
#include "fuzz_util.h"
#include "tests/kernel_facts.h"

namespace {

void check_loc(const ilint::SourceLoc& l, const ilint::Kernel& k) {
  if (l.line < 0) ilint::fuzz::fail("negative line");
  if (l.line > 0 && (l.line < k.source_first_line || l.line >= k.source_first_line + ilint::fuzz::clang_line_count(k.source)))
    ilint::fuzz::fail("location outside the kernel's text");
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  std::string text(reinterpret_cast<const char*>(data), size);
  std::vector<ilint::Kernel> kernels;
  size_t pos = 0;
  while (kernels.size() < 4) {
    size_t ff = text.find('\f', pos);
    ilint::Kernel k;
    k.name = "cpp_fused_fuzz_" + std::to_string(kernels.size());
    k.backend = ilint::KernelBackend::Cpp;
    k.source = text.substr(pos, ff == std::string::npos ? std::string::npos : ff - pos);
    k.source_first_line = 10 + 100 * static_cast<int>(kernels.size());
    k.def_loc = ilint::SourceLoc{"fuzz/output_code.py", k.source_first_line - 1, 1};
    kernels.push_back(std::move(k));
    if (ff == std::string::npos) break;
    pos = ff + 1;
  }
  std::vector<ilint::CppKernelJob> jobs;
  for (auto& k : kernels) jobs.push_back({&k, "fuzz/output_code.py"});
  // Every input is new text: without clearing, the parse cache would grow with the campaign.
  ilint::clear_clang_parse_cache();
  ilint::fuzz::use_prebuilt_prelude();
  ilint::DiagSink diags;
  ilint::read_cpp_kernels_clang(jobs, diags, 1);
  for (const auto& k : kernels) {
    for (const auto& m : k.loads) check_loc(m.loc, k);
    for (const auto& m : k.stores) check_loc(m.loc, k);
    for (const auto& c : k.casts) check_loc(c.loc, k);
    for (const auto& l : k.literals) check_loc(l.loc, k);
    for (const auto& r : k.reductions) check_loc(r.loc, k);
    for (const auto& s : k.stmts) check_loc(s.loc, k);
  }
  // Alone: one Clang run per kernel (the cache cleared, so nothing read in the batch is reused).
  std::vector<ilint::Kernel> alone;
  for (const auto& k : kernels) {
    ilint::Kernel a;
    a.name = k.name;
    a.backend = k.backend;
    a.source = k.source;
    a.source_first_line = k.source_first_line;
    a.def_loc = k.def_loc;
    alone.push_back(std::move(a));
  }
  ilint::clear_clang_parse_cache();
  ilint::fuzz::use_prelude_built_in_memory();
  ilint::DiagSink alone_diags;
  for (auto& a : alone) ilint::read_cpp_kernel_clang(a, "fuzz/output_code.py", alone_diags);
  for (size_t i = 0; i < kernels.size(); ++i)
    if (ilint::testing::kernel_facts(kernels[i]) != ilint::testing::kernel_facts(alone[i]))
      ilint::fuzz::fail("a kernel reads differently in a batch than alone");
  auto diag_text = [](const ilint::DiagSink& d) {
    std::string out;
    for (const auto& x : d.sorted()) out += x.code + " " + x.message + " " + ilint::testing::loc_text(x.loc) + "\n";
    return out;
  };
  if (diag_text(diags) != diag_text(alone_diags)) ilint::fuzz::fail("batch and alone report different diagnostics");
  return 0;
}
