// Helpers shared by the tests: fixture paths, temporary folders, running the analyzer.
#pragma once
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>

#include "analyzer/dynamo/dump.h"
#include "analyzer/cpp/cpp_hand.h"
#include "analyzer/cpp/cpp_wrapper_hand.h"
#include "analyzer/dynamo/dynamo_model.h"
#include "analyzer/parse/build_compiles.h"
#include "analyzer/pipeline.h"
#include "analyzer/report/dump_model.h"

namespace ilint::testing {

// The hand readers of C++ on or off (cpp_hand.h) for one scope; the state before comes back at
// its end, whatever the test asserted in between (a test binary may run several tests in one
// process, some of them under ILINT_CPP_READER=clang).
class HandReadersScope {
 public:
  explicit HandReadersScope(bool on) : saved_(cpp_hand_readers_enabled()) { set_cpp_hand_readers_enabled(on); }
  ~HandReadersScope() { set_cpp_hand_readers_enabled(saved_); }
  void set(bool on) { set_cpp_hand_readers_enabled(on); }
  HandReadersScope(const HandReadersScope&) = delete;
  HandReadersScope& operator=(const HandReadersScope&) = delete;

 private:
  bool saved_;
};

inline std::string fixture(const std::string& name) { return std::string(ILINT_FIXTURES_DIR) + "/" + name; }

// Line `n` (1-based) of a file; "" past its end.
inline std::string line_of(const std::string& path, int n) {
  std::ifstream in(path);
  std::string l;
  for (int i = 0; i < n && std::getline(in, l); ++i) {
  }
  return l;
}

// The capture folders directly under `root` (those holding a torch_compile_debug/ and, with
// `with_trace`, a trace/ too), sorted.
inline std::vector<std::filesystem::path> capture_folders(const std::filesystem::path& root, bool with_trace = false) {
  std::vector<std::filesystem::path> out;
  if (!std::filesystem::is_directory(root)) return out;
  for (const auto& e : std::filesystem::directory_iterator(root))
    if (std::filesystem::is_directory(e.path() / "torch_compile_debug") &&
        (!with_trace || std::filesystem::is_directory(e.path() / "trace")))
      out.push_back(e.path());
  std::sort(out.begin(), out.end());
  return out;
}

inline std::string read_all(const std::filesystem::path& p) {
  std::ifstream in(p, std::ios::binary);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

inline void write_all(const std::filesystem::path& p, const std::string& s) {
  std::filesystem::create_directories(p.parent_path());
  std::ofstream out(p, std::ios::binary);
  out << s;
}

// The C++ wrapper of a cpp_wrapper=True compile of the fixtures.
struct FixtureWrapper {
  std::string file;
  std::string text;  // the whole output_code.py
  std::string source;
  int first_line = 0;
};

// The C++ wrapper of every cpp_wrapper=True compile of the fixtures, in path order.
inline std::vector<FixtureWrapper> fixture_wrappers() {
  std::vector<std::filesystem::path> files;
  for (auto& e : std::filesystem::recursive_directory_iterator(ILINT_FIXTURES_DIR))
    if (e.path().filename() == "output_code.py") files.push_back(e.path());
  std::sort(files.begin(), files.end());
  std::vector<FixtureWrapper> out;
  for (auto& f : files) {
    std::string text = read_all(f);
    CppWrapperSourceText s = find_cpp_wrapper_source(text);
    if (s.first_line > 0) out.push_back({f.string(), text, std::string(s.source), s.first_line});
  }
  return out;
}

// A fresh folder under the system temp dir, removed at scope end.
struct TempDir {
  std::filesystem::path path;
  TempDir() {
    char tmpl[] = "/tmp/ilint-test-XXXXXX";
    char* d = mkdtemp(tmpl);
    path = d ? d : "/tmp/ilint-test-fallback";
  }
  ~TempDir() {
    std::error_code ec;
    std::filesystem::remove_all(path, ec);
  }
};

inline void run_analysis(const std::vector<std::string>& paths, Analysis& a, std::vector<std::string> rules = {}) {
  AnalyzeOptions o;
  o.paths = paths;
  o.jobs = 2;
  o.only_rules = std::move(rules);
  analyze(o, a);
}

// What a finding says in all: its headline, then its notes, one per line. For the tests that look
// for a fact (a node name, a number) wherever the rule put it.
inline std::string message_and_notes(const Finding& f) {
  std::string s = f.message;
  for (const auto& n : f.notes) s += "\n" + n;
  return s;
}

// A finding's message is a headline: one line, at most kHeadlineMaxBytes, with the detail in its
// notes. finding_message_test.cpp checks every finding of the fixtures; the experimental rules fire
// only on derived inputs, whose tests check theirs with this.
inline void expect_headline_with_notes(const Finding& f) {
  EXPECT_FALSE(f.message.empty()) << f.rule;
  EXPECT_LE(f.message.size(), kHeadlineMaxBytes) << f.message;
  EXPECT_EQ(f.message.find('\n'), std::string::npos) << f.message;
  EXPECT_FALSE(f.notes.empty()) << f.message;
}

// One whole analysis of `paths` at `jobs` threads as text: the files read, every compile's model
// and the Dynamo model (the --dump-model text), every diagnostic and every finding. For comparing
// two ways of reading. `fit`: `jobs` is an upper bound (-j auto).
inline std::string analysis_text(const std::vector<std::string>& paths, int jobs, bool fit = false) {
  AnalyzeOptions o;
  o.paths = paths;
  o.jobs = jobs;
  o.fit_jobs_to_input = fit;
  auto a = std::make_unique<Analysis>();
  analyze(o, *a);
  std::ostringstream os;
  os << "files read " << a->files_read << "\n";
  dump_compiles(a->program, os);
  dump_dynamo_model(a->program, os);
  for (auto& d : a->diags.sorted())
    os << diag_level_name(d.level) << " " << d.code << " " << d.message << " " << d.loc.file << ":" << d.loc.line << ":"
       << d.loc.column << "\n";
  for (auto& f : a->findings)
    os << f.rule << " " << message_and_notes(f) << " " << f.location.line << " " << f.evidence.dump() << "\n";
  return os.str();
}

inline std::vector<const Finding*> findings_of(const Analysis& a, const std::string& rule) {
  std::vector<const Finding*> out;
  for (const auto& f : a.findings)
    if (f.rule == rule) out.push_back(&f);
  return out;
}

// The first compile folder of a fixture whose name contains `kind` ("forward", "backward").
inline std::string compile_dir(const std::string& fixture_name, const std::string& kind) {
  for (auto& e : std::filesystem::recursive_directory_iterator(fixture(fixture_name)))
    if (e.is_directory() && e.path().filename().string().find("model__") == 0 &&
        e.path().filename().string().find(kind) != std::string::npos)
      return e.path().string();
  return "";
}

// Runs a shell command; returns its exit code and captures what it writes to stdout.
inline int run_command(const std::string& cmd, std::string* out = nullptr) {
  FILE* p = popen(cmd.c_str(), "r");
  if (!p) return -1;
  std::string s;
  char buf[4096];
  size_t n;
  while ((n = fread(buf, 1, sizeof buf, p)) > 0) s.append(buf, n);
  int st = pclose(p);
  if (out) *out = s;
  return WIFEXITED(st) ? WEXITSTATUS(st) : -1;
}

// Runs the inductor-lint binary; returns its exit code and captures stdout.
inline int run_binary(const std::string& args, std::string* out = nullptr) {
  return run_command(std::string(ILINT_BINARY) + " " + args + " 2>/dev/null", out);
}

}  // namespace ilint::testing
