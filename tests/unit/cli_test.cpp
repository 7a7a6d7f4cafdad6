// The command line: formats, exit codes, --fail-on, -o, every input form of ingest.
#include <gtest/gtest.h>

#include <map>
#include <set>
#include <nlohmann/json.hpp>
#include <regex>
#include <sstream>

#include "analyzer/report/formats.h"
#include "analyzer/report/line_formats.h"
#include "analyzer/util/version.h"
#include "test_util.h"

using namespace ilint::testing;

namespace {

// A copy of a fixture's compile folders (no logs) at `dir`; the path of its forward output_code.py.
std::string copy_forward_compiles(const std::string& capture, const std::filesystem::path& dir) {
  std::filesystem::copy(fixture(capture) + "/torch_compile_debug", dir, std::filesystem::copy_options::recursive);
  for (auto& e : std::filesystem::recursive_directory_iterator(dir))
    if (e.path().filename() == "output_code.py" && e.path().string().find("forward") != std::string::npos)
      return e.path().string();
  return "";
}
std::string copy_s2_cuda_compiles(const std::filesystem::path& dir) { return copy_forward_compiles("s2_cuda", dir); }

// The CLI on `input`, JSON to stdout, in an address space of 400 MB; its exit status.
int run_in_400_mb(const std::string& input, std::string* out, const std::string& options = "") {
  return run_command("ulimit -v 400000 && " + std::string(ILINT_BINARY) + " " + input +
                         " --format json --fail-on never -j1 " + options + " 2>&1",
                     out);
}

// `input` through the CLI in that address space, for the tests of memory bounds: asserts exit 0 and
// reads the JSON report into `report`. `skipped` when a sanitizer build could not run in that space
// (its allocator reserves more). Call inside ASSERT_NO_FATAL_FAILURE.
void report_in_400_mb(const std::string& input, nlohmann::json& report, bool& skipped,
                      const std::string& options = "") {
  std::string out;
  int rc = run_in_400_mb(input, &out, options);
  skipped = out.find("Sanitizer") != std::string::npos;
  if (skipped) return;
  ASSERT_EQ(rc, 0) << out.substr(0, 2000);
  report = nlohmann::json::parse(out);
}

void expect_no_out_of_memory(const nlohmann::json& report) {
  for (const auto& d : report["diagnostics"]) EXPECT_NE(d["code"], "out-of-memory") << d.dump();
}

// A copy of s2_cuda at `dir`, made large, read in 400 MB: no out-of-memory diagnostic, and both of
// its compiles' findings. Call inside ASSERT_NO_FATAL_FAILURE.
void expect_s2_cuda_read_whole_in_400_mb(const std::filesystem::path& dir) {
  nlohmann::json j;
  bool skipped = false;
  ASSERT_NO_FATAL_FAILURE(report_in_400_mb(dir.string(), j, skipped));
  if (skipped) GTEST_SKIP() << "a sanitizer build reserves more than the limit";
  expect_no_out_of_memory(j);
  EXPECT_EQ(j["findings"].size(), 2u);
}

}  // namespace

TEST(Cli, JsonDocumentHasFindingsWithTheDocumentedFields) {
  std::string out;
  int rc = run_binary(fixture("s2_cuda") + " --format json", &out);
  EXPECT_EQ(rc, 1);
  auto j = nlohmann::json::parse(out);
  ASSERT_TRUE(j.contains("findings"));
  ASSERT_EQ(j["findings"].size(), 2u);
  for (auto& f : j["findings"]) {
    for (const char* k : {"rule", "severity", "message", "location", "related", "evidence", "fingerprint"})
      EXPECT_TRUE(f.contains(k)) << k;
    EXPECT_EQ(f["rule"], "reduced-precision-scan");
    EXPECT_EQ(f["fingerprint"].get<std::string>().size(), 16u);
    EXPECT_GT(f["location"]["line"].get<int>(), 0);
  }
  EXPECT_EQ(j["summary"]["by_severity"]["warning"], 2);
}

TEST(Cli, TextIsClangStyle) {
  std::string out;
  run_binary(fixture("s2_cuda") + " --no-color", &out);
  EXPECT_NE(out.find("output_code.py:107:5: warning: "), std::string::npos) << out;
  EXPECT_NE(out.find("[reduced-precision-scan]"), std::string::npos);
  EXPECT_NE(out.find("seed2.py:13: note: user source"), std::string::npos);
}

TEST(Cli, FailOnThresholds) {
  EXPECT_EQ(run_binary(fixture("s2_cuda") + " --fail-on error"), 0);
  EXPECT_EQ(run_binary(fixture("s2_cuda") + " --fail-on warning"), 1);
  EXPECT_EQ(run_binary(fixture("s2_cuda") + " --fail-on never"), 0);
  EXPECT_EQ(run_binary(fixture("s2_cuda_emulate") + " --fail-on warning"), 0);  // notes only
  EXPECT_EQ(run_binary(fixture("s2_cuda_emulate") + " --fail-on note"), 1);
  EXPECT_EQ(run_binary(fixture("clean_resnet")), 0);
  EXPECT_EQ(run_binary("--bogus " + fixture("s2_cuda")), 2);
  EXPECT_EQ(run_binary(""), 2);
}

// An unknown rule id is a usage error with exit 2, not a warning over a run of no rule (--rule) or of
// every rule (--disable); a near miss names the id that was meant.
TEST(Cli, UnknownRuleIdsAreUsageErrors) {
  std::string err;
  EXPECT_EQ(run_command(std::string(ILINT_BINARY) + " --rule bogus " + fixture("s2_cuda") + " 2>&1 >/dev/null", &err), 2);
  EXPECT_NE(err.find("--rule: no rule named 'bogus'"), std::string::npos) << err;
  EXPECT_EQ(run_command(std::string(ILINT_BINARY) + " --disable reduced-precision-scna " + fixture("s2_cuda") +
                            " 2>&1 >/dev/null", &err), 2);
  EXPECT_NE(err.find("did you mean 'reduced-precision-scan'?"), std::string::npos) << err;
  EXPECT_EQ(run_binary("--rule reduced-precision-scan --fail-on never " + fixture("s2_cuda")), 0);
}

