// Hostile and broken inputs beyond bad_input_test.cpp: multi-megabyte lines, deep nesting and
// long chains, binary garbage in every file of a compile folder, special files (FIFOs, dangling
// links, unreadable files), odd folder names; and the fixed crashes under tests/unit/regressions/.
// Each must end in diagnostics, never a crash or a hang, with byte-identical output at any -j.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <filesystem>
#include <random>

#include "analyzer/config/config.h"
#include "analyzer/confirm/confirm.h"
#include "analyzer/dynamo/readers.h"
#include "analyzer/cpp/cpp_kernel_hand.h"
#include "analyzer/cpp/cpp_wrapper_hand.h"
#include "analyzer/cpp/cpp_limits.h"
#include "analyzer/parse/fx_json.h"
#include "analyzer/parse/fx_text.h"
#include "analyzer/parse/output_code.h"
#include "analyzer/parse/python.h"
#include "analyzer/parse/triton_kernel.h"
#include "analyzer/report/baseline.h"
#include "test_util.h"

using namespace ilint;
using namespace ilint::testing;
namespace fs = std::filesystem;

namespace {

fs::path copy_compile(const fs::path& dst, const std::string& fixture_name = "s2_cuda",
                      const std::string& name = "model__0_forward_1.0") {
  fs::path to = dst / "torchinductor" / name;
  fs::create_directories(to);
  fs::copy(compile_dir(fixture_name, "forward"), to, fs::copy_options::recursive);
  return to;
}

bool has_diag(const Analysis& a, const std::string& code, const std::string& file_part = "") {
  for (const auto& d : a.diags.sorted())
    if (d.code == code && d.loc.file.find(file_part) != std::string::npos) return true;
  return false;
}

bool has_issue(const py::Module& m, const std::string& text) {
  for (const auto& i : m.issues)
    if (i.message.find(text) != std::string::npos) return true;
  return false;
}

}  // namespace

// A line of N chained links builds a tree N deep; freeing or walking it recursively overflowed the
// stack (found while probing the parser for the fuzz work: `x = a + a + ...`, 200k links,
// segfaulted). Every kind of chain is now cut at the nesting limit with one diagnostic.
TEST(Robustness, LongChainsOnOneLineAreCutNotFatal) {
  auto check = [](const std::string& src, const std::string& what) {
    py::Module m = py::parse_module(src + "\ny = 2\n");
    EXPECT_TRUE(has_issue(m, "nested too deeply")) << what;
    ASSERT_GE(m.stmts.size(), 2u) << what;
    EXPECT_EQ(m.stmts.back().targets[0]->text, "y") << what;  // the next statement is still read
  };
  constexpr int kLinks = 200000;  // 200k links of `+a` or `.b` overflowed the 8 MB stack
  for (std::string link : {"+a", "*a", "**a", "**-a", ".b", "[0]", "()", "<a", " or a", " and a", " if a else a", "|a"}) {
    std::string src = "x = a";
    for (int i = 0; i < kLinks; ++i) src += link;
    check(src, link);
  }
  for (std::string prefix : {"-", "~", "not ", "lambda: "}) {
    std::string src = "x = ";
    for (int i = 0; i < kLinks; ++i) src += prefix;
    check(src + "a", prefix);
  }
}

TEST(Robustness, ShortChainsAreKeptWhole) {
  std::string src = "x = a";
  for (int i = 0; i < 150; ++i) src += " + a";
  py::Module m = py::parse_module(src + "\n");
  EXPECT_TRUE(m.issues.empty());
  ASSERT_EQ(m.stmts.size(), 1u);
  EXPECT_EQ(m.stmts[0].value->kind, py::Expr::BinOp);
  EXPECT_EQ(m.text_of(*m.stmts[0].value), src.substr(4));
}

