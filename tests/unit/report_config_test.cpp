// .inductor-lint.json and pyproject.toml: discovery, parsing, diagnostics, and its effect on real findings.
#include <gtest/gtest.h>

#include "analyzer/config/config.h"
#include "analyzer/config/inline_suppressions.h"
#include "report_test_util.h"

using namespace ilint;
using namespace ilint_test;

TEST(ReportConfig, FoundUpwardFromTheWorkingDirectory) {
  TempDir dir;
  fs::create_directories(dir.path / "a" / "b" / "c");
  EXPECT_EQ(find_config_upward((dir.path / "a" / "b" / "c").string()).find(dir.str()), std::string::npos);
  write_file(dir.path / "a" / ".inductor-lint.json", "{}");
  EXPECT_EQ(find_config_upward((dir.path / "a" / "b" / "c").string()), (dir.path / "a" / ".inductor-lint.json").string());
  write_file(dir.path / "a" / "b" / ".inductor-lint.json", "{}");
  EXPECT_EQ(find_config_upward((dir.path / "a" / "b" / "c").string()), (dir.path / "a" / "b" / ".inductor-lint.json").string());
}

TEST(ReportConfig, ParsesRulesSuppressionsAndFailOn) {
  TempDir dir;
  write_file(dir.path / "c.json", R"({
  "fail_on": "error",
  "rules": {
    "reduced-precision-scan": {"severity": "error"},
    "stale-scalar": "off"
  },
  "suppress": [
    {"rule": "reduced-precision-scan", "location": "seed2.py:13", "reason": "known, tracked in #12"},
    {"rule": "*", "file": "src/model.py", "reason": "generated model"}
  ]
})");
  DiagSink diags;
  Config c = load_config((dir.path / "c.json").string(), diags);
  ASSERT_TRUE(c.ok);
  EXPECT_EQ(c.fail_on.value_or(""), "error");
  ASSERT_EQ(c.rules.size(), 2u);
  EXPECT_EQ(c.rules[0].severity, Severity::Error);
  EXPECT_EQ(c.rules[1].enabled, false);
  ASSERT_EQ(c.suppressions.size(), 2u);
  EXPECT_EQ(c.suppressions[0].file, "seed2.py");
  EXPECT_EQ(c.suppressions[0].line, 13);
  EXPECT_EQ(c.suppressions[1].line, 0);
  EXPECT_EQ(c.suppressions[0].defined_at.line, 8);
  EXPECT_TRUE(diags.sorted().empty());
  AnalyzeOptions opts;
  apply_config_to_options(c, opts);
  EXPECT_EQ(opts.disabled_rules, std::vector<std::string>{"stale-scalar"});
}

// A rule id that names no rule makes the config unusable (exit 2 from the CLI): a typo would
// otherwise leave the rule on or suppress nothing. The error names the line and, for a near miss,
// the id that was meant.
TEST(ReportConfig, UnknownRuleIdsAreErrorsWithTheClosestId) {
  TempDir dir;
  write_file(dir.path / "c.json", R"({
  "rules": {
    "reduced-precision-scans": "off"
  },
  "suppress": [
    {"rule": "bogus", "location": "seed2.py:13", "reason": "r"}
  ]
})");
  DiagSink diags;
  Config c = load_config((dir.path / "c.json").string(), diags);
  EXPECT_FALSE(c.ok);
  auto d = diags.sorted();
  ASSERT_EQ(d.size(), 2u);
  EXPECT_EQ(d[0].code, "config-unknown-rule");
  EXPECT_EQ(d[0].level, DiagLevel::Error);
  EXPECT_EQ(d[0].loc.line, 3);
  EXPECT_NE(d[0].message.find("did you mean 'reduced-precision-scan'?"), std::string::npos) << d[0].message;
  EXPECT_EQ(d[1].loc.line, 6);
  EXPECT_EQ(d[1].message.find("did you mean"), std::string::npos) << d[1].message;
  EXPECT_NE(d[1].message.find("stale-scalar"), std::string::npos) << d[1].message;  // the rules are listed
}

