// Broken inputs: each gets a diagnostic naming the file (and line), no crash, and the rest of the
// input is still analyzed. Exit code 2 only when nothing could be read.
#include <gtest/gtest.h>

#include <filesystem>

#include "test_util.h"

using namespace ilint;
using namespace ilint::testing;
namespace fs = std::filesystem;

namespace {
bool has_diag(const Analysis& a, const std::string& code, const std::string& file_part) {
  for (const auto& d : a.diags.sorted())
    if (d.code == code && d.loc.file.find(file_part) != std::string::npos) return true;
  return false;
}
// A copy of one real compile folder (s2_cuda forward) under `dst`.
fs::path copy_compile(const fs::path& dst, const std::string& name = "model__0_forward_1.0") {
  fs::path to = dst / "torchinductor" / name;
  fs::create_directories(to);
  fs::copy(compile_dir("s2_cuda", "forward"), to, fs::copy_options::recursive);
  return to;
}
}  // namespace

TEST(BadInput, TruncatedOutputCodeStillYieldsTheRestOfTheModel) {
  TempDir t;
  fs::path d = copy_compile(t.path);
  std::string text = read_all(d / "output_code.py");
  // Cut inside the Triton kernel's triple-quoted source.
  size_t cut = text.find("tl.associative_scan");
  ASSERT_NE(cut, std::string::npos);
  write_all(d / "output_code.py", text.substr(0, cut));
  Analysis a;
  run_analysis({t.path.string()}, a);
  EXPECT_TRUE(has_diag(a, "parse-python", "output_code.py"));
  ASSERT_EQ(a.program.compiles.size(), 1u);
  EXPECT_FALSE(a.program.compiles[0].fx.nodes.empty());  // fx_graph_readable.py was still read
  EXPECT_GT(a.files_read, 0u);
}

TEST(BadInput, TruncatedAtEverySectionBoundaryNeverCrashes) {
  TempDir t;
  fs::path d = copy_compile(t.path);
  std::string text = read_all(d / "output_code.py");
  for (const char* marker : {"# kernel path", "@triton.jit", "'''", "async_compile.wait", "def call", "return (",
                             "def get_args", "if __name__"}) {
    size_t cut = text.find(marker);
    ASSERT_NE(cut, std::string::npos) << marker;
    write_all(d / "output_code.py", text.substr(0, cut + 3));
    Analysis a;
    run_analysis({t.path.string()}, a);
    EXPECT_EQ(a.program.compiles.size(), 1u) << marker;
  }
}

TEST(BadInput, EmptyFileGetsADiagnostic) {
  TempDir t;
  fs::path d = copy_compile(t.path);
  write_all(d / "output_code.py", "");
  Analysis a;
  run_analysis({t.path.string()}, a);
  EXPECT_TRUE(has_diag(a, "read-empty", "output_code.py"));
}

TEST(BadInput, NonUtf8BytesAreReportedWithTheirLine) {
  TempDir t;
  fs::path d = copy_compile(t.path);
  std::string text = read_all(d / "fx_graph_readable.py");
  size_t nl = text.find('\n', text.find('\n') + 1);  // end of line 2
  text.insert(nl, "\xff\xfe\x80");
  write_all(d / "fx_graph_readable.py", text);
  Analysis a;
  run_analysis({t.path.string()}, a);
  bool found = false;
  for (const auto& diag : a.diags.sorted())
    if (diag.code == "read-not-utf8") {
      found = true;
      EXPECT_EQ(diag.loc.line, 2);
    }
  EXPECT_TRUE(found);
  // The rest still parses: the scan finding is still there.
  EXPECT_FALSE(findings_of(a, "reduced-precision-scan").empty());
}

TEST(BadInput, OtherTorchVersionIsNamed) {
  TempDir t;
  fs::path d = copy_compile(t.path);
  std::string text = read_all(d / "fx_graph_runnable.py");
  size_t p = text.find("2.11.0+cu130");
  ASSERT_NE(p, std::string::npos);
  text.replace(p, 12, "2.3.0+cu121");
  write_all(d / "fx_graph_runnable.py", text);
  // An output_code.py of an older layout: no "# AOT ID" header.
  std::string oc = read_all(d / "output_code.py");
  write_all(d / "output_code.py", oc.substr(oc.find('\n') + 1));
  Analysis a;
  run_analysis({t.path.string()}, a);
  EXPECT_TRUE(has_diag(a, "version-mismatch", "output_code.py"));
  bool named = false;
  for (const auto& diag : a.diags.sorted())
    if (diag.code == "version-mismatch" && diag.message.find("2.3.0") != std::string::npos) named = true;
  EXPECT_TRUE(named);
  EXPECT_FALSE(findings_of(a, "reduced-precision-scan").empty());
}

TEST(BadInput, MissingPathAndGarbageOnly) {
  std::string out;
  EXPECT_EQ(run_binary("/nonexistent/path", &out), 2);
  TempDir t;
  write_all(t.path / "output_code.py", std::string("\x00\x01\x02garbage\xff", 12));
  EXPECT_NE(run_binary((t.path / "output_code.py").string(), &out), -1);  // no crash
  // One good input beside a missing one: analyzed, not exit 2.
  EXPECT_EQ(run_binary("/nonexistent " + fixture("s2_cuda") + " --fail-on never", &out), 0);
}

TEST(BadInput, SymlinkLoopDoesNotHang) {
  TempDir t;
  copy_compile(t.path);
  fs::create_directory_symlink(t.path, t.path / "loop");
  Analysis a;
  run_analysis({t.path.string()}, a);
  EXPECT_EQ(a.program.compiles.size(), 1u);
}

TEST(BadInput, MissingOutputCodeIsNamed) {
  TempDir t;
  fs::path d = copy_compile(t.path);
  fs::remove(d / "output_code.py");
  Analysis a;
  run_analysis({t.path.string()}, a);
  EXPECT_TRUE(has_diag(a, "ingest-missing-file", "model__0_forward_1.0"));
  ASSERT_EQ(a.program.compiles.size(), 1u);
  EXPECT_FALSE(a.program.compiles[0].fx.nodes.empty());
}