// A TORCH_TRACE log given alone holds output code the analyzer does not read from a trace: the report
// says so instead of a silent "0 finding(s)". With the debug folder of the same run, it says nothing.
TEST(Cli, TraceAloneIsAWholeInput) {
  std::string out;
  run_binary(fixture("s2_cuda") + "/trace --format json --fail-on never", &out);
  auto alone = nlohmann::json::parse(out);
  EXPECT_TRUE(alone["diagnostics"].empty()) << out;
  ASSERT_EQ(alone["findings"].size(), 2u) << out;
  for (const auto& f : alone["findings"]) {
    EXPECT_EQ(f["rule"], "reduced-precision-scan");
    EXPECT_EQ(f["location"]["file"].get<std::string>().find(fixture("s2_cuda") + "/trace/"), 0u);
  }
}

// A CUDA compile with cpp_wrapper=True defines its Triton kernels in the module's "Compile-time
// auto-tuning block" docstring and launches them from C++: the seed-2 findings of the same program's
// Python-wrapper capture, with the same fingerprints, at the scan's line of the file.
TEST(Cli, CudaCppWrapperReadsTheTritonKernelsOfItsAutotuningBlock) {
  std::string out;
  run_binary(fixture("s2_cuda") + " --format json --fail-on never", &out);
  auto python_wrapper = nlohmann::json::parse(out);
  run_binary(fixture("s2_cuda_cppwrap") + " --format json --fail-on never", &out);
  auto cpp_wrapper = nlohmann::json::parse(out);
  auto fingerprints = [](const nlohmann::json& j) {
    std::vector<std::string> v;
    for (const auto& f : j["findings"]) v.push_back(f["fingerprint"]);
    std::sort(v.begin(), v.end());
    return v;
  };
  ASSERT_EQ(cpp_wrapper["findings"].size(), 2u) << out;
  EXPECT_EQ(fingerprints(cpp_wrapper), fingerprints(python_wrapper));
  EXPECT_TRUE(cpp_wrapper["diagnostics"].empty()) << cpp_wrapper["diagnostics"].dump();
  for (const auto& f : cpp_wrapper["findings"]) {
    std::istringstream in(read_all(f["location"]["file"].get<std::string>()));
    std::string line;
    for (int n = f["location"]["line"]; n > 0 && std::getline(in, line); --n) {
    }
    EXPECT_NE(line.find("tl.associative_scan"), std::string::npos) << line;
  }
}

TEST(Cli, IngestsEveryInputForm) {
  std::string fwd = compile_dir("s2_cuda", "forward");
  std::string run = std::filesystem::path(fwd).parent_path().parent_path().string();
  std::string tcd = std::filesystem::path(run).parent_path().string();
  for (const std::string& p : {fwd, fwd + "/output_code.py", run, tcd, fixture("s2_cuda")}) {
    std::string out;
    EXPECT_EQ(run_binary(p + " --format json --fail-on never", &out), 0) << p;
    auto j = nlohmann::json::parse(out);
    EXPECT_GE(j["findings"].size(), 1u) << p;
  }
}

TEST(Cli, OutputFileOnlyAtTheGivenPath) {
  TempDir t;
  std::string path = (t.path / "report.json").string();
  std::string out;
  run_binary(fixture("s2_cuda") + " --format json -o " + path, &out);
  EXPECT_TRUE(out.empty());
  auto j = nlohmann::json::parse(read_all(path));
  EXPECT_EQ(j["findings"].size(), 2u);
  size_t entries = 0;
  for (auto& e : std::filesystem::directory_iterator(t.path)) entries += !e.path().empty();
  EXPECT_EQ(entries, 1u);
}

// `-o -` is stdout, as for most tools: no file named "-" appears where the command ran.
TEST(Cli, DashOutputIsStdout) {
  TempDir t;
  std::string out;
  EXPECT_EQ(run_command("cd " + t.path.string() + " && " + std::string(ILINT_BINARY) + " " + fixture("s2_cuda") +
                            " --format json --fail-on never -o - 2>/dev/null",
                        &out),
            0);
  EXPECT_EQ(nlohmann::json::parse(out)["findings"].size(), 2u);
  EXPECT_TRUE(std::filesystem::is_empty(t.path));
}

TEST(Cli, OutputIsDeterministicAcrossJobCounts) {
  std::string a, b;
  run_binary(std::string(ILINT_FIXTURES_DIR) + " --format json -j 1", &a);
  run_binary(std::string(ILINT_FIXTURES_DIR) + " --format json -j 4", &b);
  EXPECT_FALSE(a.empty());
  EXPECT_EQ(a, b);
  std::string fitted, by_default;
  run_binary(std::string(ILINT_FIXTURES_DIR) + " --format json -j auto", &fitted);
  run_binary(std::string(ILINT_FIXTURES_DIR) + " --format json", &by_default);
  EXPECT_EQ(fitted, a);
  EXPECT_EQ(by_default, a);
  std::string err;
  EXPECT_EQ(run_command(std::string(ILINT_BINARY) + " " + fixture("s2_cuda") + " -j many 2>&1", &err), 2);
  EXPECT_NE(err.find("-j needs a number or auto"), std::string::npos) << err;
}

TEST(Cli, RulesSubcommandListsRules) {
  std::string out;
  EXPECT_EQ(run_binary("rules", &out), 0);
  EXPECT_NE(out.find("reduced-precision-scan"), std::string::npos);
}

