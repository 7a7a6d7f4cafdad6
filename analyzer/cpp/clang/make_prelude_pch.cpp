// Build step: writes the precompiled kernel and wrapper preludes into the directory given, where
// the Clang reader looks for them at run time (clang_common.h, write_prelude_pch). Without these
// files the analyzer still runs: it precompiles each prelude in memory on first use instead.
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <string>

#include "analyzer/cpp/clang/clang_common.h"

int main(int argc, char** argv) {
  if (argc != 2) {
    std::fprintf(stderr, "usage: %s DIR\n", argv[0]);
    return 2;
  }
  const std::string dir = argv[1];
  std::error_code ec;
  std::filesystem::create_directories(dir, ec);
  if (ec) {
    std::fprintf(stderr, "%s: cannot create %s: %s\n", argv[0], dir.c_str(), ec.message().c_str());
    return 1;
  }
  // Files of other preludes or another Clang are never opened (their names differ): drop them.
  for (const auto& entry : std::filesystem::directory_iterator(dir, ec))
    if (entry.path().extension() == ".pch") std::filesystem::remove(entry.path(), ec);
  for (const auto* prelude : {&ilint::clangx::kernel_prelude(), &ilint::clangx::wrapper_prelude()}) {
    std::string error;
    if (!ilint::clangx::write_prelude_pch(prelude->name, prelude->text, dir, &error)) {
      std::fprintf(stderr, "%s: %s: %s\n", argv[0], prelude->name.c_str(), error.c_str());
      return 1;
    }
  }
  std::ofstream(dir + "/stamp") << "written by ilint-prelude-pch\n";
  return 0;
}
