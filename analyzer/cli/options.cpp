#include "analyzer/cli/options.h"

#include <unistd.h>

#include <CLI/CLI.hpp>
#include <algorithm>
#include <charconv>
#include <functional>
#include <cstdlib>
#include <iostream>
#include <thread>

#include "analyzer/cli/run_program.h"
#include "analyzer/report/formats.h"
#include "analyzer/rule.h"
#include "analyzer/util/version.h"


namespace ilint {

namespace {

const char* const kCommands[] = {"check", "rules", "confirm", "localize", "run"};

const char* kUsageLines = R"(usage: inductor-lint [check] PATH... [options]
       inductor-lint rules [ID]
       inductor-lint confirm PATH... [options]
       inductor-lint localize PATH... [options]
       inductor-lint run [options] [--confirm] [--run-dir DIR] -- python train.py ARGS...

PATH: a torch_compile_debug/ folder, a run_* folder, a compile folder
(torchinductor/model__N_<kind>_<id>/), an output_code.py, an FX graph JSON, a
TORCH_TRACE log or TORCH_LOGS text, or any folder holding these at any depth.
`run` runs the program after `--` with TORCH_COMPILE_DEBUG, TORCH_TRACE and TORCH_LOGS set into
a fresh folder, then analyzes it (the only command that runs user code).
Options take their value as `--opt value` or `--opt=value`; `--` ends the options.
)";

const char* kFooter = R"(
Environment: FORCE_COLOR (non-empty) turns colors on, else NO_COLOR (non-empty) off, where
--color/--no-color do not say (a report written with -o has none unless --color). Exit codes: 0 nothing at or above --fail-on, 1 findings at or
above it (or a launch localize found divergent), 2 nothing could be read, bad usage, a
report that could not be written whole, or a program `run` started that failed.)";

// The usage lines above CLI11's list of options (its own one-line usage says nothing of the
// commands).
class UsageFormatter : public CLI::Formatter {
 public:
  std::string make_usage(const CLI::App*, std::string) const override { return kUsageLines; }
};

// An integer that is the whole text: "3x", "3.5" and "" are refused, as ruff and clang-tidy refuse
// them, rather than read as 3.
bool whole_int(const std::string& text, int& value) {
  const char* end = text.data() + text.size();
  auto [p, ec] = std::from_chars(text.data(), end, value);
  return ec == std::errc() && p == end && !text.empty();
}

bool env_set(const char* name) {
  const char* v = std::getenv(name);
  return v && *v;
}

}  // namespace

std::string format_for_extension(const std::string& path) {
  auto ends_with = [&](std::string_view suffix) {
    if (path.size() < suffix.size()) return false;
    return std::equal(suffix.rbegin(), suffix.rend(), path.rbegin(),
                      [](char a, char b) { return a == std::tolower(static_cast<unsigned char>(b)); });
  };
  if (ends_with(".sarif") || ends_with(".sarif.json")) return "sarif";
  if (ends_with(".json")) return "json";
  if (ends_with(".html") || ends_with(".htm")) return "html";
  if (ends_with(".txt")) return "text";
  return "";
}

std::string version_text() {
  std::string v = std::string("inductor-lint ") + kToolVersion;
#if defined(ILINT_CLANG_VERSION)
  v += " (Clang " ILINT_CLANG_VERSION ")";
#endif
  return v;
}