// Reports and baselines are written whole or not at all: through a temporary file beside the target
// that replaces it, never through a symbolic link, and every failed write is exit 2 with the reason.
TEST(Cli, OutputIsWrittenWholeAndNeverThroughALink) {
  TempDir t;
  const std::string bin = std::string(ILINT_BINARY) + " " + fixture("s2_cuda") + " --format json --fail-on never";
  // A capture holding `report.json -> <some file>`: -o must not overwrite the link's target.
  write_all(t.path / "victim.txt", "keep me\n");
  std::filesystem::create_symlink(t.path / "victim.txt", t.path / "report.json");
  std::string err;
  EXPECT_EQ(run_command(bin + " -o " + (t.path / "report.json").string() + " 2>&1", &err), 2);
  EXPECT_NE(err.find("refusing to write through the symbolic link"), std::string::npos) << err;
  EXPECT_EQ(read_all(t.path / "victim.txt"), "keep me\n");
  EXPECT_TRUE(std::filesystem::is_symlink(t.path / "report.json"));
  EXPECT_EQ(run_command(bin + " --write-baseline " + (t.path / "report.json").string() + " >/dev/null 2>&1"), 2);
  EXPECT_EQ(read_all(t.path / "victim.txt"), "keep me\n");
  // A regular file is replaced whole, with no temporary file left beside it.
  std::filesystem::remove(t.path / "report.json");
  write_all(t.path / "report.json", "previous report");
  EXPECT_EQ(run_command(bin + " -o " + (t.path / "report.json").string()), 0);
  EXPECT_EQ(nlohmann::json::parse(read_all(t.path / "report.json"))["findings"].size(), 2u);
  size_t entries = 0;
  for ([[maybe_unused]] auto& e : std::filesystem::directory_iterator(t.path)) ++entries;
  EXPECT_EQ(entries, 2u);  // victim.txt and report.json
  // A full device, a full or closed standard output: exit 2 with the reason, not 0.
  EXPECT_EQ(run_command(bin + " -o /dev/full 2>&1", &err), 2);
  EXPECT_NE(err.find("cannot write /dev/full"), std::string::npos) << err;
  EXPECT_EQ(run_command(bin + " --write-baseline /dev/full 2>&1 >/dev/null", &err), 2);
  EXPECT_NE(err.find("/dev/full"), std::string::npos) << err;
  EXPECT_EQ(run_command("sh -c '" + bin + " >/dev/full 2>/dev/null'"), 2);
  EXPECT_EQ(run_command("sh -c '" + bin + " >&- 2>/dev/null'"), 2);
  // A link to a device is written through: -o /dev/stdout is standard output.
  std::string out;
  EXPECT_EQ(run_command(bin + " -o /dev/stdout", &out), 0);
  EXPECT_EQ(nlohmann::json::parse(out)["findings"].size(), 2u);
  // -o into a folder that does not exist: nothing is created.
  EXPECT_EQ(run_command(bin + " -o " + (t.path / "no" / "r.json").string() + " 2>/dev/null"), 2);
  EXPECT_FALSE(std::filesystem::exists(t.path / "no"));
}

// Names and lines from the input never act on the terminal: a capture copied under a folder whose name
// holds an OSC title sequence, a screen clear, a BEL, a right-to-left override and a newline that would
// forge a report line comes out escaped, as compilers print such bytes.
TEST(Cli, TextReportEscapesControlCharactersOfTheInput) {
  TempDir t;
  const std::string evil = std::string("cap\x1b]0;pwned\x07\x1b[2J\xe2\x80\xae") + "\nforged.py:1:1: warning: fake [x]";
  std::filesystem::copy(fixture("s2_cuda"), t.path / evil, std::filesystem::copy_options::recursive);
  std::string out;
  run_command(std::string(ILINT_BINARY) + " '" + (t.path / evil).string() + "' --no-color 2>&1", &out);
  EXPECT_EQ(out.find('\x1b'), std::string::npos);
  EXPECT_EQ(out.find('\x07'), std::string::npos);
  EXPECT_EQ(out.find("\xe2\x80\xae"), std::string::npos);
  EXPECT_EQ(out.find("\nforged.py:1:1: warning"), std::string::npos) << out;
  EXPECT_NE(out.find("cap\\x1b]0;pwned\\x07\\x1b[2J\\u202e\\x0aforged.py"), std::string::npos) << out;
  EXPECT_NE(out.find("2 finding(s)"), std::string::npos) << out;
}

// Diagnostics are bounded per file and code: 100,000 lines of `$` appended to a real output_code.py gave
// one parse-python diagnostic per line (1 MB of `$`: 7.9 GiB and a 742 MB SARIF report). Now the first
// 20 by position and one note with the count, the same at -j1 and -j2, and the findings still there.
// (A run of `$` on one line is one diagnostic: StrayBytesAreOneDiagnosticPerRun.)
TEST(Cli, DiagnosticsAreBoundedPerFileAndCode) {
  TempDir t;
  std::filesystem::copy(fixture("s2_cuda"), t.path / "c", std::filesystem::copy_options::recursive);
  std::string oc = compile_dir("s2_cuda", "forward") + "/output_code.py";
  std::string copy;
  for (auto& e : std::filesystem::recursive_directory_iterator(t.path / "c"))
    if (e.path().filename() == "output_code.py" && e.path().string().find("forward") != std::string::npos) copy = e.path();
  ASSERT_FALSE(copy.empty());
  std::string dollars;
  for (int i = 0; i < 100000; ++i) dollars += "$\n";
  write_all(copy, read_all(oc) + dollars);
  std::string j1, j2;
  run_binary((t.path / "c").string() + " --format json --fail-on never -j1", &j1);
  run_binary((t.path / "c").string() + " --format json --fail-on never -j2", &j2);
  EXPECT_EQ(j1, j2);
  auto j = nlohmann::json::parse(j1);
  size_t parse_python = 0;
  std::string more;
  for (const auto& d : j["diagnostics"])
    if (d["code"] == "parse-python") {
      ++parse_python;
      if (d["message"].get<std::string>().rfind("and ", 0) == 0) more = d["message"];
    }
  EXPECT_EQ(parse_python, 21u);
  EXPECT_NE(more.find("more [parse-python] diagnostic(s) in this file"), std::string::npos) << more;
  EXPECT_EQ(j["findings"].size(), 2u);
}