TEST(Robustness, MultiMegabyteLinesInACompileFolder) {
  TempDir t;
  fs::path d = copy_compile(t.path);
  std::string oc = read_all(d / "output_code.py");
  // A 4 MB comment line, a 1 MB list literal and a 2 MB chain, before `def call`.
  std::string big_list = "big = [";
  for (int i = 0; i < 300000; ++i) big_list += "1, ";
  big_list += "1]\n";
  std::string chain = "chain = a";
  for (int i = 0; i < 500000; ++i) chain += " + a";
  size_t at = oc.find("def call(");
  ASSERT_NE(at, std::string::npos);
  oc.insert(at, "# " + std::string(4 << 20, 'x') + "\n" + big_list + chain + "\n");
  write_all(d / "output_code.py", oc);
  Analysis a;
  run_analysis({t.path.string()}, a);
  ASSERT_EQ(a.program.compiles.size(), 1u);
  EXPECT_TRUE(has_diag(a, "parse-python", "output_code.py"));
  // The wrapper after the long lines is still read: the scan finding of this capture is there.
  EXPECT_FALSE(a.program.compiles[0].launches.empty());
  EXPECT_FALSE(findings_of(a, "reduced-precision-scan").empty());
}

TEST(Robustness, DeeplyNestedKernelSourceAndFxGraph) {
  Kernel k;
  k.name = "triton_deep";
  k.source = "@triton.jit\ndef triton_deep(in_ptr0, xnumel, XBLOCK : tl.constexpr):\n    tmp0 = " +
             std::string(100000, '(') + "1" + std::string(100000, ')') + "\n    tmp1 = tl.load(in_ptr0" +
             std::string(50000, '[') + "\n";
  k.source_first_line = 10;
  DiagSink diags;
  read_triton_kernel(k, "output_code.py", diags);
  EXPECT_FALSE(k.parse_errors.empty());
  FxGraph g;
  std::string fx = "class GraphModule(torch.nn.Module):\n    def forward(self, a: \"f32[4]\"):\n        b: \"f32[4]\" = "
                   "torch.ops.aten.add.Tensor(a" + std::string(200000, '+') + "a)\n        return (b,)\n";
  EXPECT_TRUE(parse_fx_readable("fx_graph_readable.py", fx, g, diags));
}

TEST(Robustness, BinaryGarbageInEveryFileOfACompileFolder) {
  TempDir t;
  fs::path d = copy_compile(t.path);
  std::mt19937 rng(7);  // fixed seed: the same garbage every run
  for (const char* name : {"output_code.py", "fx_graph_readable.py", "fx_graph_runnable.py",
                           "inductor_provenance_tracking_node_mappings.json"}) {
    std::string junk(64 * 1024, '\0');
    for (auto& c : junk) c = static_cast<char>(rng() & 0xff);
    write_all(d / name, junk);
  }
  Analysis a;
  run_analysis({t.path.string()}, a);
  EXPECT_TRUE(has_diag(a, "read-not-utf8", "output_code.py"));
  EXPECT_TRUE(has_diag(a, "parse-json", "inductor_provenance_tracking_node_mappings.json"));
  ASSERT_EQ(a.program.compiles.size(), 1u);
  EXPECT_TRUE(a.program.compiles[0].kernels.empty());
}

TEST(Robustness, GarbageSplicedIntoRealFilesKeepsTheRest) {
  // Garbage in the middle of the real wrapper: the kernels before it are still read.
  TempDir t;
  fs::path d = copy_compile(t.path);
  std::string oc = read_all(d / "output_code.py");
  size_t at = oc.find("async_compile.wait");
  ASSERT_NE(at, std::string::npos);
  std::string junk = "\x01\x02'''\"\"\"(((([[[{{{\\\n\t\t  \x7f\xc3\x28 @@@ ### :::";
  oc.insert(at, junk + "\n");
  write_all(d / "output_code.py", oc);
  Analysis a;
  run_analysis({t.path.string()}, a);
  ASSERT_EQ(a.program.compiles.size(), 1u);
  EXPECT_FALSE(a.program.compiles[0].kernels.empty());
  EXPECT_TRUE(has_diag(a, "parse-python", "output_code.py") || has_diag(a, "read-not-utf8", "output_code.py"));
}