TEST(ReportConfig, BadConfigsAreErrorsWithLines) {
  TempDir dir;
  write_file(dir.path / "bad.json", "{\n  \"rules\": {\n    \"x\": ,\n  }\n}\n");
  DiagSink d1;
  EXPECT_FALSE(load_config((dir.path / "bad.json").string(), d1).ok);
  ASSERT_EQ(d1.size(), 1u);
  EXPECT_EQ(d1.sorted()[0].loc.line, 3);

  write_file(dir.path / "noreason.json", "{\"suppress\": [{\"rule\": \"reduced-precision-scan\", \"location\": \"a.py:3\"}]}");
  DiagSink d2;
  EXPECT_FALSE(load_config((dir.path / "noreason.json").string(), d2).ok);
  EXPECT_NE(d2.sorted()[0].message.find("reason"), std::string::npos);

  write_file(dir.path / "sev.json", "{\"rules\": {\"reduced-precision-scan\": \"loud\"}, \"fail_on\": \"sometimes\"}");
  DiagSink d3;
  EXPECT_FALSE(load_config((dir.path / "sev.json").string(), d3).ok);
  EXPECT_EQ(d3.count(DiagLevel::Error), 2u);
}

// A suppression member of another type threw type_error, and a line number past int's range
// threw out_of_range (std::stoi): each aborted the analyzer. Now each is a config error.
TEST(ReportConfig, SuppressionMembersOfOtherTypesAreErrors) {
  TempDir dir;
  const std::pair<const char*, const char*> cases[] = {
      {"{\"suppress\": [{\"rule\": 5, \"reason\": \"r\", \"location\": \"a.py:3\"}]}", "\"rule\" must be a string"},
      {"{\"suppress\": [{\"rule\": \"*\", \"reason\": [], \"location\": \"a.py:3\"}]}", "\"reason\" must be a string"},
      {"{\"suppress\": [{\"rule\": \"*\", \"reason\": \"r\", \"file\": {}}]}", "\"file\" must be a string"},
      {"{\"suppress\": [{\"rule\": \"*\", \"reason\": \"r\", \"file\": \"a.py\", \"line\": 2.5}]}", "\"line\" must be an integer"},
      {"{\"suppress\": [{\"rule\": \"*\", \"reason\": \"r\", \"location\": \"a.py:99999999999999\"}]}", "out of range"},
  };
  int i = 0;
  for (const auto& [text, says] : cases) {
    fs::path p = dir.path / ("c" + std::to_string(i++) + ".json");
    write_file(p, text);
    DiagSink d;
    EXPECT_FALSE(load_config(p.string(), d).ok) << text;
    ASSERT_EQ(d.count(DiagLevel::Error), 1u) << text;
    EXPECT_NE(d.sorted()[0].message.find(says), std::string::npos) << d.sorted()[0].message;
    EXPECT_EQ(d.sorted()[0].code, "config-value");
  }
  // A number past double's range is not a parse_error to nlohmann but out_of_range (it aborted
  // the analyzer; found by fuzz_user_files): a config-parse error on its line.
  write_file(dir.path / "overflow.json", "{\n  \"suppress\": [],\n  \"x\": 1.5e4375\n}\n");
  DiagSink over;
  EXPECT_FALSE(load_config((dir.path / "overflow.json").string(), over).ok);
  ASSERT_EQ(over.size(), 1u);
  EXPECT_EQ(over.sorted()[0].code, "config-parse");
  EXPECT_EQ(over.sorted()[0].loc.line, 3);
  // An integer "line" is still taken.
  write_file(dir.path / "ok.json", "{\"suppress\": [{\"rule\": \"*\", \"reason\": \"r\", \"file\": \"a.py\", \"line\": 7}]}");
  DiagSink ok;
  Config c = load_config((dir.path / "ok.json").string(), ok);
  ASSERT_TRUE(c.ok);
  ASSERT_EQ(c.suppressions.size(), 1u);
  EXPECT_EQ(c.suppressions[0].line, 7);
}

