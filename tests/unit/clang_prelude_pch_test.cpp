// The preludes precompiled by the build (build/ilint-pch/, analyzer/cpp/clang/make_prelude_pch.cpp):
// the build wrote them and parses use them; an analysis of every fixture is the same with them
// as with the preamble built in memory (the way without them); a broken kernel gets the same
// errors; a missing, stale, cut, damaged or Clang-refused file is not used and changes nothing.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <sstream>

#include <unistd.h>

#include "analyzer/cpp/clang/clang_common.h"
#include "analyzer/cpp/clang/clang_reader.h"
#include "tests/kernel_facts.h"
#include "test_util.h"

namespace fs = std::filesystem;
using namespace ilint;
using clangx::PreludeSource;

namespace {

// Restores the default directory when a test ends, whatever it asserted.
struct PchDirScope {
  explicit PchDirScope(std::optional<std::string> dir) { clangx::set_prelude_pch_dir(std::move(dir)); }
  ~PchDirScope() { clangx::set_prelude_pch_dir(std::nullopt); }
};

fs::path default_pch_dir() {
  // The test binary sits in the build directory, beside ilint-pch/.
  return fs::canonical("/proc/self/exe").parent_path() / "ilint-pch";
}

// The model, diagnostics and findings of one analysis of every fixture, as text.
std::string analyse_all_fixtures() {
  clear_clang_parse_cache();
  std::vector<std::string> paths;
  for (auto& e : fs::directory_iterator(ILINT_FIXTURES_DIR)) paths.push_back(e.path().string());
  std::sort(paths.begin(), paths.end());
  return ilint::testing::analysis_text(paths, 2);
}

// One real fixture kernel, then the same kernel broken two ways; each read alone, as facts and
// diagnostics.
std::string read_kernels_alone() {
  clear_clang_parse_cache();
  std::string text;
  std::string path;
  for (auto& e : fs::recursive_directory_iterator(ILINT_FIXTURES_DIR + std::string("/s1_cpu")))
    if (e.path().filename() == "output_code.py") {
      path = e.path().string();
      text = ilint::testing::read_all(e.path());
      break;
    }
  std::vector<EmbeddedCppSource> sources = find_embedded_cpp_sources(text);
  EXPECT_FALSE(sources.empty());
  if (sources.empty()) return "";
  const EmbeddedCppSource& s = sources[0];
  std::string no_brace = s.source, undeclared = s.source;
  no_brace.erase(no_brace.rfind('}'), 1);
  undeclared.insert(undeclared.rfind('}'), "    not_declared_anywhere(out_ptr0);\n");
  std::ostringstream os;
  for (const std::string* src : std::initializer_list<const std::string*>{&s.source, &no_brace, &undeclared}) {
    Kernel k;
    k.name = s.name;
    k.backend = KernelBackend::Cpp;
    k.source = *src;
    k.source_first_line = s.first_line;
    DiagSink diags;
    read_cpp_kernel_clang(k, path, diags);
    os << ilint::testing::kernel_facts(k);
    for (auto& d : diags.sorted()) os << "diag " << d.code << " " << d.message << " " << d.loc.line << "\n";
  }
  return os.str();
}

}  // namespace

TEST(ClangPreludePch, TheBuildWroteBothPreludesAndParsesUseThem) {
  PchDirScope scope(std::nullopt);
  for (const auto* p : {&clangx::kernel_prelude(), &clangx::wrapper_prelude()}) {
    EXPECT_TRUE(fs::exists(default_pch_dir() / clangx::prelude_pch_file_name(p->name, p->text))) << p->name;
    EXPECT_EQ(clangx::prelude_source(p->name, p->text), PreludeSource::Prebuilt) << p->name;
  }
}