TEST(Robustness, SpecialFilesAreNotReadAndDoNotHang) {
  TempDir t;
  fs::path d = copy_compile(t.path);
  // A FIFO where a file is expected: opening it for reading would block forever.
  fs::remove(d / "fx_graph_readable.py");
  ASSERT_EQ(mkfifo((d / "fx_graph_readable.py").c_str(), 0644), 0);
  // A dangling link named like a file we read.
  fs::remove(d / "inductor_provenance_tracking_node_mappings.json");
  fs::create_symlink(t.path / "nowhere.json", d / "inductor_provenance_tracking_node_mappings.json");
  Analysis a;
  run_analysis({t.path.string()}, a);
  ASSERT_EQ(a.program.compiles.size(), 1u);
  EXPECT_FALSE(a.program.compiles[0].kernels.empty());
  // Given directly, the FIFO is refused with a diagnostic naming it.
  Analysis b;
  run_analysis({(d / "fx_graph_readable.py").string()}, b);
  EXPECT_TRUE(has_diag(b, "ingest-unreadable", "fx_graph_readable.py"));
}

// Files the user names outside the input (--config, --baseline, --confirm-results) were read
// with std::ifstream: a FIFO there blocked on open until a writer came, /dev/zero was read until
// memory ran out. Each is now refused at once with exit 2 and a reason naming the file. The CLI
// runs under timeout(1) so that a regression fails (exit 124) instead of hanging the suite.
TEST(Robustness, FilesNamedOnTheCommandLineAreRefusedUnlessRegular) {
  TempDir t;
  const std::string fifo = (t.path / "fifo").string();
  ASSERT_EQ(mkfifo(fifo.c_str(), 0600), 0);
  for (const std::string flag : {"--config", "--baseline", "--confirm-results"}) {
    for (const std::string& named : {fifo, std::string("/dev/zero")}) {
      std::string out;
      int rc = run_command("timeout 20 " + std::string(ILINT_BINARY) + " " + fixture("s2_cuda") + " " + flag + " " +
                               named + " --format json -o /dev/null 2>&1",
                           &out);
      EXPECT_EQ(rc, 2) << flag << " " << named << ": " << out;
      EXPECT_NE(out.find(named + ": error: cannot read "), std::string::npos) << out;
      EXPECT_NE(out.find("not a regular file"), std::string::npos) << out;
    }
  }
  // A broken recorded-results file is named with its line, before any analysis.
  write_all(t.path / "results.json", "{\n  \"findings\": [\n");
  std::string out;
  EXPECT_EQ(run_command(std::string(ILINT_BINARY) + " " + fixture("s2_cuda") + " --confirm-results " +
                            (t.path / "results.json").string() + " -o /dev/null 2>&1",
                        &out),
            2);
  EXPECT_NE(out.find("results.json:3: error: confirmation results are not valid JSON"), std::string::npos) << out;
}

// The text and HTML reports quote the user's source line a finding points at, from the path the
// logs name. A log naming a FIFO hung the text report (std::ifstream opened it and waited for a
// writer); /dev/zero has no lines to give. Neither is read now, and the finding is still reported.
TEST(Robustness, SourcePathsNamedByTheLogsAreReadOnlyWhenRegular) {
  TempDir t;
  const std::string fifo = (t.path / "fifo").string();
  ASSERT_EQ(mkfifo(fifo.c_str(), 0600), 0);
  const std::string user_file = "/work/steering/probe/seed1.py";  // what s1_cpu's logs name
  for (const std::string& named : {fifo, std::string("/dev/zero")}) {
    fs::path dir = t.path / ("capture" + std::to_string(named.size()));
    fs::copy(fixture("s1_cpu"), dir, fs::copy_options::recursive);
    int rewritten = 0;
    for (auto& e : fs::recursive_directory_iterator(dir)) {
      if (!e.is_regular_file()) continue;
      std::string text = read_all(e.path());
      bool any = false;
      for (size_t at; (at = text.find(user_file)) != std::string::npos; any = true) text.replace(at, user_file.size(), named);
      if (!any) continue;
      write_all(e.path(), text);
      ++rewritten;
    }
    ASSERT_GT(rewritten, 0) << "s1_cpu no longer names " << user_file;
    for (const std::string format : {"text", "html"}) {
      std::string out;
      int rc = run_command("timeout 20 " + std::string(ILINT_BINARY) + " " + dir.string() + " --no-color --format " +
                               format + " --fail-on never 2>/dev/null",
                           &out);
      EXPECT_EQ(rc, 0) << named << " " << format;
      EXPECT_NE(out.find("scalar-recompile"), std::string::npos) << named << " " << format;
      if (format == "text") EXPECT_NE(out.find(named + ":10: note:"), std::string::npos) << out;
    }
  }
}