TEST(ReportConfig, PathMatchesWholeComponents) {
  EXPECT_TRUE(path_matches("/home/u/proj/seed2.py", "seed2.py"));
  EXPECT_TRUE(path_matches("/home/u/proj/seed2.py", "proj/seed2.py"));
  EXPECT_TRUE(path_matches("seed2.py", "seed2.py"));
  EXPECT_FALSE(path_matches("/home/u/proj/myseed2.py", "seed2.py"));
  EXPECT_FALSE(path_matches("/home/u/proj/seed2.py", ""));
}

// On the real s2_cuda findings: severity override, suppression by user location, and a disabled rule.
TEST(ReportConfig, AppliesToRealFindings) {
  auto a = analyze_paths({fixture("s2_cuda")});
  ASSERT_FALSE(a->findings.empty()) << "s2_cuda gives no finding: needs the reduced-precision-scan rule from main";
  const Finding& first = a->findings.front();
  ASSERT_FALSE(first.related.empty());
  std::string file = fs::path(first.related.front().loc.file.str()).filename().string();
  int line = first.related.front().loc.line;

  Config sev;
  sev.rules.push_back({first.rule, std::nullopt, Severity::Error});
  auto f1 = a->findings;
  EXPECT_TRUE(apply_config_to_findings(sev, f1).empty());
  for (const auto& f : f1)
    if (f.rule == first.rule) EXPECT_EQ(f.severity, Severity::Error);

  Config sup;
  sup.suppressions.push_back({first.rule, file, line, "accepted for now", {"cfg.json", 3, 0}});
  auto f2 = a->findings;
  auto suppressed = apply_config_to_findings(sup, f2);
  ASSERT_FALSE(suppressed.empty());
  EXPECT_EQ(suppressed.size() + f2.size(), a->findings.size());
  for (const auto& s : suppressed) {
    EXPECT_EQ(s.reason, "accepted for now");
    EXPECT_EQ(s.finding.related.front().loc.line, line);
  }
  for (const auto& f : f2)
    EXPECT_FALSE(f.rule == first.rule && f.related.front().loc.line == line && path_matches(f.related.front().loc.file, file));

  // Another line of the same file suppresses nothing.
  Config miss;
  miss.suppressions.push_back({first.rule, file, line + 1000, "no", {}});
  auto f3 = a->findings;
  EXPECT_TRUE(apply_config_to_findings(miss, f3).empty());

  Config off;
  off.rules.push_back({first.rule, false, std::nullopt});
  AnalyzeOptions opts;
  opts.paths = {fixture("s2_cuda")};
  apply_config_to_options(off, opts);
  Analysis b;
  analyze(opts, b);
  for (const auto& f : b.findings) EXPECT_NE(f.rule, first.rule);
}

// The CLI finds the config upward from its working directory, and --config names one.
TEST(ReportConfig, CliUsesConfig) {
  TempDir dir;
  fs::create_directories(dir.path / "sub");
  write_file(dir.path / ".inductor-lint.json",
             R"({"suppress": [{"rule": "*", "file": "seed2.py", "reason": "test: accept every s2 finding"}]})");
  std::string bin = shell_quote(binary());
  auto found = run_cmd("cd " + shell_quote((dir.path / "sub").string()) + " && " + bin + " " + shell_quote(fixture("s2_cuda")) + " 2>&1");
  EXPECT_EQ(found.exit_code, 0) << found.output;
  write_file(dir.path / "strict.json", R"({"rules": {"reduced-precision-scan": "error"}, "fail_on": "error"})");
  auto strict = run_cmd("cd " + shell_quote((dir.path / "sub").string()) + " && " + bin + " --config " +
                        shell_quote((dir.path / "strict.json").string()) + " " + shell_quote(fixture("s2_cuda")) + " 2>&1");
  EXPECT_EQ(strict.exit_code, 1) << strict.output;
  auto missing = run_cmd(bin + " --config " + shell_quote((dir.path / "none.json").string()) + " " + shell_quote(fixture("s2_cuda")) + " 2>&1");
  EXPECT_EQ(missing.exit_code, 2) << missing.output;
}