namespace {

// What the options write besides CliOptions: texts checked after the parse, and the flags whose
// combination decides one setting.
struct RawOptions {
  std::string jobs = "auto", timeout;
  bool color_on = false, color_off = false, no_diagnostics = false;
  std::vector<std::string> positionals;
};

// Every option, its help text and where its value goes.
void declare_options(CLI::App& app, CliOptions& o, RawOptions& f) {
  std::string formats_help = "the report's format, default text (or -o's extension: .json, .sarif, .html, .txt):";
  for (const auto& fmt : report_formats()) formats_help += "\n" + std::string(fmt.name) + ": " + std::string(fmt.help);
  app.add_option("--format", o.format, formats_help)->option_text("FORMAT");
  app.add_option("-o,--output", o.output, "write the report to FILE instead of stdout (`-o -`: stdout)")
      ->option_text("FILE");
  app.add_option("-j,--jobs", f.jobs, "threads: N exactly, or auto (the default): as many as the cores, one on an input of few compiles")
      ->option_text("N|auto");
  app.add_option("--rule", o.analyze.only_rules, "run only this rule (repeatable)")->option_text("ID")
      ->expected(1)
      ->allow_extra_args(false)
      ->multi_option_policy(CLI::MultiOptionPolicy::TakeAll);
  app.add_option("--disable", o.analyze.disabled_rules, "do not run this rule (repeatable)")->option_text("ID")
      ->expected(1)
      ->allow_extra_args(false)
      ->multi_option_policy(CLI::MultiOptionPolicy::TakeAll);
  app.add_option("--fail-on", o.fail_on, "exit 1 when a finding is at or above LEVEL (default warning)")
      ->option_text("error|warning|note|never")
      ->check(CLI::IsMember({"error", "warning", "note", "never"}));
  app.add_option("--baseline", o.baseline, "report only findings not in this baseline")->option_text("FILE");
  app.add_option("--write-baseline", o.write_baseline, "write the current findings as a baseline to FILE and exit 0")
      ->option_text("FILE");
  app.add_option("--source-root", o.source_root,
                 "the user's sources: their paths in reports are made relative to DIR, and files under it (or under an "
                 "input) may be quoted and read for inline suppressions (default: the working directory)")
      ->option_text("DIR");
  app.add_option("--config", o.config,
                 "the config (default: .inductor-lint.json, else pyproject.toml's [tool.inductor-lint], in the working "
                 "directory or a parent; docs/config.md)")
      ->option_text("FILE");
  app.add_option("--confirm-results", o.confirm_results, "attach recorded confirmation answers (JSON) to the findings")
      ->option_text("FILE");
  app.add_option("--localize-results", o.localize_results, "attach recorded localize answers (JSON) to their compiles")
      ->option_text("FILE");
  app.add_option("--max-kernel-bytes", o.analyze.max_kernel_bytes,
                 "a kernel whose source is longer is not read (said as a warning and in the coverage account); 0: "
                 "no limit (default 1048576)")
      ->option_text("N");
  app.add_option("--max-memory-ratio", o.analyze.max_memory_ratio,
                 "a compile's model may take N bytes of memory per byte of its files (at least 16 MiB); the kernels met "
                 "past that are not read (said as a warning and in the coverage account); 0: no limit (default 3)")
      ->option_text("N");
  app.add_flag("--dump-model", o.dump_model, "print the model (compiles, kernels, buffers, frames) and exit");
  app.add_flag("--color", f.color_on, "colored text (default: when stdout is a terminal)");
  app.add_flag("--no-color", f.color_off, "no colors");
  app.add_flag("--no-diagnostics", f.no_diagnostics, "do not list input diagnostics in text output");
  app.add_flag("--coverage", o.coverage,
               "list what was read of each compile in text output (kernels partly read and the forms skipped, FX graph, "
               "Dynamo log, rules that could not decide)");
  app.add_flag("--statistics", o.statistics, "print the number of findings per rule instead of the findings");
  app.add_flag("--time-report", o.time_report, "print the wall and CPU time of each stage to stderr");

  const char* confirm_group = "confirm and localize options";
  app.add_option("--python", o.confirm.python, "the Python that has torch (default: $INDUCTOR_LINT_PYTHON, which the pip-installed launcher sets to its own interpreter, else python3)")->option_text("PATH")->group(confirm_group);
  app.add_option("--device", o.confirm.device, "where to re-execute (default cuda)")
      ->option_text("cuda|cpu")
      ->check(CLI::IsMember({"cuda", "cpu"}))
      ->group(confirm_group);
  app.add_option("--script", o.confirm.script, "the user's program, for scalar findings")->option_text("FILE")->group(confirm_group);
  app.add_option("--script-arg", o.confirm.script_args, "an argument of that program (repeat for each, in order)")
      ->option_text("ARG")
      ->group(confirm_group)
      ->expected(1)
      ->allow_extra_args(false)
      ->multi_option_policy(CLI::MultiOptionPolicy::TakeAll);
  app.add_option("--timeout", f.timeout, "seconds per finding (confirm) or per compile (localize), default 300")
      ->option_text("S")
      ->group(confirm_group);
  app.add_option("--confirm-tool", o.confirm.tool, "tools/confirm.py (default: the one installed with the binary)")
      ->option_text("PATH")
      ->group(confirm_group);
  app.add_flag("--localize", o.localize, "confirm: also localize each compile a finding names")->group(confirm_group);
  app.add_option("--localize-tool", o.localize_options.tool, "tools/localize.py (default: the one installed with the binary)")
      ->option_text("PATH")
      ->group(confirm_group);
  app.add_flag("--print-requests", o.print_requests, "localize: print the requests the tool would get (a JSON array) and run nothing")
      ->group(confirm_group);
  const char* run_group = "run options";
  app.add_flag("--confirm", o.run_confirm, "run: confirm the findings afterwards, with the program's own Python")->group(run_group);
  app.add_option("--run-dir", o.run_dir, "run: the capture folder, new or empty (default inductor-lint-runs/<UTC time>-<pid>)")
      ->option_text("DIR")
      ->group(run_group);
  app.add_option("PATH", f.positionals, "inputs; `rules ID`: the rule")->option_text(" ");

}

// After the parse: the values CLI11 does not check (whole numbers, -j auto, the format and its
// extension, the colors, rule ids), each a usage error naming itself.
bool finish_options(const CLI::App& app, CliOptions& o, const RawOptions& f,
                    const std::function<bool(const std::string&)>& usage_error) {
  o.format_given = app.count("--format") > 0;
  o.fail_on_given = app.count("--fail-on") > 0;
  o.diagnostics = !f.no_diagnostics;
  if (o.output == "-") o.output.clear();  // `-o -`: stdout, as most tools take it

  // -j: a whole number, or auto.
  const unsigned hw = std::thread::hardware_concurrency();
  const int cores = hw ? static_cast<int>(hw) : 1;
  o.analyze.jobs = cores;
  o.analyze.fit_jobs_to_input = true;
  if (f.jobs != "auto") {
    int n = 0;
    if (!whole_int(f.jobs, n) || n < 1) return usage_error("-j needs a number or auto (got '" + f.jobs + "')");
    o.analyze.jobs = std::min(256, n);
    o.analyze.fit_jobs_to_input = false;
  }
  if (!f.timeout.empty()) {
    int s = 0;
    if (!whole_int(f.timeout, s) || s < 1) return usage_error("--timeout needs a whole number of seconds (got '" + f.timeout + "')");
    o.confirm.timeout_s = s;
  }

  // Colors: the flags, then FORCE_COLOR (force-color.org), then NO_COLOR (no-color.org), as ruff
  // orders them, then whether the report goes to a terminal. A report written with -o is a file:
  // only --color colors it.
  if (f.color_on && f.color_off) return usage_error("--color and --no-color together");
  if (f.color_on || f.color_off) o.color = f.color_on;
  else if (!o.output.empty()) o.color = false;
  else if (env_set("FORCE_COLOR")) o.color = true;
  else if (env_set("NO_COLOR")) o.color = false;
  else o.color = isatty(STDOUT_FILENO);

  if (!o.format_given && !o.output.empty()) {
    std::string inferred = format_for_extension(o.output);
    if (!inferred.empty()) o.format = inferred;
  }
  if (!find_report_format(o.format)) {
    std::string names;
    for (const auto& fmt : report_formats()) names += (names.empty() ? "" : ", ") + std::string(fmt.name);
    return usage_error("unknown format '" + o.format + "' (" + names + ")");
  }

  if (o.statistics && o.format != "text" && o.format != "json")
    return usage_error("--statistics writes text or json, not " + o.format);
  if (o.command != "run" && (o.run_confirm || !o.run_dir.empty()))
    return usage_error(std::string(o.run_confirm ? "--confirm" : "--run-dir") + " belongs to `run` (inductor-lint run --help)");
  if (o.command == "run") {
    if (!f.positionals.empty())
      return usage_error("run: the program goes after `--` (inductor-lint run [options] -- python train.py ARGS)");
    if (o.run_command.empty()) return usage_error("run: no program given after `--`");
    // --confirm re-executes with the program's own interpreter: each compile's graph first, and the
    // program itself only for a finding the graph re-run cannot show (a stale scalar, a read after a
    // write-back): `python3 train.py ARGS` gives --python python3 and that fallback script, unless
    // --python or --script are given.
    if (std::string py = python_of_command(o.run_command); !py.empty()) {
      if (app.count("--python") == 0) o.confirm.python = py;
      if (o.confirm.script.empty() && o.run_command.size() > 1 && o.run_command[1].rfind("-", 0) != 0) {
        o.confirm.script = o.run_command[1];
        o.confirm.script_args.assign(o.run_command.begin() + 2, o.run_command.end());
        o.confirm.script_as_fallback = true;
      }
    }
  } else if (o.command == "rules") {
    if (f.positionals.size() > 1) return usage_error("rules takes at most one rule id");
    if (!f.positionals.empty()) o.rule_id = f.positionals.front();
  } else {
    o.analyze.paths = f.positionals;
  }
  // A rule id that names no rule is a usage error: a typo in --rule would otherwise run nothing,
  // and one in --disable would leave the rule on, both with exit 0.
  register_all_rules();
  const auto& registry = RuleRegistry::instance();
  for (const auto* list : {&o.analyze.only_rules, &o.analyze.disabled_rules})
    for (const auto& id : *list)
      if (!registry.create(id))
        return usage_error((list == &o.analyze.only_rules ? "--rule: " : "--disable: ") + registry.unknown_rule_message(id));
  if (o.command != "rules" && o.command != "run" && o.analyze.paths.empty()) return usage_error("no input path given");
  return true;
}

}  // namespace

