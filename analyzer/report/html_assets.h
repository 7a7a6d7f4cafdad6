// The report page's stylesheet and script, kept here as raw strings so the report is one
// self-contained file (no network, no files beside it). The script builds every element with
// createElement + textContent: nothing from the data is ever parsed as HTML.
#pragma once

namespace ilint {

extern const char* const kReportCss;
extern const char* const kReportJs;

}  // namespace ilint