// "seed2.py:13abc" was taken as a file named so, and never matched: a mistyped line is an error now.
// A file name holding a colon that is not followed by a digit stays a file name.
TEST(ReportConfig, SuppressionWithAMistypedLineIsAnError) {
  TempDir dir;
  write_file(dir.path / "c.json", R"({"suppress": [{"rule": "*", "location": "seed2.py:13abc", "reason": "r"}]})");
  DiagSink d;
  EXPECT_FALSE(load_config((dir.path / "c.json").string(), d).ok);
  ASSERT_EQ(d.size(), 1u);
  EXPECT_NE(d.sorted()[0].message.find("'seed2.py:13abc' has no line number"), std::string::npos) << d.sorted()[0].message;
  write_file(dir.path / "ok.json", R"({"suppress": [{"rule": "*", "location": "gen:model.py:7", "reason": "r"}]})");
  DiagSink d2;
  Config c = load_config((dir.path / "ok.json").string(), d2);
  ASSERT_TRUE(c.ok);
  EXPECT_EQ(c.suppressions[0].file, "gen:model.py");
  EXPECT_EQ(c.suppressions[0].line, 7);
}

// pyproject.toml's [tool.inductor-lint] table is a config, read as the JSON file is (its keys
// TOML-spelled), found upward when no .inductor-lint.json is beside it; a pyproject.toml without
// the table is not ours and the search goes on, as ruff treats [tool.ruff].
TEST(ReportConfig, PyprojectToolTableIsAConfig) {
  TempDir dir;
  fs::create_directories(dir.path / "proj" / "sub");
  write_file(dir.path / "proj" / "pyproject.toml", R"([project]
name = "train"

[tool.inductor-lint]
fail_on = "error"

[tool.inductor-lint.rules]
reduced-precision-scan = "error"
stale-scalar = "off"

[[tool.inductor-lint.suppress]]
rule = "*"
location = "vendor/thirdparty.py"
reason = "not our code"

[[tool.inductor-lint.suppress]]
rule = "reduced-precision-scan"
location = "model/seed2.py:13"
reason = "bf16 scan accepted"
)");
  std::string found = find_config_upward((dir.path / "proj" / "sub").string());
  EXPECT_EQ(found, (dir.path / "proj" / "pyproject.toml").string());
  DiagSink d;
  Config c = load_config(found, d);
  ASSERT_TRUE(c.ok) << (d.sorted().empty() ? "" : d.sorted()[0].message);
  EXPECT_EQ(c.fail_on, "error");
  ASSERT_EQ(c.rules.size(), 2u);
  ASSERT_EQ(c.suppressions.size(), 2u);
  EXPECT_EQ(c.suppressions[1].file, "model/seed2.py");
  EXPECT_EQ(c.suppressions[1].line, 13);
  EXPECT_EQ(c.suppressions[1].defined_at.line, 19);  // the line of its `reason`

  // A pyproject.toml without the table is passed over; the JSON file wins in one folder.
  write_file(dir.path / "proj" / "sub" / "pyproject.toml", "[project]\nname = \"x\"\n");
  EXPECT_EQ(find_config_upward((dir.path / "proj" / "sub").string()), (dir.path / "proj" / "pyproject.toml").string());
  write_file(dir.path / "proj" / ".inductor-lint.json", "{}");
  EXPECT_EQ(find_config_upward((dir.path / "proj").string()), (dir.path / "proj" / ".inductor-lint.json").string());

  // Errors name the file and line: broken TOML, and a value the JSON file would refuse too.
  DiagSink bad;
  Config broken = parse_config("p/pyproject.toml", "[tool.inductor-lint]\nfail_on = \n", bad);
  EXPECT_FALSE(broken.ok);
  ASSERT_FALSE(bad.sorted().empty());
  EXPECT_EQ(bad.sorted()[0].loc.line, 2);
  DiagSink wrong;
  Config typo = parse_config("p/pyproject.toml", "[tool.inductor-lint.rules]\nstale-scalr = \"off\"\n", wrong);
  EXPECT_FALSE(typo.ok);
  ASSERT_FALSE(wrong.sorted().empty());
  EXPECT_EQ(wrong.sorted()[0].loc.line, 2);
  EXPECT_NE(wrong.sorted()[0].message.find("stale-scalar"), std::string::npos) << wrong.sorted()[0].message;
}

