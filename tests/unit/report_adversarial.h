// An adversarial capture for the report tests.
#pragma once
#include <regex>

#include "report_test_util.h"

namespace ilint_test {

inline const char* const kEvilKernelName = "<script>alert(1)</script>";
inline const char* const kEvilSource = "</textarea></script><script>alert(2)</script><img src=x onerror=alert(3)>";

// An adversarial capture: a real s2_cuda copied to a temp dir and edited so that kernel source
// text, a declared kernel name and FX user-code comments carry markup. A kernel *named* with
// markup cannot come from output_code.py (the name is a Python identifier), so the parsed model's
// kernel name is replaced too: that is the name other readers (C++ kernels, FX JSON) could give.
// Returns null when the capture gives no compile (the parser is missing).
inline std::unique_ptr<ilint::Analysis> adversarial_s2_cuda(const TempDir& dir) {
  using namespace ilint;
  std::string copy = copy_fixture("s2_cuda", dir);
  const std::string evil_src = kEvilSource;
  int edited = 0;
  for (auto& e : fs::recursive_directory_iterator(copy)) {
    if (e.path().filename() == "fx_graph_readable.py") {
      write_file(e.path(), replace_all(read_file(e.path()), ", code: ", ", code: <b onmouseover=alert(4)>x</b> "));
      continue;
    }
    if (e.path().filename() != "output_code.py") continue;
    std::string t = read_file(e.path());
    // Inside the Triton source string, after the `def` line: a comment with markup.
    auto def = t.find("\ndef triton_");
    if (def == std::string::npos) return nullptr;
    auto eol = t.find('\n', def + 1);
    t.insert(eol + 1, "    # " + evil_src + "\n");
    t = std::regex_replace(t, std::regex(R"(async_compile\.triton\('[^']*')"), "async_compile.triton('<script>alert(1)</script>'");
    write_file(e.path(), t);
    ++edited;
  }
  if (edited == 0) return nullptr;
  auto a = analyze_paths({copy});
  if (a->program.compiles.empty()) return nullptr;
  const std::string evil_name = kEvilKernelName;
  for (auto& c : a->program.compiles) {
    std::vector<Kernel> ks = c.kernels;
    c.kernels.clear();
    c.kernel_index.clear();
    for (auto& k : ks) {
      std::string old = k.name;
      k.name = evil_name + old;
      for (auto& f : a->findings)
        if (f.kernel == old && f.compile_id == c.id) f.kernel = k.name;
      c.add_kernel(k);
    }
  }
  return a;
}

}  // namespace ilint_test