// The text report's snippets come from the files the findings point at; an output_code.py past
// the HTML report's 8 MiB limit for user sources is input the analysis read, and keeps them.
TEST(Robustness, TextSnippetsOfALargeOutputCode) {
  TempDir t;
  fs::path d = copy_compile(t.path);
  std::string code = read_all(d / "output_code.py");
  std::string pad;
  while (pad.size() < (9u << 20)) pad += "# padding after the wrapper, to pass 8 MiB\n";
  write_all(d / "output_code.py", code + pad);
  std::string out;
  run_command(std::string(ILINT_BINARY) + " " + t.path.string() + " --no-color --fail-on never 2>/dev/null", &out);
  size_t at = out.find("output_code.py:");
  ASSERT_NE(at, std::string::npos) << out.substr(0, 2000);
  size_t line_end = out.find('\n', at);
  size_t snippet_end = out.find('\n', line_end + 1);
  ASSERT_NE(snippet_end, std::string::npos);
  std::string snippet = out.substr(line_end + 1, snippet_end - line_end - 1);
  EXPECT_NE(code.find(snippet), std::string::npos) << "no source line under the finding: " << out.substr(at, 600);
  EXPECT_EQ(out.compare(snippet_end + 1, 1, " ") == 0 || out.compare(snippet_end + 1, 1, "^") == 0, true)
      << out.substr(at, 600);
}

TEST(Robustness, UnreadableFileIsNamed) {
  TempDir t;
  fs::path d = copy_compile(t.path);
  ASSERT_EQ(chmod((d / "output_code.py").c_str(), 0), 0);
  if (geteuid() != 0) {
    Analysis a;
    run_analysis({t.path.string()}, a);
    EXPECT_TRUE(has_diag(a, "read-failed", "output_code.py"));
    return;
  }
  // Root reads files whatever their mode (CI runs as root): run the analyzer as nobody instead.
  if (std::system("command -v setpriv >/dev/null 2>&1") != 0) GTEST_SKIP() << "root, and no setpriv to drop it";
  for (fs::path p = d; p != t.path.parent_path(); p = p.parent_path())
    fs::permissions(p, fs::perms::owner_all | fs::perms::group_read | fs::perms::group_exec |
                           fs::perms::others_read | fs::perms::others_exec);
  for (auto& e : fs::directory_iterator(d))
    if (e.path().filename() != "output_code.py") fs::permissions(e.path(), fs::perms::others_read, fs::perm_options::add);
  std::string out;
  run_command("setpriv --reuid=65534 --regid=65534 --clear-groups " + std::string(ILINT_BINARY) + " " +
                  t.path.string() + " --format json --fail-on never 2>/dev/null",
              &out);
  auto j = nlohmann::json::parse(out, nullptr, false);
  ASSERT_FALSE(j.is_discarded()) << out;
  bool named = false;
  for (auto& diag : j["diagnostics"])
    named |= diag["code"] == "read-failed" &&
             diag["location"]["file"].get<std::string>().find("output_code.py") != std::string::npos;
  EXPECT_TRUE(named) << out;
}

TEST(Robustness, FolderNameWithAHugeModelIndex) {
  // stoi threw out_of_range on this name and aborted the analyzer.
  TempDir t;
  copy_compile(t.path, "s2_cuda", "model__99999999999999999999_forward_1.0");
  Analysis a;
  run_analysis({t.path.string()}, a);
  ASSERT_EQ(a.program.compiles.size(), 1u);
  EXPECT_EQ(a.program.compiles[0].graph_kind, "forward");
  EXPECT_EQ(a.program.compiles[0].model_index, -1);
}

TEST(Robustness, DeeplyNestedJsonIsRefused) {
  std::string doc = "{\"inductor_lint_fx_graph\": 1, \"nodes\": [{\"name\": \"x\", \"args\": [" +
                    std::string(200000, '[') + std::string(200000, ']') + "]}]}";
  FxGraph g;
  std::string version;
  DiagSink diags;
  EXPECT_FALSE(parse_fx_json("graph.json", doc, g, version, diags));
  bool named = false;
  for (const auto& d : diags.sorted()) named |= d.message.find("nested deeper") != std::string::npos;
  EXPECT_TRUE(named);
}

