// Loads libilint-clang.so on the first C++ kernel or wrapper (see analyzer/cpp/clang/clang_plugin.h).
#include <dlfcn.h>

#include <atomic>
#include <cstdlib>
#include <string>

#include "analyzer/cpp/clang/clang_plugin.h"
#include "analyzer/util/install_layout.h"

namespace ilint {

namespace {

struct LoadedPlugin {
  ClangPluginReaders readers;
  bool ok = false;
  std::string path;   // where it was looked for
  std::string error;  // why it could not be loaded
};

std::string plugin_path() {
  if (const char* env = std::getenv("ILINT_CLANG_PLUGIN"); env && *env) return env;
  const std::string dir = executable_dir();
  if (dir.empty()) return kClangPluginFile;  // dlopen's own search path
  return dir + "/" + kClangPluginFile;
}

LoadedPlugin load_plugin() {
  LoadedPlugin p;
  const std::string path = p.path = plugin_path();
  // RTLD_NOW: a module that does not match this executable fails here, not mid-analysis.
  void* handle = dlopen(path.c_str(), RTLD_NOW | RTLD_LOCAL);
  if (!handle) {
    const char* e = dlerror();
    p.error = e ? e : ("cannot load " + path);
    return p;
  }
  auto entry = reinterpret_cast<ClangPluginEntry>(dlsym(handle, kClangPluginEntry));
  ClangPluginAbi abi;
  if (!entry) {
    p.error = path + ": no " + kClangPluginEntry;
  } else if (!entry(&abi, &p.readers)) {
    p.error = path + " was built from another version of inductor-lint (model layouts differ)";
  } else {
    p.ok = true;
  }
  // Never dlclose: LLVM's static state lives until exit.
  return p;
}

const LoadedPlugin& plugin() {
  static const LoadedPlugin p = load_plugin();  // thread-safe, once
  return p;
}

// One warning per process, whichever thread meets C++ code first: the text names no compile, so
// the report is the same at any -j.
void report_unavailable(const LoadedPlugin& p, DiagSink& diags) {
  static std::atomic<bool> reported{false};
  if (reported.exchange(true)) return;
  diags.warning("clang-reader-unavailable",
                "C++ kernels and C++ wrappers not read by Clang (only their signatures and loop ranges): " + p.error,
                SourceLoc{p.path, 0, 0});
}

}  // namespace

void install_lazy_clang_readers() {
  set_cpp_kernel_reader([](const std::vector<CppKernelJob>& jobs, DiagSink& diags, int threads) {
    const LoadedPlugin& p = plugin();
    if (!p.ok) return report_unavailable(p, diags);
    p.readers.read_kernels(jobs, diags, threads);
  });
  set_cpp_wrapper_reader([](Compile& c, const std::string& source, int first_line, const FilePath& file,
                            DiagSink& diags, std::vector<size_t>* kernels_to_read) {
    const LoadedPlugin& p = plugin();
    if (!p.ok) {
      report_unavailable(p, diags);
      diags.note("cpp-wrapper-skipped", "C++ wrapper not read: the Clang reader is not loaded",
                 SourceLoc{file, first_line, 1});
      return;
    }
    p.readers.read_wrapper(c, source, first_line, file, diags, kernels_to_read);
  });
  // Called only when two or more of the texts hold a C++ wrapper (build_compiles checks), so a
  // Triton-only run never loads the module for it. Without the module the wrapper reader above
  // reports why, once.
  set_cpp_wrapper_batcher([](const std::vector<std::string_view>& texts) -> std::shared_ptr<void> {
    const LoadedPlugin& p = plugin();
    if (!p.ok || !p.readers.prepare_wrappers) return nullptr;
    return p.readers.prepare_wrappers(texts);
  });
}

}  // namespace ilint