TEST(ClangPreludePch, AnAnalysisIsTheSameWithTheBuiltFilesAndWithout) {
  install_optional_readers();
  std::string with_files, without;
  {
    PchDirScope scope(std::nullopt);
    ASSERT_EQ(clangx::prelude_source(clangx::kernel_prelude().name, clangx::kernel_prelude().text),
              PreludeSource::Prebuilt);
    with_files = analyse_all_fixtures() + read_kernels_alone();
  }
  {
    PchDirScope scope{std::string()};  // no directory: each prelude is built in memory
    ASSERT_EQ(clangx::prelude_source(clangx::kernel_prelude().name, clangx::kernel_prelude().text),
              PreludeSource::BuiltInMemory);
    ASSERT_EQ(clangx::prelude_source(clangx::wrapper_prelude().name, clangx::wrapper_prelude().text),
              PreludeSource::BuiltInMemory);
    without = analyse_all_fixtures() + read_kernels_alone();
  }
  EXPECT_NE(with_files.find("cpp-kernel-parse"), std::string::npos) << "the broken kernels were not reported";
  EXPECT_EQ(with_files, without);
}

TEST(ClangPreludePch, AFileThatDoesNotCheckOutIsNotUsed) {
  const clangx::PreludeText& prelude = clangx::kernel_prelude();
  const std::string name = clangx::prelude_pch_file_name(prelude.name, prelude.text);
  const std::string good = ilint::testing::read_all(default_pch_dir() / name);
  ASSERT_GT(good.size(), 64u);
  const std::string payload = good.substr(64);
  ASSERT_EQ(good.substr(0, 64), clangx::prelude_pch_header(prelude.name, prelude.text, payload));

  std::string expected;
  {
    PchDirScope scope{std::string()};
    expected = read_kernels_alone();
  }
  // The wrapper prelude's PCH is a real PCH, of another prelude: under a header made for this
  // one, only Clang can tell.
  const clangx::PreludeText& other = clangx::wrapper_prelude();
  const std::string other_payload =
      ilint::testing::read_all(default_pch_dir() / clangx::prelude_pch_file_name(other.name, other.text)).substr(64);
  std::string flipped = good;
  flipped[good.size() / 2] ^= 0x20;
  std::string stale_key = good;
  stale_key[20] = stale_key[20] == '0' ? '1' : '0';
  const std::vector<std::pair<const char*, std::string>> cases = {
      {"cut short", good.substr(0, good.size() - 1)},
      {"one byte changed", flipped},
      {"header of another key", stale_key},
      {"header only", good.substr(0, 64)},
      {"empty", ""},
      {"another prelude's PCH behind a good header",
       clangx::prelude_pch_header(prelude.name, prelude.text, other_payload) + other_payload},
      {"a good header over garbage", clangx::prelude_pch_header(prelude.name, prelude.text, std::string(4096, 'x')) +
                                         std::string(4096, 'x')},
  };
  // Each case in a directory of its own: a prelude is prepared once per directory and process.
  int n = 0;
  for (const auto& [what, bytes] : cases) {
    fs::path dir = fs::temp_directory_path() / ("ilint_pch_" + std::to_string(::getpid()) + "_" + std::to_string(n++));
    fs::create_directories(dir);
    ilint::testing::write_all(dir / name, bytes);
    {
      PchDirScope scope(dir.string());
      EXPECT_EQ(clangx::prelude_source(prelude.name, prelude.text), PreludeSource::BuiltInMemory) << what;
      EXPECT_EQ(read_kernels_alone(), expected) << what;
    }
    fs::remove_all(dir);
  }
  // The same file, unchanged, in another directory is used.
  fs::path dir = fs::temp_directory_path() / ("ilint_pch_ok_" + std::to_string(::getpid()));
  fs::create_directories(dir);
  ilint::testing::write_all(dir / name, good);
  {
    PchDirScope scope(dir.string());
    EXPECT_EQ(clangx::prelude_source(prelude.name, prelude.text), PreludeSource::Prebuilt);
    EXPECT_EQ(read_kernels_alone(), expected);
  }
  fs::remove_all(dir);
}