TEST(Robustness, FxJsonFieldsOfOtherTypes) {
  // json::value("op", "") threw type_error on `"op": 5` and aborted the analyzer.
  std::string doc = read_all(fs::path(ILINT_SOURCE_DIR) / "tests/unit/regressions/fx_json_fields_of_other_types.json");
  ASSERT_FALSE(doc.empty());
  FxGraph g;
  std::string version;
  DiagSink diags;
  EXPECT_TRUE(parse_fx_json("graph.json", doc, g, version, diags));
  ASSERT_EQ(g.nodes.size(), 1u);
  EXPECT_EQ(g.nodes[0].op, "");
  EXPECT_EQ(g.nodes[0].user_function(), "");
}

// fuzz_triton input 014133f4: `xnumel = 1e77` was converted to int64 (undefined behaviour; UBSan
// stopped there). A numel no int64 holds is not a static numel.
TEST(Robustness, NumelLiteralOutsideInt64IsNotAStaticNumel) {
  for (const char* value : {"1e77", "-1e77", "1e19"}) {
    Kernel k;
    k.name = "triton_poi_fused_0";
    k.source = std::string("def triton_poi_fused_0(in_ptr0, out_ptr0, xnumel, XBLOCK : tl.constexpr):\n"
                           "    xnumel = ") + value + "\n    r0_numel = 15\n";
    k.source_first_line = 1;
    DiagSink diags;
    read_triton_kernel(k, "output_code.py", diags);
    EXPECT_EQ(k.numels.count("xnumel"), 0u) << value;
    ASSERT_EQ(k.numels.count("r0_numel"), 1u);
    EXPECT_EQ(k.numels.at("r0_numel"), 15);
  }
}

// Every saved crash input parses again without crashing. Files are named by the reader they
// crashed: python_*, triton_*, output_code_*, fx_text_*, fx_json_*, dynamo_logs_*, user_files_* (a
// config, baseline or recorded answers); cpp_limits_* broke an invariant
// of the scan before Clang (fuzz_cpp_limits: a prefix ending at a line's end never measures deeper);
// cpp_kernel_hand_* / cpp_wrapper_hand_* were accepted by a hand C++ reader and read otherwise by Clang.
TEST(Robustness, EverySavedCrashInputParses) {
  fs::path dir = fs::path(ILINT_SOURCE_DIR) / "tests/unit/regressions";
  size_t n = 0;
  for (const auto& e : fs::directory_iterator(dir)) {
    std::string name = e.path().filename().string();
    std::string text = read_all(e.path());
    DiagSink diags;
    ++n;
    if (name.rfind("python_", 0) == 0) {
      (void)py::parse_module(text);
    } else if (name.rfind("triton_", 0) == 0) {
      Kernel k;
      k.name = "triton_fuzz_kernel";
      k.source = text;
      k.source_first_line = 1;
      read_triton_kernel(k, name, diags);
    } else if (name.rfind("output_code_", 0) == 0) {
      Analysis a;
      Compile c;
      parse_output_code(name, text, c, a.diags);
      a.program.compiles.push_back(std::move(c));
      run_rules(a.program, AnalyzeOptions{}, a.findings, a.diags);
    } else if (name.rfind("fx_text_", 0) == 0) {
      FxGraph g;
      parse_fx_readable(name, text, g, diags);
      FxNode node;
      (void)parse_graph_fragment_line(text, node);
    } else if (name.rfind("fx_json_", 0) == 0) {
      FxGraph g;
      std::string v;
      parse_fx_json(name, text, g, v, diags);
    } else if (name.rfind("cpp_limits_", 0) == 0) {
      CppTextMeasure all = measure_cpp_text(text);
      for (size_t cut = text.find('\n'); cut != std::string::npos; cut = text.find('\n', cut + 1))
        EXPECT_LE(measure_cpp_text(std::string_view(text).substr(0, cut + 1)).max_nesting, all.max_nesting)
            << name << " cut at " << cut;
    } else if (name.rfind("cpp_kernel_hand_", 0) == 0) {
      // Read as the hand reader's fuzz target read it; its contract with Clang is checked in
      // CppKernelHand.SavedFuzzInputsKeepTheContract.
      Kernel k;
      k.name = "cpp_fused_fuzz_0";
      k.source = text;
      k.source_first_line = 10;
      (void)read_cpp_kernel_hand(k, name);
    } else if (name.rfind("cpp_wrapper_hand_", 0) == 0) {
      // Its contract with Clang: CppWrapperHand.SavedFuzzInputsKeepTheContract.
      Compile c;
      (void)read_cpp_wrapper_hand(c, text, 7, name, diags, nullptr);
    } else if (name.rfind("dynamo_logs_", 0) == 0) {
      // As fuzz_dynamo_logs reads it (DynamoLogs.TheRecordOpenAtTheEndIsReadWhileItsLinesAreValid
      // checks more of this one).
      dynamo::LogFacts text_facts, trace_facts;
      EXPECT_TRUE(dynamo::read_torch_logs(e.path().string(), text_facts, diags)) << name;
      EXPECT_TRUE(dynamo::read_trace_log(e.path().string(), trace_facts, diags)) << name;
    } else if (name.rfind("user_files_", 0) == 0) {
      // As fuzz_user_files reads it: a config, a baseline, recorded confirmation answers.
      (void)parse_config(name, text, diags);
      (void)parse_baseline(name, text, diags);
      nlohmann::json doc = nlohmann::json::parse(text, nullptr, false);
      Analysis a;
      a.findings.resize(1);
      if (!doc.is_discarded()) attach_recorded(a, doc, diags);
    } else {
      ADD_FAILURE() << "regression input without a reader prefix: " << name;
    }
  }
  EXPECT_GT(n, 0u);
}

