// The command line, parsed with CLI11: what each option sets, the conventions ruff and clang-tidy
// follow (`--opt=value`, `--`, `--version`, strict numbers, NO_COLOR/FORCE_COLOR, the format taken
// from -o's extension), and the usage errors (exit 2).
#pragma once
#include <string>
#include <vector>

#include "analyzer/confirm/confirm.h"
#include "analyzer/localize/localize.h"
#include "analyzer/pipeline.h"

namespace ilint {

struct CliOptions {
  std::string command = "check";  // check | rules | confirm | localize | run
  AnalyzeOptions analyze;
  std::string format = "text";
  bool format_given = false;      // --format: else -o's extension may name it
  std::string output;             // empty: stdout
  std::string fail_on = "warning";
  bool fail_on_given = false;     // the config's fail_on applies only when the flag is absent
  bool dump_model = false;
  bool color = false;             // decided: flags, then FORCE_COLOR / NO_COLOR, then the terminal
  bool diagnostics = true;
  bool coverage = false;
  bool statistics = false;        // counts per rule instead of the findings
  bool time_report = false;
  ConfirmOptions confirm;
  std::string confirm_results;
  bool localize = false;          // confirm --localize
  bool print_requests = false;    // localize --print-requests
  LocalizeOptions localize_options;
  std::string localize_results;
  std::string baseline, write_baseline, config;
  std::string source_root;        // --source-root: default the working directory
  std::string rule_id;            // `rules ID`: print that rule's doc
  std::vector<std::string> run_command;  // `run [options] -- COMMAND...`: the program to run
  std::string run_dir;            // run --run-dir: the capture folder (default inductor-lint-runs/<time>-<pid>)
  bool run_confirm = false;       // run --confirm: confirm the findings after the analysis
};

// Parses argv into `o`. Returns true to go on; false with `exit_code` set when the run ends here:
// 0 after --help or --version (printed on stdout), 2 after a usage error (printed on stderr).
bool parse_command_line(int argc, char** argv, CliOptions& o, int& exit_code);

// The report format a file name's extension names (report.html -> html, lint.sarif -> sarif,
// findings.json -> json, report.txt -> text), or empty.
std::string format_for_extension(const std::string& path);

// "inductor-lint 0.1.0 (Clang 14.0.6)" or without the Clang part when the build has no Clang reader.
std::string version_text();

}  // namespace ilint