// A megabyte of one stray byte on one line is one token: the tokenizer's diagnostic says how many
// bytes, and the parser's one more for the statement (it was a token and a diagnostic per byte:
// 204 MB peak for the parser's lists alone).
TEST(Cli, StrayBytesAreOneDiagnosticPerRun) {
  TempDir t;
  std::filesystem::copy(fixture("s2_cuda"), t.path / "c", std::filesystem::copy_options::recursive);
  std::string copy;
  for (auto& e : std::filesystem::recursive_directory_iterator(t.path / "c"))
    if (e.path().filename() == "output_code.py" && e.path().string().find("forward") != std::string::npos) copy = e.path();
  ASSERT_FALSE(copy.empty());
  write_all(copy, read_all(copy) + std::string(1000000, '$'));
  std::string out;
  run_binary((t.path / "c").string() + " --format json --fail-on never", &out);
  auto j = nlohmann::json::parse(out);
  std::vector<std::string> stray;
  for (const auto& d : j["diagnostics"])
    if (d["code"] == "parse-python") stray.push_back(d["message"]);
  ASSERT_EQ(stray.size(), 2u) << out;
  EXPECT_NE((stray[0] + stray[1]).find("(1000000 bytes)"), std::string::npos) << stray[0] << stray[1];
  EXPECT_EQ(j["findings"].size(), 2u);
}

// An FX graph file of many short lines that are no nodes (3M lines `x` appended to s2_cuda's forward
// fx_graph_readable.py) reserves nodes in proportion to its bytes, not to its lines (one 176-byte node
// a line would be 528 MB): within a 400 MB address space it is read, no out-of-memory, both findings.
TEST(Cli, AGraphFileOfManyShortLinesIsReadInBoundedMemory) {
  TempDir t;
  std::string copy = copy_s2_cuda_compiles(t.path / "c");
  ASSERT_FALSE(copy.empty());
  std::string fx = (std::filesystem::path(copy).parent_path() / "fx_graph_readable.py").string();
  std::string text = read_all(fx);
  ASSERT_FALSE(text.empty());
  text.reserve(text.size() + 6000000);
  for (int i = 0; i < 3000000; ++i) text += "x\n";
  write_all(fx, text);
  ASSERT_NO_FATAL_FAILURE(expect_s2_cuda_read_whole_in_400_mb(t.path / "c"));
}

// 20 MB of small @triton.jit functions appended to the forward output_code.py of s2_cuda is read
// within a 400 MB address space: a file is parsed a piece at a time, so its tokens and nodes are never
// all held at once. No out-of-memory diagnostic, and both compiles' findings.
TEST(Cli, AFileOfManySmallFunctionsIsReadInBoundedMemory) {
  TempDir t;
  std::string copy = copy_s2_cuda_compiles(t.path / "c");
  ASSERT_FALSE(copy.empty());
  std::string text = read_all(copy);
  for (int i = 0; text.size() < 20000000; ++i)
    text += "\n@triton.jit\ndef k" + std::to_string(i) +
            "(in_ptr0, out_ptr0, xnumel, XBLOCK: tl.constexpr):\n    xoffset = tl.program_id(0) * XBLOCK\n"
            "    xindex = xoffset + tl.arange(0, XBLOCK)[:]\n    tmp0 = tl.load(in_ptr0 + (xindex), None)\n"
            "    tl.store(out_ptr0 + (xindex), tmp0, None)\n";
  write_all(copy, text);
  ASSERT_NO_FATAL_FAILURE(expect_s2_cuda_read_whole_in_400_mb(t.path / "c"));
}

// Every report format holds no more than its pieces at once: over an FX graph of 20 MB (250k nodes
// inserted before the forward graph's return in s2_cuda) and a call function of 110k launches (each
// launch and its buffer inserted before the wrapper's return), each format's report is written whole
// within a 400 MB address space. The HTML page built each compile's whole data as one document:
// ~1 GB for that graph, ~270 MB for those launches.
TEST(Cli, EveryReportFormatIsWrittenInBoundedMemory) {
  TempDir t;
  auto insert_before = [](const std::string& file, const std::string& marker, const std::string& line_of,
                          int count) {
    std::string text = read_all(file);
    size_t at = text.find(marker);
    if (at == std::string::npos) return false;
    at = text.rfind('\n', at) + 1;
    std::string lines;
    for (int i = 0; i < count; ++i) {
      std::string line = line_of;
      for (size_t p; (p = line.find("{i}")) != std::string::npos;) line.replace(p, 3, std::to_string(i + 2));
      lines += line;
    }
    write_all(file, text.insert(at, lines));
    return true;
  };
  std::string graph = copy_s2_cuda_compiles(t.path / "graph");
  ASSERT_FALSE(graph.empty());
  ASSERT_TRUE(insert_before((std::filesystem::path(graph).parent_path() / "fx_graph_readable.py").string(),
                            "        return (div", "        add_{i}: \"bf16[8, 1, 5, 15]\" = torch.ops.aten.add.Tensor(slice_3, slice_4)\n",
                            250000));
  std::string wrapper = copy_s2_cuda_compiles(t.path / "wrapper");
  ASSERT_FALSE(wrapper.empty());
  ASSERT_TRUE(insert_before(wrapper, "        return (buf1",
                            "            buf{i} = empty_strided_cuda((8, 1, 5, 15), (75, 600, 15, 1), torch.float32)\n"
                            "            triton_per_fused_add_cumsum_div_expand_mul_slice_sub_view_0.run(buf{i}, "
                            "primals_2, primals_1, 40, 15, stream=stream0)\n",
                            110000));
  for (const char* input : {"graph", "wrapper"})
    for (const char* format : {"json", "text", "sarif", "html"}) {
      const std::string report = (t.path / (std::string(input) + "." + format)).string();
      std::string out;
      int rc = run_command("ulimit -v 400000 && " + std::string(ILINT_BINARY) + " " + (t.path / input).string() +
                               " --format " + format + " -o " + report + " --fail-on never -j1 2>&1",
                           &out);
      if (out.find("Sanitizer") != std::string::npos) GTEST_SKIP() << "a sanitizer build reserves more than the limit";
      EXPECT_EQ(rc, 0) << input << " " << format << ": " << out.substr(0, 2000);
      EXPECT_EQ(out.find("out-of-memory"), std::string::npos) << input << " " << format << ": " << out.substr(0, 2000);
      // Both compiles' findings reached the report, each in its format's form.
      std::string text = read_all(report);
      EXPECT_EQ(text.find("out-of-memory"), std::string::npos) << input << " " << format;
      size_t findings = 0;
      if (std::string_view(format) == "text") {
        for (size_t p = 0; (p = text.find("[reduced-precision-scan]", p)) != std::string::npos; ++p) ++findings;
      } else if (std::string_view(format) == "html") {
        const std::string open = "<script type=\"application/json\" id=\"report-data\">";
        size_t b = text.find(open);
        ASSERT_NE(b, std::string::npos) << input;
        b += open.size();
        findings = nlohmann::json::parse(text.substr(b, text.find("</script>", b) - b))["findings"].size();
      } else {
        nlohmann::json j = nlohmann::json::parse(text);
        findings = std::string_view(format) == "sarif" ? j["runs"][0]["results"].size() : j["findings"].size();
      }
      EXPECT_EQ(findings, 2u) << input << " " << format;
    }
}

