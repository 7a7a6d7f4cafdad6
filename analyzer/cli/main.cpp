// inductor-lint: the command line.
//
//   inductor-lint [check] PATH... [options]     analyze and report findings
//   inductor-lint rules                          list the rules with their docs
//   inductor-lint confirm PATH... [options]      analyze, then re-execute to confirm each finding
//   inductor-lint localize PATH... [options]     re-execute each compile kernel by kernel against eager and float64
//
// Exit codes: 0 nothing at or above --fail-on, 1 findings at or above it (or a launch localize found
// divergent), 2 nothing could be read or bad usage. Output goes to stdout or to -o FILE, never anywhere else.
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <iostream>
#include <sstream>
#include <thread>

#include "analyzer/cli/options.h"
#include "analyzer/cli/run_program.h"
#include "analyzer/confirm/confirm.h"
#include "analyzer/dynamo/dump.h"
#include "analyzer/localize/localize.h"
#include "analyzer/pipeline.h"
#include "analyzer/config/config.h"
#include "analyzer/config/inline_suppressions.h"
#include "analyzer/model/user_source_lines.h"
#include "analyzer/report/statistics.h"
#include "analyzer/report/baseline.h"
#if defined(ILINT_LAZY_CLANG)
#include "analyzer/cpp/clang/clang_plugin.h"
#elif defined(ILINT_HAVE_CLANG)
#include "analyzer/cpp/clang/clang_reader.h"
#endif
#include "analyzer/report/dump_model.h"
#include "analyzer/report/progress.h"
#include "analyzer/report/rule_docs.h"
#include "analyzer/report/terminal.h"
#include "analyzer/report/formats.h"
#include "analyzer/rule.h"
#include "analyzer/util/json_fields.h"
#include "analyzer/util/output_file.h"
#include "analyzer/util/parallel.h"
#include "analyzer/util/read_file.h"

namespace {

// `rules`: every rule with its summary and doc page; `rules ID`: that rule's whole doc page.
int list_rules(const std::string& only) {
  auto catalog = ilint::rule_catalog();
  bool found = false;
  for (const auto& d : catalog) {
    const auto& i = d.info;
    if (!only.empty()) {
      if (i.id != only) continue;
      found = true;
      if (!d.markdown.empty()) std::cout << d.markdown << (d.markdown.back() == '\n' ? "" : "\n");
      else std::cout << i.id << ": " << i.short_description << "\n(no doc page found: " << i.doc_file << ")\n";
      continue;
    }
    std::cout << i.id << " (" << ilint::severity_name(i.default_severity) << ", precision " << i.precision
              << (i.experimental ? ", experimental" : "") << ")\n  " << i.name << ": " << i.short_description << "\n";
    if (!d.full_description.empty() && d.full_description != i.short_description) {
      std::string text = d.full_description;
      for (size_t nl = text.find('\n'); nl != std::string::npos; nl = text.find('\n', nl + 3)) text.replace(nl, 1, "\n  ");
      std::cout << "  " << text << "\n";
    }
    std::cout << "  doc: " << (d.doc_path.empty() ? i.doc_file + " (not found)" : d.doc_path) << "\n";
  }
  if (!only.empty() && !found) {
    std::cerr << "inductor-lint: no rule named '" << only << "'\n";
    return 2;
  }
  return 0;
}

int exit_code(const ilint::Analysis& a, const std::string& fail_on) {
  if (a.files_read == 0) return 2;
  if (fail_on == "never") return 0;
  int threshold = fail_on == "error" ? 0 : fail_on == "warning" ? 1 : 2;
  for (const auto& f : a.findings)
    if (static_cast<int>(f.severity) <= threshold) return 1;
  // A launch further from float64 than eager is a measured wrong result: it fails like an error.
  for (const auto& l : a.localizations)
    if (l.answer.contains("first_divergent_recomputed") && l.answer["first_divergent_recomputed"].is_number()) return 1;
  return 0;
}

}  // namespace

// Clang has no __SANITIZE_ADDRESS__ before version 13.
#if defined(__has_feature)
#if __has_feature(address_sanitizer)
#define ILINT_ASAN_CLANG 1
#endif
#endif
#ifndef ILINT_ASAN_CLANG
#define ILINT_ASAN_CLANG 0
#endif

// The diagnostics of a file read before the analysis (the config, the baseline, recorded
// results), on stderr as the text report lists the input's: file:line: level: message [code].
static void print_setup_diags(const ilint::DiagSink& diags) {
  for (const auto& d : diags.sorted()) {
    std::cerr << ilint::terminal_safe(d.loc.file);
    if (d.loc.line > 0) std::cerr << ":" << d.loc.line;
    std::cerr << ": " << ilint::diag_level_name(d.level) << ": " << ilint::terminal_safe(d.message) << " [" << d.code
              << "]\n";
  }
}

