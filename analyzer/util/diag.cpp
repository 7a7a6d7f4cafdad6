#include "analyzer/util/diag.h"

#include <algorithm>
#include <tuple>

namespace ilint {

void DiagSink::report(DiagLevel level, std::string code, std::string message, SourceLoc loc) {
  std::lock_guard<std::mutex> lock(mu_);
  diags_.push_back(Diagnostic{level, std::move(code), std::move(message), std::move(loc)});
}

std::vector<Diagnostic> DiagSink::sorted() const {
  std::vector<Diagnostic> out;
  {
    std::lock_guard<std::mutex> lock(mu_);
    out = diags_;
  }
  std::sort(out.begin(), out.end(), [](const Diagnostic& a, const Diagnostic& b) {
    return std::tie(a.loc.file, a.loc.line, a.loc.column, a.code, a.message) <
           std::tie(b.loc.file, b.loc.line, b.loc.column, b.code, b.message);
  });
  out.erase(std::unique(out.begin(), out.end(),
                        [](const Diagnostic& a, const Diagnostic& b) {
                          return a.loc == b.loc && a.code == b.code && a.message == b.message;
                        }),
            out.end());
  return out;
}

size_t DiagSink::count(DiagLevel level) const {
  std::lock_guard<std::mutex> lock(mu_);
  return std::count_if(diags_.begin(), diags_.end(), [&](const Diagnostic& d) { return d.level == level; });
}

size_t DiagSink::size() const {
  std::lock_guard<std::mutex> lock(mu_);
  return diags_.size();
}

const char* diag_level_name(DiagLevel l) {
  switch (l) {
    case DiagLevel::Error: return "error";
    case DiagLevel::Warning: return "warning";
    case DiagLevel::Note: return "note";
  }
  return "note";
}

}  // namespace ilint