TEST(ReportConfig, InlineSuppressionCommentsParse) {
  auto s = parse_inline_suppression("    y = x.cumsum(-1)  # inductor-lint: ignore[reduced-precision-scan] bf16 is fine here");
  ASSERT_TRUE(s);
  EXPECT_EQ(s->rules, std::vector<std::string>{"reduced-precision-scan"});
  EXPECT_EQ(s->reason, "bf16 is fine here");
  s = parse_inline_suppression("z = f(x)  # noqa: E501  #inductor-lint : ignore[ a ,b ]: reason");
  ASSERT_TRUE(s);
  EXPECT_EQ(s->rules, (std::vector<std::string>{"a", "b"}));
  EXPECT_EQ(s->reason, "reason");
  s = parse_inline_suppression("z = f(x)  # inductor-lint: ignore[*]");
  ASSERT_TRUE(s);
  EXPECT_EQ(s->reason, "");
  // No blanket form, no empty list, no other word, and a missing bracket is no suppression.
  for (const char* none : {"z = f(x)  # inductor-lint: ignore", "z  # inductor-lint: ignore[]",
                           "z  # inductor-lint: disable[a]", "z  # inductor-lint: ignore[a", "z = 'inductor-lint: ignore[a]'"})
    EXPECT_FALSE(parse_inline_suppression(none)) << none;
}

// A finding whose user line carries `# inductor-lint: ignore[<its rule>]` is suppressed, with the
// comment's reason, in source. The line is s2_pair_a_t213's real finding's; its text is the FX
// graph's copy of it (the file is outside the roots given), with the comment added in the model,
// as a program captured with the comment on that line would have it.
TEST(ReportConfig, InlineSuppressionOnTheUsersLine) {
  auto a = analyze_paths({fixture("s2_pair_a_t213")});
  ASSERT_EQ(a->findings.size(), 1u);
  const SourceLoc user = a->findings[0].related.at(0).loc;
  TempDir elsewhere;
  auto suppressed_with = [&](const std::string& comment) {
    for (auto& c : a->program.compiles)
      for (auto& n : c.fx.nodes)
        if (n.user_loc() && n.user_loc()->line == user.line && n.user_loc()->file == user.file)
          n.set_user({n.user_loc(), IString(n.user_code().str().substr(0, n.user_code().str().find("  #")) + comment),
                      n.user_function()});
    std::vector<Finding> findings = a->findings;
    UserSourceLines lines(a->program, {elsewhere.path.string()});
    GeneratedFiles generated(a->ingest);
    auto out = apply_inline_suppressions(findings, lines, generated);
    EXPECT_EQ(out.size() + findings.size(), a->findings.size());
    return out;
  };
  auto hit = suppressed_with("  # inductor-lint: ignore[reduced-precision-scan] accepted: bf16 scan of 15 elements");
  ASSERT_EQ(hit.size(), 1u);
  EXPECT_TRUE(hit[0].in_source);
  EXPECT_EQ(hit[0].reason, "accepted: bf16 scan of 15 elements");
  EXPECT_EQ(hit[0].suppressed_by, user);
  EXPECT_TRUE(suppressed_with("  # inductor-lint: ignore[stale-scalar] another rule").empty());
  EXPECT_TRUE(suppressed_with("").empty());
  ASSERT_EQ(suppressed_with("  # inductor-lint: ignore[*]").size(), 1u);
}

