// The CLI's lazily loaded Clang reader (analyzer/cpp/clang/clang_plugin.h): a Triton-only capture
// never maps Clang, a capture with C++ code loads the module once, and a missing module costs
// one warning, not the run.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "test_util.h"

using namespace ilint::testing;

namespace {

#ifdef ILINT_CLI_LAZY_CLANG
constexpr bool kLazy = true;
#else
constexpr bool kLazy = false;
#endif

// The dynamic loader's list of every file it maps (LD_DEBUG=files, on stderr). `env` goes
// before the command: the tests of how the module loads set ILINT_CPP_READER=clang, since the
// hand readers (analyzer/cpp/cpp_hand.h) read the fixtures' C++ without it.
std::string loaded_files(const std::string& args, const std::string& env = "ILINT_CPP_READER=clang ") {
  std::string out;
  run_command(env + "LD_DEBUG=files " + std::string(ILINT_BINARY) + " " + args +
                  " -o /dev/null --fail-on never 2>&1 >/dev/null",
              &out);
  return out;
}

}  // namespace

TEST(ClangPlugin, TritonOnlyCaptureNeverMapsClang) {
  if (!kLazy) GTEST_SKIP() << "this CLI links the Clang reader in (sanitizer or fuzz build, or ILINT_LAZY_CLANG=OFF)";
  std::string files = loaded_files(fixture("s2_cuda") + " --format json");
  ASSERT_NE(files.find("libc.so"), std::string::npos) << "LD_DEBUG gave no file list:\n" << files;
  EXPECT_EQ(files.find("libilint-clang.so"), std::string::npos) << files;
  EXPECT_EQ(files.find("libclang-cpp"), std::string::npos) << files;
  EXPECT_EQ(files.find("libLLVM"), std::string::npos) << files;
}

TEST(ClangPlugin, CppKernelsLoadTheModuleOnce) {
  if (!kLazy) GTEST_SKIP() << "this CLI links the Clang reader in";
  for (const char* fx : {"s2_cpu", "s1_cpu_cppwrap"}) {
    std::string files = loaded_files(fixture(fx) + " --format json -j2");
    // "file=/.../libilint-clang.so [0];  dynamically loaded by ..." and then its own dependencies.
    const std::string loaded = "libilint-clang.so [0];  dynamically loaded";
    size_t first = files.find(loaded);
    EXPECT_NE(first, std::string::npos) << fx << "\n" << files;
    if (first != std::string::npos) EXPECT_EQ(files.find(loaded, first + 1), std::string::npos) << fx;
#ifdef ILINT_CLANG_MODULE_STATIC
    // Clang and LLVM are inside the module: neither shared library is loaded (loading them was
    // most of a small C++ capture's time).
    EXPECT_EQ(files.find("libclang-cpp"), std::string::npos) << fx << "\n" << files;
    EXPECT_EQ(files.find("libLLVM"), std::string::npos) << fx << "\n" << files;
#else
    EXPECT_NE(files.find("libclang-cpp"), std::string::npos) << fx;
#endif
  }
}

TEST(ClangPlugin, MissingModuleIsOneWarningAndTheRestIsRead) {
  if (!kLazy) GTEST_SKIP() << "this CLI links the Clang reader in";
  const std::string missing = "/nonexistent/libilint-clang.so";
  for (const char* fx : {"s2_cpu", "s1_cpu_cppwrap"}) {
    std::string with, without;
    int rc_with = run_command("ILINT_CPP_READER=clang " + std::string(ILINT_BINARY) + " " + fixture(fx) +
                                  " --format json --fail-on never 2>/dev/null",
                              &with);
    int rc_without = run_command("ILINT_CPP_READER=clang ILINT_CLANG_PLUGIN=" + missing + " " +
                                     std::string(ILINT_BINARY) + " " + fixture(fx) +
                                     " --format json --fail-on never 2>/dev/null",
                                 &without);
    EXPECT_EQ(rc_with, 0) << fx;
    EXPECT_EQ(rc_without, 0) << fx;  // not 2: the Python side was read
    auto a = nlohmann::json::parse(with), b = nlohmann::json::parse(without);
    int warnings = 0;
    for (auto& d : b["diagnostics"])
      if (d["code"] == "clang-reader-unavailable") {
        ++warnings;
        EXPECT_EQ(d["level"], "warning");
        EXPECT_NE(d["message"].get<std::string>().find(missing), std::string::npos) << d.dump();
      }
    EXPECT_EQ(warnings, 1) << fx << ": " << b["diagnostics"].dump();
    for (auto& d : a["diagnostics"]) EXPECT_NE(d["code"], "clang-reader-unavailable") << fx;
    // Same compiles and kernels found either way; only what Clang reads is missing.
    ASSERT_EQ(a["compiles"].size(), b["compiles"].size()) << fx;
    EXPECT_GT(b["compiles"].size(), 0u) << fx;
  }
}

TEST(ClangPlugin, KernelsTheHandReaderReadsNeverMapClang) {
  if (!kLazy) GTEST_SKIP() << "this CLI links the Clang reader in";
  // s2_cpu: four cpp_pybinding kernels, all in the hand reader's vocabulary (cpp_kernel_hand.h).
  std::string files = loaded_files(fixture("s2_cpu") + " --format json -j2", "");
  ASSERT_NE(files.find("libc.so"), std::string::npos) << "LD_DEBUG gave no file list:\n" << files;
  EXPECT_EQ(files.find("libilint-clang.so"), std::string::npos) << files;
  // ...and the same run under ILINT_CPP_READER=clang does map it (the test above).
  EXPECT_NE(loaded_files(fixture("s2_cpu") + " --format json -j2").find("libilint-clang.so"), std::string::npos);
}
