// The report formats, each registered once by name (analyzer/report/formats.cpp): the CLI checks
// `--format` against them, lists them in its help and writes the report through them. A new format
// is its writer and one entry there; nothing in the CLI changes.
#pragma once
#include <ostream>
#include <string>
#include <string_view>
#include <vector>

#include "analyzer/config/config.h"
#include "analyzer/pipeline.h"

namespace ilint {

// What the command line decides that a format may use.
struct ReportSettings {
  bool color = false;                                          // text: ANSI colors
  bool show_diagnostics = true;                                // text: list input diagnostics
  bool show_coverage = false;                                  // text: what was read of each compile
  // html: the folders whose files may be quoted (canonical paths: the inputs and --source-root).
  std::vector<std::string> quotable_roots;
  // sarif, concise, github: user paths under it are written relative to it (empty: the working
  // directory).
  std::string source_root;
};

struct ReportFormat {
  std::string_view name;                 // the value of --format
  std::string_view help;                 // what it is, for the CLI's help
  bool shows_kernel_sources = false;     // the analysis must keep them (AnalyzeOptions::keep_kernel_sources)
  void (*write)(const Analysis& analysis, const ReportSettings& settings, std::ostream& out) = nullptr;
};

// In the order the help lists them; the first is the default.
const std::vector<ReportFormat>& report_formats();
// The format named `name`, or null.
const ReportFormat* find_report_format(std::string_view name);

}  // namespace ilint
