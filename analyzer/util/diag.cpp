#include "analyzer/util/diag.h"

#include <algorithm>
#include <tuple>

namespace ilint {

namespace {
bool before(const Diagnostic& a, const Diagnostic& b) {
  return std::tie(a.loc.line, a.loc.column, a.message) < std::tie(b.loc.line, b.loc.column, b.message);
}
}  // namespace

void DiagSink::report(DiagLevel level, std::string code, std::string message, SourceLoc loc) {
  std::lock_guard<std::mutex> lock(mu_);
  auto key = std::make_pair(loc.file, code);
  auto [it, fresh] = bucket_of_.try_emplace(std::move(key), buckets_.size());
  if (fresh) buckets_.emplace_back();
  Bucket& b = buckets_[it->second];
  ++b.total;
  Diagnostic d{level, std::move(code), std::move(message), std::move(loc)};
  if (b.kept.size() < kMaxPerFileAndCode) {
    b.kept.push_back(std::move(d));
    std::push_heap(b.kept.begin(), b.kept.end(), before);
  } else if (before(d, b.kept.front())) {
    std::pop_heap(b.kept.begin(), b.kept.end(), before);
    b.kept.back() = std::move(d);
    std::push_heap(b.kept.begin(), b.kept.end(), before);
  }
}

std::vector<Diagnostic> DiagSink::sorted() const {
  std::vector<Diagnostic> out;
  {
    std::lock_guard<std::mutex> lock(mu_);
    for (const auto& b : buckets_) {
      out.insert(out.end(), b.kept.begin(), b.kept.end());
      if (b.total > b.kept.size()) {
        // After the last one kept, with its level: the count stands for diagnostics like it.
        const Diagnostic& last = b.kept.front();
        Diagnostic more{last.level, last.code,
                        "and " + std::to_string(b.total - b.kept.size()) + " more [" + last.code +
                            "] diagnostic(s) in this file, not listed",
                        SourceLoc{last.loc.file, last.loc.line, last.loc.column + 1}};
        out.push_back(std::move(more));
      }
    }
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
  size_t n = 0;
  for (const auto& d : sorted()) n += d.level == level;
  return n;
}

size_t DiagSink::size() const {
  std::lock_guard<std::mutex> lock(mu_);
  size_t n = 0;
  for (const auto& b : buckets_) n += b.kept.size() + (b.total > b.kept.size() ? 1 : 0);
  return n;
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
