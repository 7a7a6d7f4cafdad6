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

#include "analyzer/confirm/confirm.h"
#include "analyzer/dynamo/dump.h"
#include "analyzer/localize/localize.h"
#include "analyzer/pipeline.h"
#include "analyzer/config/config.h"
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

const char* kUsage = R"(usage: inductor-lint [check] PATH... [options]
       inductor-lint rules [ID]
       inductor-lint confirm PATH... [options]
       inductor-lint localize PATH... [options]

PATH: a torch_compile_debug/ folder, a run_* folder, a compile folder
(torchinductor/model__N_<kind>_<id>/), an output_code.py, an FX graph JSON, a
TORCH_TRACE log or TORCH_LOGS text, or any folder holding these at any depth.

options:
  --format FORMAT         the report's format (default text):
@FORMATS@
  -o, --output FILE       write the report to FILE instead of stdout (`-o -`: stdout)
  -j, --jobs N|auto       threads: N exactly, or auto (the default): as many as
                          the cores, one on an input of few compiles
  --rule ID               run only this rule (repeatable)
  --disable ID            do not run this rule (repeatable)
  --fail-on LEVEL         error|warning|note|never: exit 1 when a finding is at or
                          above LEVEL (default warning)
  --baseline FILE         report only findings not in this baseline
  --write-baseline FILE   write the current findings as a baseline to FILE
  --source-root DIR       user sources under DIR (or under an input) may be quoted in the
                          HTML report (default: the working directory)
  --config FILE           the config (default: .inductor-lint.json in the working
                          directory or a parent; docs/config.md)
  --confirm-results FILE  attach recorded confirmation answers (JSON) to the findings
  --localize-results FILE attach recorded localize answers (JSON) to their compiles

