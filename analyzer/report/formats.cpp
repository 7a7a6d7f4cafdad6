#include "analyzer/report/formats.h"

#include <filesystem>

#include "analyzer/report/html.h"
#include "analyzer/report/json.h"
#include "analyzer/report/line_formats.h"
#include "analyzer/report/rule_docs.h"
#include "analyzer/report/sarif.h"
#include "analyzer/report/text.h"

namespace ilint {

namespace {

std::string source_root_or_cwd(const ReportSettings& s) {
  if (!s.source_root.empty()) return s.source_root;
  std::error_code ec;
  return std::filesystem::current_path(ec).string();
}

void text_report(const Analysis& a, const ReportSettings& s, std::ostream& out) {
  TextOptions t;
  t.color = s.color;
  t.show_diagnostics = s.show_diagnostics;
  t.show_coverage = s.show_coverage;
  write_text(a, t, out);
}

void concise_report(const Analysis& a, const ReportSettings& s, std::ostream& out) {
  write_concise(a, source_root_or_cwd(s), out);
}

void github_report(const Analysis& a, const ReportSettings& s, std::ostream& out) {
  write_github(a, source_root_or_cwd(s), out);
}

void json_report(const Analysis& a, const ReportSettings&, std::ostream& out) { write_json(a, out, a.jobs_used); }

void sarif_report(const Analysis& a, const ReportSettings& s, std::ostream& out) {
  SarifOptions so;
  so.suppressed = &a.suppressed;
  so.source_root = s.source_root;
  write_sarif(a, rule_catalog(), out, so);
}

void html_report(const Analysis& a, const ReportSettings& s, std::ostream& out) {
  HtmlOptions ho;
  ho.suppressed = &a.suppressed;
  ho.title = "inductor-lint report";
  ho.quotable_roots = s.quotable_roots;
  write_html(a, out, ho);
}

}  // namespace

const std::vector<ReportFormat>& report_formats() {
  static const std::vector<ReportFormat> formats = {
      {"text", "one line per finding, with its notes and fix", false, text_report},
      {"concise", "one line per finding, at the user's line when known", false, concise_report},
      {"github", "GitHub Actions annotations (workflow commands), at the user's line", false, github_report},
      {"json", "the findings, diagnostics and coverage (docs/json-output.md)", false, json_report},
      {"sarif", "SARIF 2.1.0 (docs/sarif.md)", false, sarif_report},
      {"html", "one self-contained page", true, html_report},
  };
  return formats;
}

const ReportFormat* find_report_format(std::string_view name) {
  for (const auto& f : report_formats())
    if (f.name == name) return &f;
  return nullptr;
}

}  // namespace ilint
