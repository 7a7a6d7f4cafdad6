// `inductor-lint run -- COMMAND`: the environment the program gets, the folder it fills, its
// standard error copied to the terminal and to torch_logs.txt, the exit codes, and the usage errors.
// A shell stands in for Python here (the live suite runs real torch programs under `run`):
// what is checked is what the CLI hands the program and does with what it leaves.
#include <gtest/gtest.h>

#include <algorithm>
#include <chrono>
#include <filesystem>
#include <iterator>

#include "report_test_util.h"

using namespace ilint_test;

namespace {

// `inductor-lint run --run-dir DIR -- sh -c SCRIPT`, stderr and stdout merged.
CmdResult run_shell(const std::filesystem::path& dir, const std::string& script, const std::string& env = "") {
  return run_cmd(env + " " + shell_quote(ILINT_BINARY) + " run --no-color --run-dir " + shell_quote(dir.string()) +
                 " -- sh -c " + shell_quote(script) + " 2>&1");
}

}  // namespace

TEST(RunCommand, GivesTheProgramTheDebugSwitchesAndKeepsItsStandardError) {
  TempDir t;
  auto dir = t.path / "run";
  auto r = run_shell(dir,
                     "echo \"debug=$TORCH_COMPILE_DEBUG dir=$TORCH_COMPILE_DEBUG_DIR trace=$TORCH_TRACE "
                     "logs=$TORCH_LOGS cache=$TORCHINDUCTOR_CACHE_DIR\" >&2; mkdir -p \"$TORCHINDUCTOR_CACHE_DIR/x\"",
                     "TORCH_LOGS=+dynamo,guards");
  const std::string expected = "debug=1 dir=" + dir.string() + " trace=" + (dir / "trace").string() +
                               " logs=+dynamo,guards,graph_breaks,recompiles,dynamic cache=" +
                               (dir / ".inductor_cache").string();
  // On the terminal and in the folder's torch_logs.txt, which the analysis reads as Dynamo's logs.
  EXPECT_NE(r.output.find(expected), std::string::npos) << r.output;
  EXPECT_EQ(read_file(dir / "torch_logs.txt"), expected + "\n");
  // The fresh Inductor cache is removed after the run.
  EXPECT_FALSE(std::filesystem::exists(dir / ".inductor_cache"));
  // A program that compiled nothing leaves nothing to analyze: exit 2, said so.
  EXPECT_EQ(r.exit_code, 2) << r.output;
  EXPECT_NE(r.output.find("the program exited with status 0; analyzing " + dir.string()), std::string::npos) << r.output;
  EXPECT_NE(r.output.find("nothing could be read"), std::string::npos) << r.output;
}

// torch's debug records of the log kinds `run` adds go to torch_logs.txt only, with their
// continuation lines (indented, or a guard tree's `|`); the program's own lines, even right after a
// record, torch's warnings, a distributed run's `[rankN]:` records and a traceback reach the
// terminal. With TORCH_LOGS set by the user (they asked for the records), everything does.
TEST(RunCommand, TorchDebugRecordsGoToTheLogFileOnly) {
  const std::string lines[] = {
      "hello from the program",
      "V1207 06:48:14.856000 31580 torch/_dynamo/guards.py:4483] [0/0] [__guards] GUARDS:",
      "| +- TENSOR_MATCH: check_tensor(L['x'])",
      "my own log line, right after a record",
      "W1207 06:48:15.000000 31580 torch/_dynamo/convert_frame.py:1016] [0/8] torch._dynamo hit recompile_limit",
      "[rank0]:I1207 06:48:15.100000 31580 torch/fx/experimental/symbolic_shapes.py:3769] [0/0] create_symbol s0 = 5",
      "    for the symbol's source",
      "Traceback (most recent call last):",
      "ValueError: boom",
  };
  const int hidden[] = {1, 2, 5, 6};
  std::string script;
  for (const auto& l : lines) script += "echo " + shell_quote(l) + " >&2; ";
  TempDir t;
  auto r = run_shell(t.path / "run", script);
  std::string all;
  for (const auto& l : lines) all += l + "\n";
  EXPECT_EQ(read_file(t.path / "run" / "torch_logs.txt"), all);
  for (int i = 0; i < static_cast<int>(std::size(lines)); ++i) {
    bool hide = std::find(std::begin(hidden), std::end(hidden), i) != std::end(hidden);
    EXPECT_EQ(r.output.find(lines[i]) == std::string::npos, hide) << lines[i] << "\n" << r.output;
  }
  EXPECT_NE(r.output.find("(4 lines of torch's logs are in torch_logs.txt only)"), std::string::npos) << r.output;

  auto asked = run_shell(t.path / "asked", script, "TORCH_LOGS=guards");
  for (const auto& l : lines) EXPECT_NE(asked.output.find(l + "\n"), std::string::npos) << l;
}