// fuzz_output_code input 863836f6: a cpp_wrapper=True output_code.py whose definition of
// cpp_fused_div_1 was cut away while its declaration and launch stayed. It broke the target's
// "every launch names a kernel of the file" invariant, which holds for the Python wrapper only: a
// CUDA C++ wrapper launches Triton kernels built elsewhere (s1_cuda_cppwrap), so a launch of a
// kernel the file does not define is the model's normal case there (a diagnostic for it warned on
// every launch of that capture, and was dropped). Both wrapper readers keep the launch and its
// in-place write, read off the declaration's `in_out_ptr0`.
TEST(Robustness, ACppWrapperLaunchOfAKernelItOnlyDeclaresIsKept) {
  const fs::path file =
      fs::path(ILINT_SOURCE_DIR) / "tests/unit/regressions/output_code_cpp_wrapper_launches_undefined_kernel.py";
  const std::string text = read_all(file);
  ASSERT_FALSE(text.empty());
  std::vector<bool> hand_settings = {true};
#ifdef ILINT_HAVE_CLANG
  hand_settings.push_back(false);
#endif
  for (bool hand : hand_settings) {
    HandReadersScope scope(hand);
    DiagSink diags;
    Compile c;
    parse_output_code("output_code.py", text, c, diags);
    EXPECT_TRUE(c.cpp_wrapper);
    EXPECT_EQ(c.kernel("cpp_fused_div_1"), nullptr);
    bool launched = false, mutation = false;
    for (const auto& l : c.launches) launched = launched || l.kernel == "cpp_fused_div_1";
    for (const auto& m : c.mutations) mutation = mutation || (m.kernel == "cpp_fused_div_1" && m.via == "in_out_ptr");
    EXPECT_TRUE(launched) << "hand reader " << hand;
    EXPECT_TRUE(mutation) << "hand reader " << hand;
    Analysis a;
    a.program.compiles.push_back(std::move(c));
    run_rules(a.program, AnalyzeOptions{}, a.findings, a.diags);  // rules take a launch without a kernel
  }
}

TEST(Robustness, HostileInputOutputIsDeterministicAcrossJobs) {
  // The broken folders of this file, side by side with a real capture: same bytes at -j1 and -j3.
  TempDir t;
  fs::path garbage = copy_compile(t.path / "a");
  write_all(garbage / "output_code.py", std::string("\xff\xfe(((", 5));
  fs::path deep = copy_compile(t.path / "b");
  write_all(deep / "fx_graph_readable.py", "x = a" + std::string(1000, '+') + "\n");
  copy_compile(t.path / "c", "prec_cumsum_bf16");
  std::string one, three, again;
  run_binary(t.path.string() + " --format json -j 1", &one);
  run_binary(t.path.string() + " --format json -j 3", &three);
  run_binary(t.path.string() + " --format json -j 3", &again);
  EXPECT_FALSE(one.empty());
  EXPECT_EQ(one, three);
  EXPECT_EQ(three, again);
}

