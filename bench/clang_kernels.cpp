// Cost of reading C++ kernels with Clang: cold parse per kernel (serial), cache hit per kernel,
// and a cold parallel read on -j threads; and the hand reader's (analyzer/cpp/cpp_kernel_hand.*)
// per kernel, with how many it accepts. Not a test: prints numbers, asserts nothing.
//   bench_clang_kernels [--repeat N] [-j N] <capture dir or output_code.py>...
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "analyzer/cpp/clang/clang_reader.h"
#include "analyzer/cpp/cpp_kernel_hand.h"

namespace fs = std::filesystem;
using namespace ilint;
using Clock = std::chrono::steady_clock;

static double seconds_since(Clock::time_point t0) {
  return std::chrono::duration<double>(Clock::now() - t0).count();
}

static double median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  return v.empty() ? 0 : v[v.size() / 2];
}

int main(int argc, char** argv) {
  int repeat = 5, jobs = 2;
  std::vector<fs::path> files;
  for (int i = 1; i < argc; ++i) {
    std::string a = argv[i];
    if (a == "--repeat" && i + 1 < argc) repeat = std::max(1, std::atoi(argv[++i]));
    else if (a == "-j" && i + 1 < argc) jobs = std::max(1, std::atoi(argv[++i]));
    else if (fs::is_directory(a)) {
      for (auto& e : fs::recursive_directory_iterator(a))
        if (e.path().filename() == "output_code.py") files.push_back(e.path());
    } else if (fs::exists(a)) files.push_back(a);
  }
  std::sort(files.begin(), files.end());
  std::vector<Kernel> kernels;
  std::vector<std::string> kfiles;
  size_t source_bytes = 0;
  for (auto& f : files) {
    std::ifstream in(f, std::ios::binary);
    std::stringstream ss;
    ss << in.rdbuf();
    for (auto& s : find_embedded_cpp_sources(ss.str())) {
      if (s.name == "cpp_wrapper_src") continue;
      Kernel k;
      k.name = s.name;
      k.backend = KernelBackend::Cpp;
      k.source = s.source;
      k.source_first_line = s.first_line;
      kernels.push_back(k);
      kfiles.push_back(f.string());
      source_bytes += s.source.size();
    }
  }
  if (kernels.empty()) {
    std::fprintf(stderr, "no C++ kernels found\n");
    return 2;
  }
  std::vector<double> cold, warm, par, batch1, hand;
  size_t hand_accepted = 0;
  size_t errors = 0;
  for (int r = 0; r < repeat; ++r) {
    clear_clang_parse_cache();
    DiagSink d;
    auto t0 = Clock::now();
    for (size_t i = 0; i < kernels.size(); ++i) {
      Kernel k = kernels[i];
      read_cpp_kernel_clang(k, kfiles[i], d);
    }
    cold.push_back(seconds_since(t0) / kernels.size());
    errors += d.size();
    t0 = Clock::now();
    for (size_t i = 0; i < kernels.size(); ++i) {
      Kernel k = kernels[i];
      read_cpp_kernel_clang(k, kfiles[i], d);
    }
    warm.push_back(seconds_since(t0) / kernels.size());
    clear_clang_parse_cache();
    std::vector<Kernel> ks = kernels;
    std::vector<CppKernelJob> js;
    for (size_t i = 0; i < ks.size(); ++i) js.push_back({&ks[i], kfiles[i]});
    t0 = Clock::now();
    read_cpp_kernels_clang(js, d, jobs);
    par.push_back(seconds_since(t0));
    // Batched on one thread: the pipeline's path, without the parallelism.
    clear_clang_parse_cache();
    ks = kernels;
    js.clear();
    for (size_t i = 0; i < ks.size(); ++i) js.push_back({&ks[i], kfiles[i]});
    t0 = Clock::now();
    read_cpp_kernels_clang(js, d, 1);
    batch1.push_back(seconds_since(t0));
    // The hand reader, one kernel at a time (it has no cache: every read is cold).
    ks = kernels;
    hand_accepted = 0;
    t0 = Clock::now();
    for (size_t i = 0; i < ks.size(); ++i) hand_accepted += read_cpp_kernel_hand(ks[i], kfiles[i]);
    hand.push_back(seconds_since(t0) / kernels.size());
  }
  auto st = clang_parse_stats();
  std::printf("kernels: %zu from %zu output_code.py files, %.1f KiB of C++ (plus the prelude per parse)\n",
              kernels.size(), files.size(), source_bytes / 1024.0);
  std::printf("cold, one at a time: %.2f ms per kernel (median of %d rounds)\n", 1e3 * median(cold), repeat);
  std::printf("cache hit:           %.3f ms per kernel\n", 1e3 * median(warm));
  std::printf("cold, batched, -j 1: %.2f ms per kernel\n", 1e3 * median(batch1) / kernels.size());
  std::printf("cold, batched, -j %d: %.2f ms wall for all %zu kernels (%.2f ms per kernel)\n", jobs,
              1e3 * median(par), kernels.size(), 1e3 * median(par) / kernels.size());
  std::printf("hand reader:         %.3f ms per kernel, %zu of %zu kernels accepted (%.0fx cheaper than a cold Clang parse)\n",
              1e3 * median(hand), hand_accepted, kernels.size(), median(cold) / std::max(median(hand), 1e-12));
  std::printf("kernel parses: %llu in %llu clang runs (%llu batch fallbacks), cache hits: %llu, diagnostics: %zu\n",
              static_cast<unsigned long long>(st.parses), static_cast<unsigned long long>(st.clang_runs),
              static_cast<unsigned long long>(st.batch_fallbacks), static_cast<unsigned long long>(st.cache_hits),
              errors);
  return 0;
}
