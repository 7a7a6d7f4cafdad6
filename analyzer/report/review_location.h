// Where a finding is acted on: the line of the user's program it maps back to, which stays put
// across recompiles, rather than the generated line, whose file (torch_compile_debug/run_<time>-
// pid_<n>/...) is new on every run. SARIF's primary location, GitHub annotations and the concise
// format point there; the generated line stays a related location.
#pragma once
#include <string>
#include <string_view>
#include <vector>

#include "analyzer/findings.h"
#include "analyzer/ingest/ingest.h"

namespace ilint {

// The files the analysis read as generated output: compile folders and their files, the logs.
class GeneratedFiles {
 public:
  explicit GeneratedFiles(const IngestResult& in);
  bool contains(std::string_view file) const;

 private:
  std::vector<std::string> dirs_;   // compile and run folders, each ending in '/'
  std::vector<std::string> files_;  // logs, lone output_code.py / FX JSON inputs
};

// Python's own files and installed packages' (site-packages, dist-packages, lib/pythonX.Y): a
// finding's related locations may name torch's source (torch/nn/functional.py) beside the user's.
bool is_library_file(std::string_view file);

// The finding's lines outside the generated files: its location, then its related locations, in
// that order, each once; those in library files after the others.
std::vector<SourceLoc> user_locations(const Finding& f, const GeneratedFiles& generated);

// The first of user_locations(), else the finding's own (generated) location.
SourceLoc review_location(const Finding& f, const GeneratedFiles& generated);

// `path` relative to `root` when it lies under it ("model/train.py"), else unchanged.
std::string path_under_root(const std::string& path, const std::string& root);

}  // namespace ilint