// An id no rule has suppresses nothing and says so, with the nearest id, once per line: a typo must
// not leave the user thinking the finding was accepted.
TEST(ReportConfig, InlineSuppressionOfAnUnknownRuleIsAWarning) {
  auto a = analyze_paths({fixture("s2_pair_a_t213")});
  ASSERT_EQ(a->findings.size(), 1u);
  const SourceLoc user = a->findings[0].related.at(0).loc;
  for (auto& c : a->program.compiles)
    for (auto& n : c.fx.nodes)
      if (n.user_loc() && n.user_loc()->line == user.line && n.user_loc()->file == user.file)
        n.set_user({n.user_loc(), IString(n.user_code().str() + "  # inductor-lint: ignore[reduced-precision-scna, stale-scalar] typo"),
                    n.user_function()});
  std::vector<Finding> findings = a->findings;
  findings.push_back(a->findings[0]);  // a second finding on the same line: still one warning
  TempDir elsewhere;
  UserSourceLines lines(a->program, {elsewhere.path.string()});
  GeneratedFiles generated(a->ingest);
  DiagSink diags;
  EXPECT_TRUE(apply_inline_suppressions(findings, lines, generated, &diags).empty());
  EXPECT_EQ(findings.size(), 2u);
  auto all = diags.sorted();
  ASSERT_EQ(all.size(), 1u);
  EXPECT_EQ(all[0].code, "inline-suppression-unknown-rule");
  EXPECT_EQ(all[0].level, DiagLevel::Warning);
  EXPECT_EQ(all[0].loc.line, user.line);
  EXPECT_NE(all[0].message.find("did you mean 'reduced-precision-scan'"), std::string::npos) << all[0].message;
}

// A frame-level finding (scalar-recompile) stands on the user's line itself: its own location is
// one of the lines a comment may suppress it on. s1_cpu's finding, moved to a copy of its user file
// (the original path is not on this machine) whose line carries the comment; read from the file.
TEST(ReportConfig, InlineSuppressionOnAFrameFindingsOwnLine) {
  auto a = analyze_paths({fixture("s1_cpu")});
  const Finding* frame = nullptr;
  for (const auto& f : a->findings)
    if (f.rule == "scalar-recompile") frame = &f;
  ASSERT_TRUE(frame);
  ASSERT_GT(frame->location.line, 0);
  TempDir dir;
  fs::path copy = dir.path / fs::path(frame->location.file.str()).filename();
  std::string text;
  for (int i = 1; i < frame->location.line; ++i) text += "\n";
  write_file(copy, text + "step = step_t.item()  # inductor-lint: ignore[scalar-recompile] one recompile per step is fine\n");
  Finding moved = *frame;
  moved.location.file = IString(copy.string());
  GeneratedFiles generated(a->ingest);
  UserSourceLines lines(a->program, {dir.path.string()});
  std::vector<Finding> findings{moved};
  auto out = apply_inline_suppressions(findings, lines, generated);
  ASSERT_EQ(out.size(), 1u);
  EXPECT_EQ(out[0].reason, "one recompile per step is fine");
  EXPECT_EQ(out[0].suppressed_by.file, copy.string());
  // A file of the same name elsewhere, whose FX copy of the line is all the analysis has, does not.
  Finding elsewhere = *frame;
  elsewhere.location.file = IString((dir.path / "other" / fs::path(frame->location.file.str()).filename()).string());
  std::vector<Finding> none{elsewhere};
  EXPECT_TRUE(apply_inline_suppressions(none, lines, generated).empty());
}