namespace {

// s2_cuda's compiles under `dir`, the forward Triton kernel made 30 MB long (1.2M statements
// `tmpN = tmp12 * tmp11` before its closing quotes). Returns the forward output_code.py.
std::string s2_cuda_with_a_30_mb_kernel(const std::filesystem::path& dir) {
  std::string copy = copy_s2_cuda_compiles(dir);
  if (copy.empty()) return "";
  std::string text = read_all(copy);
  size_t end = text.find("''', device_str='cuda')");
  if (end == std::string::npos) return "";
  std::string body;
  for (int i = 13; body.size() < 30000000; ++i) body += "    tmp" + std::to_string(i) + " = tmp12 * tmp11\n";
  text.insert(end, body);
  write_all(copy, text);
  return copy;
}

}  // namespace

// A kernel over --max-kernel-bytes (default 1 MiB) is not read: a kernel-too-large warning at its
// definition, the coverage account lists it as not read, and the rest of the capture is analyzed
// (the backward compile's finding) in bounded memory. Reading the 30 MB kernel would take ~14x
// its size at once (its text, the parser's pieces, its statements); the next test shows it.
TEST(Cli, AKernelOverTheSizeLimitIsNotReadAndTheRestIs) {
  TempDir t;
  std::string copy = s2_cuda_with_a_30_mb_kernel(t.path / "c");
  ASSERT_FALSE(copy.empty());
  nlohmann::json j;
  bool skipped = false;
  ASSERT_NO_FATAL_FAILURE(report_in_400_mb((t.path / "c").string(), j, skipped));
  if (skipped) GTEST_SKIP() << "a sanitizer build reserves more than the limit";
  expect_no_out_of_memory(j);
  std::vector<nlohmann::json> too_large;
  for (const auto& d : j["diagnostics"])
    if (d["code"] == "kernel-too-large") too_large.push_back(d);
  ASSERT_EQ(too_large.size(), 1u) << j["diagnostics"].dump();
  EXPECT_EQ(too_large[0]["location"]["file"], copy);
  EXPECT_NE(too_large[0]["message"].get<std::string>().find("over the limit of 1048576 (--max-kernel-bytes)"),
            std::string::npos);
  ASSERT_EQ(j["findings"].size(), 1u);
  EXPECT_EQ(j["findings"][0]["compile"], "model__0_backward_3.1");
  bool listed = false;
  for (const auto& c : j["coverage"]["compiles"])
    for (const auto& k : c["incomplete_kernels"])
      listed |= k["kernel"] == "triton_per_fused_add_cumsum_div_expand_mul_slice_sub_view_0" && !k["body_read"];
  EXPECT_TRUE(listed) << j["coverage"].dump();
}

namespace {

// s2_cuda's compiles under `dir`, the forward compile given `copies` more Triton kernels: copies of
// its kernel, renamed, each with `statements` statements more that name three variables no other
// statement names (`t5 = t10000005 * t20000005`), so that every statement adds names to the model.
// Each kernel stays under the size limit. Returns the forward output_code.py.
std::string s2_cuda_with_kernels_of_distinct_names(const std::filesystem::path& dir, int copies, int statements) {
  std::string copy = copy_s2_cuda_compiles(dir);
  if (copy.empty()) return "";
  std::string text = read_all(copy);
  const std::string name = "triton_per_fused_add_cumsum_div_expand_mul_slice_sub_view_0";
  const std::string close = "''', device_str='cuda')";
  size_t start = text.find(name + " = async_compile.triton(");
  size_t end = start == std::string::npos ? start : text.find(close, start);
  if (end == std::string::npos) return "";
  end += close.size() + 1;
  const std::string definition = text.substr(start, end - start);
  std::string added;
  for (int n = 0; n < copies; ++n) {
    std::string body = definition;
    std::string lines;
    for (int i = 0; i < statements; ++i) {
      long k = static_cast<long>(n) * statements + i;
      lines += "    t" + std::to_string(k) + " = t" + std::to_string(k + 10000000) + " * t" +
               std::to_string(k + 20000000) + "\n";
    }
    body.insert(body.rfind(close), lines);
    const std::string suffix = "_copy" + std::to_string(n);
    for (size_t at = 0; (at = body.find(name, at)) != std::string::npos; at += name.size() + suffix.size())
      body.insert(at + name.size(), suffix);
    added += body;
  }
  text.insert(end, added);
  write_all(copy, text);
  return copy;
}

}  // namespace