// The folders whose files the reports may quote and the inline suppressions may read: the inputs
// and the source root (canonical). Only these: the logs name paths freely.
static std::vector<std::string> readable_roots(const ilint::CliOptions& o) {
  std::vector<std::string> roots;
  std::error_code ec;
  for (const auto& root : o.analyze.paths) {
    std::filesystem::path p = std::filesystem::weakly_canonical(std::filesystem::absolute(root, ec), ec);
    if (!ec && !std::filesystem::is_directory(p, ec)) p = p.parent_path();
    if (!ec) roots.push_back(p.string());
  }
  auto src_root = std::filesystem::weakly_canonical(
      o.source_root.empty() ? std::filesystem::current_path(ec) : std::filesystem::absolute(o.source_root, ec), ec);
  if (!ec) roots.push_back(src_root.string());
  return roots;
}

// What the command line decides for the report's format (analyzer/report/formats.h).
static ilint::ReportSettings report_settings(const ilint::CliOptions& o, const std::vector<std::string>& roots) {
  ilint::ReportSettings settings;
  settings.color = o.color;
  settings.show_diagnostics = o.diagnostics;
  settings.show_coverage = o.coverage;
  settings.quotable_roots = roots;
  if (!o.source_root.empty()) {
    std::error_code ec;
    settings.source_root = std::filesystem::weakly_canonical(std::filesystem::absolute(o.source_root, ec), ec).string();
  }
  return settings;
}

// The suppression step: the config's severities and suppressions, then the inline comments on
// the user's lines; the findings they accept move to a.suppressed.
static void suppress(const std::vector<std::string>& roots, const ilint::Config& config, ilint::Analysis& a) {
  a.suppressed = ilint::apply_config_to_findings(config, a.findings);
  ilint::UserSourceLines lines(a.program, roots);
  ilint::GeneratedFiles generated(a.ingest);
  for (auto& s : ilint::apply_inline_suppressions(a.findings, lines, generated, &a.diags)) a.suppressed.push_back(std::move(s));
}

// --time-report: each stage's wall and CPU time, then the report's (what the total leaves), on stderr.
static void print_time_report(const ilint::Analysis& a, const ilint::StageTime& total) {
  double staged = 0, cpu_staged = 0;
  for (const auto& t : a.times) staged += t.wall_seconds, cpu_staged += t.cpu_seconds;
  std::fprintf(stderr, "%-16s %10s %10s\n", "stage", "wall (s)", "cpu (s)");
  for (const auto& t : a.times) std::fprintf(stderr, "%-16s %10.3f %10.3f\n", t.stage.c_str(), t.wall_seconds, t.cpu_seconds);
  std::fprintf(stderr, "%-16s %10.3f %10.3f\n", "report", total.wall_seconds - staged, total.cpu_seconds - cpu_staged);
  std::fprintf(stderr, "%-16s %10.3f %10.3f\n", "total", total.wall_seconds, total.cpu_seconds);
}

// What is read before the analysis: the config, the baseline, recorded confirmation and localize
// answers. Read first, so that a wrong path or a broken file ends the run at once rather than
// after a long analysis (or a long program, under `run`).
struct Setup {
  ilint::Config config;
  ilint::Baseline baseline;
  nlohmann::json recorded, recorded_localizations;
};

// Reads the setup files into `s` and applies the config to `o`. False (after printing why) when one
// cannot be used: the run ends with exit 2.
static bool read_setup(ilint::CliOptions& o, Setup& s) {
  // The config: --config FILE, else .inductor-lint.json found upward from the working directory.
  std::string config_path = o.config.empty() ? ilint::find_config_upward(".") : o.config;
  if (!config_path.empty()) {
    ilint::DiagSink config_diags;
    s.config = ilint::load_config(config_path, config_diags);
    print_setup_diags(config_diags);
    if (!s.config.ok) return false;
    ilint::apply_config_to_options(s.config, o.analyze);
    if (s.config.fail_on && !o.fail_on_given) o.fail_on = *s.config.fail_on;
  }
  if (!o.baseline.empty()) {
    // Warnings (an entry ignored, a count taken as 1) are printed too: the baseline still applies,
    // but not as written.
    ilint::DiagSink baseline_diags;
    s.baseline = ilint::load_baseline(o.baseline, baseline_diags);
    print_setup_diags(baseline_diags);
    if (!s.baseline.ok) return false;
  }
  auto read_recorded = [](const std::string& path, const std::string& code, const std::string& what,
                          nlohmann::json& out) {
    if (path.empty()) return true;
    ilint::DiagSink recorded_diags;
    std::string text;
    bool ok = ilint::read_named_file(path, text, recorded_diags, code + "-unreadable", what) &&
              ilint::parse_json_document(path, text, code + "-parse", what + " are not valid JSON: ", recorded_diags, out);
    print_setup_diags(recorded_diags);
    return ok;
  };
  return read_recorded(o.confirm_results, "confirm-results", "confirmation results", s.recorded) &&
         read_recorded(o.localize_results, "localize-results", "localize results", s.recorded_localizations);
}

