#include "analyzer/report/line_formats.h"

#include "analyzer/report/review_location.h"
#include "analyzer/report/terminal.h"
#include "analyzer/report/text.h"

namespace ilint {

std::string github_escape_data(const std::string& s) {
  std::string out;
  for (char c : s) {
    if (c == '%') out += "%25";
    else if (c == '\r') out += "%0D";
    else if (c == '\n') out += "%0A";
    else out += c;
  }
  return out;
}

std::string github_escape_property(const std::string& s) {
  std::string out;
  for (char c : github_escape_data(s)) {
    if (c == ':') out += "%3A";
    else if (c == ',') out += "%2C";
    else out += c;
  }
  return out;
}

void write_concise(const Analysis& a, const std::string& source_root, std::ostream& os) {
  GeneratedFiles generated(a.ingest);
  for (const auto& f : a.findings) {
    const SourceLoc at = review_location(f, generated);
    os << terminal_safe(path_under_root(at.file.str(), source_root));
    if (at.line > 0) os << ":" << at.line;
    if (at.line > 0 && at.column > 0) os << ":" << at.column;
    os << ": " << severity_name(f.severity) << ": " << terminal_safe(f.message) << " [" << f.rule << "]\n";
  }
  os << findings_summary(a) << "\n";  // for github a plain log line: commands start with "::"
}

void write_github(const Analysis& a, const std::string& source_root, std::ostream& os) {
  GeneratedFiles generated(a.ingest);
  for (const auto& f : a.findings) {
    const SourceLoc at = review_location(f, generated);
    // GitHub has error, warning and notice; a note is a notice.
    const char* level = f.severity == Severity::Error ? "error" : f.severity == Severity::Warning ? "warning" : "notice";
    os << "::" << level << " ";
    if (at.valid()) {
      os << "file=" << github_escape_property(path_under_root(at.file.str(), source_root)) << ",line=" << at.line;
      if (at.column > 0) os << ",col=" << at.column;
      os << ",";
    }
    // The headline, then the notes on lines of their own (escaped: one command stays one line).
    std::string message = f.message;
    for (const auto& n : f.notes) message += "\n" + n;
    os << "title=" << github_escape_property("inductor-lint (" + f.rule + ")") << "::" << github_escape_data(message) << "\n";
  }
  os << findings_summary(a) << "\n";  // for github a plain log line: commands start with "::"
}

}  // namespace ilint