namespace {

// The kernels the coverage account lists as not read, checked against the report's memory-budget
// warnings: each names one of them (with its file, its numbers and the flag) and, with the "and N
// more" line past the cap on a file's diagnostics of one code, they count them all.
std::set<std::string> kernels_past_the_memory_budget(const nlohmann::json& report, const std::string& file) {
  std::set<std::string> listed;
  for (const auto& c : report["coverage"]["compiles"])
    for (const auto& k : c["incomplete_kernels"])
      if (!k["body_read"]) listed.insert(k["kernel"]);
  size_t named = 0, more = 0;
  for (const auto& d : report["diagnostics"]) {
    if (d["code"] != "memory-budget") continue;
    EXPECT_EQ(d["location"]["file"], file);
    std::string m = d["message"];
    if (m.rfind("and ", 0) == 0) {
      more += std::stoul(m.substr(4));
      continue;
    }
    EXPECT_NE(m.find("over its budget of"), std::string::npos) << m;
    EXPECT_NE(m.find("--max-memory-ratio"), std::string::npos) << m;
    size_t from = std::string("kernel ").size();
    EXPECT_TRUE(listed.count(m.substr(from, m.find(" not read") - from))) << m;
    ++named;
  }
  EXPECT_EQ(named + more, listed.size());
  return listed;
}

// The report of `dir` (holding `copy`, a forward output_code.py given 24 copies of `kernel`) in
// 400 MB with --max-memory-ratio 0 (every kernel read), then with the default budget: past it the
// last copies are not read, each named and listed as such, and the kernels before it are read
// (the same findings). Call inside ASSERT_NO_FATAL_FAILURE.
void expect_the_budget_stops_the_last_copies(const std::filesystem::path& dir, const std::string& copy,
                                             const std::string& kernel) {
  nlohmann::json j;
  bool skipped = false;
  ASSERT_NO_FATAL_FAILURE(report_in_400_mb(dir.string(), j, skipped, "--max-memory-ratio 0"));
  if (skipped) GTEST_SKIP() << "a sanitizer build reserves more than the limit";
  for (const auto& d : j["diagnostics"]) EXPECT_NE(d["code"], "memory-budget") << d.dump();
  const size_t findings = j["findings"].size();

  ASSERT_NO_FATAL_FAILURE(report_in_400_mb(dir.string(), j, skipped));
  // What the budget stopped, Clang did not read either.
  for (const auto& d : j["diagnostics"]) EXPECT_NE(d["code"], "cpp-kernel-parse") << d.dump();
  std::set<std::string> unread = kernels_past_the_memory_budget(j, copy);
  EXPECT_GE(unread.size(), 1u) << j["diagnostics"].dump();
  EXPECT_LT(unread.size(), 24u);
  EXPECT_TRUE(unread.count(kernel + "_copy23"));
  EXPECT_FALSE(unread.count(kernel));
  EXPECT_EQ(j["findings"].size(), findings);  // the copies add none: every finding is kept
}

}  // namespace


namespace {

// s2_cpu's compiles under `dir`, the forward compile given `copies` more C++ kernels: copies of its
// first kernel, renamed, each with `locals` locals more in its innermost block, each declared from
// the one before (`auto t5=t4*t4;`, a line of ~16 bytes), which the hand reader reads. Returns the
// forward output_code.py.
std::string s2_cpu_with_kernels_of_many_locals(const std::filesystem::path& dir, int copies, int locals) {
  std::string copy = copy_forward_compiles("s2_cpu", dir);
  if (copy.empty()) return "";
  std::string text = read_all(copy);
  const std::string name = "cpp_fused_add_expand_mul_slice_sub_view_0";
  size_t start = text.find(name + " = async_compile.cpp_pybinding(");
  size_t end = start == std::string::npos ? start : text.find("\n''')\n", start);
  if (end == std::string::npos) return "";
  end += 6;
  const std::string definition = text.substr(start, end - start);
  size_t at = definition.find("                        tmp9.store(");
  if (at == std::string::npos) return "";
  std::string added;
  for (int n = 0; n < copies; ++n) {
    // Numbered apart in each copy: kernels of the same source are read once.
    std::string lines = "auto t" + std::to_string(n * locals) + "=tmp9*tmp9;\n";
    for (int i = n * locals + 1; i < (n + 1) * locals; ++i)
      lines += "auto t" + std::to_string(i) + "=t" + std::to_string(i - 1) + "*t" + std::to_string(i - 1) + ";\n";
    std::string body = definition;
    body.insert(at, lines);
    body.insert(name.size(), "_copy" + std::to_string(n));
    added += body;
  }
  text.insert(end, added);
  write_all(copy, text);
  return copy;
}

}  // namespace

// A compile whose model outgrows its memory budget (--max-memory-ratio, default 3 bytes per byte
// of its files, at least 16 MiB) stops reading kernels: each kernel met past it is read by no reader
// (not the hand reader, not Clang), named in a memory-budget warning and listed as not read in the
// coverage account, and the rest of the capture is analyzed. The inputs: 24 Triton kernels of
// 256 KB whose every statement names new variables (~9 bytes of model per byte), and 24 C++
// kernels of 8,000 locals each declared from the one before. Needs a CLI that counts its heap per
// thread (linked with jemalloc).
TEST(Cli, KernelsPastTheMemoryBudgetAreReadByNoReader) {
#ifndef ILINT_CLI_COUNTS_HEAP
  GTEST_SKIP() << "this CLI is built without jemalloc: it counts no heap, and keeps no budget";
#endif
  TempDir t;
  std::string triton = s2_cuda_with_kernels_of_distinct_names(t.path / "triton", 24, 8000);
  ASSERT_FALSE(triton.empty());
  ASSERT_NO_FATAL_FAILURE(expect_the_budget_stops_the_last_copies(
      t.path / "triton", triton, "triton_per_fused_add_cumsum_div_expand_mul_slice_sub_view_0"));
  std::string cpp = s2_cpu_with_kernels_of_many_locals(t.path / "cpp", 24, 8000);
  ASSERT_FALSE(cpp.empty());
  ASSERT_NO_FATAL_FAILURE(
      expect_the_budget_stops_the_last_copies(t.path / "cpp", cpp, "cpp_fused_add_expand_mul_slice_sub_view_0"));
}

// Under a memory limit, an input whose model needs more than it (the 30 MB kernel above, read
// with the size limit off: the reader parses a file a piece at a time, but the model of what it
// read grows with it) leaves that compile out with an out-of-memory error naming its file; the
// backward compile is still read and its finding reported, where an uncaught std::bad_alloc would
// abort with no word of the file and leave a 0-byte report.
TEST(Cli, RunningOutOfMemoryLeavesOneCompileOutAndSaysWhich) {
  TempDir t;
  std::string copy = s2_cuda_with_a_30_mb_kernel(t.path / "c");
  ASSERT_FALSE(copy.empty());
  nlohmann::json j;
  bool skipped = false;
  ASSERT_NO_FATAL_FAILURE(report_in_400_mb((t.path / "c").string(), j, skipped, "--max-kernel-bytes 0"));
  if (skipped) GTEST_SKIP() << "a sanitizer build reserves more than the limit";
  std::vector<std::string> oom;
  for (const auto& d : j["diagnostics"])
    if (d["code"] == "out-of-memory") oom.push_back(d["location"]["file"]);
  ASSERT_EQ(oom.size(), 1u) << j["diagnostics"].dump();
  EXPECT_EQ(oom[0], copy);
  ASSERT_EQ(j["findings"].size(), 1u);
  EXPECT_EQ(j["findings"][0]["compile"], "model__0_backward_3.1");
}

