// Helpers shared by the report tests: temp folders, copies of real fixtures, running the CLI and
// the node helpers of tests/browser.
#pragma once
#include <sys/wait.h>

#include <array>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <random>
#include <sstream>
#include <memory>
#include <string>

#include "analyzer/pipeline.h"

namespace ilint_test {

namespace fs = std::filesystem;

inline std::string fixture(const std::string& name) { return std::string(ILINT_FIXTURES_DIR) + "/" + name; }
inline std::string source_dir() { return ILINT_SOURCE_DIR; }
inline std::string browser_dir() { return source_dir() + "/tests/browser"; }

// A fresh folder under the system temp dir, removed when the object goes.
struct TempDir {
  fs::path path;
  TempDir() {
    std::random_device rd;
    path = fs::temp_directory_path() / ("ilint-report-test-" + std::to_string(rd()) + std::to_string(rd()));
    fs::create_directories(path);
  }
  ~TempDir() {
    std::error_code ec;
    fs::remove_all(path, ec);
  }
  std::string str() const { return path.string(); }
};

inline std::string read_file(const fs::path& p) {
  std::ifstream in(p, std::ios::binary);
  std::ostringstream ss;
  ss << in.rdbuf();
  return ss.str();
}
inline void write_file(const fs::path& p, const std::string& s) {
  std::ofstream out(p, std::ios::binary);
  out << s;
}

// Copies a fixture folder into `dir`/<name> and returns the copy's path.
inline std::string copy_fixture(const std::string& name, const TempDir& dir) {
  fs::path dst = dir.path / name;
  fs::copy(fixture(name), dst, fs::copy_options::recursive);
  return dst.string();
}

inline std::string shell_quote(const std::string& s) {
  std::string out = "'";
  for (char c : s) {
    if (c == '\'') out += "'\\''";
    else out += c;
  }
  return out + "'";
}

struct CmdResult {
  int exit_code = -1;
  std::string output;  // stdout (stderr too when merged)
};

inline CmdResult run_cmd(const std::string& cmd) {
  CmdResult r;
  FILE* p = popen(cmd.c_str(), "r");
  if (!p) return r;
  std::array<char, 4096> buf;
  size_t n;
  while ((n = fread(buf.data(), 1, buf.size(), p)) > 0) r.output.append(buf.data(), n);
  int st = pclose(p);
  r.exit_code = WIFEXITED(st) ? WEXITSTATUS(st) : -1;
  return r;
}

inline bool have_command(const std::string& name) {
  return run_cmd("command -v " + name + " >/dev/null 2>&1 && echo yes").output.find("yes") == 0;
}

// Why the node helpers cannot run here, or "" when they can. CI runs scripts/install-test-deps.sh
// first; a skip means that script could not install them on this machine.
inline std::string node_helpers_missing(bool need_chromium) {
  if (!have_command("node")) return "node is not installed (run scripts/install-test-deps.sh)";
  if (!fs::exists(browser_dir() + "/node_modules/ajv") ||
      !fs::exists(browser_dir() + "/node_modules/@microsoft/sarif-multitool-linux/sarif-2.1.0.json"))
    return "tests/browser/node_modules is not installed (run scripts/install-test-deps.sh)";
  if (need_chromium) {
    if (!fs::exists(browser_dir() + "/node_modules/playwright-core"))
      return "playwright-core is not installed (run scripts/install-test-deps.sh)";
    const char* env = std::getenv("ILINT_CHROMIUM");
    if (!fs::exists(env ? env : "/usr/bin/chromium")) return "chromium is not installed (run scripts/install-test-deps.sh)";
  }
  return "";
}

// Replaces every occurrence of `from` with `to`.
inline std::string replace_all(std::string s, const std::string& from, const std::string& to) {
  if (from.empty()) return s;
  size_t pos = 0;
  while ((pos = s.find(from, pos)) != std::string::npos) {
    s.replace(pos, from.size(), to);
    pos += to.size();
  }
  return s;
}

// Analysis holds a mutex (DiagSink): not movable, so it lives on the heap.
inline std::unique_ptr<ilint::Analysis> analyze_paths(const std::vector<std::string>& paths) {
  ilint::AnalyzeOptions o;
  o.paths = paths;
  auto a = std::make_unique<ilint::Analysis>();
  ilint::analyze(o, *a);
  return a;
}

inline std::string binary() { return ILINT_BINARY; }

}  // namespace ilint_test
