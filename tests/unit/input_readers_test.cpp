// The small readers of the parse stage: the head-only file reader (fx_graph_runnable.py), the
// streamed provenance JSON reader, and --time-report.
#include <gtest/gtest.h>
#include <sys/stat.h>

#include <nlohmann/json.hpp>

#include "analyzer/util/read_file.h"
#include "test_util.h"

using namespace ilint;
using namespace ilint::testing;

namespace {

bool has_code(const DiagSink& d, const std::string& code) {
  for (auto& x : d.sorted())
    if (x.code == code) return true;
  return false;
}

}  // namespace

TEST(ReadHead, StopsBeforeTheMarkerAndReadsAllWithoutIt) {
  TempDir t;
  // The marker straddles the reader's 64 KiB chunk boundary.
  std::string head(64 * 1024 - 5, 'a');
  head += "\n# torch version: 2.11.0\n";
  std::string text = head + "\nclass Repro(torch.nn.Module):\n" + std::string(100000, 'b');
  write_all(t.path / "runnable.py", text);
  std::string out;
  DiagSink d;
  ASSERT_TRUE(read_text_file_head((t.path / "runnable.py").string(), "\nclass Repro(", out, d));
  EXPECT_EQ(out, head);
  EXPECT_EQ(d.size(), 0u);

  write_all(t.path / "no_marker.py", "x = 1\ny = 2\n");
  ASSERT_TRUE(read_text_file_head((t.path / "no_marker.py").string(), "\nclass Repro(", out, d));
  EXPECT_EQ(out, "x = 1\ny = 2\n");
}

TEST(ReadHead, ChecksTheBytesItReadsAndRefusesWhatIsNotAFile) {
  TempDir t;
  write_all(t.path / "bad.py", "ok\nbad \xff here\nclass Repro(x):\n\xfe\xfe");
  std::string out;
  DiagSink d;
  ASSERT_TRUE(read_text_file_head((t.path / "bad.py").string(), "\nclass Repro(", out, d));
  EXPECT_EQ(out, "ok\nbad ? here");
  auto diags = d.sorted();
  ASSERT_EQ(diags.size(), 1u);  // the bytes after the marker were never read
  EXPECT_EQ(diags[0].code, "read-not-utf8");
  EXPECT_EQ(diags[0].loc.line, 2);

  // A FIFO would block a reader forever: refused without waiting for a writer.
  ASSERT_EQ(mkfifo((t.path / "fifo").c_str(), 0600), 0);
  DiagSink d2;
  EXPECT_FALSE(read_text_file_head((t.path / "fifo").string(), "\nclass Repro(", out, d2));
  EXPECT_TRUE(has_code(d2, "read-failed"));
  DiagSink d3;
  EXPECT_FALSE(read_text_file_head((t.path / "missing").string(), "x", out, d3));
  EXPECT_TRUE(has_code(d3, "read-failed"));
}

TEST(ReadFile, ReadsWhatIsThereAndNamesWhatItRefuses) {
  TempDir t;
  std::string big(200000, 'x');
  big += "\nend\n";
  write_all(t.path / "big.py", big);
  std::string out;
  DiagSink d;
  ASSERT_TRUE(read_text_file((t.path / "big.py").string(), out, d));
  EXPECT_EQ(out, big);
  EXPECT_EQ(d.size(), 0u);
  // A file whose size stat reports as 0 but which has bytes (procfs): read to its end.
  ASSERT_TRUE(read_text_file("/proc/self/status", out, d));
  EXPECT_NE(out.find("Name:"), std::string::npos);
  write_all(t.path / "empty.py", "");
  ASSERT_TRUE(read_text_file((t.path / "empty.py").string(), out, d));
  EXPECT_TRUE(out.empty());
  EXPECT_TRUE(has_code(d, "read-empty"));

  auto refused = [&](const std::filesystem::path& p, const std::string& message) {
    DiagSink sink;
    std::string text;
    EXPECT_FALSE(read_text_file(p.string(), text, sink)) << p;
    auto diags = sink.sorted();
    ASSERT_EQ(diags.size(), 1u) << p;
    EXPECT_EQ(diags[0].code, "read-failed") << p;
    EXPECT_EQ(diags[0].message, message) << p;
    EXPECT_EQ(diags[0].loc.file.str(), p.string());
  };
  ASSERT_EQ(mkfifo((t.path / "fifo").c_str(), 0600), 0);
  refused(t.path / "fifo", "cannot read file: not a regular file (a FIFO, socket or device)");  // and no wait for a writer
  refused(t.path, "cannot read file: Is a directory");
  refused(t.path / "missing.py", "cannot read file: No such file or directory");
  DiagSink d4;
  EXPECT_FALSE(read_text_file((t.path / "big.py").string(), out, d4, 1000));
  EXPECT_TRUE(has_code(d4, "read-too-large"));
}