// Clang sees no real file system. Built from s2_cpu: its forward C++ kernel gets an include of a local
// file in each spelling the line blanking does not catch (`# include`, `#\tinclude`, `%:include`,
// `#import`, a backslash-newline inside the word). The include is "file not found": the file's first
// token never comes back in a diagnostic ("unknown type name 'SECRET_TOKEN_XYZ'").
TEST(Cli, ClangOpensNoFileTheKernelIncludes) {
  for (const std::string spelling : {"# include", "#\tinclude", "%:include", "#import", "#inc\\\nlude"}) {
    TempDir t;
    write_all(t.path / "secret.h", "SECRET_TOKEN_XYZ leaked;\n");
    std::filesystem::copy(fixture("s2_cpu"), t.path / "c", std::filesystem::copy_options::recursive);
    std::string oc;
    for (auto& e : std::filesystem::recursive_directory_iterator(t.path / "c"))
      if (e.path().filename() == "output_code.py" && e.path().string().find("forward") != std::string::npos) oc = e.path();
    std::string text = read_all(oc);
    size_t body = text.find("{\n    {\n        #pragma GCC ivdep");
    ASSERT_NE(body, std::string::npos);
    text.insert(body + 2, spelling + " \"" + (t.path / "secret.h").string() + "\"\n");
    write_all(oc, text);
    std::string out;
    run_command(std::string(ILINT_BINARY) + " " + (t.path / "c").string() + " --no-color </dev/null 2>&1", &out);
    EXPECT_EQ(out.find("SECRET_TOKEN_XYZ"), std::string::npos) << spelling << "\n" << out;
    EXPECT_NE(out.find("file not found"), std::string::npos) << spelling << "\n" << out;
  }
}

// Every registered report format is accepted by --format, writes a report of s2_cuda's two findings
// (each format names the rule), and is listed in the help; a name that is none of them is refused
// with the list.
TEST(Cli, EveryRegisteredReportFormatIsAcceptedListedAndWrites) {
  std::string help;
  ASSERT_EQ(run_binary("--help", &help), 0);
  for (const auto& f : ilint::report_formats()) {
    std::string out;
    EXPECT_EQ(run_binary(fixture("s2_cuda") + " --fail-on never --format " + std::string(f.name), &out), 0) << f.name;
    EXPECT_NE(out.find("reduced-precision-scan"), std::string::npos) << f.name;
    EXPECT_NE(help.find(std::string(f.name) + ": "), std::string::npos) << f.name;
  }
  std::string out;
  EXPECT_EQ(run_command(std::string(ILINT_BINARY) + " " + fixture("s2_cuda") + " --format yaml 2>&1", &out), 2);
  EXPECT_NE(out.find("unknown format 'yaml' (text, concise, github, json, sarif, html)"), std::string::npos) << out.substr(0, 300);
}

// The conventions of ruff and clang-tidy (docs/cli-conventions.md): `--opt=value`, `--version`,
// `--` before the paths, numbers that are whole numbers, the format taken from -o's extension.
TEST(Cli, FollowsTheCommandLineConventions) {
  std::string out;
  ASSERT_EQ(run_binary("--version", &out), 0);
  EXPECT_EQ(out.rfind("inductor-lint " + std::string(ilint::kToolVersion), 0), 0u) << out;
  ASSERT_EQ(run_binary("--format=json --fail-on=never -- " + fixture("s2_cuda"), &out), 0);
  EXPECT_EQ(nlohmann::json::parse(out)["findings"].size(), 2u);
  for (const char* bad : {"-j 3x", "-j 0", "-j ''", "--jobs=2.5", "--timeout 3.5", "--timeout=-1", "--fail-on=warn",
                          "--device=gpu", "--bogus"}) {
    std::string err;
    EXPECT_EQ(run_command(std::string(ILINT_BINARY) + " " + bad + " " + fixture("s2_cuda") + " 2>&1 >/dev/null", &err), 2)
        << bad;
    EXPECT_NE(err.find("inductor-lint: "), std::string::npos) << bad << ": " << err;
  }
  TempDir t;
  const std::pair<const char*, const char*> by_extension[] = {
      {"r.json", "\"findings\""}, {"r.sarif", "\"$schema\""}, {"r.html", "<!DOCTYPE html>"}, {"r.txt", "finding(s):"}};
  for (auto [name, marker] : by_extension) {
    auto path = (t.path / name).string();
    EXPECT_EQ(run_binary(fixture("s2_cuda") + " --fail-on never -o " + path), 0) << name;
    EXPECT_NE(read_all(path).find(marker), std::string::npos) << name;
  }
  // --format wins over the extension.
  auto forced = (t.path / "forced.json").string();
  EXPECT_EQ(run_binary(fixture("s2_cuda") + " --fail-on never --format concise -o " + forced), 0);
  EXPECT_EQ(read_all(forced).find("\"findings\""), std::string::npos);
}