bool parse_command_line(int argc, char** argv, CliOptions& o, int& exit_code) {
  std::vector<std::string> args(argv + 1, argv + argc);
  if (!args.empty() && std::find(std::begin(kCommands), std::end(kCommands), args[0]) != std::end(kCommands)) {
    o.command = args[0];
    args.erase(args.begin());
  }
  // run: what follows the first `--` is the program and its arguments, untouched (its own options
  // are not ours); without `--`, a first word that is not an option starts it (`run python x.py`).
  if (o.command == "run") {
    auto dashes = std::find(args.begin(), args.end(), "--");
    if (dashes != args.end()) {
      o.run_command.assign(dashes + 1, args.end());
      args.erase(dashes, args.end());
    } else if (!args.empty() && !args[0].empty() && args[0][0] != '-') {
      o.run_command = args;
      args.clear();
    }
  }

  CLI::App app{"", "inductor-lint"};
  app.formatter(std::make_shared<UsageFormatter>());
  app.footer(kFooter);
  app.set_version_flag("--version", version_text(), "print the version and exit");
  app.get_formatter()->column_width(30);
  // A single-valued option given twice takes the last, as ruff does (--color with --no-color is
  // refused: two flags, no order between them); each occurrence of a
  // repeatable one (--rule, --script-arg) takes one value, so the paths after it stay paths.
  app.option_defaults()->multi_option_policy(CLI::MultiOptionPolicy::TakeLast);

  // The launcher the wheel installs (python/inductor_lint) names the interpreter it runs under: the
  // environment that has inductor-lint installed is the one that has torch.
  if (env_set("INDUCTOR_LINT_PYTHON")) o.confirm.python = std::getenv("INDUCTOR_LINT_PYTHON");
  RawOptions raw;
  declare_options(app, o, raw);
  auto usage_error = [&](const std::string& msg) {
    std::cerr << "inductor-lint: " << msg << "\n(inductor-lint --help lists the options)\n";
    exit_code = 2;
    return false;
  };
  try {
    std::reverse(args.begin(), args.end());  // CLI11 takes the arguments last first
    app.parse(args);
  } catch (const CLI::CallForHelp&) {
    std::cout << app.help();
    exit_code = 0;
    return false;
  } catch (const CLI::CallForVersion&) {
    std::cout << version_text() << "\n";
    exit_code = 0;
    return false;
  } catch (const CLI::ParseError& e) {
    return usage_error(e.what());
  }
  return finish_options(app, o, raw, usage_error);
}

}  // namespace ilint