// The reports' source snippets: lines without their '\r', bad bytes as '?', none past the end or
// before the start, and nothing from a file that is not a regular file of at most the limit.
TEST(ReadFile, SourceLinesForSnippets) {
  TempDir t;
  write_all(t.path / "user.py", "import torch\r\nx = 1\xff\n\nlast");
  const std::string user = (t.path / "user.py").string();
  SourceLineCache cache(1000);
  ASSERT_NE(cache.line(user, 2), nullptr);
  EXPECT_EQ(*cache.line(user, 2), "x = 1?");
  ASSERT_NE(cache.line(user, 1), nullptr);  // not wanted before the file was read: read again
  EXPECT_EQ(*cache.line(user, 1), "import torch");
  ASSERT_NE(cache.line(user, 3), nullptr);
  EXPECT_EQ(*cache.line(user, 3), "");
  ASSERT_NE(cache.line(user, 4), nullptr);
  EXPECT_EQ(*cache.line(user, 4), "last");
  EXPECT_EQ(cache.line(user, 5), nullptr);
  EXPECT_EQ(cache.line(user, 0), nullptr);
  ASSERT_EQ(mkfifo((t.path / "fifo").c_str(), 0600), 0);
  EXPECT_EQ(cache.line((t.path / "fifo").string(), 1), nullptr);
  EXPECT_EQ(cache.line("/dev/zero", 1), nullptr);
  EXPECT_EQ(cache.line((t.path / "missing.py").string(), 1), nullptr);
  EXPECT_EQ(cache.line("", 1), nullptr);
  EXPECT_EQ(SourceLineCache(10).line(user, 1), nullptr);
}

// A file is read in blocks keeping only the lines wanted: over a file with lines longer than a
// block, lines wanted on both sides of a block's end each come whole; a line asked for after the
// file was read is found by reading it again.
TEST(ReadFile, SourceLinesWantedAcrossBlocks) {
  TempDir t;
  std::string text;
  for (int i = 1; i <= 3000; ++i) text += "line " + std::to_string(i) + " " + std::string(i % 500 ? 40 : 1500000, 'x') + "\n";
  write_all(t.path / "big.py", text);
  const std::string big = (t.path / "big.py").string();
  SourceLineCache cache(size_t(1) << 30);
  for (int n : {1, 499, 500, 501, 1500, 2999, 3000}) cache.want(big, n);
  for (int n : {1, 499, 500, 501, 1500, 2999, 3000, 42}) {
    const std::string* line = cache.line(big, n);
    ASSERT_NE(line, nullptr) << n;
    EXPECT_EQ(line->substr(0, line->find(' ', 5)), "line " + std::to_string(n)) << n;
    EXPECT_EQ(line->size(), line->find(' ', 5) + 1 + (n % 500 ? 40 : 1500000)) << n;
  }
  EXPECT_EQ(cache.line(big, 3001), nullptr);
  // Wanted after the file was read: read again, and the lines given before stay where they were.
  const std::string* first = cache.line(big, 1);
  cache.want(big, 2);
  ASSERT_NE(cache.line(big, 2), nullptr);
  EXPECT_EQ(cache.line(big, 2)->substr(0, 7), "line 2 ");
  EXPECT_EQ(cache.line(big, 1), first);
}

// A file named on the command line: one error under the caller's code, the reason kept.
TEST(ReadFile, NamedFileFailuresAreOneErrorWithTheReason) {
  TempDir t;
  std::string out;
  DiagSink d;
  EXPECT_FALSE(read_named_file((t.path / "missing.json").string(), out, d, "config-unreadable", "config file"));
  ASSERT_EQ(d.size(), 1u);
  EXPECT_EQ(d.sorted()[0].code, "config-unreadable");
  EXPECT_EQ(d.sorted()[0].message, "cannot read config file: No such file or directory");
  EXPECT_EQ(d.sorted()[0].loc.file.str(), (t.path / "missing.json").string());
  write_all(t.path / "big.json", std::string(100, ' '));
  DiagSink big;
  EXPECT_FALSE(read_named_file((t.path / "big.json").string(), out, big, "baseline-unreadable", "baseline file", 10));
  ASSERT_EQ(big.size(), 1u);
  EXPECT_EQ(big.sorted()[0].message.rfind("cannot read baseline file: file is 100 bytes, over the limit of 10", 0), 0u)
      << big.sorted()[0].message;
  // Read, with a warning: the warning is passed on as read_text_file gave it.
  write_all(t.path / "odd.json", "{\"a\": \"\xff\"}");
  DiagSink odd;
  EXPECT_TRUE(read_named_file((t.path / "odd.json").string(), out, odd, "config-unreadable", "config file"));
  EXPECT_EQ(out, "{\"a\": \"?\"}");
  ASSERT_EQ(odd.size(), 1u);
  EXPECT_EQ(odd.sorted()[0].code, "read-not-utf8");
}