// Colors: --color/--no-color, then FORCE_COLOR, then NO_COLOR (as ruff orders them), then whether
// stdout is a terminal (here it is a pipe: none).
TEST(Cli, ColorsFollowTheFlagsThenForceColorThenNoColor) {
  auto colored = [](const std::string& env, const std::string& flags) {
    std::string out;
    run_command(env + " " + std::string(ILINT_BINARY) + " " + flags + " " + fixture("s2_cuda") + " 2>/dev/null", &out);
    return out.find("\033[") != std::string::npos;
  };
  EXPECT_FALSE(colored("env -u NO_COLOR -u FORCE_COLOR", ""));
  EXPECT_TRUE(colored("env -u NO_COLOR FORCE_COLOR=1", ""));
  EXPECT_FALSE(colored("env -u FORCE_COLOR NO_COLOR=1", ""));
  EXPECT_TRUE(colored("env FORCE_COLOR=1 NO_COLOR=1", ""));
  EXPECT_TRUE(colored("env -u FORCE_COLOR NO_COLOR=1", "--color"));
  EXPECT_FALSE(colored("env -u NO_COLOR FORCE_COLOR=1", "--no-color"));
  EXPECT_FALSE(colored("env NO_COLOR= FORCE_COLOR=", ""));  // empty values say nothing
}

// --write-baseline accepts today's findings: it says how many it wrote, prints no report and exits
// 0; a run against the baseline then reports none and says they are in it.
TEST(Cli, WritingABaselineSaysWhatItWroteAndSucceeds) {
  TempDir t;
  auto bl = (t.path / "baseline.json").string();
  std::string out, err;
  EXPECT_EQ(run_command(std::string(ILINT_BINARY) + " " + fixture("s2_cuda") + " --write-baseline " + bl + " 2>" +
                            (t.path / "err").string(),
                        &out),
            0);
  EXPECT_EQ(out, "");
  err = read_all(t.path / "err");
  EXPECT_NE(err.find("wrote 2 finding(s) to the baseline"), std::string::npos) << err;
  EXPECT_EQ(run_binary(fixture("s2_cuda") + " --no-color --baseline " + bl, &out), 0);
  EXPECT_NE(out.find("0 finding(s): 0 error, 0 warning, 0 note; 0 suppressed, 2 in the baseline"), std::string::npos) << out;
  EXPECT_EQ(run_binary(fixture("s2_cuda") + " --baseline " + bl + " --format json", &out), 0);
  EXPECT_EQ(nlohmann::json::parse(out)["summary"]["in_baseline"], 2);
}

// --statistics: one row per rule with its count (ruff's shape), in text or JSON, agreeing with the
// findings of the full report; other formats are refused.
TEST(Cli, StatisticsCountTheFindingsPerRule) {
  std::string report, text, json_rows;
  ASSERT_EQ(run_binary("--format json " + fixture("mut_foreach_flip") + " " + fixture("s2_cuda"), &report), 1);
  std::map<std::string, int> expected;
  const nlohmann::json doc = nlohmann::json::parse(report);
  for (const auto& f : doc["findings"]) expected[f["rule"].get<std::string>()]++;
  ASSERT_EQ(expected.size(), 2u);
  EXPECT_EQ(run_binary("--statistics " + fixture("mut_foreach_flip") + " " + fixture("s2_cuda"), &text), 1);
  for (const auto& [rule, count] : expected) {
    std::regex row("(^|\n) +" + std::to_string(count) + "  " + rule + " +(error|warning|note) +[A-Z]");
    EXPECT_TRUE(std::regex_search(text, row)) << rule << "\n" << text;
  }
  EXPECT_EQ(run_binary("--statistics --format json " + fixture("mut_foreach_flip") + " " + fixture("s2_cuda"), &json_rows), 1);
  std::map<std::string, int> counted;
  for (const auto& r : nlohmann::json::parse(json_rows)) counted[r["rule"].get<std::string>()] = r["count"];
  EXPECT_EQ(counted, expected);
  EXPECT_EQ(run_binary("--statistics --format sarif " + fixture("s2_cuda")), 2);
}

// --format github: one workflow command per finding, at the user's line, in the syntax of GitHub's
// docs ("Workflow commands for GitHub Actions") and escaped as actions/toolkit's command.ts does
// (message: % CR LF; properties also : and ,).
TEST(Cli, GithubFormatIsWorkflowAnnotationsAtTheUsersLine) {
  EXPECT_EQ(ilint::github_escape_data("50% a\r\nb:c,d"), "50%25 a%0D%0Ab:c,d");
  EXPECT_EQ(ilint::github_escape_property("50% a\r\nb:c,d"), "50%25 a%0D%0Ab%3Ac%2Cd");
  std::string out;
  ASSERT_EQ(run_binary("--format github " + fixture("s2_cuda") + " " + fixture("stale_pair_a_t213"), &out), 1);
  std::regex command(R"(^::(error|warning|notice) file=[^,:\r\n]+,line=[1-9][0-9]*(,col=[1-9][0-9]*)?,title=inductor-lint \(([a-z-]+)\)::[^\r\n]+$)");
  int commands = 0;
  std::istringstream lines(out);
  for (std::string line; std::getline(lines, line);) {
    if (line.rfind("::", 0) != 0) continue;
    ++commands;
    std::smatch m;
    EXPECT_TRUE(std::regex_match(line, m, command)) << line;
    EXPECT_EQ(line.find("output_code.py"), std::string::npos) << "not at the user's line: " << line;
  }
  EXPECT_EQ(commands, 3);  // s2_cuda's two, stale_pair's one
  EXPECT_NE(out.find("seed2.py,line=13"), std::string::npos) << out;
}

// Inputs named relative to the working directory (`inductor-lint torch_compile_debug trace` inside
// a capture) are the same capture as their absolute spelling: the TORCH_TRACE log's compiles join
// the compile folders. They were taken for a second capture, each compile read twice.
TEST(Cli, RelativeInputsAreOneCaptureAsTheirAbsolutePaths) {
  std::string absolute, relative;
  const std::string capture = fixture("s2_pair_a_t213");
  run_binary("--format json " + capture + "/torch_compile_debug " + capture + "/trace", &absolute);
  run_command("cd " + capture + " && " + std::string(ILINT_BINARY) + " --format json torch_compile_debug trace 2>/dev/null",
              &relative);
  const auto a = nlohmann::json::parse(absolute), r = nlohmann::json::parse(relative);
  EXPECT_EQ(a["compiles"].size(), 2u);
  EXPECT_EQ(r["compiles"].size(), a["compiles"].size());
  EXPECT_EQ(r["findings"].size(), a["findings"].size());
  EXPECT_EQ(r["summary"], a["summary"]);
}