// A progress bar redraws its line with carriage returns: each redraw reaches the terminal as it comes.
TEST(RunCommand, CarriageReturnsEndALine) {
  TempDir t;
  auto r = run_shell(t.path / "run", "printf '10%%\\r20%%\\r' >&2; sleep 0; printf 'done\\n' >&2");
  EXPECT_NE(r.output.find("10%\r20%\rdone\n"), std::string::npos) << r.output;
}

// A program that exits while something it started still holds its standard error open: the run
// goes on at once, not when that process ends.
TEST(RunCommand, DoesNotWaitForWhatTheProgramLeftRunning) {
  TempDir t;
  auto start = std::chrono::steady_clock::now();
  auto r = run_shell(t.path / "run", "sleep 30 >/dev/null & echo started >&2; exit 0");
  auto seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  EXPECT_LT(seconds, 20.0) << r.output;
  EXPECT_NE(r.output.find("started"), std::string::npos) << r.output;
  EXPECT_NE(r.output.find("the program exited with status 0"), std::string::npos) << r.output;
}

TEST(RunCommand, AUserInductorCacheIsKept) {
  TempDir t;
  auto cache = t.path / "mycache";
  auto r = run_shell(t.path / "run", "echo \"cache=$TORCHINDUCTOR_CACHE_DIR\" >&2",
                     "TORCHINDUCTOR_CACHE_DIR=" + shell_quote(cache.string()));
  EXPECT_NE(r.output.find("cache=" + cache.string() + "\n"), std::string::npos) << r.output;
}

TEST(RunCommand, AProgramsFailureFailsTheRun) {
  TempDir t;
  auto r = run_shell(t.path / "run", "exit 3");
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.output.find("the program failed (exit status 3)"), std::string::npos) << r.output;
  r = run_shell(t.path / "killed", "kill -TERM $$");
  EXPECT_NE(r.output.find("exited with status 143"), std::string::npos) << r.output;
}

TEST(RunCommand, RefusesAFolderInUseAndAProgramItCannotStart) {
  TempDir t;
  std::filesystem::create_directories(t.path / "used");
  write_file(t.path / "used" / "torch_logs.txt", "an earlier run\n");
  auto r = run_shell(t.path / "used", "true");
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.output.find("exists and is not an empty folder"), std::string::npos) << r.output;
  EXPECT_EQ(read_file(t.path / "used" / "torch_logs.txt"), "an earlier run\n");
  r = run_cmd(shell_quote(ILINT_BINARY) + " run --run-dir " + shell_quote((t.path / "x").string()) +
              " -- no-such-program-anywhere 2>&1");
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.output.find("cannot run no-such-program-anywhere"), std::string::npos) << r.output;
}

TEST(RunCommand, UsageErrors) {
  const std::pair<const char*, const char*> cases[] = {
      {"run", "no program given"},
      {"run --format json python3 x.py", "the program goes after `--`"},
      {"run --", "no program given"},
      {"--confirm fixtures", "--confirm belongs to `run`"},
      {"check --run-dir d fixtures", "--run-dir belongs to `run`"},
  };
  for (auto [args, message] : cases) {
    auto r = run_cmd(shell_quote(ILINT_BINARY) + " " + args + " 2>&1");
    EXPECT_EQ(r.exit_code, 2) << args;
    EXPECT_NE(r.output.find(message), std::string::npos) << args << ": " << r.output;
  }
}