namespace {

// A copy of a real compile folder (s2_cuda forward) with its provenance file replaced.
void analyze_with_provenance(const std::string& provenance, TempDir& t, Analysis& a) {
  std::string src = compile_dir("s2_cuda", "forward");
  std::filesystem::path dst = t.path / "torchinductor" / std::filesystem::path(src).filename();
  std::filesystem::create_directories(dst);
  for (auto& e : std::filesystem::directory_iterator(src)) std::filesystem::copy(e.path(), dst / e.path().filename());
  write_all(dst / "inductor_provenance_tracking_node_mappings.json", provenance);
  run_analysis({t.path.string()}, a);
}

}  // namespace

TEST(Provenance, StreamedReaderKeepsOnlyNameListsOfTheKernelMaps) {
  TempDir t;
  nlohmann::json j = {
      {"preToPost", {{"x", {"add", "mul"}}}},
      {"postToPre", {{"add", {"x"}}}},
      {"cppCodeToPost", {{"triton_poi_fused_add_0:1", {"add", 7, {"nested"}, nullptr}},
                         {"empty", nlohmann::json::array()}, {"notalist", 3}}},
      {"postToCppCode", {{"add", {"triton_poi_fused_add_0:1"}}}},
      {"other", {{"add", {"ignored"}}}},
  };
  Analysis a;
  analyze_with_provenance(j.dump(), t, a);
  ASSERT_EQ(a.program.compiles.size(), 1u);
  const Provenance& p = a.program.compiles[0].provenance;
  // Numbers, arrays and null skipped; no empty lists, as the document reader kept none.
  EXPECT_EQ(p.kernel_to_post.at("triton_poi_fused_add_0:1"), (std::vector<IString>{"add"}));
  EXPECT_EQ(p.kernel_to_post.count("empty"), 0u);
  EXPECT_EQ(p.kernel_to_post.count("notalist"), 0u);
  EXPECT_EQ(p.kernel_to_post.size(), 1u);  // "add" of preToPost/postToPre went nowhere
  EXPECT_EQ(p.post_to_kernel.at("add"), (std::vector<IString>{"triton_poi_fused_add_0:1"}));
  EXPECT_FALSE(has_code(a.diags, "parse-json"));
}

TEST(Provenance, TruncatedOrNonObjectDocumentLeavesNoFacts) {
  for (std::string doc : {std::string(R"({"cppCodeToPost": {"x": ["add", "mu)"), std::string(R"(["preToPost"])"),
                          std::string("not json")}) {
    TempDir t;
    Analysis a;
    analyze_with_provenance(doc, t, a);
    ASSERT_EQ(a.program.compiles.size(), 1u);
    EXPECT_TRUE(a.program.compiles[0].provenance.kernel_to_post.empty()) << doc;
    EXPECT_TRUE(has_code(a.diags, "parse-json")) << doc;
    // The rest of the compile is still read: the seed-2 finding is there.
    EXPECT_FALSE(findings_of(a, "reduced-precision-scan").empty()) << doc;
  }
}

TEST(Cli, TimeReportGoesToStderrAndLeavesTheReportAlone) {
  std::string plain, timed;
  run_binary(fixture("s2_cpu") + " --format json -j1", &plain);
  run_binary(fixture("s2_cpu") + " --format json -j1 --time-report", &timed);
  EXPECT_EQ(plain, timed);
  // stderr, captured on its own.
  std::string err;
  run_command(std::string(ILINT_BINARY) + " " + fixture("s2_cpu") + " --format json -o /dev/null --time-report 2>&1",
              &err);
  for (const char* stage : {"ingest", "parse compiles", "C++ kernels", "Dynamo logs", "rules", "report", "total"})
    EXPECT_NE(err.find(stage), std::string::npos) << stage << "\n" << err;
}

// A UTF-8 byte order mark is read past, as Python does (with it, line 1's `# AOT ID:` went unseen), and
// NUL bytes, which are valid UTF-8, are named as NUL bytes, not as invalid UTF-8.
TEST(ReadFile, ByteOrderMarkIsReadPastAndNulBytesAreNamed) {
  TempDir t;
  write_all(t.path / "bom.py", "\xEF\xBB\xBF# AOT ID: ['0_forward']\nx = 1\n");
  std::string out;
  DiagSink d;
  ASSERT_TRUE(read_text_file((t.path / "bom.py").string(), out, d));
  EXPECT_EQ(out, "# AOT ID: ['0_forward']\nx = 1\n");
  EXPECT_EQ(d.size(), 0u);
  write_all(t.path / "nul.py", std::string("a = 1\nb = 2\0\0\n", 14));
  DiagSink n;
  ASSERT_TRUE(read_text_file((t.path / "nul.py").string(), out, n));
  EXPECT_EQ(out, "a = 1\nb = 2??\n");
  auto ds = n.sorted();
  ASSERT_EQ(ds.size(), 1u);
  EXPECT_EQ(ds[0].code, "read-nul");
  EXPECT_EQ(ds[0].loc.line, 2);
  EXPECT_NE(ds[0].message.find("2 NUL byte(s)"), std::string::npos) << ds[0].message;
}