// The report and what goes to stderr, the same bytes at -j1 and -j2, on C++ captures whose kernels
// hold Clang's debug pragmas (turned off, `crash`, `diag_mapping` and `macro` still wrote LLVM's
// timer table, object addresses and macro dumps to stderr, different each run: found by
// tests/fuzz/mutate_captures.py --determinism) and whose files got seeded line mutations (a number
// past int64's range, a line deleted, duplicated or moved), as that script makes them.
TEST(Robustness, MutatedCapturesKeepReportAndStderrAcrossJobs) {
  std::mt19937 rng(21);
  auto pick = [&](size_t n) { return static_cast<size_t>(rng() % n); };
  auto mutate_lines = [&](std::string text) {
    std::vector<std::string> lines;
    for (size_t b = 0, e; b <= text.size(); b = e + 1) {
      e = text.find('\n', b);
      if (e == std::string::npos) e = text.size();
      lines.push_back(text.substr(b, e - b));
    }
    for (int k = 0; k < 4; ++k) {
      size_t i = pick(lines.size());
      switch (pick(4)) {
        case 0: {  // the first number of the line, past any integer type
          size_t d = lines[i].find_first_of("0123456789");
          if (d != std::string::npos) lines[i].replace(d, 1, "99999999999999999999999999");
          break;
        }
        case 1: lines.erase(lines.begin() + static_cast<long>(i)); break;
        case 2: lines.insert(lines.begin() + static_cast<long>(i), lines[i]); break;
        default: {
          std::string moved = lines[i];
          lines.erase(lines.begin() + static_cast<long>(i));
          lines.insert(lines.begin() + static_cast<long>(pick(lines.size() + 1)), moved);
        }
      }
      if (lines.empty()) lines.push_back("");
    }
    std::string out;
    for (size_t i = 0; i < lines.size(); ++i) out += (i ? "\n" : "") + lines[i];
    return out;
  };
  TempDir t;
  const char* pragmas[] = {"#pragma clang __debug crash\n", "_Pragma(\"clang __debug diag_mapping\")\n",
                           "#pragma clang __debug macro X\n"};
  int round = 0;
  for (const char* name : {"s2_cpu_cppwrap", "cpu_vocab_softmax", "s1_cpu", "s1_cuda"}) {
    for (int copy = 0; copy < 2; ++copy, ++round) {
      fs::path dir = t.path / ("m" + std::to_string(round));
      fs::copy(fixture(name), dir, fs::copy_options::recursive);
      std::vector<fs::path> files;
      for (auto& e : fs::recursive_directory_iterator(dir))
        if (e.is_regular_file()) files.push_back(e.path());
      std::sort(files.begin(), files.end());
      for (const fs::path& f : files) {
        if (f.filename() != "output_code.py") continue;
        std::string text = read_all(f);
        size_t at = text.find("extern \"C\"");
        if (at == std::string::npos) continue;
        text.insert(at, pragmas[pick(3)]);
        write_all(f, text);
      }
      for (int k = 0; k < 3; ++k) {
        const fs::path& f = files[pick(files.size())];
        write_all(f, mutate_lines(read_all(f)));
      }
      std::string reports[2], errs[2];
      for (int j = 1; j <= 2; ++j) {
        fs::path report = t.path / ("report" + std::to_string(j)), err = t.path / ("err" + std::to_string(j));
        int rc = run_command(std::string(ILINT_BINARY) + " " + dir.string() + " --format json -o " + report.string() +
                             " --fail-on never -j" + std::to_string(j) + " 2>" + err.string());
        EXPECT_EQ(rc, 0) << name << " copy " << copy << " -j" << j;
        reports[j - 1] = read_all(report);
        errs[j - 1] = read_all(err);
      }
      EXPECT_FALSE(reports[0].empty()) << name;
      EXPECT_EQ(reports[0], reports[1]) << name << " copy " << copy;
      EXPECT_EQ(errs[0], errs[1]) << name << " copy " << copy;
    }
  }
}
