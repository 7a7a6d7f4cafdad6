// Helpers shared by the per-rule tests (tests/unit/<rule>_test.cpp) and rules_test.cpp: running
// the analyzer with one rule on a capture, deriving a capture edited in one place, reading the line
// a finding points at. The general helpers (fixture, TempDir, run_analysis, findings_of, ...) are
// in test_util.h.
#pragma once
#include <gtest/gtest.h>

#include <filesystem>
#include <memory>
#include <string>
#include <vector>

#include "analyzer/pipeline.h"
#include "analyzer/rule.h"
#include "test_util.h"

namespace ilint::testing {

inline const std::string kFixtures = ILINT_FIXTURES_DIR;

// The findings of `rule` on `path`, analysed with that rule only.
inline std::vector<const Finding*> run_rule(const std::string& path, const std::string& rule, Analysis& a) {
  run_analysis({path}, a, {rule});
  return findings_of(a, rule);
}

// The line a location points at; "" past the file's end.
inline std::string line_at(const SourceLoc& loc) { return line_of(loc.file, loc.line); }

// Copies a compile folder of a fixture into `dst` and replaces `from` by `to` in one of its files
// (exactly once: the edit must hit).
inline std::string derive(const TempDir& tmp, const std::string& fixture_name, const std::string& kind,
                          const std::string& file, const std::string& from, const std::string& to) {
  namespace fs = std::filesystem;
  std::string src = compile_dir(fixture_name, kind);
  EXPECT_FALSE(src.empty()) << fixture_name << " " << kind;
  fs::path dst = tmp.path / fs::path(src).filename();
  fs::create_directories(dst);
  for (auto& e : fs::directory_iterator(src))
    if (e.is_regular_file()) fs::copy_file(e.path(), dst / e.path().filename(), fs::copy_options::overwrite_existing);
  std::string text = read_all(dst / file);
  auto pos = text.find(from);
  EXPECT_NE(pos, std::string::npos) << "edit target not found in " << file << ": " << from;
  if (pos != std::string::npos) {
    EXPECT_EQ(text.find(from, pos + 1), std::string::npos) << "edit target not unique: " << from;
    text.replace(pos, from.size(), to);
  }
  write_all(dst / file, text);
  return dst.string();
}

// A second edit of a folder made by derive(): the first `from` in `file` becomes `to`.
inline std::string derive2(const TempDir& tmp, const std::string& dir, const std::string& file,
                           const std::string& from, const std::string& to) {
  std::string text = read_all(std::filesystem::path(dir) / file);
  auto pos = text.find(from);
  EXPECT_NE(pos, std::string::npos) << "edit target not found: " << from;
  if (pos != std::string::npos) text.replace(pos, from.size(), to);
  write_all(std::filesystem::path(dir) / file, text);
  return dir;
}

// The whole analysis of `path` with every rule, at the default threads.
// Analysis holds a mutex (DiagSink): it cannot move, so it lives on the heap.
inline std::unique_ptr<Analysis> run_path(const std::string& path) {
  AnalyzeOptions o;
  o.paths = {path};
  auto a = std::make_unique<Analysis>();
  analyze(o, *a);
  return a;
}

// The findings of one rule (findings_of under the name the scalar rules' tests use).
inline std::vector<const Finding*> by_rule(const Analysis& a, const std::string& rule) { return findings_of(a, rule); }

}  // namespace ilint::testing
