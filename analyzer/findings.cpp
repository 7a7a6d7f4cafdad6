#include "analyzer/findings.h"

#include <algorithm>
#include <cstdio>
#include <tuple>

#include "analyzer/util/hash.h"

namespace ilint {

const char* severity_name(Severity s) {
  switch (s) {
    case Severity::Error: return "error";
    case Severity::Warning: return "warning";
    case Severity::Note: return "note";
  }
  return "note";
}

std::optional<Severity> parse_severity(const std::string& s) {
  if (s == "error") return Severity::Error;
  if (s == "warning") return Severity::Warning;
  if (s == "note" || s == "info") return Severity::Note;
  return std::nullopt;
}

namespace {
std::string basename_of(const std::string& p) {
  auto pos = p.find_last_of('/');
  return pos == std::string::npos ? p : p.substr(pos + 1);
}
}  // namespace

void finalize_findings(std::vector<Finding>& findings) {
  for (auto& f : findings) {
    // The user-source anchor: file name (not the directory, which names the machine) and line.
    std::string anchor;
    if (!f.related.empty() && f.related.front().loc.valid())
      anchor = basename_of(f.related.front().loc.file) + ":" + std::to_string(f.related.front().loc.line);
    std::string material = f.rule + "\x1f" + anchor + "\x1f" + f.fingerprint_key;
    char buf[17];
    std::snprintf(buf, sizeof buf, "%016llx", static_cast<unsigned long long>(fnv1a(material)));
    f.fingerprint = buf;
  }
  std::stable_sort(findings.begin(), findings.end(), [](const Finding& a, const Finding& b) {
    return std::tie(a.location.file, a.location.line, a.location.column, a.rule, a.message) <
           std::tie(b.location.file, b.location.line, b.location.column, b.rule, b.message);
  });
}

}  // namespace ilint