confirm options:
  --python PATH           the Python that has torch (default python3)
  --device cuda|cpu       where to re-execute (default cuda)
  --script FILE           the user's program, for scalar findings
  --script-arg ARG        an argument of that program (repeat for each, in order)
  --timeout S             seconds per finding (default 300)
  --confirm-tool PATH     tools/confirm.py (default: the source tree's)
  --localize              confirm: also localize each compile a finding names

localize options: --python, --device and --timeout (seconds per compile) as above, and
  --localize-tool PATH    tools/localize.py (default: the source tree's)
  --print-requests        print the requests the tool would get (a JSON array) and run nothing

  --dump-model            print the model (compiles, kernels, buffers, frames) and exit
  --color / --no-color    colored text (default: when stdout is a terminal)
  --no-diagnostics        do not list input diagnostics in text output
  --coverage              list what was read of each compile in text output (kernels partly
                          read and the forms skipped, FX graph, Dynamo log, rules that could not decide)
  --time-report           print the wall and CPU time of each stage to stderr
  -h, --help              this text
)";

struct CliOptions {
  std::string command = "check";
  ilint::AnalyzeOptions analyze;
  std::string format = "text";
  std::string output;
  std::string fail_on = "warning";
  bool dump_model = false;
  int color = -1;  // -1: auto
  bool diagnostics = true;
  bool coverage = false;
  bool time_report = false;
  ilint::ConfirmOptions confirm;
  std::string confirm_results;
  bool localize = false;           // confirm --localize
  bool print_requests = false;     // localize --print-requests
  ilint::LocalizeOptions localize_options;
  std::string localize_results;
  bool fail_on_given = false;  // the config's fail_on applies only when the flag is absent
  std::string baseline, write_baseline, config;
  std::string source_root;  // --source-root: default the working directory
  std::string rule_id;         // `rules ID`: print that rule's doc
};

// kUsage with the report formats listed where it says @FORMATS@.
std::string usage() {
  std::string formats;
  for (const auto& f : ilint::report_formats())
    formats += "                            " + std::string(f.name) + std::string(8 - std::min<size_t>(f.name.size(), 7), ' ') +
               std::string(f.help) + "\n";
  std::string u = kUsage;
  u.replace(u.find("@FORMATS@\n"), 10, formats);
  return u;
}

int usage_error(const std::string& msg) {
  std::cerr << "inductor-lint: " << msg << "\n" << usage();
  return 2;
}

bool parse_args(int argc, char** argv, CliOptions& o, int& rc) {
  std::vector<std::string> args(argv + 1, argv + argc);
  size_t i = 0;
  if (!args.empty() && (args[0] == "check" || args[0] == "rules" || args[0] == "confirm" || args[0] == "localize")) o.command = args[i++];
  unsigned hw = std::thread::hardware_concurrency();
  const int cores = hw ? static_cast<int>(hw) : 1;
  // -j auto unless -j says otherwise.
  o.analyze.jobs = cores;
  o.analyze.fit_jobs_to_input = true;
  auto set_jobs = [&](const std::string& v) {
    if (v == "auto") {
      o.analyze.jobs = cores;
      o.analyze.fit_jobs_to_input = true;
      return true;
    }
    try {
      o.analyze.jobs = std::max(1, std::min(256, std::stoi(v)));
    } catch (...) {
      rc = usage_error("-j needs a number or auto");
      return false;
    }
    o.analyze.fit_jobs_to_input = false;
    return true;
  };
  for (; i < args.size(); ++i) {
    const std::string& a = args[i];
    auto value = [&](std::string& out) {
      if (i + 1 >= args.size()) {
        rc = usage_error("option " + a + " needs a value");
        return false;
      }
      out = args[++i];
      return true;
    };
    std::string v;
    if (a == "-h" || a == "--help") {
      std::cout << usage();
      rc = 0;
      return false;
    } else if (a == "--format") {
      if (!value(o.format)) return false;
    } else if (a == "-o" || a == "--output") {
      if (!value(o.output)) return false;
      if (o.output == "-") o.output.clear();  // `-o -`: stdout, as most tools take it
    } else if (a == "-j" || a == "--jobs") {
      if (!value(v) || !set_jobs(v)) return false;
    } else if (a.rfind("-j", 0) == 0 && a.size() > 2) {
      if (!set_jobs(a.substr(2))) return false;
    } else if (a == "--rule") {
      if (!value(v)) return false;
      o.analyze.only_rules.push_back(v);
    } else if (a == "--disable") {
      if (!value(v)) return false;
      o.analyze.disabled_rules.push_back(v);
    } else if (a == "--fail-on") {
      if (!value(o.fail_on)) return false;
      o.fail_on_given = true;
    } else if (a == "--baseline") {
      if (!value(o.baseline)) return false;
    } else if (a == "--write-baseline") {
      if (!value(o.write_baseline)) return false;
    } else if (a == "--config") {
      if (!value(o.config)) return false;
    } else if (a == "--source-root") {
      if (!value(o.source_root)) return false;
    } else if (a == "--python") {
      if (!value(o.confirm.python)) return false;
    } else if (a == "--device") {
      if (!value(o.confirm.device)) return false;
    } else if (a == "--script") {
      if (!value(o.confirm.script)) return false;
    } else if (a == "--script-arg") {
      if (!value(v)) return false;
      o.confirm.script_args.push_back(v);
    } else if (a == "--confirm-tool") {
      if (!value(o.confirm.tool)) return false;
    } else if (a == "--confirm-results") {
      if (!value(o.confirm_results)) return false;
    } else if (a == "--localize-results") {
      if (!value(o.localize_results)) return false;
    } else if (a == "--localize-tool") {
      if (!value(o.localize_options.tool)) return false;
    } else if (a == "--localize") {
      o.localize = true;
    } else if (a == "--print-requests") {
      o.print_requests = true;
    } else if (a == "--timeout") {
      if (!value(v)) return false;
      try {
        o.confirm.timeout_s = std::max(1, std::stoi(v));
      } catch (...) {
        rc = usage_error("--timeout needs a number of seconds");
        return false;
      }
    } else if (a == "--dump-model") {
      o.dump_model = true;
    } else if (a == "--color") {
      o.color = 1;
    } else if (a == "--no-color") {
      o.color = 0;
    } else if (a == "--time-report") {
      o.time_report = true;
    } else if (a == "--no-diagnostics") {
      o.diagnostics = false;
    } else if (a == "--coverage") {
      o.coverage = true;
    } else if (!a.empty() && a[0] == '-') {
      rc = usage_error("unknown option " + a);
      return false;
    } else {
      o.analyze.paths.push_back(a);
    }
  }
  if (o.command == "rules" && !o.analyze.paths.empty()) {
    o.rule_id = o.analyze.paths.front();
    o.analyze.paths.clear();
  }
  if (!ilint::find_report_format(o.format)) {
    std::string names;
    for (const auto& f : ilint::report_formats()) names += (names.empty() ? "" : ", ") + std::string(f.name);
    rc = usage_error("unknown format '" + o.format + "' (" + names + ")");
    return false;
  }
  if (o.fail_on != "error" && o.fail_on != "warning" && o.fail_on != "note" && o.fail_on != "never") {
    rc = usage_error("--fail-on takes error, warning, note or never");
    return false;
  }
  // A rule id that names no rule is a usage error: a typo in --rule would otherwise run nothing,
  // and one in --disable would leave the rule on, both with exit 0.
  ilint::register_all_rules();
  const auto& registry = ilint::RuleRegistry::instance();
  for (const auto* list : {&o.analyze.only_rules, &o.analyze.disabled_rules})
    for (const auto& id : *list)
      if (!registry.create(id)) {
        rc = usage_error((list == &o.analyze.only_rules ? "--rule: " : "--disable: ") +
                         registry.unknown_rule_message(id));
        return false;
      }
  if (o.command != "rules" && o.analyze.paths.empty()) {
    rc = usage_error("no input path given");
    return false;
  }
  return true;
}

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
    if (!d.full_description.empty() && d.full_description != i.short_description)
      std::cout << "  " << d.full_description << "\n";
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

// What the command line decides for the report's format (analyzer/report/formats.h).
static ilint::ReportSettings report_settings(const CliOptions& o, const std::vector<ilint::SuppressedFinding>& suppressed) {
  ilint::ReportSettings settings;
  settings.suppressed = &suppressed;
  settings.color = o.color == 1 || (o.color == -1 && o.output.empty() && isatty(STDOUT_FILENO));
  settings.show_diagnostics = o.diagnostics;
  settings.show_coverage = o.coverage;
  // Only files under the inputs and the source root are quoted: the logs name paths freely.
  std::error_code ec;
  for (const auto& root : o.analyze.paths) {
    std::filesystem::path p = std::filesystem::weakly_canonical(std::filesystem::absolute(root, ec), ec);
    if (!ec && !std::filesystem::is_directory(p, ec)) p = p.parent_path();
    if (!ec) settings.quotable_roots.push_back(p.string());
  }
  auto src_root = std::filesystem::weakly_canonical(
      o.source_root.empty() ? std::filesystem::current_path(ec) : std::filesystem::absolute(o.source_root, ec), ec);
  if (!ec) settings.quotable_roots.push_back(src_root.string());
  return settings;
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

int run_cli(int argc, char** argv) {
#if defined(ILINT_LAZY_CLANG)
  ilint::install_lazy_clang_readers();  // libilint-clang.so, loaded on the first C++ kernel or wrapper
#elif defined(ILINT_HAVE_CLANG)
  ilint::install_optional_readers();  // the Clang C++ kernel reader, linked in
#endif
  CliOptions o;
  int rc = 0;
  if (!parse_args(argc, argv, o, rc)) return rc;
  if (o.command == "rules") return list_rules(o.rule_id);

  // The config: --config FILE, else .inductor-lint.json found upward from the working directory.
  ilint::DiagSink setup_diags;
  ilint::Config config;
  std::string config_path = o.config.empty() ? ilint::find_config_upward(".") : o.config;
  if (!config_path.empty()) {
    config = ilint::load_config(config_path, setup_diags);
    print_setup_diags(setup_diags);
    if (!config.ok) return 2;
    ilint::apply_config_to_options(config, o.analyze);
    if (config.fail_on && !o.fail_on_given) o.fail_on = *config.fail_on;
  }
  ilint::Baseline baseline;
  if (!o.baseline.empty()) {
    // Its own sink: the config's diagnostics were printed already. Warnings (an entry ignored, a
    // count taken as 1) are printed too: the baseline still applies, but not as written.
    ilint::DiagSink baseline_diags;
    baseline = ilint::load_baseline(o.baseline, baseline_diags);
    print_setup_diags(baseline_diags);
    if (!baseline.ok) return 2;
  }
  // Recorded confirmation and localize answers: read before the analysis, so that a wrong path or a
  // broken file ends the run at once rather than after it.
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
  nlohmann::json recorded, recorded_localizations;
  if (!read_recorded(o.confirm_results, "confirm-results", "confirmation results", recorded) ||
      !read_recorded(o.localize_results, "localize-results", "localize results", recorded_localizations))
    return 2;
  ilint::Progress progress(std::cerr, ilint::Progress::stderr_is_terminal());
  o.analyze.on_stage = [&](const std::string& s) { progress.phase(s); };


  // Kernel sources are kept for a format that shows them (the model dump prints none).
  const ilint::ReportFormat& format = *ilint::find_report_format(o.format);
  o.analyze.keep_kernel_sources = format.shows_kernel_sources;
  ilint::StageClock total_clock;
  ilint::Analysis a;
  ilint::analyze(o.analyze, a);
  progress.finish();
  std::vector<ilint::SuppressedFinding> suppressed = ilint::apply_config_to_findings(config, a.findings);
  if (!o.write_baseline.empty()) {
    ilint::OutputFile bl;
    std::string error;
    if (!bl.open(o.write_baseline, error) || (ilint::write_baseline(a.findings, bl.stream()), !bl.commit(error))) {
      std::cerr << "inductor-lint: " << error << "\n";
      return 2;
    }
  }
  if (!o.baseline.empty()) a.findings = ilint::filter_new(a.findings, baseline);
  if (!o.confirm_results.empty()) ilint::attach_recorded(a, recorded, a.diags);
  if (o.command == "confirm") {
    if (o.confirm.device != "cuda" && o.confirm.device != "cpu") return usage_error("--device takes cuda or cpu");
    ilint::confirm_findings(a, o.confirm);
  }
  if (!o.localize_results.empty()) ilint::attach_recorded_localizations(a, recorded_localizations, a.diags);
  if (o.command == "localize" || (o.command == "confirm" && o.localize)) {
    if (o.confirm.device != "cuda" && o.confirm.device != "cpu") return usage_error("--device takes cuda or cpu");
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
  }

  ilint::OutputFile file;
  std::ostream* out = &std::cout;
  std::string write_error;
  if (!o.output.empty()) {
    if (!file.open(o.output, write_error)) {
      std::cerr << "inductor-lint: " << write_error << "\n";
      return 2;
    }
    out = &file.stream();
  }
  if (o.dump_model) {
    ilint::dump_compiles(a.program, *out);
    ilint::dump_dynamo_model(a.program, *out);
  } else {
    format.write(a, report_settings(o, suppressed), *out);
  }
  if (a.files_read == 0) {
    std::cerr << "inductor-lint: nothing could be read from the given paths\n";
    for (const auto& d : a.diags.sorted())
      std::cerr << ilint::terminal_safe(d.loc.file) << ": " << ilint::diag_level_name(d.level) << ": "
                << ilint::terminal_safe(d.message) << "\n";
  }
  // A report that did not reach its file or its reader whole is a failure, not a result.
  if (o.output.empty() ? !ilint::stdout_written(write_error) : !file.commit(write_error)) {
    std::cerr << "inductor-lint: " << write_error << "\n";
    return 2;
  }
  if (o.time_report) print_time_report(a, total_clock.stop("total"));
  int code = exit_code(a, o.fail_on);
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