// run: the program first, into a new capture folder that becomes the input (and the command
// `confirm`, with --confirm). False when it could not be started.
static bool run_program_first(ilint::CliOptions& o, ilint::ProgramRun& program) {
  program = ilint::run_program_captured(o.run_command, ilint::run_folder(o.run_dir));
  if (!program.started) {
    std::cerr << "inductor-lint: " << ilint::terminal_safe(program.error) << "\n";
    return false;
  }
  if (!program.error.empty()) std::cerr << "inductor-lint: warning: " << ilint::terminal_safe(program.error) << "\n";
  std::cerr << "inductor-lint: the program exited with status " << program.exit_status << "; analyzing "
            << ilint::terminal_safe(program.dir);
  if (program.log_lines_not_shown)
    std::cerr << " (" << program.log_lines_not_shown << " lines of torch's logs are in torch_logs.txt only)";
  std::cerr << "\n";
  o.analyze.paths = {program.dir};
  if (o.run_confirm) o.command = "confirm";
  return true;
}

// A program that failed under `run` fails the run, whatever it left: its capture may stop short of
// the code that matters. Says so (`what` was done with what it compiled) and returns true.
static bool program_failed(const ilint::ProgramRun& program, const char* what) {
  if (!program.started || program.exit_status == 0) return false;
  std::cerr << "inductor-lint: the program failed (exit status " << program.exit_status << "); " << what << "\n";
  return true;
}

// --write-baseline: writing a baseline accepts today's findings. It says what it wrote and
// succeeds, as ruff's --add-noqa does, instead of reporting (and failing on) the findings it just
// accepted. Over an input that could not be read it writes nothing: an empty baseline would
// accept nothing. Returns the exit code.
static int write_baseline_file(const ilint::CliOptions& o, const ilint::Analysis& a, const ilint::ProgramRun& program) {
  if (a.files_read == 0) {
    std::cerr << "inductor-lint: nothing could be read from the given paths; the baseline "
              << ilint::terminal_safe(o.write_baseline) << " is left as it was\n";
    return 2;
  }
  ilint::OutputFile bl;
  std::string error;
  if (!bl.open(o.write_baseline, error) || (ilint::write_baseline(a.findings, bl.stream()), !bl.commit(error))) {
    std::cerr << "inductor-lint: " << error << "\n";
    return 2;
  }
  std::cerr << "inductor-lint: wrote " << a.findings.size() << " finding(s) to the baseline "
            << ilint::terminal_safe(o.write_baseline);
  if (!a.suppressed.empty()) std::cerr << " (" << a.suppressed.size() << " suppressed finding(s) left out)";
  std::cerr << "\n";
  return program_failed(program, "the baseline holds what it compiled before that") ? 2 : 0;
}

// After the analysis: recorded answers attached, then confirm and localize as the command asks.
// Returns an exit code when the run ends here (localize --print-requests), else -1.
static int confirm_and_localize(ilint::CliOptions& o, const Setup& s, ilint::Analysis& a) {
  if (!o.confirm_results.empty()) ilint::attach_recorded(a, s.recorded, a.diags);
  if (o.command == "confirm") ilint::confirm_findings(a, o.confirm);
  if (!o.localize_results.empty()) ilint::attach_recorded_localizations(a, s.recorded_localizations, a.diags);
  if (o.command != "localize" && !(o.command == "confirm" && o.localize)) return -1;
  o.localize_options.python = o.confirm.python;
  o.localize_options.device = o.confirm.device;
  o.localize_options.timeout_s = o.confirm.timeout_s;
  if (o.print_requests) {
    nlohmann::json requests = nlohmann::json::array();
    for (const auto& c : a.program.compiles)
      if (ilint::localize_refusal(c).empty()) requests.push_back(ilint::localize_request(c, o.localize_options));
    std::cout << requests.dump(1) << "\n";
    return a.files_read == 0 ? 2 : 0;
  }
  ilint::localize_compiles(a, o.localize_options, /*only_with_findings=*/o.command == "confirm");
  return -1;
}

