// Diagnostics about the input itself (a missing file, a line the parser could not read), as
// opposed to findings about the compiled program. They never stop the analysis.
#pragma once
#include <map>
#include <mutex>
#include <string>
#include <vector>

#include "analyzer/util/source_loc.h"

namespace ilint {

enum class DiagLevel { Error, Warning, Note };

struct Diagnostic {
  DiagLevel level = DiagLevel::Warning;
  std::string code;     // stable id: "ingest-missing-file", "parse-python", "version-mismatch", ...
  std::string message;
  SourceLoc loc;        // file (and line, when known) the diagnostic is about
};

// Collects diagnostics from every stage. Thread-safe: parsers may run in parallel.
// Bounded: of one code in one file it keeps the first kMaxPerFileAndCode by position (whatever the
// order threads report them in) and says how many more there were in one note, as compilers stop
// after a number of errors: 1 MB of `$` appended to an output_code.py gave a diagnostic per byte.
class DiagSink {
 public:
  void report(DiagLevel level, std::string code, std::string message, SourceLoc loc = {});
  void error(std::string code, std::string message, SourceLoc loc = {}) {
    report(DiagLevel::Error, std::move(code), std::move(message), std::move(loc));
  }
  void warning(std::string code, std::string message, SourceLoc loc = {}) {
    report(DiagLevel::Warning, std::move(code), std::move(message), std::move(loc));
  }
  void note(std::string code, std::string message, SourceLoc loc = {}) {
    report(DiagLevel::Note, std::move(code), std::move(message), std::move(loc));
  }
  static constexpr size_t kMaxPerFileAndCode = 20;

  // Sorted by file, line, code, message so output is deterministic whatever the thread order; past
  // the bound, one "... more" note per file and code.
  std::vector<Diagnostic> sorted() const;
  size_t count(DiagLevel level) const;  // of those sorted() gives
  size_t size() const;                  // as sorted().size(), before duplicates are dropped

 private:
  // The diagnostics of one code in one file: the first ones by position, and how many came.
  struct Bucket {
    std::vector<Diagnostic> kept;  // a max-heap by position: its front is the last one kept
    size_t total = 0;
  };
  mutable std::mutex mu_;
  std::vector<Bucket> buckets_;
  std::map<std::pair<std::string, std::string>, size_t> bucket_of_;  // (file, code) -> buckets_ index
};

const char* diag_level_name(DiagLevel l);

}  // namespace ilint
