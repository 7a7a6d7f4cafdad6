// Diagnostics about the input itself (a missing file, a line the parser could not read), as
// opposed to findings about the compiled program. They never stop the analysis.
#pragma once
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
  // Sorted by file, line, code, message so output is deterministic whatever the thread order.
  std::vector<Diagnostic> sorted() const;
  size_t count(DiagLevel level) const;
  size_t size() const;

 private:
  mutable std::mutex mu_;
  std::vector<Diagnostic> diags_;
};

const char* diag_level_name(DiagLevel l);

}  // namespace ilint