// The report (or the model dump, or the statistics) to -o FILE or stdout. False (after saying why)
// when it did not reach its file or its reader whole: a failure, not a result.
static bool write_report(const ilint::CliOptions& o, const ilint::ReportFormat& format,
                         const std::vector<std::string>& roots, const ilint::Analysis& a) {
  ilint::OutputFile file;
  std::ostream* out = &std::cout;
  std::string write_error;
  if (!o.output.empty()) {
    if (!file.open(o.output, write_error)) {
      std::cerr << "inductor-lint: " << write_error << "\n";
      return false;
    }
    out = &file.stream();
  }
  if (o.dump_model) {
    ilint::dump_compiles(a.program, *out);
    ilint::dump_dynamo_model(a.program, *out);
  } else if (o.statistics) {
    if (o.format == "json") ilint::write_statistics_json(a, *out);
    else ilint::write_statistics_text(a, *out);
  } else {
    format.write(a, report_settings(o, roots), *out);
  }
  if (a.files_read == 0) {
    std::cerr << "inductor-lint: nothing could be read from the given paths\n";
    for (const auto& d : a.diags.sorted())
      std::cerr << ilint::terminal_safe(d.loc.file) << ": " << ilint::diag_level_name(d.level) << ": "
                << ilint::terminal_safe(d.message) << "\n";
  }
  if (o.output.empty() ? !ilint::stdout_written(write_error) : !file.commit(write_error)) {
    std::cerr << "inductor-lint: " << write_error << "\n";
    return false;
  }
  return true;
}

int run_cli(int argc, char** argv) {
#if defined(ILINT_LAZY_CLANG)
  ilint::install_lazy_clang_readers();  // libilint-clang.so, loaded on the first C++ kernel or wrapper
#elif defined(ILINT_HAVE_CLANG)
  ilint::install_optional_readers();  // the Clang C++ kernel reader, linked in
#endif
  ilint::CliOptions o;
  int rc = 0;
  if (!ilint::parse_command_line(argc, argv, o, rc)) return rc;
  if (o.command == "rules") return list_rules(o.rule_id);
  Setup setup;
  if (!read_setup(o, setup)) return 2;
  ilint::Progress progress(std::cerr, ilint::Progress::stderr_is_terminal());
  o.analyze.on_stage = [&](const std::string& s) { progress.phase(s); };
  // Kernel sources are kept for a format that shows them (the model dump prints none).
  const ilint::ReportFormat& format = *ilint::find_report_format(o.format);
  o.analyze.keep_kernel_sources = format.shows_kernel_sources;
  ilint::StageClock total_clock;
  ilint::ProgramRun program;
  if (o.command == "run" && !run_program_first(o, program)) return 2;
  ilint::Analysis a;
  ilint::analyze(o.analyze, a);
  progress.finish();
  const std::vector<std::string> roots = readable_roots(o);
  suppress(roots, setup.config, a);
  if (!o.write_baseline.empty()) return write_baseline_file(o, a, program);
  if (!o.baseline.empty()) {
    size_t before = a.findings.size();
    a.findings = ilint::filter_new(a.findings, setup.baseline);
    a.in_baseline = before - a.findings.size();
  }
  if (int code = confirm_and_localize(o, setup, a); code >= 0) return code;
  if (!write_report(o, format, roots, a)) return 2;
  if (o.time_report) print_time_report(a, total_clock.stop("total"));
  int code = exit_code(a, o.fail_on);
  if (program_failed(program, "what it compiled before that was analyzed")) code = 2;
#if defined(__SANITIZE_ADDRESS__) || ILINT_ASAN_CLANG
  return code;  // sanitizer builds free everything, so that leak detection sees the whole run
#else
  // Freeing the model (every compile's kernels, nodes and strings, one allocation at a time) and
  // the Clang reader's state costs more than some whole stages, for memory the process is about
  // to give back anyway. Flush what was written and end here, without running destructors.
  std::cout.flush();
  std::cerr.flush();
  std::fflush(nullptr);
  std::_Exit(code);
#endif
}

// run_cli, with an allocation failure outside the guarded reads (a stage's shared tables, a report)
// an exit 2 with a message, not an abort; the report is written through a temporary file, so an
// earlier report at the output path stays as it was.
int run_cli_guarded(int argc, char** argv) {
  try {
    return run_cli(argc, argv);
  } catch (const std::bad_alloc&) {
    static const char kMessage[] = "inductor-lint: out of memory; stopped (a report file given with -o is left as it was)\n";
    (void)!write(STDERR_FILENO, kMessage, sizeof kMessage - 1);
    return 2;
  }
}

int main(int argc, char** argv) {
  // Clang needs a few MB of stack at the limits of cpp_limits.h: the main thread's is raised to the
  // pool threads' size (ilint::raise_stack_limit, parallel.h).
  if (ilint::raise_stack_limit()) return run_cli_guarded(argc, argv);
  // Only under a hard stack limit: the run goes on a thread that has the stack. Not always, since a
  // second thread cost 4-18% on small captures on this 2-vCPU machine (its first allocations and
  // page faults).
  int rc = 2;
  ilint::WorkerThread run([&] { rc = run_cli_guarded(argc, argv); });
  run.join();
  return rc;
}
